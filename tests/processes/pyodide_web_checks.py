"""Every request of the page's API, and its refusals, for test_pyodide.py; prints JSON.

Not a test module of its own: tests/processes/test_pyodide.py runs it in Pyodide with the site's own
compiled standard library (what a visitor's browser has) and in CPython, and compares the two
outputs, so a module the page needs that the site's standard library lacks fails there. It
imports only what the page's worker imports: freecell._web and the standard library.
"""

import json

from freecell import solve
from freecell._web import Session, warm_up
from freecell._web.protocol import REQUESTS, arguments

LATE = ",".join(str(move) for move in solve(1).moves[:50])
"""A game of deal 1 late enough for a short search of a moment (solve)."""

replies = []
session = Session()
calls = [
    ("undo", ()),  # no game yet
    ("new_game", ("not a deal",)),
    ("new_game", ("9" * 50,)),
    ("new_game", ("617", "", 1)),
    ("new_game", ("-2", "", -5, False)),
    ("new_game", ("1", "5a,5b,zz,5c")),
    ("new_game", ("1", "5a,2h")),
    ("new_game", ("1", "36v14")),
    ("new_game", ("1", "1av2")),
    ("new_game", ("1", ",".join(["5a", "a5"] * 3000))),  # more than a link may replay
    ("new_game", ("1", "5a")),
    ("play", ("2", "h")),
    ("play", ("5", "a")),
    ("play", ("a", "1")),
    ("play", ("h", "1")),
    ("play", ("1", "x")),
    ("play", ("1", "1")),
    ("play", ("b", "c")),
    ("play", ("1", "2", "ZZ")),
    ("play", ("1", "2", "AH")),
    ("play", ("1", "a", "JD")),
    ("play", ("1", "h", "JD")),
    ("play_card", ("AH",)),
    ("play_card", ("1X",)),
    ("new_game", ("617",)),
    *[("targets", (place,)) for place in "12345678abcdhz"],
    ("play_card", ("AD",)),
    ("play", ("1", "a", "", "off")),
    ("play", ("5", "b")),
    ("undo", ()),
    ("undo", ()),
    ("redo", ()),
    ("restart", ()),
    ("redo", ()),
    ("seek", (3,)),
    ("seek", (0,)),
    ("seek", (99,)),
    ("new_game", ("22", "82vc")),
    ("new_game", ("1", "5a,5b", 0, True, "not a history")),
    ("new_game", ("1", "5a,5b,5c,5d,5h")),
    ("undo", ()),
    ("new_game", ("1", "5a,5b,5c,5d", 0, True, '{"auto": [false, false, false, false]}')),
    ("auto_moves", ()),
    ("position_text", ()),
    ("play", ("2", "6", "", "safe", True)),
    ("new_game", ("3",)),
    ("play", ("1", "a", "", "all")),
    ("undo", ()),
    ("play_card", ("8C", "safe")),
    ("auto_moves", ("all",)),
    ("auto_moves", ("max",)),
    ("play", ("1", "b", "", "<b>")),
    ("play_move", ("2b", "all")),
    ("play_move", ("zz",)),
    ("play_move", ("2h",)),
    ("play_move", ("4h",)),
    ("new_game", ("617",)),
    ("hint", ()),
    ("think", (60,)),
    ("hint", ()),
    ("check", ()),  # known from the hint's search
    ("grade", ()),
    ("undo_to_winnable", ()),
    ("min_cells", ()),  # asks for the site's table
    ("min_cells", ("",)),  # an empty table is broken
    ("new_game", ("3",)),
    ("par", ()),  # pending: the short search starts
    ("think", (60,)),
    ("par", ()),  # the par found: the same count as CPython's
    ("new_game", ("1", LATE)),
    ("solve", ()),
    ("think", (60,)),  # the short search, to its end
    ("solve", ()),  # the short solution: the same moves as CPython's
    ("undo", ()),
    ("solve", ()),
    ("solve_stop", ()),
    ("think", (0.001,)),
    ("new_game", ("11982",)),
    ("hint", ()),
    ("think", (0.001,)),
    ("new_game", ("1",)),  # a new game ends the search
    ("think", (0.001,)),
    ("daily", ("2026-11-30",)),
    ("think", (60,)),
    ("daily", ("2026-11-30",)),  # the deal found: the same number as CPython's
    ("daily", ("2026-02-30",)),
    ("random_deal", ("3", "seed")),
    ("think", (60,)),
    ("random_deal", ("3", "seed")),
    ("random_deal", ("x" * 50, "seed")),
    ("identify", ("jd 2d 9♥ jc 5d 7h 7c 5h",)),
    ("think", (60,)),
    ("identify", ("JD 2D 9H JC 5D 7H 7C 5H",)),  # found: the same numbers as CPython's
    ("identify", ("JD",)),
    ("think", (60,)),
    ("identify", ("JD",)),  # the first of millions, and "more"
    ("identify", ("7D AD 5C 3S 5S",)),
    ("identify_stop", ()),
    ("think", (0.001,)),
    ("identify", ("JD 2D JD",)),
    ("identify", ("JD 1D",)),
    ("identify", ("Foundations: H-A",)),
]
asked = {name for name, _ in calls} - {"think"}
assert asked == set(REQUESTS), f"requests the checks miss: {set(REQUESTS) - asked}"
for name, args in calls:
    if name == "think":  # how the search stands ("thinking", "done", "idle"), not JSON
        (seconds,) = args
        replies.append([name, args, session.think(float(seconds))])
        continue
    # Each request as the page makes it: by name, its arguments as JSON (positional here).
    names = [argument.name for argument in arguments(getattr(Session, name))]
    reply = session.handle(name, json.dumps(dict(zip(names, args, strict=False))))
    replies.append([name, args, json.loads(reply)])
warm_up(1)
warm_up(617, 60)
print(json.dumps(replies, ensure_ascii=False, sort_keys=True))
