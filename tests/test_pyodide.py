"""The library runs unchanged on Pyodide's Python 3.14 (under Node.js, from the built wheel)."""

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import freecell
from test_oracle import GOLDEN_1_32000

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "web" / "node_modules" / "pyodide"
DIST = ROOT / "dist"
SCRIPT = """
import doctest, hashlib, json, sys
import freecell, freecell._cards, freecell._deal, freecell._game, freecell._replay, freecell._web
import freecell._solve_cli, freecell._solver
from freecell import Game, format_boards, solve

digest = hashlib.sha256()
for board in format_boards(range(1, 32001)):
    digest.update(board.encode())
failed = sum(
    doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed
    for module in (
        freecell, freecell._cards, freecell._deal, freecell._game, freecell._replay, freecell._web,
        freecell._solver, freecell._solve_cli,
    )
)
game = Game.from_deal_number(617)
for token in freecell._replay.move_words(SOLUTION.splitlines()):
    game.push(token)
solved = Game.from_deal_number(1000)
for move in solve(1000).moves:
    solved.push(move)
print(json.dumps({
    "version": list(sys.version_info[:2]),
    "digest": digest.hexdigest(),
    "doctest_failures": failed,
    "won": game.is_won(),
    "solver_won": solved.is_won(),
}))
"""


def run_node(node: str, script: str, *args: Path, stdin: str = "") -> dict[str, Any]:
    """Run one of the tests' Node.js scripts; return the JSON its last line prints."""
    result = subprocess.run(
        [node, ROOT / "tests" / script, *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    value: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return value


@pytest.fixture(scope="module")
def pyodide_result() -> dict[str, Any]:
    """Run the checks once in Pyodide and return what they found."""
    node = shutil.which("node")
    wheels = sorted((ROOT / "build" / "wheel").glob("freecell_deals-*.whl"))
    if node is None or not (RUNTIME / "pyodide.mjs").exists() or len(wheels) != 1:
        pytest.fail("needs Node.js, web/node_modules (npm ci) and the wheel: run python3 build.py")
    solution = (ROOT / "tests" / "data" / "solutions" / "617.txt").read_text()
    script = f"SOLUTION = {solution!r}\n{SCRIPT}"
    return run_node(node, "pyodide_run.mjs", RUNTIME, wheels[0], stdin=script)


class TestOnPyodide:
    def test_runs_on_python_3_14(self, pyodide_result: dict[str, object]) -> None:
        """The runtime is Pyodide's Python 3.14."""
        assert pyodide_result["version"] == [3, 14]

    def test_golden_digest(self, pyodide_result: dict[str, object]) -> None:
        """Deals 1..32000 dealt in Pyodide hash to pysol-cards' digest."""
        assert pyodide_result["digest"] == GOLDEN_1_32000

    def test_doctests(self, pyodide_result: dict[str, object]) -> None:
        """Every docstring example passes in Pyodide."""
        assert pyodide_result["doctest_failures"] == 0

    def test_solution_replays_to_a_win(self, pyodide_result: dict[str, object]) -> None:
        """fc-solve's solution of deal 617 wins through the engine in Pyodide."""
        assert pyodide_result["won"] is True

    def test_solver_wins(self, pyodide_result: dict[str, object]) -> None:
        """Our solver's solution of deal 1000, found in Pyodide, wins there."""
        assert pyodide_result["solver_won"] is True


@pytest.fixture(scope="module")
def snapshot_result() -> dict[str, Any]:
    """Round-trip a memory snapshot through the page's snapshot.js under Node.js, once."""
    node = shutil.which("node")
    if node is None or not (DIST / "manifest.json").exists():
        pytest.fail("needs Node.js and dist/: run python3 build.py")
    return run_node(node, "pyodide_snapshot.mjs", DIST)


class TestSnapshot:
    """What the page's worker does on a repeat visit, with the built site's own files."""

    def test_python_resumes_with_the_dealer(self, snapshot_result: dict[str, Any]) -> None:
        """The resumed runtime deals and plays, and its session is its own."""
        assert snapshot_result["taken"] is True
        assert snapshot_result["version"] == [3, 14]
        assert snapshot_result["first_cascade"] == ["7D", "TD", "TH", "KD", "4C", "4S", "JD"]
        assert snapshot_result["moves"] == ["5a"]  # warm_up left the session's game alone

    def test_site_packages_come_back(self, snapshot_result: dict[str, Any]) -> None:
        """The installed wheel's files are restored with the memory, metadata included."""
        assert snapshot_result["dealer_version"] == freecell.__version__
        assert snapshot_result["dealer_file_exists"] is True
        files = snapshot_result["files"]
        assert any(path.endswith("/freecell/_web.py") for path in files)
        assert any(path.endswith(".dist-info/METADATA") for path in files)

    def test_micropip_is_not_in_the_snapshot(self, snapshot_result: dict[str, Any]) -> None:
        """micropip holds JavaScript objects a snapshot cannot keep, so it is dropped first."""
        assert snapshot_result["micropip_imported"] is False
