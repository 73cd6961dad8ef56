"""The fewest free cells a deal needs: the rule, the table the site ships, and the command.

The shipped table (web/src/data/min-cells.txt) was made by `freecell analyze --cells K` for
each K and `freecell analyze --min-cells` (docs/analyze.md). Its values are checked against two
independent sources: the counts the community published for 1..32000 (69 deals need no free
cell, 6,220 one, 19,092 two, 6,420 three, 198 four; 11982 none is enough: no value of the table
can be more frequent) and fc-solve's complete scan with `--freecells-num` on a sample of deals.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell import FREECELLS, Position, deal
from freecell._min_cells import (
    MIN_CELLS_DEALS,
    MIN_CELLS_FILE,
    MinCells,
    fewest_cells,
    format_min_cells,
    parse_min_cells,
)
from freecell._web import Session
from helpers import (
    KNOWN,
    MIN_CELLS_TABLE,
    fc_solve_finds_no_solution,
    shipped,
)

PUBLISHED = {0: 69, 1: 6220, 2: 19092, 3: 6420, 4: 198, "impossible": 1}
"""How many deals of 1..32000 need each number of free cells, as published (Solitaire
Laboratory's FreeCell FAQ; the same in fc-solve's and Michael Keller's pages)."""
RESULTS = ("solved", "impossible", "unknown")


def run(*argv: str) -> tuple[int, str, str]:
    """Run `freecell analyze` in this process; return its status, stdout and stderr."""
    from freecell._cli.analyze import analyze_main  # noqa: PLC0415 - needs the extra

    out, err = io.StringIO(), io.StringIO()
    status = analyze_main(list(argv), io.StringIO(), out, err)
    return status, out.getvalue(), err.getvalue()


class TestRule:
    """`fewest_cells`: won with K, proved impossible with K - 1; anything else is unknown."""

    @given(st.dictionaries(st.integers(0, len(FREECELLS)), st.sampled_from(RESULTS)))
    def test_the_definition(self, results: dict[int, str]) -> None:
        """The answer is the definition's, for every set of results that agree with each other."""
        won = [cells for cells, result in results.items() if result == "solved"]
        lost = [cells for cells, result in results.items() if result == "impossible"]
        if won and lost and max(lost) >= min(won):
            with pytest.raises(ValueError, match="won with"):
                fewest_cells(results)
            return
        answer = fewest_cells(results)
        if isinstance(answer, int):
            assert results[answer] == "solved"
            assert answer == 0 or results.get(answer - 1) == "impossible"
        elif answer == "impossible":
            assert results[len(FREECELLS)] == "impossible"
        else:
            assert not any(k == 0 or k - 1 in lost for k in won)
            assert results.get(len(FREECELLS)) != "impossible"

    @given(st.lists(st.sampled_from([0, 1, 2, 3, 4, "impossible", "unknown"]), min_size=1))
    def test_the_table_reads_back(self, values: list[MinCells]) -> None:
        """format_min_cells, then parse_min_cells: the same values for the same deals."""
        assert parse_min_cells(format_min_cells(7, values)) == dict(enumerate(values, start=7))

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "starts with '# freecell min-cells FIRST..LAST'"),
            ("# freecell min-cells 1..3\n12\n", "names deals 1..3 but holds 2 values"),
            (
                "# freecell min-cells 1..2\n1 \n",
                "holds ' ': only 0-4, x and ? are values",
            ),
            ("# freecell min-cells 1..2\n15\n", "holds '5'"),
        ],
    )
    def test_a_broken_table_is_refused(self, text: str, message: str) -> None:
        """Anything but a whole table is refused, saying what is wrong."""
        with pytest.raises(ValueError, match=re.escape(message)):
            parse_min_cells(text)


class TestShippedTable:
    def test_it_covers_the_deals_the_page_looks_up(self) -> None:
        """The deals it holds are MIN_CELLS_DEALS, for which the page fetches it."""
        assert list(shipped()) == list(MIN_CELLS_DEALS)

    def test_it_is_small(self) -> None:
        """A few KB on the wire: the site's server compresses text (GitHub Pages does, gzip)."""
        import gzip  # noqa: PLC0415

        assert len(gzip.compress(MIN_CELLS_TABLE.read_bytes(), 9)) < 12_000

    def test_at_least_99_percent_decided(self) -> None:
        """At most 1 % of the deals are unknown (0.82 % today).

        What is left needs budgets beyond 2,000,000 states with 1 or 2 cells (docs/analyze.md).
        """
        values = shipped().values()
        assert sum(value != "unknown" for value in values) >= 0.99 * len(values)

    def test_the_published_deals(self) -> None:
        """1 needs 3 cells, 164 none, 617 all four; 11982 cannot be won."""
        table = shipped()
        assert {number: table[number] for number in KNOWN} == KNOWN

    def test_no_count_beyond_the_published_ones(self) -> None:
        """Each decided value is right, so no value can be more frequent than published."""
        counts = Counter(value for value in shipped().values() if value != "unknown")
        assert set(counts) <= set(PUBLISHED)
        assert all(counts[value] <= PUBLISHED[value] for value in counts), counts

    @pytest.mark.parametrize("number", sorted(random.Random(21).sample(MIN_CELLS_DEALS, 16)))
    def test_fc_solve_agrees(self, number: int) -> None:
        """fc-solve's complete scan wins with that many cells and fails with one fewer."""
        value = shipped()[number]
        position = Position.from_deal(deal(number))
        if value == "unknown":
            pytest.skip(f"deal {number} is not decided")
        if value == "impossible":
            assert fc_solve_finds_no_solution(position, len(FREECELLS))
            return
        assert not fc_solve_finds_no_solution(position, value)
        if value > 0:
            assert fc_solve_finds_no_solution(position, value - 1)


class TestSession:
    """`Session.min_cells`, which the page calls: the table is read once, when first needed."""

    def test_the_table_is_asked_for_once(self) -> None:
        """Only a deal the table holds asks for it; once read, every deal is answered at once."""
        session = Session()
        session.new_game(str(MIN_CELLS_DEALS.stop))
        assert json.loads(session.min_cells())["min_cells"] is None  # no table needed
        session.new_game("617")
        assert json.loads(session.min_cells())["table"] == MIN_CELLS_FILE
        text = MIN_CELLS_TABLE.read_text(encoding="ascii")
        assert json.loads(session.min_cells(text))["min_cells"] == KNOWN[617]
        for number, value in KNOWN.items():
            session.new_game(str(number))
            reply = json.loads(session.min_cells())
            assert (reply["ok"], reply["min_cells"], "table" in reply) == (True, value, False)

    @pytest.mark.parametrize("number", ["-1", "-2", str(MIN_CELLS_DEALS.stop), "8589934591"])
    def test_deals_the_table_does_not_hold(self, number: str) -> None:
        """Deals beyond the table have no value (null), and need no table."""
        session = Session()
        session.new_game(number)
        assert json.loads(session.min_cells())["min_cells"] is None

    def test_a_broken_table_is_an_error_and_asked_for_again(self) -> None:
        """A page that is not the table (a server's error page) is an error, not a value."""
        session = Session()
        session.new_game("1")
        reply = json.loads(session.min_cells("<html>not found</html>"))
        assert reply == {
            "ok": False,
            "error": f"{MIN_CELLS_FILE}: a min-cells table starts with "
            "'# freecell min-cells FIRST..LAST'",
        }
        assert json.loads(session.min_cells())["table"] == MIN_CELLS_FILE

    @pytest.mark.parametrize(
        ("text", "error"),
        [
            ("", "a min-cells table starts with '# freecell min-cells FIRST..LAST'"),
            (
                "# freecell min-cells 1..3\n123\n",
                "the table holds deals 1..3, not the site's 1..32000",
            ),
        ],
    )
    def test_an_empty_table_or_another_s_is_an_error(self, text: str, error: str) -> None:
        """An empty file, or a table of other deals, is an error: no deal gets a value from it."""
        session = Session()
        session.new_game("1")
        assert json.loads(session.min_cells(text)) == {
            "ok": False,
            "error": f"{MIN_CELLS_FILE}: {error}",
        }
        assert json.loads(session.min_cells())["table"] == MIN_CELLS_FILE


class TestCommand:
    """`freecell analyze --min-cells DIR...` over datasets of each number of cells."""

    @pytest.fixture(scope="class")
    @classmethod
    def folders(cls, tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
        """Deals 1..8 analysed with 0 to 4 free cells, as a cluster's workers do it."""
        pytest.importorskip("pyarrow")
        from freecell import __version__  # noqa: PLC0415
        from freecell._cli.analyze import dataset, task  # noqa: PLC0415

        made = {}
        for cells in range(len(FREECELLS) + 1):
            folder = tmp_path_factory.mktemp(f"cells-{cells}")
            _, columns = task.solve_chunk([(1, 8)], 20_000, None, cells)
            stamp = dataset.Stamp(__version__, 20_000, None, 1000, cells)
            dataset.write(folder, (1, 1000), dataset.table(columns), [(1, 8)], stamp)
            made[cells] = folder
        return made

    @pytest.mark.slow
    def test_the_table_of_the_folders(self, folders: dict[int, Path]) -> None:
        """The values of the results; with this budget, deals 1, 5 and 6 are not decided.

        With the default budget 1 needs 3 cells, 5 one and 6 three; in 20,000 states the
        search proves neither 2 cells too few for 1 and 6, nor 0 cells for 5.
        """
        status, out, err = run("--min-cells", *map(str, folders.values()))
        assert (status, err) == (0, "")
        expected: list[MinCells] = ["unknown", 1, 2, 2, "unknown", "unknown", 1, 1]
        assert parse_min_cells(out) == dict(enumerate(expected, start=1))

    def test_folders_that_do_not_fit(self, folders: dict[int, Path], tmp_path: Path) -> None:
        """Two folders of one --cells, a folder of no dataset, other options: status 2."""
        status, out, err = run("--min-cells", str(folders[3]), str(folders[3]))
        assert (status, out) == (2, "")
        assert "two of the folders were analysed with --cells 3" in err
        status, _, err = run("--min-cells", str(tmp_path))
        assert status == 2
        assert "holds no file of freecell analyze" in err
        assert run("--min-cells", str(folders[3]), "--summary", str(folders[3]))[0] == 2
        assert run("--min-cells", str(folders[3]), "--out", str(tmp_path))[0] == 2
        for deals in (["1..3", "5..8"], ["-1..8"]):
            status, _, err = run(*deals, "--min-cells", str(folders[3]))
            assert status == 2
            assert "a table of one range of deals numbered from 1" in err
        status, _, err = run("--min-cells", str(folders[3]), "1..3")
        assert (status, err) == (
            2,
            "freecell analyze: '1..3' is no folder: name the deals before --min-cells\n",
        )

    def test_a_range_of_the_deals(self, folders: dict[int, Path]) -> None:
        """Named deals are the table's, within those the folders hold."""
        status, out, _ = run("7..8", "--min-cells", *map(str, folders.values()))
        assert status == 0
        assert parse_min_cells(out) == {7: 1, 8: 1}
        status, out, err = run("7..8589934591", "--min-cells", *map(str, folders.values()))
        assert (status, out) == (2, "")
        assert (
            err == "freecell analyze: the folders hold no deal past 8: name a range within them\n"
        )

    def test_results_that_contradict_each_other(self, tmp_path: Path) -> None:
        """Won with 2 cells but impossible with 3: a wrong search, named, and no table."""
        from freecell import __version__  # noqa: PLC0415
        from freecell._cli.analyze import dataset  # noqa: PLC0415

        for cells, result in ((2, "solved"), (3, "impossible")):
            columns: dict[str, list[Any]] = {name: [None] for name in dataset.SCHEMA.names}
            columns |= {"deal": [5], "result": [result], "states": [1], "seconds": [0.0]}
            stamp = dataset.Stamp(__version__, 20_000, None, 1000, cells)
            (tmp_path / str(cells)).mkdir()
            dataset.write(tmp_path / str(cells), (1, 1000), dataset.table(columns), [(5, 5)], stamp)
        assert run("--min-cells", str(tmp_path / "2"), str(tmp_path / "3")) == (
            2,
            "",
            "freecell analyze: deal 5: won with 2 free cells but impossible with 3\n",
        )
