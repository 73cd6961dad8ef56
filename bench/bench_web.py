"""Measure the page in headless Chromium against a bare Pyodide boot, side by side.

Run with `python3 build.py bench` (it builds dist/ first). Cold loads alternate between the app
(`index.html?deal=617`, timed to the 52 cards in the DOM) and a bare page that only calls
`loadPyodide()` from the same dist/ (timed to its promise settling), each in a fresh browser
context, so neither has a cache. Then: a repeat visit of the app in a warm context, 100 deal
changes with the Next button, and the bytes each cold load downloads.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from build import DIST, SiteHandler  # noqa: E402 - build.py lives at the root

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BARE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>bare Pyodide boot</title>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
loadPyodide({ indexURL: new URL("./pyodide/", location.href).href }).then(() => {
  window.__done = performance.now();
});
</script>
"""
# Records when the board first holds 52 cards, on the page's own clock.
FIRST_BOARD_SCRIPT = """
new MutationObserver((_, observer) => {
  if (document.querySelectorAll("#board [data-card]").length === 52) {
    window.__done = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""
DEAL_CHANGES_SCRIPT = """async (count) => {
  const board = document.getElementById("board");
  const next = document.querySelector("[data-action=next]");
  const times = [];
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
    times.push(performance.now() - start);
  }
  return times;
}"""


class QuietHandler(SiteHandler):
    """The site handler, without a log line per request."""

    def log_message(self, *_: object) -> None:
        """Log nothing."""


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve a directory on a free port; yield its URL."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


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
    page.wait_for_function("window.__done !== undefined", timeout=120_000)
    elapsed = float(page.evaluate("window.__done"))
    context.remove_listener("requestfinished", count)
    return page, elapsed, received


def median_text(values: list[float], unit: str = "ms") -> str:
    """Format a median with its spread."""
    return f"{statistics.median(values):,.0f} {unit} ({min(values):,.0f}-{max(values):,.0f})"


def measure(browser: Browser, base: str, rounds: int) -> dict[str, Any]:
    """Run every measurement and return the figures."""
    app_url, bare_url = f"{base}index.html?deal=617", f"{base}bench-bare.html"
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
    repeat = []
    changes: list[float] = []
    for _ in range(rounds):
        context = browser.new_context()
        load(context, app_url)[0].close()
        page, elapsed, _ = load(context, app_url)
        repeat.append(elapsed)
        if not changes:
            page.wait_for_selector("html[data-state=ready]")
            changes = page.evaluate(DEAL_CHANGES_SCRIPT, 100)
        context.close()
    return {
        "app": app,
        "bare": bare,
        "repeat": repeat,
        "changes": sorted(changes),
        "app_bytes": statistics.median(app_bytes),
        "bare_bytes": statistics.median(bare_bytes),
    }


def report(figures: dict[str, Any], rounds: int) -> str:
    """Return the figures as a Markdown table."""
    app, bare, repeat = figures["app"], figures["bare"], figures["repeat"]
    changes = figures["changes"]
    p50 = changes[len(changes) // 2]
    p95 = changes[int(len(changes) * 0.95) - 1]
    extra = (figures["app_bytes"] - figures["bare_bytes"]) / 1e6
    cold_ratio = statistics.median(app) / statistics.median(bare)
    repeat_ratio = statistics.median(repeat) / statistics.median(app)
    lines = [
        (
            f"Headless Chromium, {rounds} rounds, {time.strftime('%Y-%m-%d')}, "
            f"{os.cpu_count()} cores; median (min-max)."
        ),
        "",
        "| measure | value | ratio |",
        "|---|---:|---:|",
        f"| bare `loadPyodide()`, cold | {median_text(bare)} | 1.00 |",
        f"| app, cold: navigation to 52 cards | {median_text(app)} | {cold_ratio:.2f}x bare |",
        f"| app, repeat visit | {median_text(repeat)} | {repeat_ratio:.2f}x app cold |",
        f"| deal change (Next), 100 times | p50 {p50:.1f} ms, p95 {p95:.1f} ms | |",
        f"| bytes, bare cold | {figures['bare_bytes'] / 1e6:.2f} MB | |",
        f"| bytes, app cold | {figures['app_bytes'] / 1e6:.2f} MB | +{extra:.2f} MB |",
    ]
    return "\n".join(lines)


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="cold loads of each page (5)")
    args = parser.parse_args()
    if not (DIST / "index.html").exists():
        sys.exit("dist/ is missing: run python3 build.py first")
    (DIST / "bench-bare.html").write_text(BARE_PAGE)
    executable = os.environ.get("FREECELL_CHROMIUM") or shutil.which("chromium")
    try:
        with sync_playwright() as playwright, serve(DIST) as base:
            browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
            figures = measure(browser, base, args.rounds)
            browser.close()
    finally:
        (DIST / "bench-bare.html").unlink()
    print(report(figures, args.rounds))


if __name__ == "__main__":
    main()
