"""Start-up over a real network: the app beside a bare Pyodide boot, served as a CDN serves them.

Run with `python3 build.py bench` (after bench_web.py); it prints the tables and writes them into
docs/performance.md, its waterfalls into docs/waterfalls.md. The site (bench_web.private_site:
dist/ and the bare page with the stock runtime files) is served by build.py's SiteHandler as a
CDN or GitHub Pages serves it: gzip for text and WebAssembly, ETags, HTTP/1.1, through ONE
shaped link that every connection shares (build.Link: a token bucket of bytes per second and a
delay before each answer). Profiles: 10 Mbit/s with 40 ms a request, and 1.6 Mbit/s with 150 ms
a request, side by side in one table.

Each visit runs in a browser profile of its own on disk (a persistent context), as a visitor's
browser has: Playwright's usual contexts are off the record, and Chromium then keeps no code it
compiled (such as the WebAssembly's) for a later visit. For each network profile, in one run:
- cold: the bare page and the app (`index.html?deal=617`) alternately, each in a new browser
  profile, with `Cache-Control: max-age=600`; timed from navigation to `loadPyodide()` settling
  (bare) or to the 52 cards in the DOM (app); bytes on the wire counted by the server, for the
  requests made before that moment.
- repeat, the HTTP cache expired: the server answers `no-cache` (every use of a cached response
  revalidates); a new profile visits once (the app then waits for its service worker and its
  snapshot), then again; the second visit is timed, with the requests it made before the board.
- a waterfall of the app's first cold load (resource timings of the page and of its worker).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright

from bench.bench_web import (
    APP_PATH,
    BARE_PATH,
    FIRST_BOARD_SCRIPT,
    chromium_version,
    load_average,
    private_site,
    verdict,
)
from bench.performance_doc import DOC, WATERFALLS, write_section
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.page import poll
from devtools.paths import ROOT
from devtools.site_server import (
    NETWORK_NAMES,
    NETWORKS,
    Cdn,
    Link,
    Served,
    serve,
)

TARGETS = {"cold": 0.65, "bytes": 0.80, "repeat": 0.10, "ready": 0.10}
"""On the 10 Mbit/s profile (issue 23): app cold ≤ 0.65x bare, bytes ≤ 0.80x bare, a repeat
visit's board and its ready state each ≤ 0.10x the app's cold visit."""
BOOT_MS = 180_000  # the bare boot on the slow profile takes about a minute
SNAPSHOT_STORED_JS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration?.active?.state !== "activated") return false;
  const manifest = await caches.match(new URL("manifest.json", location.href).href);
  const layers = manifest ? (await manifest.json()).layers : undefined;
  if (layers && !layers.includes("snapshot")) return true; // a build without the layer
  return Boolean(await caches.match(new URL("snapshot.bin", location.href).href));
}"""
"""Whether the app's offline copy is complete: its service worker active and, in a build with
the memory snapshot (manifest.json's `layers`; every build before they had a switch), the
snapshot stored."""
TIMINGS_JS = """() => {
  const origin = performance.timeOrigin;
  const entries = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource")];
  return {
    files: entries.map((e) => ({name: e.name, start: origin + e.startTime,
                                end: origin + e.responseEnd, size: e.transferSize})),
    marks: performance.getEntriesByType("mark").map((e) => ({name: e.name,
                                                              at: origin + e.startTime})),
  };
}"""


READY_SCRIPT = """
new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.state === "ready") {
    window.__ready = performance.now();
    observer.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-state"] });
"""
"""Records when the app says it is ready (Python answers, the first board is out)."""


@dataclass
class Visit:
    """One page load: ms to done (and to ready), bytes on the wire, the requests before done."""

    elapsed: float
    size: int
    requests: list[Served]
    ready: float


def visit(context: BrowserContext, url: str, log: list[Served]) -> tuple[Page, Visit]:
    """Open url in the context; return the page and what the load took until window.__done.

    The app's `ready` is when it says so (html[data-state=ready]); the bare page's is done.
    """
    page = context.new_page()
    page.add_init_script(FIRST_BOARD_SCRIPT)
    page.add_init_script(READY_SCRIPT)
    page.goto(url, timeout=BOOT_MS)
    poll(page, "() => window.__done !== undefined", timeout_ms=BOOT_MS)
    if page.evaluate("document.documentElement.dataset.state !== undefined"):
        poll(page, "() => window.__ready !== undefined", timeout_ms=BOOT_MS)
    origin, done, ready = page.evaluate(
        "[performance.timeOrigin, window.__done, window.__ready ?? window.__done]"
    )
    start, end = origin / 1000, (origin + done) / 1000
    before = [served for served in list(log) if start <= served.start <= end]
    return page, Visit(done, sum(served.size for served in before), before, ready)


Profiles = Callable[[], AbstractContextManager[BrowserContext]]
"""Opens a browser with a new, empty profile on disk."""


def profiles(playwright: Playwright, executable: str | None) -> Profiles:
    """Return a function that opens a browser with a new, empty profile on disk."""

    @contextmanager
    def new_profile() -> Iterator[BrowserContext]:
        with tempfile.TemporaryDirectory(prefix="bench-profile-") as folder:
            context = playwright.chromium.launch_persistent_context(
                folder, executable_path=executable, args=CHROMIUM_ARGS
            )
            try:
                yield context
            finally:
                context.close()

    return new_profile


def timings_of(page: Page, load: Visit, ready: bool = False) -> dict[str, Any]:
    """Return the resource timings and marks of a loaded page and its workers, until done."""
    timings: dict[str, Any] = page.evaluate(TIMINGS_JS)
    timings["origin"] = page.evaluate("performance.timeOrigin")
    timings["done"] = timings["origin"] + (load.ready if ready else load.elapsed)
    for worker in page.workers:
        found = worker.evaluate(TIMINGS_JS)
        timings["files"] += found["files"]
        timings["marks"] += found["marks"]
    return timings


def cold(new_profile: Profiles, url: str, log: list[Served]) -> tuple[Visit, dict[str, Any]]:
    """Load url in a new profile; return the visit and the resource timings of page and worker."""
    with new_profile() as context:
        page, load = visit(context, url, log)
        return load, timings_of(page, load)


def repeat(
    new_profile: Profiles, url: str, log: list[Served], app: bool
) -> tuple[Visit, dict[str, Any]]:
    """Visit url twice in a new profile (the app: once its offline copy is complete).

    Returns the second visit and its timings and marks until ready.
    """
    with new_profile() as context:
        first, _ = visit(context, url, log)
        if app:
            poll(first, SNAPSHOT_STORED_JS, timeout_ms=BOOT_MS)
        first.wait_for_timeout(3000)  # a person's next visit comes later than that
        first.close()
        page, again = visit(context, url, log)
        if app and not page.evaluate("navigator.serviceWorker.controller !== null"):
            sys.exit("the repeat visit was not served by the service worker")
        return again, timings_of(page, again, ready=True)


def measure(new_profile: Profiles, base: str, cdn: Cdn, rounds: int) -> dict[str, Any]:
    """Measure cold and repeat visits of both pages over the CDN's link."""
    log = cdn.log if cdn.log is not None else []
    figures: dict[str, Any] = {"cold": {"bare": [], "app": []}, "repeat": {"bare": [], "app": []}}
    cdn.max_age = 600
    for _ in range(rounds):
        for name, path in (("bare", BARE_PATH), ("app", APP_PATH)):
            load, timings = cold(new_profile, base + path, log)
            figures["cold"][name].append(load)
            if name == "app" and "waterfall" not in figures:
                figures["waterfall"] = timings
    cdn.max_age = None  # the HTTP cache has expired: every response must be revalidated
    for _ in range(rounds):
        for name, path in (("bare", BARE_PATH), ("app", APP_PATH)):
            again, timings = repeat(new_profile, base + path, log, name == "app")
            figures["repeat"][name].append(again)
            if name == "app" and "repeat_waterfall" not in figures:
                figures["repeat_waterfall"] = timings
    return figures


def seconds(visits: list[Visit], ready: bool = False) -> str:
    """Format the median time of the visits (to ready, if asked), with its spread, in seconds."""
    values = [(v.ready if ready else v.elapsed) / 1000 for v in visits]
    if len(values) == 1:
        return f"{values[0]:.2f} s"
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def megabytes(visits: list[Visit]) -> str:
    """Format the median bytes on the wire of the visits, in MB."""
    return f"{statistics.median(v.size for v in visits) / 1e6:.2f} MB"


def requests_text(visit: Visit) -> str:
    """List the requests a visit made before its board, by name and status."""
    if not visit.requests:
        return "none"
    names = [f"{served.path.split('?')[0].rsplit('/', 1)[-1] or '/'} {served.status}"
             for served in visit.requests]  # fmt: skip
    return ", ".join(names)


def median_ms(visits: list[Visit]) -> float:
    """Return the median time of the visits, in ms."""
    return statistics.median(v.elapsed for v in visits)


def report(figures: dict[str, Any], fast: bool) -> list[list[str]]:
    """Return one profile's rows: a measure, the bare boot's, the app's, their ratio, a target."""
    cold_bare, cold_app = figures["cold"]["bare"], figures["cold"]["app"]
    again_bare, again_app = figures["repeat"]["bare"], figures["repeat"]["app"]
    cold_ratio = median_ms(cold_app) / median_ms(cold_bare)
    size_ratio = statistics.median(v.size for v in cold_app) / statistics.median(
        v.size for v in cold_bare
    )
    repeat_ratio = median_ms(again_app) / median_ms(cold_app)
    ready_ratio = statistics.median(v.ready for v in again_app) / median_ms(cold_app)

    def target(key: str, ratio: float) -> str:
        return f"≤ {TARGETS[key]:.2f}x: {verdict(ratio <= TARGETS[key])}" if fast else ""

    last_app, last_bare = again_app[-1], again_bare[-1]
    only_check = all(
        all(served.path.split("?")[0].endswith("/sw.js") for served in v.requests)
        for v in again_app
    )
    return [
        ["cold: navigation to ready (52 cards)", seconds(cold_bare), seconds(cold_app),
         f"{cold_ratio:.2f}x", target("cold", cold_ratio)],
        ["bytes on the wire, cold", megabytes(cold_bare), megabytes(cold_app),
         f"{size_ratio:.2f}x", target("bytes", size_ratio)],
        ["repeat visit, HTTP cache expired: to the board", seconds(again_bare),
         seconds(again_app), f"{repeat_ratio:.2f}x app cold", target("repeat", repeat_ratio)],
        ["repeat visit, HTTP cache expired: to ready (Python answers)", seconds(again_bare),
         seconds(again_app, ready=True), f"{ready_ratio:.2f}x app cold",
         target("ready", ready_ratio)],
        ["bytes on the wire, repeat", megabytes(again_bare), megabytes(again_app), "", ""],
        ["requests before the board, repeat (last round)", requests_text(last_bare),
         requests_text(last_app), "",
         f"only the update check: {verdict(only_check)}" if fast else ""],
    ]  # fmt: skip


def side_by_side(results: dict[str, tuple[dict[str, Any], int]]) -> list[str]:
    """Return one table of every profile's figures, the profiles side by side (target: fast's)."""
    head, rule = ["measure"], ["---"]
    rows: list[list[str]] = []
    for profile, (figures, rounds) in results.items():
        fast = profile == "fast"
        named = f"{NETWORK_NAMES[profile]} ({rounds} round{'s' * (rounds > 1)})"
        head += [f"{named}: bare `loadPyodide()`", "app", "app / bare", *["target"] * fast]
        rule += ["---:", "---:", "---:", *["---"] * fast]
        for number, row in enumerate(report(figures, fast)):
            if number == len(rows):
                rows.append(row[:1])
            rows[number] += row[1:] if fast else row[1:4]
    return [f"| {' | '.join(head)} |", f"|{'|'.join(rule)}|"] + [
        f"| {' | '.join(row)} |" for row in rows
    ]


def waterfall(timings: dict[str, Any], width: int = 48, end: str = "board: 52 cards") -> list[str]:
    """Return a load of the app as a text waterfall: each file's download, then the marks."""
    origin, done = timings["origin"], timings["done"]
    span = done - origin
    scale = width / span

    def cell(at: float) -> int:
        return min(width - 1, max(0, int((at - origin) * scale)))

    lines = [f"{'ms from navigation':<34} {'start':>6} {'end':>6} {'KB':>6}  0 .. {span:,.0f} ms"]
    for entry in sorted(timings["files"], key=lambda e: e["start"]):
        if entry["start"] > done:
            continue
        name = entry["name"].split("?")[0].removeprefix(timings.get("base", ""))
        name = "/".join(name.split("/")[3:]) or "/"
        first, last = cell(entry["start"]), cell(entry["end"])
        bar = " " * first + "█" * (last - first + 1)
        lines.append(
            f"{name[-34:]:<34} {entry['start'] - origin:>6,.0f} {entry['end'] - origin:>6,.0f} "
            f"{entry['size'] / 1000:>6,.0f}  |{bar:<{width}}|"
        )
    marks = [*timings["marks"], {"name": end, "at": done}]
    for mark in sorted(marks, key=lambda m: m["at"]):
        at = cell(mark["at"])
        lines.append(
            f"{'mark: ' + mark['name']:<34} {mark['at'] - origin:>6,.0f} {'':>6} {'':>6}  "
            f"|{' ' * at + '▲':<{width}}|"
        )
    return lines


def main() -> None:
    """Measure both profiles, print the tables and write them into docs/performance.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds on the fast profile (3)")
    parser.add_argument("--slow-rounds", type=int, default=1, help="rounds on the slow one (1)")
    parser.add_argument("--no-doc", action="store_true", help="print only; leave the docs alone")
    args = parser.parse_args()
    executable = chromium_executable()
    load_before = load_average()
    results = {}
    with private_site() as site, sync_playwright() as playwright:
        new_profile = profiles(playwright, executable)
        for profile, rounds in (("fast", args.rounds), ("slow", args.slow_rounds)):
            if rounds < 1:
                continue
            cdn = Cdn(link=Link(*NETWORKS[profile]), log=[])
            with serve(site, cdn=cdn) as base:
                started = time.monotonic()
                results[profile] = (measure(new_profile, base, cdn, rounds), rounds)
                print(f"{profile}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    lines = [
        (
            f"Measured {time.strftime('%Y-%m-%d')}, headless {chromium_version(executable)}, "
            f"load average {load_before} before and {load_average()} after; the server gzips "
            "at level 6 and shapes one link for all connections (HTTP/1.1); medians (min-max)."
        ),
        "",
        *side_by_side(results),
    ]
    waterfalls = [
        (
            f"The app's first cold load on {NETWORK_NAMES['fast']}, from the page's and the "
            "worker's resource timings (KB on the wire; marks are the worker's):"
        ),
        "",
        "```text",
        *waterfall(results["fast"][0]["waterfall"]),
        "```",
        "",
        (
            "Its first repeat visit on the same link, the HTTP cache expired, until ready "
            "(Python answers): what the service worker served and the worker's marks:"
        ),
        "",
        "```text",
        *waterfall(results["fast"][0]["repeat_waterfall"], end="ready: Python answers"),
        "```",
    ]
    tables, falls = "\n".join(lines).rstrip("\n"), "\n".join(waterfalls)
    print(f"{tables}\n\n{falls}")
    if not args.no_doc:  # the waterfalls have a page of their own, out of the figures' way
        write_section("bench_network.py", tables, "Over a network")
        write_section("bench_network.py waterfalls", falls, "The waterfalls", WATERFALLS)
        print(f"\nwritten into {DOC.relative_to(ROOT)} and {WATERFALLS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
