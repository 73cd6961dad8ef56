"""Every error the library reports about a user's input, as English text and as data.

An error is a code (such as ``"foundation-needs"``) and its params (plain JSON values: card
codes such as ``"9C"``, places in the notation such as ``"5"`` or ``"a"``, numbers, lists of
those). :data:`MESSAGES` holds each code's English template, written once; the message is made
from the params, so a user interface in another language can say the same thing from the same
data. Templates fill ``{name}`` from the params; ``{name!r}`` quotes it; ``{cards:codes}`` joins
a list of cards; ``{card:name}`` names a card in English; ``{n:card}`` counts a noun (``1 card``,
``5 cards``; a list counts its items); and a ``{reason}`` param that is itself
``{"code": ..., "params": ...}`` says that error.

>>> message("foundation-needs", {"move": "2h", "card": "9C", "need": "AC"})
"illegal move '2h': 9C cannot go to the foundations, which need the AC next"
>>> message("run-limit", {"move": "15", "count": 7, "max": 1, "cells": 0, "cascades": 0})
"illegal move '15': cannot move 7 cards: only 1 card can move with 0 free cells and 0 empty ..."
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Final

from freecell._names import NAME_OF_CODE

QUOTE_LIMIT: Final = 40
"""The most characters of a user's text that a message quotes; longer text is cut."""

VALID_DEALS: Final = "a whole number from {min} to {max}, or -1 or -2"
"""What a deal number is, as a template of the smallest and the largest deal."""

_INVALID: Final = "invalid move {move!r}: "
_ILLEGAL: Final = "illegal move {move!r}: "

MESSAGES: Final[Mapping[str, str]] = {
    # a deal number (freecell._deal)
    "deal-number": "invalid deal number {text!r}: enter " + VALID_DEALS,
    "deal-missing": "no deal {number}: a deal number is " + VALID_DEALS,
    "deal-range": "invalid range {text!r}: the first deal must not come after the last",
    "deal-range-syntax": "invalid range {text!r}: write FIRST..LAST, each " + VALID_DEALS,
    # a layout, or its first cards, whose deal is looked for (freecell._identify)
    "layout-empty": (
        "no cards: write a layout's first cards row by row, left to right, e.g. 'JD 2D 9H JC'"
    ),
    "layout-card-twice": "invalid layout: {card} is there twice; a layout holds each card once",
    "layout-too-long": "invalid layout: {count} cards; a layout holds at most 52 cards",
    "layout-too-large": (
        "invalid layout: {count:character}; a layout's text is at most {max:character}"
    ),
    "layout-card": "invalid card {text}: a card is an int from 0 to 51 or a code such as 'TD'",
    "layout-not-start": (
        "not a deal's start: no card in the free cells or foundations, and 8 columns of "
        "7 7 7 7 6 6 6 6 cards (or their first cards, row by row)"
    ),
    "layout-json": "invalid layout in JSON: write one object with the deal's rows or columns",
    "layout-no-deal": (
        "no deal begins with these {count:card}: deals -2, -1 and {min} to {max} were searched"
    ),
    # a daily deal's date and a grade (freecell._search.daily)
    "date-invalid": "invalid date {text!r}: write a date YYYY-MM-DD, such as 2026-11-30",
    "grade-invalid": "invalid grade {text!r}: a grade is a whole number from {min} to {max}",
    # an automatic-move choice (freecell._rules.parse_auto_play)
    "auto-play-invalid": "invalid auto-play {text!r}: choose off, safe or all",
    # text or values that make no card (freecell._cards)
    "card-invalid": (
        "invalid card {text!r}: write a rank (A 2-9 T or 10 J Q K) then a suit "
        "(C D H S or ♣ ♦ ♥ ♠), e.g. 'TD'"
    ),
    "card-values": "no card of rank {rank!r} and suit {suit!r}: ranks are 1..13, suits 0..3",
    # text that is no move (freecell._notation.Move)
    "move-syntax": _INVALID
    + (
        "write a source (cascade 1-8, free cell a-d) then a target (cascade, free cell or h), "
        "e.g. '1a', '36' or '36v3'"
    ),
    "move-places": _INVALID
    + (
        "a move goes from a cascade 1-8 or a free cell a-d to a cascade, a free cell or the "
        "foundations h"
    ),
    "move-same-place": _INVALID + "a move needs two different places",
    "move-cell-to-cell": _INVALID + "no move goes from a free cell to a free cell",
    "move-count": _INVALID + "a move takes 1 to 13 cards",
    "move-count-places": _INVALID + "only a move between cascades can give a card count",
    # a move the rules refuse (freecell._rules.Position)
    "cascade-empty": _ILLEGAL + "cascade {cascade} is empty",
    "freecell-empty": _ILLEGAL + "free cell {cell} is empty",
    "foundation-needs": _ILLEGAL
    + "{card} cannot go to the foundations, which need the {need} next",
    "freecell-full": _ILLEGAL + "free cell {cell} holds {card}",
    "freecell-no-fit": _ILLEGAL
    + ("{card} from free cell {cell} does not fit on {onto} at the bottom of cascade {cascade}"),
    "run-too-short": _ILLEGAL
    + ("cascade {cascade} ends in a run of {cards:card} ({cards:codes}), not {count}"),
    "run-limit": _ILLEGAL
    + (
        "cannot move {count} cards: only {max:card} can move with {cells:free cell} and "
        "{cascades:empty cascade}"
    ),
    "run-limit-empty": _ILLEGAL
    + (
        "cannot move {count} cards to an empty cascade: only {max:card} can move with "
        "{cells:free cell} and {cascades:other empty cascade}"
    ),
    "card-no-fit": _ILLEGAL
    + (
        "{cards[0]} at the bottom of cascade {cascade} does not fit on {onto} at the bottom of "
        "cascade {target}"
    ),
    "run-no-fit": _ILLEGAL
    + (
        "no card of the run {cards:codes} in cascade {cascade} fits on {onto} at the bottom of "
        "cascade {target}"
    ),
    "run-count": _ILLEGAL
    + (
        "the run that fits on {onto} at the bottom of cascade {target} is {cards:card} "
        "({cards:codes}), not {count}"
    ),
    # a card and a place that make no move (freecell._clicks.find_move, why_stuck)
    "from-foundation": "cards leave from a cascade or a free cell, never from the foundations",
    "no-place": _INVALID + "there is no place {place!r}",
    "same-place": "the card is already there",
    "card-not-in-cascade": "{card:name} is not in cascade {cascade}",
    "bottom-card-only-foundations": _ILLEGAL
    + (
        "only the bottom card of cascade {cascade} can go to the foundations, and {card} has "
        "{below} below it"
    ),
    "bottom-card-only-freecell": _ILLEGAL
    + (
        "only the bottom card of cascade {cascade} can go to a free cell, and {card} has "
        "{below} below it"
    ),
    "card-stuck": "{card:name} has nowhere to go.",
    "card-covered": "{card:name} is covered by cards out of sequence with it",
    "card-run-limit": "{card:name} heads a run of {count:card}, and only {max:card} can move now",
    # the history (freecell._history.Game)
    "nothing-to-undo": "nothing to undo: no move has been played",
    "nothing-to-redo": "nothing to redo: no move has been undone since the last move",
    "nothing-to-restart": "nothing to restart: no move has been played",
    # the page's session (freecell._web)
    "no-game": "no game is open: open a deal first",
    "none-winnable": "no position of this game so far is known to be winnable",
    # notices of a link's moves (freecell._web)
    "link-move": "The link's move {index}, {move!r}, was not played: {reason}",
    "link-too-long": "The link holds {count} moves; only the first {max} were played.",
}
"""The English template of every error code; :data:`ERROR_CODES` lists the codes."""

ERROR_CODES: Final = frozenset(MESSAGES)
"""Every code an error or a notice can carry: a user interface's catalogue covers them."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return text to quote in a message: at most ``limit`` characters, then an ellipsis.

    >>> shorten("617"), shorten("9" * 45, 4)
    ('617', '9999…')
    """
    return text if len(text) <= limit else text[:limit] + "…"


class _Formatter(string.Formatter):
    """Fill a template: card lists, counted nouns and nested reasons (see the module)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, Mapping) and "code" in value:
            return message(str(value["code"]), value.get("params", {}))
        if format_spec == "codes":
            return " ".join(value)
        if format_spec == "name":
            return NAME_OF_CODE[value]
        if format_spec and not format_spec[0].isdigit():
            count = len(value) if isinstance(value, list) else int(value)
            return f"{count} {format_spec}" + ("" if count == 1 else "s")
        return super().format_field(value, format_spec)


_FORMATTER: Final = _Formatter()


def message(code: str, params: Mapping[str, Any]) -> str:
    """Return the English message of an error code with its params.

    Raises ``KeyError`` for a code that is not in :data:`MESSAGES`.

    >>> message("freecell-full", {"move": "5a", "cell": "a", "card": "6C"})
    "illegal move '5a': free cell a holds 6C"
    """
    return _FORMATTER.vformat(MESSAGES[code], (), params)


def reason(error: CodedError) -> str:
    """Return an error's message without the move it names first: what is wrong with the move.

    >>> reason(CodedError("freecell-full", move="5a", cell="a", card="6C"))
    'free cell a holds 6C'
    >>> reason(CodedError("nothing-to-undo"))
    'nothing to undo: no move has been played'
    """
    template = MESSAGES[error.code]
    for head in (_INVALID, _ILLEGAL):
        template = template.removeprefix(head)
    return _FORMATTER.vformat(template, (), error.params)


class CodedError(ValueError):
    """A ``ValueError`` whose message comes from its code and params (see :data:`MESSAGES`).

    ``code`` names the reason and ``params`` holds its values as plain JSON values, so that a
    page in another language can say the same thing in its own words; ``str()`` is the English.

    >>> error = CodedError("cascade-empty", move="2a", cascade="2")
    >>> error.code, error.params, str(error)
    ('cascade-empty', {'move': '2a', 'cascade': '2'}, "illegal move '2a': cascade 2 is empty")
    """

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, **params: Any) -> None:
        """Make the error of ``code`` with its ``params``."""
        super().__init__(message(code, params))
        self.code = code
        self.params = params

    def as_data(self) -> dict[str, Any]:
        """Return the error as data: ``{"code": ..., "params": ...}``.

        >>> CodedError("nothing-to-undo").as_data()
        {'code': 'nothing-to-undo', 'params': {}}
        """
        return {"code": self.code, "params": self.params}
