"""The game's clock and the win's celebration (timer.js, celebrate.js), in a real Chromium.

The clock starts at the first move, holds while the page is hidden, stops at the win, never
turns back (Undo), hides for a game Solve finished and by the menu's choice; the best time per
deal survives a reload and goes into the export file. The celebration runs at a win, ends by a
key or a tap (which still act), by itself, and never under reduced motion. Desktop and the
touch phone. A hidden page is emulated as the browser tells it: document.hidden and a
visibilitychange event (a headless browser never hides its pages).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers import (
    PHONE_OPTIONS,
    SIDEWAYS_OPTIONS,
    PageFactory,
    blur,
    boot,
    engine_after,
    link,
    menu,
    open_in_place,
    poll,
    press,
    screenshots,
    solution,
)

HIDE_JS = """(hidden) => {
    if (hidden) {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        Object.defineProperty(document, "visibilityState", {
            configurable: true, get: () => "hidden" });
    } else {
        delete document.hidden;
        delete document.visibilityState;
    }
    document.dispatchEvent(new Event("visibilitychange"));
}"""
"""Hide the page (true) or show it again (false), as the browser does for a tab left."""


def seconds(page: Page) -> int:
    """Return the clock's whole seconds (#timer[data-seconds])."""
    return int(page.locator("#timer").get_attribute("data-seconds") or "-1")


def running(page: Page) -> bool:
    """Return whether the clock runs (#timer[data-running])."""
    return page.locator("#timer").get_attribute("data-running") == "true"


def shown(total: int) -> str:
    """Return a time under an hour as the clock shows it: m:ss."""
    return f"{total // 60}:{total % 60:02d}"


def first_move(page: Page, site_url: str) -> None:
    """Open deal 1 afresh and make its first move (6♣ to a free cell); the clock starts."""
    open_in_place(page, link(site_url, 1, []))
    expect(page.locator("#timer")).to_be_visible()
    expect(page.locator("#timer")).to_have_attribute("data-seconds", "0")
    page.locator("[data-card='6C']").dblclick()
    expect(page.locator("#timer")).to_have_attribute("data-running", "true")


def last_move(page: Page) -> None:
    """Play deal 1's last move by keys (one move from the end) and wait for the win."""
    blur(page)
    move = solution(1)[-1]
    page.keyboard.press(move[0])
    page.keyboard.press(move[1])
    expect(page.locator("html")).to_have_attribute("data-won", "true")


def wait_seconds(page: Page, least: int) -> None:
    """Wait until the clock shows at least `least` seconds."""
    poll(page, f"() => Number(document.querySelector('#timer').dataset.seconds) >= {least}",
         timeout_ms=least * 1000 + 5000)  # fmt: skip


class TestClock:
    def test_from_the_first_move_to_the_win_never_back(self, table: Page, site_url: str) -> None:
        """0:00 until a move; then it runs, Undo does not turn it back, the win stops it."""
        open_in_place(table, link(site_url, 1, []))
        expect(table.locator("#timer")).to_have_text("0:00")
        time.sleep(1.2)
        assert (seconds(table), running(table)) == (0, False)  # no move yet
        first_move(table, site_url)
        wait_seconds(table, 1)
        before = seconds(table)
        table.keyboard.press("Control+z")
        expect(table.locator("#moves-count")).to_have_text("0")
        assert seconds(table) >= before
        assert running(table)
        # The same deal further on (as a reload or Back finds it): the same clock, held.
        open_in_place(table, link(site_url, 1, solution(1)[:-1]))
        assert seconds(table) >= before
        last_move(table)
        expect(table.locator("#timer")).to_have_attribute("data-running", "false")
        total = seconds(table)
        assert total >= before
        expect(table.locator("#win-text")).to_contain_text(f"Time: {shown(total)}.")
        time.sleep(1.2)
        assert seconds(table) == total  # stopped at the win

    def test_a_hidden_page_holds_it(self, table: Page, site_url: str) -> None:
        """While the page is hidden the clock stands; shown again, it goes on from there."""
        first_move(table, site_url)
        wait_seconds(table, 1)
        try:
            table.evaluate(HIDE_JS, True)
            held = seconds(table)
            assert not running(table)
            time.sleep(2.2)
            assert seconds(table) == held
        finally:
            table.evaluate(HIDE_JS, False)
        assert seconds(table) <= held  # the hidden seconds are not counted
        expect(table.locator("#timer")).to_have_attribute("data-running", "true")
        wait_seconds(table, held + 1)

    def test_a_game_solve_finished_shows_no_time(self, still_table: Page, site_url: str) -> None:
        """Solve plays the last moves: the clock is gone, and the win message gives no time."""
        open_in_place(still_table, link(site_url, 1, solution(1)[:-3]))
        expect(still_table.locator("#timer")).to_be_visible()
        press(still_table, "solve")
        expect(still_table.locator("html")).to_have_attribute("data-won", "true")
        expect(still_table.locator("#timer")).to_be_hidden()
        expect(still_table.locator("#win-text")).not_to_contain_text("Time")

    def test_the_menu_hides_it_remembered(self, page: Page, site_url: str) -> None:
        """input#show-timer off hides the clock, and a reload keeps it off."""
        boot(page, link(site_url, 5, []))
        expect(page.locator("#timer")).to_be_visible()
        menu(page)
        page.locator("input#show-timer").uncheck()
        expect(page.locator("#timer")).to_be_hidden()
        assert page.evaluate("localStorage.getItem('freecell.show-timer')") == "off"
        boot(page, page.url)
        expect(page.locator("#timer")).to_be_hidden()
        expect(page.locator("input#show-timer")).not_to_be_checked()


def export(page: Page, tmp_path: Path) -> dict[str, Any]:
    """Export from the statistics dialog; return what the file holds."""
    if not page.locator("dialog#stats").is_visible():
        press(page, "stats")
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)
    return dict(json.loads(path.read_text(encoding="utf-8")))


class TestBestTime:
    def test_across_a_reload_in_the_statistics_and_the_export(
        self, page: Page, site_url: str, tmp_path: Path
    ) -> None:
        """A won game's time is the deal's best: kept across reloads, listed, exported, merged."""
        boot(page, link(site_url, 1, []))
        page.locator("[data-card='6C']").dblclick()
        wait_seconds(page, 2)
        boot(page, link(site_url, 1, solution(1)[:-1]))  # a reload further on: the same clock
        assert seconds(page) >= 2
        last_move(page)
        best = seconds(page)
        # The record is written in its turn of the tabs' lock (a Web Lock), a moment after.
        stored = "() => JSON.parse(localStorage.getItem('freecell.stats') ?? '{}').deals?.['1']"
        poll(page, f"() => ({stored})() !== undefined")
        assert page.evaluate(stored)["seconds"] == best
        boot(page, page.url)  # the won game again: its time, stopped
        expect(page.locator("#timer")).to_have_attribute("data-seconds", str(best))
        expect(page.locator("#win-text")).to_contain_text(f"Time: {shown(best)}.")
        press(page, "stats")
        expect(page.locator("#my-games li").first).to_contain_text(f"time {shown(best)}")
        data = export(page, tmp_path)
        # The fewest moves as a player counts them; the deal's par beside them once it is known.
        fewest = engine_after(1, solution(1))["player_moves"]
        entry = data["deals"]["1"]
        assert (entry["fewest"], entry["seconds"]) == (fewest, best)
        assert set(entry) <= {"fewest", "seconds", "par"}
        assert data["games"][-1]["seconds"] == best
        # Another browser's faster time of the deal, imported, is the best in the next export.
        data["device"] = "0123456789abcdef"
        data["deals"]["1"]["seconds"] = 1
        faster = tmp_path / "faster.json"
        faster.write_text(json.dumps(data), encoding="utf-8")
        with page.expect_file_chooser() as chooser:
            page.locator("[data-action=import]").click()
        chooser.value.set_files(faster)
        expect(page.locator("#archive-message")).not_to_be_empty()
        assert export(page, tmp_path)["deals"]["1"]["seconds"] == 1

    def test_a_file_with_a_bad_time_is_refused(
        self, page: Page, site_url: str, tmp_path: Path
    ) -> None:
        """A deal's `seconds` that is no whole number of seconds refuses the file, by name."""
        boot(page, link(site_url, 2, []))
        data = export(page, tmp_path)
        data["deals"] = {"7": {"fewest": 80, "seconds": "fast"}}
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        with page.expect_file_chooser() as chooser:
            page.locator("[data-action=import]").click()
        chooser.value.set_files(bad)
        expect(page.locator("#archive-message")).to_contain_text("deals.7.seconds")


CARDS_AT_JS = """() => Array.from(document.querySelectorAll(".celebration > .card"),
    (card) => card.style.transform).join(";")"""
"""Where the celebration's cards are now."""


class TestCelebration:
    def test_the_cards_leave_and_a_key_ends_it_and_acts(self, table: Page, site_url: str) -> None:
        """At the win the cards fly off the foundations; N ends it and opens the next deal."""
        open_in_place(table, link(site_url, 1, solution(1)[:-1]))
        last_move(table)
        layer = table.locator("#table > .celebration")
        expect(layer).to_have_count(1)
        expect(layer).to_have_attribute("aria-hidden", "true")
        expect(table.locator("#table")).to_have_attribute("data-celebrating", "")
        at = table.evaluate(CARDS_AT_JS)
        poll(table, f"() => ({CARDS_AT_JS})() !== {json.dumps(at)}", timeout_ms=2000)
        assert table.locator(".celebration [data-card]").count() == 0  # copies, no cards
        expect(table.locator("#win")).to_be_visible()
        table.keyboard.press("n")
        expect(layer).to_have_count(0)
        expect(table.locator("#board")).to_have_attribute("data-deal", "2")
        expect(table.locator("#table")).not_to_have_attribute("data-celebrating", re.compile(""))

    def test_it_ends_by_itself(self, table: Page, site_url: str) -> None:
        """Left alone, every card is off the table within 10 s, and the foundations are back."""
        open_in_place(table, link(site_url, 1, solution(1)[:-1]))
        last_move(table)
        expect(table.locator(".celebration")).to_have_count(1)
        expect(table.locator(".celebration")).to_have_count(0, timeout=11_000)
        expect(table.locator("[data-foundation] .card").first).to_be_visible()

    def test_none_under_reduced_motion(self, still_table: Page, site_url: str) -> None:
        """Reduced motion: the win shows no celebration."""
        open_in_place(still_table, link(site_url, 1, solution(1)[:-1]))
        last_move(still_table)
        time.sleep(0.3)
        expect(still_table.locator(".celebration")).to_have_count(0)


class TestPhone:
    @pytest.mark.parametrize("sideways", [False, True], ids=["upright", "sideways"])
    def test_the_clock_fits_the_bar(
        self, pages: PageFactory, site_url: str, request: pytest.FixtureRequest, sideways: bool
    ) -> None:
        """On a phone the clock is under the move count: the bar is no wider or taller with it.

        Upright the menu's toggle stays in the first row and the bar is as tall as without the
        clock; sideways the bar stays one row.
        """
        page = pages(**(SIDEWAYS_OPTIONS if sideways else PHONE_OPTIONS))
        boot(page, link(site_url, 617, solution(617)[:12]))
        expect(page.locator("#board")).to_have_attribute("data-difficulty", re.compile("."))
        timer = page.locator("#timer").bounding_box()
        count = page.locator("#moves-count").bounding_box()
        field = page.locator("#deal").bounding_box()
        toggle = page.locator(".more-toggle").bounding_box()
        assert timer is not None
        assert count is not None
        assert field is not None
        assert toggle is not None
        assert timer["y"] >= count["y"] + count["height"] - 2  # under the count
        assert timer["y"] + timer["height"] <= field["y"] + field["height"] + 2  # in its row
        assert toggle["y"] == field["y"]  # the menu's toggle in the first row
        name = "sideways" if sideways else "upright"
        screenshots(page, request.config, f"win/clock-phone-{name}")
        bar = page.locator("header.bar").bounding_box()
        menu(page)
        page.locator("input#show-timer").uncheck()
        page.locator(".more-toggle").click()
        expect(page.locator("#timer")).to_be_hidden()
        assert page.locator("header.bar").bounding_box() == bar

    def test_a_tap_ends_the_celebration(self, pages: PageFactory, site_url: str) -> None:
        """On the touch phone a tap on the table ends the celebration."""
        page = pages(**PHONE_OPTIONS)
        boot(page, link(site_url, 1, solution(1)[:-1]))
        page.locator("[data-freecell='2'] [data-card]").tap()  # one tap plays it home: won
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        expect(page.locator(".celebration")).to_have_count(1)
        page.locator("#board").tap(position={"x": 20, "y": 20})
        expect(page.locator(".celebration")).to_have_count(0)


@pytest.mark.screenshots
def test_screenshots(pages: PageFactory, site_url: str, request: pytest.FixtureRequest) -> None:
    """The clock in the bar and the win's message with its time, mid-celebration (desktop).

    Only pictures (with --screenshots): what they show, the other tests check.
    """
    page = pages()
    boot(page, link(site_url, 1, []))
    page.locator("[data-card='6C']").dblclick()
    wait_seconds(page, 1)
    boot(page, link(site_url, 1, solution(1)[:-1]))
    last_move(page)
    time.sleep(0.8)
    screenshots(page, request.config, "win/celebration-desktop")
