"""Compare the deal changes of several builds side by side, in one browser, round by round.

    .venv/bin/python bench/bench_builds.py before=/path/to/old/dist now=dist
    .venv/bin/python bench/bench_builds.py --phone before=/path/to/old/dist now=dist

Each build is served on its own port and opened in its own context (?deal=1, then a rest once
ready); then, round after round, each page clicks Next 25 times with bench_web.py's script: the
time to the new board in the DOM and to the frame that shows it painted. The pages are 1280 x 800
desktops, or with --phone 360 x 740 touch phones (is_mobile, has_touch, 2 device pixels a pixel).
A slow or busy machine slows every build alike, so the ratios hold where absolute figures do
not. To get an older build: `git worktree add /tmp/old <rev>`, link web/node_modules and .venv
into it, and run `python3 build.py` there.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_web import DEAL_CHANGES_SCRIPT, REST_MS, SETTLE_MS, percentile
from playwright.sync_api import Page, sync_playwright

from build import CHROMIUM_ARGS, chromium_executable  # at the root, on the path since bench_web
from site_server import serve


def main() -> None:
    """Measure the builds named on the command line and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", metavar="NAME=DIST", help="a name and a dist/")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of 25 changes (8)")
    parser.add_argument("--phone", action="store_true", help="a 360 x 740 touch phone's pages")
    args = parser.parse_args()
    builds = dict(item.split("=", 1) for item in args.builds)
    for name, folder in builds.items():
        if not (Path(folder) / "index.html").exists():
            sys.exit(f"{name}: {folder} has no index.html; build it first")
    times: dict[str, dict[str, list[float]]] = {
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
                if args.phone
                else {"viewport": {"width": 1280, "height": 800}}
            )  # fmt: skip
            page = browser.new_context(**device).new_page()
            page.goto(f"{base}index.html?deal=1")
            page.wait_for_selector("html[data-state=ready]")
            page.wait_for_timeout(SETTLE_MS)
            page.evaluate(DEAL_CHANGES_SCRIPT, [10, REST_MS])  # the same start for every build
            pages[name] = page
        for _ in range(args.rounds):
            for name, page in pages.items():
                page.bring_to_front()
                measured = page.evaluate(DEAL_CHANGES_SCRIPT, [25, REST_MS])
                for kind, values in measured.items():
                    times[name][kind] += values
        browser.close()
    first = next(iter(builds))
    print("| build | board p50 | board p95 | painted p50 | painted p95 | painted p50 ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, measured in times.items():
        board, painted = measured["board"], measured["painted"]
        ratio = percentile(painted, 0.5) / percentile(times[first]["painted"], 0.5)
        print(
            f"| {name} | {percentile(board, 0.5):.1f} ms | {percentile(board, 0.95):.1f} ms "
            f"| {percentile(painted, 0.5):.1f} ms | {percentile(painted, 0.95):.1f} ms "
            f"| {ratio:.2f}x {first} |"
        )


if __name__ == "__main__":
    main()
