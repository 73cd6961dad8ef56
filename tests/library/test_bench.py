"""The benches: how bench_builds.py orders builds and states a ratio, the tables they write."""

import re

from bench.bench_builds import Visits, in_turn, layer_table, ratio
from bench.bench_network import Visit, side_by_side
from bench.bench_solver import Run, report
from bench.performance_doc import DOC, WATERFALLS
from devtools.paths import ROOT


def test_the_builds_take_turns_first() -> None:
    """Every other round reverses the order: no build always runs first."""
    assert in_turn(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert in_turn(["a", "b", "c"], 1) == ["c", "b", "a"]
    assert in_turn(["a", "b", "c"], 2) == ["a", "b", "c"]


def bounds(stated: str) -> tuple[float, float]:
    """Return the interval of a ratio as ratio() states it: "0.97x (0.91-1.03)"."""
    low, high = stated.split("(")[1].rstrip(")").split("-")
    return float(low), float(high)


def test_the_same_figures_are_even() -> None:
    """A build against itself: 1.00x, and an interval around it."""
    rounds = [[600.0], [650.0], [700.0], [630.0]]
    stated = ratio(rounds, rounds)
    low, high = bounds(stated)
    assert stated.startswith("1.00x")
    assert low < 1.0 < high


def test_an_interval_holds_one_when_the_rounds_overlap() -> None:
    """Two builds whose visits overlap: the interval holds 1.00, within the noise."""
    before = [[value] for value in (620.0, 680.0, 640.0, 700.0, 610.0, 660.0)]
    after = [[value] for value in (600.0, 690.0, 630.0, 650.0, 700.0, 615.0)]
    low, high = bounds(ratio(after, before))
    assert low < 1.0 < high


def test_an_interval_leaves_one_out_when_a_build_is_faster_every_time() -> None:
    """Every visit of one build faster than every visit of the other: the interval is below 1."""
    before = [[value] for value in (700.0, 720.0, 710.0, 730.0, 705.0)]
    after = [[value] for value in (600.0, 610.0, 590.0, 620.0, 605.0)]
    stated = ratio(after, before)
    assert stated.startswith("0.85x")
    assert bounds(stated)[1] < 1.0


def test_rounds_are_resampled_whole() -> None:
    """A round's changes stay together when the deal changes' rounds are resampled.

    A slow round and a fast one: a draw of two whole rounds has the median 31 (both slow), 11
    (both fast) or 21 (one each), so every ratio drawn is one of those over one of those;
    resampling single changes would give others.
    """
    slow, fast = [30.0, 31.0, 32.0], [10.0, 11.0, 12.0]
    medians = (31.0, 21.0, 11.0)
    possible = {round(a / b, 2) for a in medians for b in medians}
    low, high = bounds(ratio([slow, fast], [slow, fast]))
    assert {low, high} <= possible


def builds(full: list[float], other: list[float], size: int) -> Visits:
    """Return two builds' visits as bench_builds.visit_rounds gives them: `full` and `less x`."""
    return (
        {"full": full, "less x": other},
        {"full": [t + 100 for t in full], "less x": [t + 100 for t in other]},
        {"full": [size] * len(full), "less x": [size] * len(other)},
        {},
    )


def test_a_layer_row_holds_both_visits() -> None:
    """The layers' table has one row a build: cold and repeat, each to the board and to ready."""
    cold = builds([1000.0, 1100.0], [2000.0, 2200.0], 4_660_000)
    again = builds([200.0, 220.0], [200.0, 220.0], 0)
    lines = layer_table(cold, again)
    assert len(lines) == 4  # the head, its rule, a row a build
    assert lines[2].startswith("| full | 1,050 ms, 1.00x (")
    assert lines[3].startswith("| less x | 2,100 ms, 2.00x (")
    assert lines[3].count(" ms, ") == 4
    assert lines[3].endswith("| 4.66 / 0.00 MB |")


def network_visits(seconds: float, size: int) -> list[Visit]:
    """Return two visits of `seconds` to the board (and to ready), `size` bytes, no requests."""
    return [Visit(seconds * 1000, size, [], seconds * 1000) for _ in range(2)]


def test_the_networks_stand_side_by_side() -> None:
    """bench_network's two links share one table: a row a measure, the target only for fast."""
    figures = {
        "cold": {"bare": network_visits(6.0, 6_000_000), "app": network_visits(4.0, 4_000_000)},
        "repeat": {"bare": network_visits(1.0, 0), "app": network_visits(0.3, 0)},
    }
    lines = side_by_side({"fast": (figures, 2), "slow": (figures, 1)})
    assert len(lines) == 2 + 6
    assert lines[0].count("|") == 9  # measure, 4 columns for fast, 3 for slow
    assert {line.count("|") for line in lines} == {9}
    assert lines[2].startswith("| cold: navigation to ready (52 cards) | 6.00 s (6.00-6.00) |")
    assert lines[2].endswith(
        "| 0.67x | ≤ 0.65x: **missed** | 6.00 s (6.00-6.00) | 4.00 s (4.00-4.00) | 0.67x |"
    )


def markers(doc: str) -> list[str]:
    """Return the sections a doc holds for the benches: the names of their begin markers."""
    return re.findall(r"^<!-- (.+): begin -->$", doc, re.MULTILINE)


def test_every_bench_finds_its_markers() -> None:
    """Each section a bench writes has its two markers in its doc, so it replaces, not appends."""
    written = {
        name
        for path in (ROOT / "bench").glob("bench_*.py")
        for name in re.findall(r'write_section\(\s*f?"([^"]+)"', path.read_text())
    }
    names = {name.replace("{network or 'loopback'}", network) for name in written
             for network in ("loopback", "fast")}  # fmt: skip
    docs = DOC.read_text() + WATERFALLS.read_text()
    assert names <= set(markers(docs)), names - set(markers(docs))
    for name in names:
        assert docs.count(f"<!-- {name}: end -->") == 1, name
    assert markers(WATERFALLS.read_text()) == ["bench_network.py waterfalls"]


def test_the_performance_page_stays_short() -> None:
    """docs/performance.md holds today's figures and their commands, at most 250 lines."""
    assert len(DOC.read_text().splitlines()) <= 250


def test_the_impossible_deals_share_one_row() -> None:
    """bench_solver's table gives the impossible deals one row, each deal named with its time."""
    run = Run(
        numbers=range(1, 3),
        jobs=2,
        ours=[(1, "solved", 90, 500, 0.01, 0.01), (2, "impossible", 0, 900, 0.02, 0.02)],
        theirs=[(1, True, 110, 0.005), (2, False, 0, 0.004)],
        inside=[0.0002, 0.0003],
        impossible=[(11982, "impossible", 119_602, 5.01, 0.81), (146692, "unknown", 9, 0.5, 0.1)],
        memory=("unknown", 600_000, 80.0),
        pyodide=None,
        load=(0.5, 1.0),
    )
    rows = [line for line in report(run).splitlines() if "impossible deals" in line]
    assert len(rows) == 1
    assert "11982 impossible in 5.01 s (119,602 states); 146692 unknown in 0.50 s" in rows[0]
    assert "11982 0.81 s; 146692 0.10 s (a process each)" in rows[0]
    assert rows[0].endswith("| each ≤ 10 s: **not met** |")  # one of them is not proved
