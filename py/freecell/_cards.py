"""Cards as plain ints 0..51 in the deal's own order: AC AD AH AS 2C ... KS."""

from __future__ import annotations

import re
from typing import Final, Literal

from freecell._errors import CodedError, shorten
from freecell._names import CARD_CODES, CARD_NAMES, RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS

Card = int
"""A card: ``4 * (rank - 1) + suit``, so 0 is the Ace of Clubs and 51 the King of Spades."""

Rank = int
"""A rank: 1 (ace) to 13 (king)."""

Suit = int
"""A suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades (the deal's order)."""

Color = Literal["red", "black"]

CARDS: Final = range(52)
RANKS: Final = range(1, 14)
SUITS: Final = range(4)
CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

_CARD_RE: Final = re.compile(r"(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_SUIT_LOOKUP: Final = (
    {c: i for i, c in enumerate(SUIT_CHARS)}
    | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
    | {c: i for i, c in enumerate("♧♢♡♤")}
)


class CardError(CodedError):
    """Raised for text that is not a card (``"card-invalid"``) and ranks or suits out of range."""


def make_card(rank: Rank, suit: Suit) -> Card:
    """Return the card of a rank (1..13) and a suit (0..3).

    >>> card_code(make_card(10, DIAMONDS))
    'TD'
    """
    if rank not in RANKS or suit not in SUITS:
        raise CardError("card-values", rank=rank, suit=suit)
    return 4 * (rank - 1) + suit


def card_rank(card: Card) -> Rank:
    """Return the rank of a card, 1 (ace) to 13 (king).

    >>> card_rank(parse_card("QH"))
    12
    """
    return card // 4 + 1


def card_suit(card: Card) -> Suit:
    """Return the suit of a card: 0 clubs, 1 diamonds, 2 hearts, 3 spades.

    >>> card_suit(parse_card("QH")) == HEARTS
    True
    """
    return card % 4


def next_home(suit: Suit, home: int) -> Card:
    """Return the card a foundation of ``suit`` holding ``home`` cards takes next.

    >>> card_code(next_home(HEARTS, 0)), card_code(next_home(CLUBS, 12))
    ('AH', 'KC')
    """
    return 4 * home + suit


def card_is_red(card: Card) -> bool:
    """Tell whether a card is a diamond or a heart.

    >>> card_is_red(parse_card("5D")), card_is_red(parse_card("5S"))
    (True, False)
    """
    return card_suit(card) in (DIAMONDS, HEARTS)


def card_color(card: Card) -> Color:
    """Return ``"red"`` or ``"black"``.

    >>> card_color(parse_card("AH"))
    'red'
    """
    return "red" if card_is_red(card) else "black"


def card_code(card: Card) -> str:
    """Return the two-letter code of a card, with ``T`` for ten.

    >>> card_code(0), card_code(51), card_code(make_card(10, DIAMONDS))
    ('AC', 'KS', 'TD')
    """
    return CARD_CODES[card]


def card_unicode(card: Card) -> str:
    """Return the rank as printed on the card and the suit symbol.

    >>> card_unicode(parse_card("TD")), card_unicode(parse_card("AS"))
    ('10♦', 'A♠')
    """
    rank = card_rank(card)
    return ("10" if rank == 10 else RANK_CHARS[rank - 1]) + SUIT_SYMBOLS[card_suit(card)]


def card_name(card: Card) -> str:
    """Return the English name of a card.

    >>> card_name(parse_card("TD"))
    'Ten of Diamonds'
    """
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Parse a card such as ``TD``, ``10D``, ``td``, ``T♦`` or ``10♦``.

    Raises :class:`CardError` for anything else.

    >>> parse_card("TD") == parse_card("10d") == parse_card("T♦") == 37
    True
    >>> parse_card("1D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._cards.CardError: invalid card '1D': write a rank (A 2-9 T or 10 J Q K) then a suit ...
    """
    match = _CARD_RE.fullmatch(text.strip())
    if match is None:
        raise CardError("card-invalid", text=shorten(text))
    rank_text, suit_text = match.groups()
    rank = 10 if rank_text == "10" else RANK_CHARS.index(rank_text.upper()) + 1
    return 4 * (rank - 1) + _SUIT_LOOKUP[suit_text.upper()]
