"""Microsoft FreeCell deals, by number.

The generator is the Microsoft C runtime's ``rand()``: ``state = 214013 * state + 2531011``,
``rand = (state >> 16) & 0x7fff``, seeded with the deal number. A deck in the order
AC AD AH AS 2C ... KS loses one card per step: the card at ``rand % len`` swaps with the last
card and is dealt, and the dealt cards go round-robin over 8 columns.

FreeCell Pro extended the numbers past 2**31 - 1, and pysol-cards and fc-solve follow it:
for ``2**31 <= n < 2**32`` every random number gets bit ``0x8000`` set; for ``n >= 2**32`` the
generator starts from ``n - 2**32`` and every random number is ``((state >> 16) & 0xffff) + 1``.
Windows FreeCell also hard-codes two deals, ``-1`` and ``-2``, that no seed produces.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice  # noqa: F401 - islice: a doctest
from typing import Final, Literal, TypeVar

from freecell._cards import Card, card_unicode, parse_card
from freecell._errors import VALID_DEALS, CodedError, shorten
from freecell._names import CARD_CODES

_T = TypeVar("_T")

MIN_DEAL: Final = 1
MAX_DEAL: Final = 2**33 - 1
"""The largest deal number: FreeCell Pro's extended range ends at 8,589,934,591."""
SPECIAL_DEALS: Final = (-1, -2)
"""Windows FreeCell's two hard-coded deals."""
CLASSIC_DEALS: Final = range(1, 32001)
"""The 32,000 deals of the first Windows versions."""
MICROSOFT_DEALS: Final = range(1, 1_000_001)
"""The 1,000,000 deals of later Windows versions."""

VALID_DEALS_TEXT: Final = VALID_DEALS.format(min=MIN_DEAL, max=MAX_DEAL)
"""What a deal number is, in words: "a whole number from 1 to 8589934591, or -1 or -2"."""

Format = Literal["fcs", "rows", "json", "unicode"]
FORMATS: Final[tuple[Format, ...]] = ("fcs", "rows", "json", "unicode")

_COLUMNS: Final = 8
_MASK32: Final = 0xFFFFFFFF
_STEPS: Final = 51  # the 52nd pick always takes the one card left
_LANE: Final = 64  # bits per lane when the 51 generator states are packed into one int


class DealNumberError(CodedError):
    """Raised for a deal number, or text, that names no deal.

    ``code`` is ``"deal-number"`` (text that is no deal number; ``params``: ``text``, ``min``,
    ``max``) or ``"deal-missing"`` (a number that names no deal; ``params``: ``number``,
    ``min``, ``max``).
    """


def _fcs_columns(text: str) -> tuple[Card, ...]:
    """Return the cards, in dealing order, of a board given as 8 column lines."""
    columns = [[parse_card(code) for code in line.split()] for line in text.strip().splitlines()]
    return tuple(columns[k % _COLUMNS][k // _COLUMNS] for k in range(52))


_SPECIAL_CARDS: Final = {
    -1: _fcs_columns("""
        AC 3C 5C 7C 9C JC KC
        AD 3D 5D 7D 9D JD KD
        AH 3H 5H 7H 9H JH KH
        AS 3S 5S 7S 9S JS KS
        QC TC 8C 6C 4C 2C
        QD TD 8D 6D 4D 2D
        QH TH 8H 6H 4H 2H
        QS TS 8S 6S 4S 2S
    """),
    -2: _fcs_columns("""
        AS KS QS JS TS 9S 8S
        AH KH QH JH TH 9H 8H
        AD KD QD JD TD 9D 8D
        AC KC QC JC TC 9C 8C
        7S 6S 5S 4S 3S 2S
        7H 6H 5H 4H 3H 2H
        7D 6D 5D 4D 3D 2D
        7C 6C 5C 4C 3C 2C
    """),
}


# --- the generator ---------------------------------------------------------------------------
#
# After k steps the state is A_k * seed + C_k (mod 2**32), so the 51 states a deal needs can be
# computed from the seed directly, and consecutive seeds differ by A_k in every state. Packing the
# 51 states into one big int (64 bits a lane) lets a range of deals advance all of them with one
# addition and extract all 51 random numbers with a few big-int operations.

_A: Final[list[int]] = []
_C: Final[list[int]] = []
_a, _c = 1, 0
for _ in range(_STEPS):
    _a, _c = (_a * 214013) & _MASK32, (_c * 214013 + 2531011) & _MASK32
    _A.append(_a)
    _C.append(_c)
del _a, _c


def _packed(values: Iterable[int]) -> int:
    return sum(v << (_LANE * k) for k, v in enumerate(values))


_PACKED_A: Final = _packed(_A)
_PACKED_MASK32: Final = _packed([_MASK32] * _STEPS)
_unpack_lanes: Final = struct.Struct(f"<{_STEPS}Q").unpack
_LANE_BYTES: Final = _STEPS * _LANE // 8


def _variant(number: int) -> tuple[int, int, int]:
    """Return the seed, the random-number mask and the amount added to it, for a deal number."""
    if number < 2**31:
        return number, 0x7FFF, 0
    if number < 2**32:
        return number, 0x7FFF, 0x8000
    return number - 2**32, 0xFFFF, 1


def _variant_end(number: int) -> int:
    """Return the first number past ``number`` that uses another variant of the generator."""
    return 2**31 if number < 2**31 else 2**32 if number < 2**32 else MAX_DEAL + 1


def _random_numbers(first: int, stop: int) -> Iterator[tuple[int, ...]]:
    """Yield the 51 random numbers of each deal in ``first..stop-1``, all of one variant."""
    seed, mask, add = _variant(first)
    state = _packed([(a * seed + c) & _MASK32 for a, c in zip(_A, _C, strict=True)])
    packed_mask = _packed([mask] * _STEPS)
    packed_add = _packed([add] * _STEPS)
    for _ in range(first, stop):
        lanes = ((state >> 16) & packed_mask) + packed_add
        yield _unpack_lanes(lanes.to_bytes(_LANE_BYTES, "little"))
        state = (state + _PACKED_A) & _PACKED_MASK32


def _make_shuffle() -> Callable[[list[object], tuple[int, ...]], None]:
    """Build the shuffle as straight-line code: a loop costs a third more per deal.

    The function swaps ``deck[r % size]`` with ``deck[size - 1]`` for sizes 52 down to 2, so
    the dealt cards end up in reverse order: ``deck[51]`` is the first dealt card.
    """
    lines = ["def shuffle(d, r):"]
    for step, size in enumerate(range(52, 1, -1)):
        lines.append(f" j = r[{step}] % {size}; d[j], d[{size - 1}] = d[{size - 1}], d[j]")
    namespace: dict[str, Callable[[list[object], tuple[int, ...]], None]] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - the source is built from constants above
    return namespace["shuffle"]


_shuffle: Final = _make_shuffle()


def _shuffled_ranges(numbers: Iterable[int], deck: Sequence[_T]) -> Iterator[tuple[int, list[_T]]]:
    """Yield each number with ``deck`` shuffled for it (dealt cards in reverse order).

    Runs of consecutive numbers share the packed generator; the yielded list is a new copy.
    """
    iterator = iter(numbers)
    pending: int | None = next(iterator, None)
    while pending is not None:
        number = pending
        if number < 0:
            special = [deck[c] for c in reversed(_SPECIAL_CARDS[number])]
            yield number, special
            pending = next(iterator, None)
            continue
        randoms = _random_numbers(number, _variant_end(number))
        for r in randoms:
            cards = list(deck)
            _shuffle(cards, r)  # type: ignore[arg-type]
            yield number, cards
            pending = next(iterator, None)
            if pending != number + 1:
                break
            number = pending


def check_deal_number(number: int) -> int:
    """Return ``number`` if it names a deal, else raise :class:`DealNumberError`.

    >>> check_deal_number(617)
    617
    >>> check_deal_number(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._deal.DealNumberError: no deal 0: a deal number is a whole number from 1 to ...
    """
    if type(number) is not int:
        msg = f"a deal number is an int, not {type(number).__name__}"
        raise TypeError(msg)
    if not (MIN_DEAL <= number <= MAX_DEAL or number in SPECIAL_DEALS):
        raise DealNumberError("deal-missing", number=number, min=MIN_DEAL, max=MAX_DEAL)
    return number


_NUMBER_RE: Final = re.compile(r"#?(-?[0-9]+)")


def parse_deal_number(text: str) -> int:
    """Parse a deal number as a user types it: ``617``, `` 617 `` or ``#617``.

    Raises :class:`DealNumberError`, with a message that says what is valid, for anything else.

    >>> parse_deal_number(" #617 ")
    617
    >>> parse_deal_number("1e3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._deal.DealNumberError: invalid deal number '1e3': enter a whole number from 1 to ...
    """
    match = _NUMBER_RE.fullmatch(text.strip())
    number = int(match.group(1)) if match and len(match.group(1)) <= 20 else None
    if number is None or not (MIN_DEAL <= number <= MAX_DEAL or number in SPECIAL_DEALS):
        raise DealNumberError("deal-number", text=shorten(text), min=MIN_DEAL, max=MAX_DEAL)
    return number


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal: its number and its 52 cards in dealing order.

    >>> d = deal(617)
    >>> [CARD_CODES[c] for c in d.columns[0]]
    ['7D', 'TD', 'TH', 'KD', '4C', '4S', 'JD']
    """

    number: int
    cards: tuple[Card, ...]
    """The cards in the order they are dealt: ``cards[k]`` goes to column ``k % 8``."""

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """The 8 columns, left to right, each from its first dealt card (the top of the pile)."""
        return tuple(self.cards[c::_COLUMNS] for c in range(_COLUMNS))

    @property
    def rows(self) -> tuple[tuple[Card, ...], ...]:
        """The 7 rows in dealing order: six of 8 cards, then one of 4."""
        return tuple(self.cards[k : k + _COLUMNS] for k in range(0, 52, _COLUMNS))

    def __repr__(self) -> str:
        return f"freecell.deal({self.number})"

    def __str__(self) -> str:
        return format_deal(self)


_INT_DECK: Final = tuple(range(52))


@dataclass(frozen=True, slots=True)
class _SpecialsThenRange:
    """The deals of a range from -2 or -1: the hard-coded ones, then ``numbers`` (lazy, sized).

    >>> deals = _SpecialsThenRange((-2, -1), range(1, 1001))
    >>> len(deals), list(islice(deals, 3))
    (1002, [-2, -1, 1])

    As for a ``range``, ``len()`` holds up to ``sys.maxsize``: the whole range of deals on a
    64-bit Python, not on Pyodide's 32-bit one (which runs no command line).
    """

    specials: tuple[int, ...]
    numbers: range

    def __iter__(self) -> Iterator[int]:
        return chain(self.specials, self.numbers)

    def __len__(self) -> int:
        return len(self.specials) + len(self.numbers)


def parse_deal_spec(text: str) -> Iterable[int]:
    """Parse one argument: a deal number or an inclusive range ``FIRST..LAST``.

    A range holds every deal number from FIRST to LAST, skipping the numbers that name no deal;
    it is not built in memory, and ``len()`` counts it. Raises :class:`~freecell.DealNumberError`.

    >>> list(parse_deal_spec("-2..2"))
    [-2, -1, 1, 2]
    >>> parse_deal_spec("617")
    (617,)
    >>> parse_deal_spec("1..")
    Traceback (most recent call last):
    ...
    freecell._deal.DealNumberError: invalid range '1..': write FIRST..LAST, each a whole number from 1 to 8589934591, or -1 or -2
    """  # noqa: E501 - a doctest's output is one line
    first_text, dots, last_text = text.partition("..")
    if not dots:
        return (parse_deal_number(text),)
    try:
        first, last = parse_deal_number(first_text), parse_deal_number(last_text)
    except DealNumberError:
        params = {"text": shorten(text), "min": MIN_DEAL, "max": MAX_DEAL}
        raise DealNumberError("deal-range-syntax", **params) from None
    if first > last:
        raise DealNumberError("deal-range", text=shorten(text))
    if first > 0:
        return range(first, last + 1)
    specials = tuple(n for n in SPECIAL_DEALS[::-1] if first <= n <= last)
    return _SpecialsThenRange(specials, range(1, last + 1))


def deal(number: int) -> Deal:
    """Deal a game by its number.

    Raises :class:`DealNumberError` if ``number`` names no deal (see :data:`VALID_DEALS_TEXT`).

    >>> print(deal(1), end="")
    JD KD 2S 4C 3S 6D 6S
    2D KC KS 5C TD 8S 9C
    9H 9S 9D TS 4S 8D 2H
    JC 5S QD QH TH QS 6H
    5D AD JS 4H 8H 6C
    7H QC AS AC 2C 3D
    7C KH AH 4D JH 8C
    5H 3H 3C 7S 7D TC
    """
    return next(deals([check_deal_number(number)]))


def deals(numbers: Iterable[int]) -> Iterator[Deal]:
    """Deal many games; runs of consecutive numbers are dealt several times faster.

    >>> [d.number for d in deals(range(1, 4))]
    [1, 2, 3]
    """
    for number, cards in _shuffled_ranges(map(check_deal_number, numbers), _INT_DECK):
        cards.reverse()
        yield Deal(number, tuple(cards))


def deal_freecell(number: int) -> list[list[str]]:
    """Return a deal as the original task asks: its 7 rows of two-letter codes.

    >>> deal_freecell(617)[-1]
    ['JD', 'KS', 'KC', '4H']
    """
    return [[CARD_CODES[c] for c in row] for row in deal(number).rows]


# --- text formats ------------------------------------------------------------------------------

_UNICODE_CODES: Final = tuple(card_unicode(c) for c in range(52))


def _text(number: int, reversed_cards: list[str], fmt: Format) -> str:
    """Format a board whose cards are in reverse dealing order (``[51]`` was dealt first)."""
    d = reversed_cards
    if fmt in {"fcs", "unicode"}:
        return "".join(" ".join(d[top::-_COLUMNS]) + "\n" for top in range(51, 43, -1))
    d.reverse()
    rows = [d[k : k + _COLUMNS] for k in range(0, 52, _COLUMNS)]
    if fmt == "rows":
        return "".join(" ".join(row) + "\n" for row in rows)
    columns = [d[c::_COLUMNS] for c in range(_COLUMNS)]
    return json.dumps({"number": number, "columns": columns, "rows": rows}) + "\n"


def _check_format(fmt: str) -> list[str]:
    """Return the card texts of a format, or raise ``ValueError`` naming the valid ones."""
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}"
        raise ValueError(msg)
    return list(_UNICODE_CODES if fmt == "unicode" else CARD_CODES)


def format_boards(numbers: Iterable[int], fmt: Format = "fcs") -> Iterator[str]:
    """Yield each deal's board as text in a format of :data:`FORMATS`, each ending in a newline.

    ``fcs`` is fc-solve's board input: 8 lines, one column each, first dealt card first.
    ``rows`` is the original task's 7 rows; ``json`` holds the number, columns and rows;
    ``unicode`` is ``fcs`` with suit symbols. Raises :class:`DealNumberError` when it meets a
    number that names no deal, and ``ValueError`` for an unknown format.

    >>> print(next(format_boards([617], "rows")), end="")
    7D AD 5C 3S 5S 8C 2D AH
    TD 7S QD AC 6D 8H AS KH
    TH QC 3H 9D 6S 8D 3D TC
    KD 5H 9S 3C 8S 7H 4D JS
    4C QS 9C 9H 7C 6H 2C 2S
    4S TS 2H 5D JC 6C JH QH
    JD KS KC 4H
    """
    deck = _check_format(fmt)
    checked = map(check_deal_number, numbers)
    return (_text(n, cards, fmt) for n, cards in _shuffled_ranges(checked, deck))


def format_deal(d: Deal, fmt: Format = "fcs") -> str:
    """Return one deal's board as text (see :func:`format_boards`).

    >>> format_deal(deal(-1)).splitlines()[0]
    'AC 3C 5C 7C 9C JC KC'
    """
    texts = _check_format(fmt)
    return _text(d.number, [texts[c] for c in reversed(d.cards)], fmt)
