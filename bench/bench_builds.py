"""Compare the deal changes, cold or repeat visits of several builds side by side, by rounds.

    .venv/bin/python -m bench.bench_builds before=/path/to/old/dist now=dist
    .venv/bin/python -m bench.bench_builds --phone before=/path/to/old/dist now=dist
    .venv/bin/python -m bench.bench_builds --cold [--network fast] before=... now=...
    .venv/bin/python -m bench.bench_builds --repeat [--network fast] before=... now=...
    .venv/bin/python -m bench.bench_builds --at-ready [--after MS] before=... now=...
    .venv/bin/python -m bench.bench_builds --layers [--network fast] [--no-doc] [NAME=DIST...]

With --layers it builds the site with every layer of the start-up (build.py's LAYERS: dist/),
the same less each layer (`build.py --without LAYER`) and the plain site (`build.py --plain`),
then measures their cold and repeat visits side by side (and any builds named, such as an older
one): each layer's worth is its row, the time of the site without it over the full site's. It
writes the tables into docs/performance.md (unless --no-doc).

Each build is served on its own port and opened in its own context (?deal=1, then a rest once
ready); then, round after round, each page clicks Next 25 times with bench_web.py's script: the
time to the new board in the DOM and to the frame that shows it painted. The pages are 1280 x 800
desktops, or with --phone 360 x 740 touch phones (is_mobile, has_touch, 2 device pixels a pixel).
With --cold, each round opens each build once in a new disk profile
(bench_network.py's cold visit, served as a CDN, over a shaped link if --network is named) and
prints the time to the first board and the worker's marks, medians. With --repeat, each round
visits each build twice in a new disk profile, the HTTP cache expired (bench_network.py's repeat
visit), and times the second visit: to the board and to ready. With --at-ready, each round
visits each build twice in a new disk profile and, from the moment the second visit is ready,
clicks Next AT_READY_CHANGES times as a held key (20 ms rests): what a player who starts at
once waits for while the worker warms up after the memory snapshot (or `--after` MS later,
as a player who looks at the board first). A slow or busy machine slows
every build alike, so the ratios hold where absolute figures do not; the builds take turns in
an order reversed every other round, and each ratio comes with a 95 % bootstrap interval
(rounds resampled): one that holds 1.00 is within the noise. To get an older build:
`git worktree add /tmp/old <rev>`, link web/node_modules and .venv into it, and run
`python3 build.py` there.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from bench.bench_network import BOOT_MS, SNAPSHOT_STORED_JS, cold, profiles, repeat, visit
from bench.bench_web import DEAL_CHANGES_SCRIPT, REST_MS, SETTLE_MS, percentile
from bench.performance_doc import write_section
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.page import poll
from devtools.paths import DIST, ROOT
from devtools.site_server import NETWORK_NAMES, NETWORKS, Cdn, Link, serve


def main() -> None:
    """Measure the builds named on the command line and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="*", metavar="NAME=DIST", help="a name and a dist/")
    parser.add_argument("--rounds", type=int, help="rounds (8 of 25 changes; 5 cold visits)")
    parser.add_argument("--phone", action="store_true", help="a 360 x 740 touch phone's pages")
    parser.add_argument("--cold", action="store_true", help="cold visits instead (5 rounds)")
    parser.add_argument("--repeat", action="store_true", help="repeat visits instead (5 rounds)")
    parser.add_argument(
        "--at-ready", action="store_true", help="Next held from a repeat visit's ready (8 rounds)"
    )
    parser.add_argument(
        "--after", type=int, default=0, metavar="MS", help="with --at-ready: wait MS first"
    )
    parser.add_argument("--network", choices=sorted(NETWORKS), help="the visits over this link")
    parser.add_argument(
        "--layers",
        action="store_true",
        help="full, full less each layer, and plain; cold and repeat",
    )
    parser.add_argument("--no-doc", action="store_true", help="with --layers: only print")
    args = parser.parse_args()
    others = dict(item.split("=", 1) for item in args.builds)
    if args.layers:
        layer_visits(others, args.rounds or 5, args.network, write=not args.no_doc)
        return
    if not args.builds:
        parser.error("name the builds (NAME=DIST ...), or --layers")
    builds = others
    for name, folder in builds.items():
        if not (Path(folder) / "index.html").exists():
            sys.exit(f"{name}: {folder} has no index.html; build it first")
    if args.cold or args.repeat:
        print("\n".join(page_visits(builds, args.rounds or 5, args.network, again=args.repeat)))
    elif args.at_ready:
        changes_at_ready(builds, args.rounds or 8, args.after)
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


def layer_builds() -> dict[str, str]:
    """Build the full site, the full site less each layer, and the plain one; name each."""
    manifest = json.loads((DIST / "manifest.json").read_text()) if DIST.is_dir() else {}
    layers: list[str] = manifest.get("layers") or []
    builds = {"full": DIST}
    options: list[tuple[str, list[str]]] = [("full", [])]
    options += [(f"less {layer}", ["--without", layer]) for layer in layers]
    options += [("plain", ["--plain"])]
    for name, option in options:
        done = subprocess.run(
            [sys.executable, "build.py", *option],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            sys.exit(f"build.py {' '.join(option)} failed:\n{done.stdout}{done.stderr}")
        built = re.search(r"built (\S+)/:", done.stdout)
        if built is None:
            sys.exit(f"build.py {' '.join(option)} said where it built nothing:\n{done.stdout}")
        builds[name] = ROOT / built.group(1)
        if not layers and name == "full":  # dist/ was missing: now it names them
            layers = json.loads((DIST / "manifest.json").read_text())["layers"]
            options[1:1] = [(f"less {layer}", ["--without", layer]) for layer in layers]
    return {name: str(folder) for name, folder in builds.items()}


def layer_visits(others: dict[str, str], rounds: int, network: str | None, write: bool) -> None:
    """Measure cold and repeat visits of the full site, less each layer, plain, and `others`."""
    builds = {**layer_builds(), **others}
    link = f"over {network} ({NETWORK_NAMES[network]})" if network else "on loopback"
    load = os.getloadavg()
    text = [
        (
            f"Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC {link}, "
            f"{rounds} visits each (the builds in turn), load average {load[0]:.1f} before; "
            "medians, each ratio with its 95 % interval. `less X` is the full site built with "
            "`build.py --without X`: a ratio above 1.00 is what X saves."
        )
    ]
    visits = [visit_rounds(builds, rounds, network, again) for again in (False, True)]
    text += ["", *layer_table(*visits)]
    text.append(f"\nLoad average {os.getloadavg()[0]:.1f} after.")
    print("\n".join(text))
    if write:
        write_section(f"bench_builds.py {network or 'loopback'}", "\n".join(text), "Layers")


Visits = tuple[
    dict[str, list[float]], dict[str, list[float]], dict[str, list[int]],
    dict[str, dict[str, list[float]]],
]  # fmt: skip
"""A build's visits, one a round: to the board, to ready (ms), bytes, the worker's marks."""


def visit_rounds(builds: dict[str, str], rounds: int, network: str | None, again: bool) -> Visits:
    """Open each build cold (or `again`), round after round; return what each visit took."""
    times: dict[str, list[float]] = {name: [] for name in builds}
    readies: dict[str, list[float]] = {name: [] for name in builds}
    sizes: dict[str, list[int]] = {name: [] for name in builds}
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
                sizes[name].append(load.size)
                for mark in timings["marks"]:
                    at = mark["at"] - timings["origin"]
                    marks[name].setdefault(mark["name"], []).append(at)
    return times, readies, sizes, marks


def rounds_of(visits: list[float]) -> list[list[float]]:
    """Return each visit as a round of its own (a round is one visit of each build)."""
    return [[each] for each in visits]


def layer_table(cold: Visits, again: Visits) -> list[str]:
    """Return one table of the cold and the repeat visits: median and ratio to the first build."""
    first = next(iter(cold[0]))
    lines = [
        (
            f"| build | cold visit: to the board, ratio to {first} | to ready | repeat visit, "
            "HTTP cache expired: to the board | to ready | bytes on the wire, cold / repeat |"
        ),
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in cold[0]:
        cells = []
        for times in (cold[0], cold[1], again[0], again[1]):
            stated = ratio(rounds_of(times[name]), rounds_of(times[first]))
            cells.append(f"{statistics.median(times[name]):,.0f} ms, {stated}")
        sizes = [statistics.median(visits[2][name]) / 1e6 for visits in (cold, again)]
        lines.append(f"| {name} | {' | '.join(cells)} | {sizes[0]:.2f} / {sizes[1]:.2f} MB |")
    return lines


def page_visits(builds: dict[str, str], rounds: int, network: str | None, again: bool) -> list[str]:
    """Open each build cold (or `again`), round after round; return a table (and marks)."""
    times, readies, sizes, marks = visit_rounds(builds, rounds, network, again)
    first = next(iter(builds))
    visit = "repeat visit, HTTP cache expired" if again else "cold visit"
    head = f"| build | {visit}: to the board | ratio to {first} | to ready | ratio to {first} "
    lines = [head + "| bytes on the wire |", "|---|---:|---:|---:|---:|---:|"]

    for name, values in times.items():
        board, ready = statistics.median(values), statistics.median(readies[name])
        boards = ratio(rounds_of(values), rounds_of(times[first]))
        readies_ratio = ratio(rounds_of(readies[name]), rounds_of(readies[first]))
        size = statistics.median(sizes[name]) / 1e6
        lines.append(
            f"| {name} | {board:,.0f} ms | {boards} | {ready:,.0f} ms | {readies_ratio} "
            f"| {size:.2f} MB |"
        )
    for name, found in marks.items():
        medians = sorted((statistics.median(at), mark) for mark, at in found.items())
        lines.append(f"\n{name}, the worker's marks (ms from navigation, medians):")
        lines.append(", ".join(f"{mark} {at:,.0f}" for at, mark in medians))
    return lines


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


AT_READY_CHANGES = 12
"""The deal changes timed from the moment a repeat visit is ready (--at-ready)."""


def changes_at_ready(builds: dict[str, str], rounds: int, after_ms: int) -> None:
    """Hold Next from each build's repeat visit's ready (`after_ms` later); print the times."""
    times: dict[str, list[list[float]]] = {name: [] for name in builds}
    with ExitStack() as stack, sync_playwright() as playwright:
        new_profile = profiles(playwright, chromium_executable())
        sites = {name: stack.enter_context(serve(Path(folder))) for name, folder in builds.items()}
        for round_ in range(rounds):
            for name in in_turn(list(sites), round_):
                url = f"{sites[name]}index.html?deal=617"
                with new_profile() as context:
                    first, _ = visit(context, url, [])
                    poll(first, SNAPSHOT_STORED_JS, timeout_ms=BOOT_MS)
                    first.wait_for_timeout(2000)  # a person's next visit comes later than that
                    first.close()
                    # Not bench_network.visit (as `repeat` is): it polls every 100 ms, and
                    # the changes must start the moment the page is ready.
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_selector("html[data-state=ready]", timeout=BOOT_MS)
                    if after_ms:
                        page.wait_for_timeout(after_ms)
                    measured = page.evaluate(DEAL_CHANGES_SCRIPT, [AT_READY_CHANGES, REST_MS])
                    times[name].append(measured["board"])
    base = next(iter(builds))
    print(
        "| build | change 1 | 2 | 3 | 4 | 5 | 6-12 p50 | all p50 | all p95 | worst "
        f"| all p50 ratio to {base} |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, rows in times.items():
        firsts = [statistics.median(change) for change in zip(*rows, strict=True)][:5]
        later = [value for row in rows for value in row[5:]]
        every = [value for row in rows for value in row]
        figures = [*firsts, percentile(later, 0.5), percentile(every, 0.5)]
        figures += [percentile(every, 0.95), max(every)]
        against = ratio(rows, times[base], lambda values: percentile(values, 0.5))
        cells = " | ".join(f"{value:.1f} ms" for value in figures)
        print(f"| {name} | {cells} | {against} |")


if __name__ == "__main__":
    main()
