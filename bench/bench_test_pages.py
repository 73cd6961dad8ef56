"""What a warm page start costs the browser tests, in three kinds of browser context.

Run after `python3 build.py`: `.venv/bin/python -m bench.bench_test_pages` (about two minutes).
Playwright's `browser.new_context()` is off the record: Chromium keeps no code cache for it, so
every page compiles Pyodide's WebAssembly and scripts again. `launch_persistent_context` (a
profile folder, as a player's browser has) keeps what V8 compiled for the next page. The third
is such a profile whose pages of a site share a renderer process, where an anchor page keeps
the module (devtools.anchor): each page gets the code that earlier ones optimised. Each context
first makes a first visit (and its snapshot); then `--pages` (6) pages open in turn in each, at
their own deal, until ready and `--after` (6) seconds more (the guard's, the grade's and par's
searches), then close. For each: the wall seconds to ready and the CPU seconds of every
process under this one meanwhile (Chromium's, Playwright's driver), medians. The warm contexts
of tests/page/conftest.py are the third kind.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.bench_solve_page import children_ticks, cpu_since

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


def main() -> None:
    """Open the pages in turn in the three contexts; print the table."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a browser bench

    from devtools.anchor import PROCESS_PER_SITE, open_anchor, serve_anchor  # noqa: PLC0415
    from devtools.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: PLC0415
    from devtools.page import boot  # noqa: PLC0415
    from devtools.paths import DIST  # noqa: PLC0415
    from devtools.site_server import serve  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=6, help="warm starts in each (default 6)")
    parser.add_argument("--after", type=float, default=6.0, help="seconds after ready (6)")
    args = parser.parse_args()
    executable = chromium_executable()
    load = os.getloadavg()
    with (
        sync_playwright() as playwright,
        serve(DIST) as base,
        tempfile.TemporaryDirectory() as folder,
        serve_anchor(Path(folder)) as anchor,
    ):
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)

        def profile(name: str, *args: str) -> BrowserContext:
            return playwright.chromium.launch_persistent_context(
                Path(folder) / name, executable_path=executable, args=[*CHROMIUM_ARGS, *args]
            )

        anchored = profile("anchored", PROCESS_PER_SITE)
        open_anchor(anchored, anchor)
        contexts = {
            "off the record (browser.new_context)": browser.new_context(),
            "a profile on disk (launch_persistent_context)": profile("profile"),
            "a profile, one process for the site, an anchor": anchored,
        }
        for context in contexts.values():  # the first visit, and its snapshot
            page = context.new_page()
            boot(page, f"{base}?deal=1")
            page.wait_for_timeout(10_000)
            page.close()
        ready: dict[str, list[float]] = {name: [] for name in contexts}
        cpu: dict[str, list[float]] = {name: [] for name in contexts}
        for number in range(2, 2 + args.pages):
            for name, context in contexts.items():
                start, before = time.perf_counter(), children_ticks()
                page = context.new_page()
                boot(page, f"{base}?deal={number}")
                ready[name].append(time.perf_counter() - start)
                page.wait_for_timeout(args.after * 1000)
                cpu[name].append(cpu_since(before))
                page.close()
        for context in contexts.values():
            context.close()
        browser.close()
    load_after = os.getloadavg()
    print(f"load average {load[0]:.1f} before, {load_after[0]:.1f} after")
    print()
    print(f"| a warm page start | to ready, s | CPU to ready + {args.after:g} s | pages |")
    print("|---|---:|---:|---:|")
    for name in contexts:
        median_ready, median_cpu = statistics.median(ready[name]), statistics.median(cpu[name])
        print(f"| {name} | {median_ready:.2f} | {median_cpu:.2f} | {len(ready[name])} |")


if __name__ == "__main__":
    main()
