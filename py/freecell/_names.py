"""The text of cards: rank and suit letters, suit symbols and English names, as tables.

They sit below everything else: :mod:`freecell._cards` reads and writes cards with them, and
:mod:`freecell._errors` names a card in a message with them.

>>> CARD_CODES[37], CARD_NAMES[37]
('TD', 'Ten of Diamonds')
"""

from __future__ import annotations

from typing import Final

RANK_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)  # fmt: skip
SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")

CARD_CODES: Final = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
"""The two-letter code of every card, indexed by card: ``CARD_CODES[0] == "AC"``."""

CARD_NAMES: Final = tuple(f"{r} of {s}" for r in RANK_NAMES for s in SUIT_NAMES)
"""The English name of every card, indexed by card: ``CARD_NAMES[0] == "Ace of Clubs"``."""

NAME_OF_CODE: Final = dict(zip(CARD_CODES, CARD_NAMES, strict=True))
"""The English name of every card by its code: ``NAME_OF_CODE["TD"] == "Ten of Diamonds"``."""
