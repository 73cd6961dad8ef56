"""Time `freecell.identify` per find: whole layouts and first rows, each generator, no deal.

Run with `.venv/bin/python -m bench.bench_identify` (about a minute with the defaults). Deals
are drawn at random (fixed seed) from each generator's range; each find lists every deal that
begins with the cards (a first row of 8 cards is nearly always one deal). Prints a Markdown table
of the median, 90th percentile and maximum seconds per find, and the number of finds.

With `--page` (after `python3 build.py`) it times the page instead, in headless Chromium: from a
click on Find, with a first row of 8 cards in the Find dialog, to the deal's board on the table
(Python in the worker, in slices), and to the answer "no deal" for a row with two cards swapped.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path

import freecell

ROOT = Path(__file__).resolve().parent.parent

SPANS = {
    "Microsoft (1..2^31-1)": (1, 2**31 - 1),
    "0x8000 (2^31..2^32-1)": (2**31, 2**32 - 1),
    "16-bit (2^32..2^33-1)": (2**32, freecell.MAX_DEAL),
}


def time_find(cards: tuple[int, ...]) -> tuple[float, list[int]]:
    """Return the seconds one find takes, and what it found."""
    start = time.perf_counter()
    found = list(freecell.identify(cards))
    return time.perf_counter() - start, found


def row(name: str, times: list[float]) -> str:
    """Return a table row: median, 90th percentile, maximum, count."""
    times = sorted(times)
    p90 = times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]
    return (
        f"| {name} | {statistics.median(times):.3f} | {p90:.3f} | {times[-1]:.3f} | {len(times)} |"
    )


def first_row(number: int) -> str:
    """Return a deal's first 8 cards as the task prints them."""
    return " ".join(freecell.CARD_CODES[c] for c in freecell.deal(number).cards[:8])


def page_main(count: int) -> None:
    """Time the Find dialog in headless Chromium, on the built site, and print the table."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - --page only

    from devtools.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: PLC0415
    from devtools.page import boot  # noqa: PLC0415
    from devtools.paths import DIST  # noqa: PLC0415
    from devtools.site_server import serve  # noqa: PLC0415

    rng = random.Random(20261128)  # noqa: S311 - a fixed sample of deals, no secret
    print(f"headless Chromium, the built site, {count} deals a row")
    print()
    print("| find in the page (first row of 8 cards) | median s | p90 s | max s | finds |")
    print("|---|---:|---:|---:|---:|")
    with sync_playwright() as playwright, serve(DIST) as base:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        boot(page, f"{base}?deal=1")

        def timed(text: str, done: str) -> float:
            page.locator(".more-toggle").click()
            page.locator("[data-action=find]").click()
            page.locator("textarea#layout").fill(text)
            start = time.perf_counter()
            page.locator("[data-action=find-deal]").click()
            page.wait_for_function(done, timeout=60_000)
            seconds = time.perf_counter() - start
            if page.locator("dialog#find").is_visible():
                page.keyboard.press("Escape")
            return seconds

        for span, (low, high) in SPANS.items():
            numbers = [rng.randint(low, high) for _ in range(count)]
            times = []
            for number in numbers:
                shown = f"() => document.querySelector('#board').dataset.deal === '{number}'"
                times.append(timed(first_row(number), shown))
            print(row(span, times))
        none = []
        for number in (rng.randint(1, freecell.MAX_DEAL) for _ in range(count)):
            cards = first_row(number).split()
            cards[1], cards[6] = cards[6], cards[1]
            said = "() => /No deal/.test(document.querySelector('#find-result').textContent)"
            none.append(timed(" ".join(cards), said))
        print(row("no deal (two cards swapped)", none))
        browser.close()


def main() -> None:
    """Run the finds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20, help="deals per generator (default 20)")
    parser.add_argument("--page", action="store_true", help="time the page in Chromium")
    args = parser.parse_args()
    if args.page:
        page_main(args.deals)
        return
    rng = random.Random(20261128)  # noqa: S311 - a fixed sample of deals, no secret
    print(f"Python {platform.python_version()}, {platform.machine()}, {args.deals} deals a row")
    print()
    print("| find | median s | p90 s | max s | finds |")
    print("|---|---:|---:|---:|---:|")
    for span, (low, high) in SPANS.items():
        numbers = [rng.randint(low, high) for _ in range(args.deals)]
        for cut, label in ((52, "whole layout"), (8, "first row (8 cards)")):
            times = []
            for d in freecell.deals(numbers):
                seconds, found = time_find(d.cards[:cut])
                assert d.number in found, (d.number, found)
                times.append(seconds)
            print(row(f"{span}, {label}", times))
    swapped = []
    for d in freecell.deals(rng.randint(1, freecell.MAX_DEAL) for _ in range(args.deals)):
        cards = list(d.cards)
        cards[1], cards[6] = cards[6], cards[1]
        for cut in (52, 8):
            seconds, _ = time_find(tuple(cards[:cut]))
            swapped.append(seconds)
    print(row("no deal (two cards swapped, whole or first row)", swapped))
    specials = [time_find(freecell.deal(n).cards[:cut])[0] for n in (-1, -2) for cut in (52, 8)]
    print(row("deals -1 and -2, whole or first row", specials))
    print()
    print("| fewer cards | median s | p90 s | max s | finds |")
    print("|---|---:|---:|---:|---:|")
    for count in (5, 4):
        times = [time_find(d.cards[:count])[0] for d in freecell.deals(numbers[:3])]
        print(row(f"first {count} cards (every deal that begins so)", times))
    print()
    brute = 200_000
    target = freecell.deal(1).cards[:8]
    start = time.perf_counter()
    hits = sum(1 for d in freecell.deals(range(2, brute + 2)) if d.cards[:8] == target)
    rate = brute / (time.perf_counter() - start)
    print(
        f"Baseline, a brute force in Python (freecell.deals, this library's fastest dealer, "
        f"{hits} hits): {rate:,.0f} deals/s, {freecell.MAX_DEAL / rate / 3600:,.1f} h for the range"
    )


if __name__ == "__main__":
    main()
