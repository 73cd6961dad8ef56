"""The web page's API: plain values in, JSON text out, called from the Pyodide worker.

Every function returns a JSON object with ``"ok": true`` and its result, or ``"ok": false``
and an ``"error"`` message for the user; none raises for bad input.
"""

from __future__ import annotations

import json
from typing import Any

from freecell._cards import CARD_CODES, RANK_CHARS, SUIT_SYMBOLS, card_is_red, card_name
from freecell._deal import (
    MAX_DEAL,
    DealNumberError,
    deal,
    format_deal,
    parse_deal_number,
)


def _card(card: int) -> dict[str, Any]:
    rank = card // 4 + 1
    return {
        "code": CARD_CODES[card],
        "name": card_name(card),
        "rank": "10" if rank == 10 else RANK_CHARS[rank - 1],
        "suit": SUIT_SYMBOLS[card % 4],
        "red": card_is_red(card),
    }


_CARDS = tuple(_card(c) for c in range(52))


def _deal_json(number: int) -> str:
    d = deal(number)
    return json.dumps({
        "ok": True,
        "number": number,
        "columns": [[_CARDS[c] for c in column] for column in d.columns],
        "text": format_deal(d),
    })  # fmt: skip


def _parse(text: str) -> int | str:
    """Return the deal number in ``text``, or the message that says what is valid."""
    try:
        return parse_deal_number(str(text))
    except DealNumberError as error:
        return str(error)


def open_deal(text: str) -> str:
    """Deal the game a user typed (``617``, ``#617``, ``-1``) and return it as JSON.

    >>> import json
    >>> reply = json.loads(open_deal("#617"))
    >>> reply["number"], reply["columns"][0][0]["name"]
    (617, 'Seven of Diamonds')
    >>> json.loads(open_deal("0"))["ok"]
    False
    """
    number = _parse(text)
    if isinstance(number, str):
        return json.dumps({"ok": False, "error": number})
    return _deal_json(number)


def step_deal(text: str, step: int) -> str:
    """Deal the game ``step`` places after the one in ``text``, in the order -2, -1, 1, 2, ...

    Stops at either end of that order (-2 and 2**33-1).

    >>> import json
    >>> [json.loads(step_deal(t, s))["number"] for t, s in [("617", 1), ("1", -1), ("-1", 1)]]
    [618, -1, 1]
    >>> json.loads(step_deal("-2", -5))["number"]
    -2
    """
    number = _parse(text)
    if isinstance(number, str):
        return json.dumps({"ok": False, "error": number})
    # Places: -2 -> 0, -1 -> 1, 1 -> 2, ..., MAX_DEAL -> MAX_DEAL + 1.
    place = number + 2 if number < 0 else number + 1
    place = min(max(place + int(step), 0), MAX_DEAL + 1)
    return _deal_json(place - 2 if place < 2 else place - 1)
