"""The benches' arithmetic: how bench/bench_builds.py orders builds and states a ratio."""

from bench.bench_builds import in_turn, ratio


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
