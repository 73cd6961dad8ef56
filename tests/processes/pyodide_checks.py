"""Checks that test_pyodide.py runs inside Pyodide (pyodide_run.mjs beside it); prints JSON.

Not a test module of its own: it runs in Pyodide's Python with the built wheel installed, replays
the fc-solve solutions it finds in /tmp/inputs/ (``617.txt``: deal 617), and prints one line of
JSON.
"""

import doctest
import hashlib
import json
import sys
from pathlib import Path

import freecell
import freecell._cards
import freecell._cli.replay
import freecell._cli.solve
import freecell._clicks
import freecell._deal
import freecell._errors
import freecell._fcs
import freecell._history
import freecell._names
import freecell._notation
import freecell._rules
import freecell._search.scan
import freecell._search.solver
import freecell._web
import freecell._web.pyodide
from freecell import Game, format_boards, solve

MODULES = (
    freecell,
    freecell._cards,
    freecell._clicks,
    freecell._deal,
    freecell._errors,
    freecell._fcs,
    freecell._history,
    freecell._names,
    freecell._notation,
    freecell._web.pyodide,
    freecell._cli.replay,
    freecell._rules,
    freecell._cli.solve,
    freecell._search.scan,
    freecell._search.solver,
    freecell._web,
)

digest = hashlib.sha256()
for board in format_boards(range(1, 32001)):
    digest.update(board.encode())
failed = sum(doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed for module in MODULES)
won = {}
for solution in sorted(Path("/tmp/inputs").glob("*.txt")):  # noqa: S108 - Pyodide's own files
    game = Game.from_deal_number(int(solution.stem))
    for token in freecell._cli.replay.move_words(solution.read_text().splitlines()):
        game.push(token)
    won[solution.stem] = game.is_won()
solved = Game.from_deal_number(1000)
for move in solve(1000).moves:
    solved.push(move)
result = {
    "version": list(sys.version_info[:2]),
    "digest": digest.hexdigest(),
    "doctest_failures": failed,
    "won": won,
    "solver_won": solved.is_won(),
}
print(json.dumps(result))
