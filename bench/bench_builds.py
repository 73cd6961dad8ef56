"""Compare the deal changes, cold or repeat visits of several builds side by side, by rounds.

    .venv/bin/python bench/bench_builds.py before=/path/to/old/dist now=dist
    .venv/bin/python bench/bench_builds.py --phone before=/path/to/old/dist now=dist
    .venv/bin/python bench/bench_builds.py --cold [--network fast] before=... now=...
    .venv/bin/python bench/bench_builds.py --repeat [--network fast] before=... now=...

Each build is served on its own port and opened in its own context (?deal=1, then a rest once
ready); then, round after round, each page clicks Next 25 times with bench_web.py's script: the
time to the new board in the DOM and to the frame that shows it painted. The pages are 1280 x 800
desktops, or with --phone 360 x 740 touch phones (is_mobile, has_touch, 2 device pixels a pixel).
With --cold, each round opens each build once in a new disk profile
(bench_network.py's cold visit, served as a CDN, over a shaped link if --network is named) and
prints the time to the first board and the worker's marks, medians. With --repeat, each round
visits each build twice in a new disk profile, the HTTP cache expired (bench_network.py's repeat
visit), and times the second visit: to the board and to ready. A slow or busy machine slows
every build alike, so the ratios hold where absolute figures do not; the builds take turns in
an order reversed every other round, and each ratio comes with a 95 % bootstrap interval
(rounds resampled): one that holds 1.00 is within the noise. To get an older build:
`git worktree add /tmp/old <rev>`, link web/node_modules and .venv into it, and run
`python3 build.py` there.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from bench.bench_network import cold, profiles, repeat
from bench.bench_web import DEAL_CHANGES_SCRIPT, REST_MS, SETTLE_MS, percentile
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.site_server import NETWORKS, Cdn, Link, serve


def main() -> None:
    """Measure the builds named on the command line and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", metavar="NAME=DIST", help="a name and a dist/")
    parser.add_argument("--rounds", type=int, help="rounds (8 of 25 changes; 5 cold visits)")
    parser.add_argument("--phone", action="store_true", help="a 360 x 740 touch phone's pages")
    parser.add_argument("--cold", action="store_true", help="cold visits instead (5 rounds)")
    parser.add_argument("--repeat", action="store_true", help="repeat visits instead (5 rounds)")
    parser.add_argument("--network", choices=sorted(NETWORKS), help="the visits over this link")
    args = parser.parse_args()
    builds = dict(item.split("=", 1) for item in args.builds)
    for name, folder in builds.items():
        if not (Path(folder) / "index.html").exists():
            sys.exit(f"{name}: {folder} has no index.html; build it first")
    if args.cold or args.repeat:
        page_visits(builds, args.rounds or 5, args.network, again=args.repeat)
    else:
        deal_changes(builds, args.rounds or 8, args.phone)


DRAWS = 2000  # bootstrap resamples of each interval


def in_turn(names: list[str], round_: int) -> list[str]:
    """Return the builds' order in a round: reversed every other round, none always first."""
    return names if round_ % 2 == 0 else names[::-1]


def ratio(
    rounds: Sequence[list[float]],
    baseline: Sequence[list[float]],
    center: Callable[[list[float]], float] = statistics.median,
) -> str:
    """Return the ratio of two builds' medians and its 95 % bootstrap interval (by rounds)."""
    rng = random.Random(0)  # noqa: S311 - no secret: the same figures, the same interval

    def of(chosen: Sequence[list[float]]) -> float:
        return center([value for one in chosen for value in one])

    draws = sorted(
        of(rng.choices(rounds, k=len(rounds))) / of(rng.choices(baseline, k=len(baseline)))
        for _ in range(DRAWS)
    )
    low, high = draws[int(DRAWS * 0.025)], draws[int(DRAWS * 0.975) - 1]
    return f"{of(rounds) / of(baseline):.2f}x ({low:.2f}-{high:.2f})"


def page_visits(builds: dict[str, str], rounds: int, network: str | None, again: bool) -> None:
    """Open each build cold (or `again`), round after round; print medians and worker's marks."""
    times: dict[str, list[float]] = {name: [] for name in builds}
    readies: dict[str, list[float]] = {name: [] for name in builds}
    marks: dict[str, dict[str, list[float]]] = {name: {} for name in builds}
    with ExitStack() as stack, sync_playwright() as playwright:
        new_profile = profiles(playwright, chromium_executable())
        sites = {}
        for name, folder in builds.items():
            cdn = Cdn(link=Link(*NETWORKS[network]) if network else None, log=[])
            if again:
                cdn.max_age = None  # the HTTP cache expired: every use revalidates
            sites[name] = (stack.enter_context(serve(Path(folder), cdn=cdn)), cdn)
        for round_ in range(rounds):
            for name in in_turn(list(sites), round_):
                base, cdn = sites[name]
                assert cdn.log is not None
                url = f"{base}index.html?deal=617"
                if again:
                    load, timings = repeat(new_profile, url, cdn.log, app=True)
                else:
                    load, timings = cold(new_profile, url, cdn.log)
                times[name].append(load.elapsed)
                readies[name].append(load.ready)
                for mark in timings["marks"]:
                    at = mark["at"] - timings["origin"]
                    marks[name].setdefault(mark["name"], []).append(at)
    first = next(iter(builds))
    visit = "repeat" if again else "cold"
    print(
        f"| build | {visit}, to the board ({rounds} visits, median) | ratio to {first} "
        f"| to ready | ratio to {first} |"
    )
    print("|---|---:|---:|---:|---:|")

    def rounds_of(visits: list[float]) -> list[list[float]]:
        return [[each] for each in visits]  # a round is one visit of each build

    for name, values in times.items():
        board, ready = statistics.median(values), statistics.median(readies[name])
        boards = ratio(rounds_of(values), rounds_of(times[first]))
        readies_ratio = ratio(rounds_of(readies[name]), rounds_of(readies[first]))
        print(f"| {name} | {board:,.0f} ms | {boards} | {ready:,.0f} ms | {readies_ratio} |")
    for name, found in marks.items():
        medians = sorted((statistics.median(at), mark) for mark, at in found.items())
        print(f"\n{name}, the worker's marks (ms from navigation, medians):")
        print(", ".join(f"{mark} {at:,.0f}" for at, mark in medians))


def deal_changes(builds: dict[str, str], rounds: int, phone: bool) -> None:
    """Click Next in each build, round after round; print the board and painted times."""
    times: dict[str, dict[str, list[list[float]]]] = {  # a list of times a round
        name: {"board": [], "painted": []} for name in builds
    }
    with ExitStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        pages: dict[str, Page] = {}
        for name, folder in builds.items():
            base = stack.enter_context(serve(Path(folder)))
            device: dict[str, Any] = (
                {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
                 "device_scale_factor": 2}
                if phone
                else {"viewport": {"width": 1280, "height": 800}}
            )  # fmt: skip
            page = browser.new_context(**device).new_page()
            page.goto(f"{base}index.html?deal=1")
            page.wait_for_selector("html[data-state=ready]")
            page.wait_for_timeout(SETTLE_MS)
            page.evaluate(DEAL_CHANGES_SCRIPT, [10, REST_MS])  # the same start for every build
            pages[name] = page
        for round_ in range(rounds):
            for name in in_turn(list(pages), round_):
                page = pages[name]
                page.bring_to_front()
                measured = page.evaluate(DEAL_CHANGES_SCRIPT, [25, REST_MS])
                for kind, values in measured.items():
                    times[name][kind].append(values)
        browser.close()
    first = next(iter(builds))
    print(
        "| build | board p50 | board p95 | painted p50 | painted p95 "
        f"| painted p50 ratio to {first} |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, measured in times.items():
        board = [value for one in measured["board"] for value in one]
        painted = [value for one in measured["painted"] for value in one]
        painted_ratio = ratio(
            measured["painted"], times[first]["painted"], lambda values: percentile(values, 0.5)
        )
        print(
            f"| {name} | {percentile(board, 0.5):.1f} ms | {percentile(board, 0.95):.1f} ms "
            f"| {percentile(painted, 0.5):.1f} ms | {percentile(painted, 0.95):.1f} ms "
            f"| {painted_ratio} |"
        )


if __name__ == "__main__":
    main()
