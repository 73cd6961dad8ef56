"""Measure the page in headless Chromium against a bare Pyodide boot, and the dealer, side by side.

Run with `python3 build.py bench` (it builds dist/ first); it prints a table and writes it into
docs/performance.md. Cold loads alternate between the app (`index.html?deal=617`, timed to the
52 cards in the DOM) and a bare page (`bare/index.html`) that only calls `loadPyodide()` with the
stock files of the same Pyodide (timed to its promise settling), each in a fresh browser context,
so neither has a cache. Then repeat visits of the app (a fresh context visited once, its service
worker installed, then visited again), 100 deal changes with the Next button on that repeat
visit (starting a second after it is ready, 20 ms between a change's frame and the next click
as a held key; timed to the new board in the DOM and to the frame that shows it painted), the
bytes each cold load downloads, and the dealer's throughput against pysol-cards
(bench_dealer.py's functions).

The site is served from a private copy of dist/ with the bare page added (`private_site`), so a
rebuild meanwhile changes nothing. bench_network.py measures the same pages over a shaped link.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

from bench.bench_dealer import ours, pysol, time_once
from bench.performance_doc import DOC, write_section
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.page import poll
from devtools.paths import DIST, PYODIDE, ROOT
from devtools.site_server import serve

SETTLE_MS = 1000  # from the page's ready state to the first of the 100 deal changes
REST_MS = 20  # from a change's frame to the next click: a held key's repeat (issue 23)
TARGETS = {
    "cold": 0.60, "repeat": 0.50, "p95": 16.0, "painted": 33.0, "extra_mb": 1.0, "dealer": 8.0,
}  # fmt: skip

BARE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>bare Pyodide boot</title>
<script type="module">
import { loadPyodide } from "./pyodide.mjs";
loadPyodide().then(() => {
  window.__done = performance.now();
});
</script>
"""
BARE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
              "pyodide-lock.json"]  # fmt: skip
"""The stock runtime files a bare `loadPyodide()` downloads, as the npm package has them."""
APP_PATH, BARE_PATH = "index.html?deal=617", "bare/index.html"
# Records when the board first holds 52 cards, on the page's own clock.
FIRST_BOARD_SCRIPT = """
new MutationObserver((_, observer) => {
  if (document.querySelectorAll("#board [data-card]").length === 52) {
    window.__done = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""
DEAL_CHANGES_SCRIPT = """async ([count, rest]) => {
  const board = document.getElementById("board");
  const next = document.querySelector("[data-action=next]");
  const times = { board: [], painted: [] };
  for (let i = 0; i < count; i++) {
    const before = board.dataset.deal;
    const start = performance.now();
    await new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (board.dataset.deal !== before) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(board, { attributes: true, attributeFilter: ["data-deal"] });
      next.click();
    });
    times.board.push(performance.now() - start);
    // The frame that shows the new board: a task after the next animation frame runs once
    // its style, layout and paint are done. Then the page rests `rest` ms before the next
    // click: 20 ms is a held key's repeat, 50 ms more like a person's clicks.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    times.painted.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, rest));
  }
  return times;
}"""


@contextmanager
def private_site() -> Iterator[Path]:
    """Yield a private copy of dist/ with the bare page and its stock runtime in bare/."""
    if not (DIST / "index.html").exists():
        sys.exit("dist/ is missing: run python3 build.py first")
    with tempfile.TemporaryDirectory(prefix="bench-site-") as folder:
        site = Path(folder) / "dist"
        shutil.copytree(DIST, site)
        bare = site / "bare"
        bare.mkdir()
        for name in BARE_FILES:
            shutil.copy2(PYODIDE / name, bare / name)
        (bare / "index.html").write_text(BARE_PAGE)
        yield site


def load_average() -> str:
    """Return the machine's load averages (1, 5, 15 minutes), or '?' where there are none."""
    try:
        return ", ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def load(context: BrowserContext, url: str) -> tuple[Page, float, int]:
    """Open url in the context; return the page, ms until window.__done, and bytes received."""
    received = 0

    def count(request: Request) -> None:
        nonlocal received
        sizes = request.sizes()
        received += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    context.on("requestfinished", count)
    page = context.new_page()
    page.add_init_script(FIRST_BOARD_SCRIPT)
    page.goto(url)
    poll(page, "() => window.__done !== undefined")
    elapsed = float(page.evaluate("window.__done"))
    context.remove_listener("requestfinished", count)
    return page, elapsed, received


def wait_for_offline_copy(page: Page) -> None:
    """Wait until the page's service worker is active (its cache is then complete), and settled.

    Chromium routes navigations to a just-activated service worker only a moment later, and
    compiles the WebAssembly's optimised tier in the background for a while: a user's next visit
    comes later than that, so the bench waits two seconds too.
    """
    poll(
        page,
        "() => navigator.serviceWorker.getRegistration()"
        ".then((r) => r?.active?.state === 'activated')",
    )
    page.wait_for_timeout(2000)


def median_text(values: list[float], unit: str = "ms") -> str:
    """Format a median with its spread."""
    return f"{statistics.median(values):,.0f} {unit} ({min(values):,.0f}-{max(values):,.0f})"


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile of the values."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * fraction) - 1)]


def measure(browser: Browser, base: str, rounds: int) -> dict[str, Any]:
    """Run every browser measurement and return the figures."""
    app_url, bare_url = base + APP_PATH, base + BARE_PATH
    app: list[float] = []
    bare: list[float] = []
    app_bytes: list[int] = []
    bare_bytes: list[int] = []
    for _ in range(rounds):
        for url, times, sizes in ((bare_url, bare, bare_bytes), (app_url, app, app_bytes)):
            context = browser.new_context()
            _, elapsed, received = load(context, url)
            times.append(elapsed)
            sizes.append(received)
            context.close()
    repeat: list[float] = []
    repeat_bytes: list[int] = []
    changes: dict[str, list[float]] = {}
    for _ in range(rounds):
        context = browser.new_context()
        first = load(context, app_url)[0]
        wait_for_offline_copy(first)
        first.close()
        page, elapsed, received = load(context, app_url)
        if not page.evaluate("navigator.serviceWorker.controller !== null"):
            sys.exit("the repeat visit was not served by the service worker")
        repeat.append(elapsed)
        repeat_bytes.append(received)
        if not changes:
            page.wait_for_selector("html[data-state=ready]")
            # A person looks at the board a moment before the first click.
            page.wait_for_timeout(SETTLE_MS)
            changes = page.evaluate(DEAL_CHANGES_SCRIPT, [100, REST_MS])
        context.close()
    return {
        "app": app,
        "bare": bare,
        "repeat": repeat,
        "changes": changes,
        "app_bytes": statistics.median(app_bytes),
        "bare_bytes": statistics.median(bare_bytes),
        "repeat_bytes": statistics.median(repeat_bytes),
    }


def measure_dealer(rounds: int, deals: int = 100_000) -> dict[str, list[float]]:
    """Deal 1..deals with freecell's ranges and with pysol-cards, alternating; deals/s."""
    numbers = range(1, deals + 1)
    rates: dict[str, list[float]] = {"freecell": [], "pysol-cards": []}
    for _ in range(rounds):
        rates["freecell"].append(time_once(ours, numbers))
        rates["pysol-cards"].append(time_once(pysol, numbers))
    return rates


def chromium_version(executable: str | None) -> str:
    """Return the browser's version line, or 'Chromium' if it cannot be asked."""
    if executable is None:
        return "Chromium"
    result = subprocess.run([executable, "--version"], capture_output=True, text=True, check=False)
    return result.stdout.strip() or "Chromium"


def verdict(ok: bool) -> str:
    """Say in a table cell whether a target is met."""
    return "met" if ok else "**missed**"


def report(
    figures: dict[str, Any], dealer: dict[str, list[float]], rounds: int, browser: str
) -> str:
    """Return the figures as Markdown: where and when, then one table."""
    app, bare, repeat = figures["app"], figures["bare"], figures["repeat"]
    changes, painted = figures["changes"]["board"], figures["changes"]["painted"]
    p50, p95 = percentile(changes, 0.50), percentile(changes, 0.95)
    painted_p95 = percentile(painted, 0.95)
    extra = (figures["app_bytes"] - figures["bare_bytes"]) / 1e6
    cold_ratio = statistics.median(app) / statistics.median(bare)
    repeat_ratio = statistics.median(repeat) / statistics.median(app)
    ours_rate, pysol_rate = (statistics.median(dealer[k]) for k in ("freecell", "pysol-cards"))
    dealer_ratio = ours_rate / pysol_rate
    lines = [
        (
            f"Measured {time.strftime('%Y-%m-%d')} on {platform.node() or 'this machine'} "
            f"({os.cpu_count()} cores, {platform.system()} {platform.machine()}, CPython "
            f"{platform.python_version()}), headless {browser}, {rounds} rounds, load average "
            f"{figures['load']} before; median (min-max)."
        ),
        "",
        "| measure | value | ratio | target |",
        "|---|---:|---:|---|",
        f"| bare `loadPyodide()`, cold | {median_text(bare)} | 1.00 | |",
        (
            f"| app, cold: navigation to 52 cards | {median_text(app)} | {cold_ratio:.2f}x bare "
            f"| ≤ {TARGETS['cold']:.2f}x: {verdict(cold_ratio <= TARGETS['cold'])} |"
        ),
        (
            f"| app, repeat visit | {median_text(repeat)} | {repeat_ratio:.2f}x app cold "
            f"| ≤ {TARGETS['repeat']:.2f}x: {verdict(repeat_ratio <= TARGETS['repeat'])} |"
        ),
        (
            f"| deal change (Next), {len(changes)} times, {REST_MS} ms apart "
            f"| p50 {p50:.1f} ms, p95 {p95:.1f} ms | "
            f"| p95 ≤ {TARGETS['p95']:.0f} ms: {verdict(p95 <= TARGETS['p95'])} |"
        ),
        (
            f"| deal change to its frame painted | p50 {percentile(painted, 0.50):.1f} ms, "
            f"p95 {painted_p95:.1f} ms | | p95 ≤ {TARGETS['painted']:.0f} ms: "
            f"{verdict(painted_p95 <= TARGETS['painted'])} |"
        ),
        f"| bytes, bare cold | {figures['bare_bytes'] / 1e6:.2f} MB | | |",
        (
            f"| bytes, app cold | {figures['app_bytes'] / 1e6:.2f} MB | {extra:+.2f} MB "
            f"| ≤ +{TARGETS['extra_mb']:.0f} MB: {verdict(extra <= TARGETS['extra_mb'])} |"
        ),
        f"| bytes, app repeat visit | {figures['repeat_bytes'] / 1e6:.2f} MB | | |",
        (
            f"| dealer (CPython), deals 1..100,000 | {ours_rate:,.0f} deals/s "
            f"| {dealer_ratio:.1f}x pysol-cards | ≥ {TARGETS['dealer']:.0f}x: "
            f"{verdict(dealer_ratio >= TARGETS['dealer'])} |"
        ),
    ]
    return "\n".join(lines)


def main() -> None:
    """Measure, print the table and write it into docs/performance.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="cold loads of each page (5)")
    parser.add_argument("--no-doc", action="store_true", help="print only; leave the docs alone")
    args = parser.parse_args()
    executable = chromium_executable()
    load = load_average()
    with private_site() as site, sync_playwright() as playwright, serve(site) as base:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        figures = measure(browser, base, args.rounds)
        browser.close()
    figures["load"] = load
    dealer = measure_dealer(args.rounds)
    table = report(figures, dealer, args.rounds, chromium_version(executable))
    print(table)
    if not args.no_doc:
        write_section("bench_web.py", table, "Latest run")
        print(f"\nwritten into {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
