"""Deal 1..100,000 as fc-solve boards with freecell and with pysol-cards, side by side.

Run with `python3 build.py bench`. Prints each side's median throughput over several rounds
(the two alternate, so both see the same machine) and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped]
from pysol_cards.deal_game import Game  # type: ignore[import-untyped]
from pysol_cards.random import RandomBase  # type: ignore[import-untyped]

import freecell


def ours(numbers: range) -> int:
    """Format every board with freecell and return the total length (so nothing is skipped)."""
    return sum(map(len, freecell.format_boards(numbers, "fcs")))


def ours_one_by_one(numbers: range) -> int:
    """Deal and format each board on its own, as a caller of `deal()` would."""
    return sum(len(freecell.format_deal(freecell.deal(n))) for n in numbers)


def pysol(numbers: range) -> int:
    """Format every board with pysol-cards (its own range tool does the same calls)."""
    game = Game("freecell", 1, RandomBase.DEALS_MS, 13)
    renderer = CardRenderer(True)
    return sum(len(game.calc_deal_string(n, renderer)) for n in numbers)


def time_once(function: Callable[[range], int], numbers: range) -> float:
    """Return the deals per second of one run."""
    start = time.perf_counter()
    function(numbers)
    return len(numbers) / (time.perf_counter() - start)


def main() -> None:
    """Run the rounds and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100_000, help="deal 1..N (default 100000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side (default 5)")
    args = parser.parse_args()
    numbers = range(1, args.deals + 1)
    sides: dict[str, Callable[[range], int]] = {
        "freecell format_boards (range)": ours,
        "freecell deal + format_deal (one by one)": ours_one_by_one,
        "pysol-cards calc_deal_string": pysol,
    }
    assert ours(range(1, 2001)) == pysol(range(1, 2001))
    rates: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, function in sides.items():
            rates[name].append(time_once(function, numbers))
    baseline = statistics.median(rates["pysol-cards calc_deal_string"])
    print(
        f"Dealing 1..{args.deals:,} in fcs format, {args.rounds} rounds, Python "
        f"{platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print()
    print("| implementation | median deals/s | min | max | vs pysol-cards |")
    print("|---|---:|---:|---:|---:|")
    for name, values in rates.items():
        median = statistics.median(values)
        print(
            f"| {name} | {median:,.0f} | {min(values):,.0f} | {max(values):,.0f} "
            f"| {median / baseline:.1f}x |"
        )


if __name__ == "__main__":
    main()
