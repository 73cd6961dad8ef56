"""Time Solve in the page: from a click on Solve to the first move on the table, in Chromium.

Run after `python3 build.py`: `.venv/bin/python -m bench.bench_solve_page` (a few minutes
with the defaults). Deals are a fixed random sample of `--deals` (10) of 1..1000 (issue 38's
target: Solve starts playing within 5 s at the median). Each deal opens in one running page
(Python in the worker, in slices); once the live guard has said the deal can be won (its own
search done), a click on Solve starts the short search (`Session.solve`), and the clock stops
when the board shows the first move: wall seconds, and the CPU seconds the browser's processes
(every process under this one but this one: Chromium's, Playwright's driver) spent meanwhile,
a figure other work on a shared machine disturbs far less. Beside each, the same search in this
CPython process (`solve(n, short=True)`, CPU seconds, to its end), one after the other. Prints
a Markdown table (median, p90, max) and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from freecell import solve

TARGET_SECONDS = 5.0
"""Issue 38: the median time from Solve to the first move, deals 1..1000."""
SEARCH_MS = 120_000
"""The longest wait for a first move (the page's short search stops at 30 s of its own)."""


def sample(deals: int) -> list[int]:
    """Return the bench's fixed sample of `deals` deals of 1..1000 (bench_par_page's too)."""
    rng = random.Random(20261128)  # noqa: S311 - a fixed sample of deals, no secret
    return rng.sample(range(1, 1001), deals)


def spread(times: list[float]) -> tuple[float, float, float]:
    """Return the median, the 90th percentile (nearest rank) and the maximum."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return statistics.median(ordered), p90, ordered[-1]


def children_ticks() -> dict[tuple[int, int], int]:
    """Return the CPU clock ticks (user and system) so far of every process under this one.

    Keyed by process id and start time, so that a later call tells a process that ended (and
    one that took its id) from one that goes on.
    """
    parents: dict[int, int] = {}
    ticks: dict[tuple[int, int], int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name), int(fields[19])] = int(fields[11]) + int(fields[12])
    mine = {os.getpid()}
    grew = True
    while grew:
        below = {pid for pid, parent in parents.items() if parent in mine} - mine
        grew = bool(below)
        mine |= below
    mine.discard(os.getpid())
    return {key: value for key, value in ticks.items() if key[0] in mine}


def cpu_since(before: dict[tuple[int, int], int]) -> float:
    """Return the CPU seconds that the processes under this one spent since `before`.

    A process that ended meanwhile counts for nothing (its last ticks are lost with it).
    """
    now = children_ticks()
    spent = sum(value - before.get(key, 0) for key, value in now.items())
    return spent / os.sysconf("SC_CLK_TCK")


def page_times(numbers: list[int]) -> tuple[list[float], list[float]]:
    """Return the wall and CPU seconds from Solve to the first move for each deal, in Chromium."""
    from playwright.sync_api import expect, sync_playwright  # noqa: PLC0415 - a browser bench

    from devtools.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: PLC0415
    from devtools.page import OPEN_IN_PLACE_JS, boot  # noqa: PLC0415
    from devtools.paths import DIST  # noqa: PLC0415
    from devtools.site_server import serve  # noqa: PLC0415

    times, cpu = [], []
    with sync_playwright() as playwright, serve(DIST) as base:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        boot(page, f"{base}?deal={numbers[0]}")
        board = page.locator("#board")
        for number in numbers:
            page.evaluate(OPEN_IN_PLACE_JS, f"{base}?deal={number}")
            expect(board).to_have_attribute("data-deal", str(number))
            expect(board).to_have_attribute("data-solvable", "yes", timeout=SEARCH_MS)
            start, before = time.perf_counter(), children_ticks()
            page.locator("[data-action=solve]").click()
            expect(board).not_to_have_attribute("data-moves", "", timeout=SEARCH_MS)
            times.append(time.perf_counter() - start)
            cpu.append(cpu_since(before))
            page.locator("[data-action=solve]").click()  # stop
            expect(page.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
            print(f"deal {number}: {times[-1]:.2f} s, CPU {cpu[-1]:.2f} s", file=sys.stderr)
        browser.close()
    return times, cpu


def cpython_times(numbers: list[int]) -> list[float]:
    """Return the CPU seconds of the short search of each deal in this process."""
    times = []
    for number in numbers:
        start = time.process_time()
        solution = solve(number, short=True)
        times.append(time.process_time() - start)
        assert solution.result == "solved", number
    return times


def main() -> None:
    """Time the sample in the page and in CPython; print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10, help="deals of 1..1000 (default 10)")
    args = parser.parse_args()
    numbers = sample(args.deals)
    load = os.getloadavg()
    page, page_cpu = page_times(numbers)
    cpython = cpython_times(numbers)
    load_after = os.getloadavg()
    print(f"deals {sorted(numbers)}; load average {load[0]:.1f} before, {load_after[0]:.1f} after")
    print()
    print("| short search, deals 1..1000 | median s | p90 s | max s | deals |")
    print("|---|---:|---:|---:|---:|")
    for label, times in (
        ("page: Solve to the first move (Chromium, wall)", page),
        ("page: the same, CPU of the browser's processes", page_cpu),
        ("CPython: solve(n, short=True) (CPU)", cpython),
    ):
        median, p90, most = spread(times)
        print(f"| {label} | {median:.2f} | {p90:.2f} | {most:.2f} | {len(times)} |")
    ratio = statistics.median(p / c for p, c in zip(page_cpu, cpython, strict=True))
    verdict = "met" if statistics.median(page) <= TARGET_SECONDS else "not met"
    print()
    print(f"page's CPU to the first move / CPython's to the end, the deals' median: {ratio:.2f}x")
    print(f"target (page median <= {TARGET_SECONDS:.0f} s): {verdict}")


if __name__ == "__main__":
    main()
