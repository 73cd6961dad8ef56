"""The facts the page needs before Python runs, as the library defines them: its rules' module.

The page's JavaScript needs some of the library's facts at once, before the worker has started
Python: the places of the notation, a move's syntax, the deal numbers, the cards' ranks and
suits, the grades, what a deal's fewest free cells can be, how much of a user's text a message
quotes, the automatic-move choices, the longest text Find reads as a layout, and the shape of a
game's snapshot (:class:`~freecell.Snapshot`, which the page checks a remembered reply against).
:func:`page_facts` gathers them from the library's own constants, and build.py writes them as
web/src/app/page/rules.js (:func:`rules_module`) before it builds a site, so the page has no
copy of its own to keep.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Final

from freecell._cards import card_is_red
from freecell._deal import MAX_DEAL, MICROSOFT_DEALS, MIN_DEAL, SPECIAL_DEALS
from freecell._errors import QUOTE_LIMIT
from freecell._history import Snapshot
from freecell._identify import MAX_LAYOUT_CHARS
from freecell._min_cells import MIN_CELLS_VALUES
from freecell._names import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS
from freecell._notation import CASCADES, FOUNDATION, FREECELLS, MOVE_PATTERN
from freecell._rules import AUTO_PLAY
from freecell._search import DIFFICULTY_GRADES

_JSON_TYPES: Final[dict[object, str]] = {int: "int", str: "str", bool: "bool", type(None): "null"}


def json_type(annotation: object) -> list[Any]:
    """Return a JSON value's type, from its annotation, as data the page checks values with.

    A type is a list of alternatives, each ``"int"``, ``"str"``, ``"bool"``, ``"null"`` or
    ``{"list": type}``.

    >>> json_type(list[str | None])
    [{'list': ['str', 'null']}]
    """
    if typing.get_origin(annotation) in {typing.Union, types.UnionType}:
        return [kind for arg in typing.get_args(annotation) for kind in json_type(arg)]
    if typing.get_origin(annotation) is list:
        return [{"list": json_type(typing.get_args(annotation)[0])}]
    return [_JSON_TYPES[annotation]]


def page_facts() -> dict[str, Any]:
    """Return the facts the page needs, by the names its code reads them by.

    >>> facts = page_facts()
    >>> facts["cascades"], facts["auto_play"], facts["red_suits"]
    ('12345678', ['off', 'safe', 'all'], 'DH')
    >>> facts["snapshot"]["deal"], facts["snapshot"]["cascades"]
    (['int', 'null'], [{'list': [{'list': ['str']}]}])
    """
    assert MICROSOFT_DEALS.start == 1, "the page picks a random deal from 1 to random_deals"
    return {
        "cascades": CASCADES,
        "freecells": FREECELLS,
        "foundation": FOUNDATION,
        "move": MOVE_PATTERN,
        "min_deal": MIN_DEAL,
        "max_deal": MAX_DEAL,
        "special_deals": list(SPECIAL_DEALS),
        "random_deals": len(MICROSOFT_DEALS),
        "ranks": RANK_CHARS,
        "suits": SUIT_CHARS,
        "suit_symbols": SUIT_SYMBOLS,
        "red_suits": "".join(s for i, s in enumerate(SUIT_CHARS) if card_is_red(i)),
        "grades": list(DIFFICULTY_GRADES),
        "min_cells": list(MIN_CELLS_VALUES),
        "quote_limit": QUOTE_LIMIT,
        "auto_play": list(AUTO_PLAY),
        "max_layout_chars": MAX_LAYOUT_CHARS,
        "snapshot": {
            name: json_type(kind) for name, kind in typing.get_type_hints(Snapshot).items()
        },
    }


def rules_module() -> str:
    """Return web/src/app/page/rules.js: :func:`page_facts` as an ES module's default export.

    >>> rules_module().splitlines()[-1]
    '};'
    """
    lines = ",\n".join(
        f"  {json.dumps(name)}: {json.dumps(value, ensure_ascii=False)}"
        for name, value in page_facts().items()
    )
    return (
        "// Written by build.py from freecell._web.facts (python3 build.py writes it again; git\n"
        "// ignores it): the library's facts that the page needs, by the names its code reads.\n"
        "// tests/library/test_rules_js.py checks it is the library's.\n"
        f"export default {{\n{lines}\n}};\n"
    )
