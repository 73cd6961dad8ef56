"""The daily deal and Random with a grade in a real Chromium, against `freecell daily` and solve.

The page's clock is the test's (Playwright's `clock.set_fixed_time`, in contexts of this
module's own, since a clock cannot be taken out of a context); the deals are never written
here: the command line and the library say which they must be.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from freecell import daily_grade, difficulty, parse_date, solve
from helpers import (
    BOOT_MS,
    OPEN_IN_PLACE_JS,
    PHONE_OPTIONS,
    ContextFactory,
    PageFactory,
    blur,
    boot,
    menu,
    open_in_place,
    origin,
    press,
)

MONDAY, TUESDAY, WEDNESDAY, SUNDAY = "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-06"
WATCH_LONGEST_JS = """() => {
    window.__longest = 0;
    const line = document.getElementById("message");
    new MutationObserver(() => {
        window.__longest = Math.max(window.__longest, line.textContent.length);
    }).observe(line, { childList: true, characterData: true, subtree: true });
}"""
"""Records the longest text the message line shows from now on (window.__longest)."""
BOX_JS = """(line) => ({scroll: line.scrollWidth, client: line.clientWidth,
    right: line.getBoundingClientRect().right, screen: innerWidth})"""
"""How wide an element's text is, its box, where the box ends and the screen's width."""


def cli_daily(*dates: str) -> dict[str, tuple[int, int]]:
    """Return `freecell daily DATE...`'s deal and grade of each date."""
    command = [sys.executable, "-m", "freecell", "daily", *dates]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout
    lines = [line.split() for line in out.splitlines()]
    return {date: (int(number), int(grade)) for number, _, grade, date, _ in lines}


@pytest.fixture(scope="module")
def _contexts(make_profile: ContextFactory) -> Iterator[list[BrowserContext]]:
    opened = [make_profile(), make_profile()]
    yield opened
    for context in opened:
        context.close()


@pytest.fixture
def contexts(_contexts: list[BrowserContext], site_url: str) -> Iterator[list[BrowserContext]]:
    """Two browser profiles of this module's own (their clocks are its tests'), no page open.

    Kept for the module, so that only their first visits are first visits (a clock cannot be
    taken out of a context: the warm contexts of conftest stay without one). Each test fixes
    the clock before it opens a page and begins with no localStorage; its pages close after it.
    """
    for context in _contexts:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send(
            "Storage.clearDataForOrigin",
            {"origin": origin(site_url), "storageTypes": "local_storage"},
        )
        cdp.detach()
        page.close()
    yield _contexts
    for context in _contexts:
        for page in context.pages:
            page.close()


def at(page: Page, moment: str) -> None:
    """Fix the page's clock at a UTC moment (timers keep running)."""
    page.clock.set_fixed_time(moment)


def shown_daily(page: Page, date: str) -> tuple[int, int]:
    """Wait until the page shows the daily deal of `date`; return its deal and grade."""
    board = page.locator("#board")
    expect(board).to_have_attribute("data-daily", date, timeout=BOOT_MS)
    expect(board).to_have_attribute("data-difficulty", str(daily_grade(parse_date(date))))
    return int(board.get_attribute("data-deal") or 0), int(
        board.get_attribute("data-difficulty") or 0
    )


class TestDaily:
    def test_the_date_changes_at_utc_midnight(
        self, contexts: list[BrowserContext], site_url: str
    ) -> None:
        """The menu's Daily deal opens Monday's deal before UTC midnight and Tuesday's after."""
        page = contexts[0].new_page()
        at(page, f"{MONDAY}T23:59:30Z")
        boot(page, f"{site_url}?deal=1")
        press(page, "daily")
        monday = shown_daily(page, MONDAY)
        at(page, f"{TUESDAY}T00:00:30Z")
        press(page, "daily")
        tuesday = shown_daily(page, TUESDAY)
        assert {MONDAY: monday, TUESDAY: tuesday} == cli_daily(MONDAY, TUESDAY)
        assert page.url.endswith(f"?deal={tuesday[0]}&daily={TUESDAY}")
        expect(page.locator("#daily")).to_have_text(f"Daily deal {TUESDAY}")

    def test_two_browsers_and_the_command_line_agree(
        self, contexts: list[BrowserContext], site_url: str
    ) -> None:
        """?daily opens the same deal, with the same grade, in two browsers as `freecell daily`."""
        shown = []
        for context in contexts:
            page = context.new_page()
            at(page, f"{SUNDAY}T12:00:00Z")
            boot(page, f"{site_url}?daily")
            shown.append(shown_daily(page, SUNDAY))
            assert page.url.endswith(f"?deal={shown[-1][0]}&daily={SUNDAY}")
        assert shown[0] == shown[1] == cli_daily(SUNDAY)[SUNDAY]

    def test_a_link_s_date_is_confirmed_by_python(
        self, contexts: list[BrowserContext], site_url: str
    ) -> None:
        """A link naming a deal and a daily date is the daily deal only if Python says so."""
        page = contexts[0].new_page()
        number, _ = cli_daily(MONDAY)[MONDAY]
        boot(page, f"{site_url}?deal={number}&daily={MONDAY}&moves=")
        shown_daily(page, MONDAY)
        page.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?deal=617&daily={MONDAY}")
        expect(page.locator("#message")).to_have_text(
            f"Deal 617 is not the daily deal of {MONDAY}."
        )
        board = page.locator("#board")
        expect(board).to_have_attribute("data-deal", "617")
        expect(board).not_to_have_attribute("data-daily", MONDAY)
        assert "daily" not in page.url
        page.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?daily=2026-02-30")
        expect(page.locator("#message")).to_have_text(
            "“2026-02-30” is not a date: write YYYY-MM-DD, such as 2026-11-30."
        )

    def test_the_daily_streak_counts_consecutive_days(
        self, contexts: list[BrowserContext], site_url: str
    ) -> None:
        """Winning Monday's and Tuesday's daily deals makes a streak of 2; a day missed ends it.

        A daily deal counts on its own date only: Wednesday's, won on Tuesday, adds nothing.
        Tuesday's and Wednesday's games open in Monday's page; a reload reads the streak back.
        """
        page = contexts[0].new_page()
        page.emulate_media(reduced_motion="reduce")  # no celebration to wait for, day to day
        for day, streak, clock in (
            (MONDAY, 1, MONDAY),
            (TUESDAY, 2, TUESDAY),
            (WEDNESDAY, 2, TUESDAY),
        ):
            at(page, f"{clock}T08:00:00Z")
            number, _ = cli_daily(day)[day]
            moves = [str(move) for move in solve(number).moves]
            url = f"{site_url}?deal={number}&daily={day}&moves={','.join(moves[:-1])}"
            if day == MONDAY:
                boot(page, url)
            else:
                page.keyboard.press("Escape")  # the statistics' window of the day before
                open_in_place(page, url)
            shown_daily(page, day)
            blur(page)
            page.keyboard.press(moves[-1][0])
            page.keyboard.press(moves[-1][1])
            expect(page.locator("html")).to_have_attribute("data-won", "true")
            page.keyboard.press("i")
            expect(page.locator("[data-stat=daily-streak]")).to_have_text(str(streak))
        at(page, f"{WEDNESDAY}T08:00:00Z")
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.keyboard.press("i")
        expect(page.locator("[data-stat=daily-streak]")).to_have_text("2")  # up to yesterday
        page.keyboard.press("Escape")
        at(page, "2026-12-03T08:00:00Z")
        page.keyboard.press("i")
        expect(page.locator("[data-stat=daily-streak]")).to_have_text("0")


class TestRandomGrade:
    @pytest.mark.parametrize("grade", [1, 4])
    def test_a_link_s_grade(self, table: Page, site_url: str, grade: int) -> None:
        """?deal=random&grade=G opens a deal whose grade, by freecell solve, is G."""
        table.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?deal=random&grade={grade}")
        board = table.locator("#board")
        expect(board).to_have_attribute("data-difficulty", str(grade))
        expect(table).not_to_have_url(re.compile("grade|random"))
        number = int(board.get_attribute("data-deal") or 0)
        assert difficulty(solve(number)) == grade

    def test_the_menu_s_grade(self, table: Page) -> None:
        """Random with a grade chosen in the menu opens deals of that grade."""
        menu(table)
        table.locator("#random-grade").select_option("3")
        seen = set()
        for _ in range(2):
            before = table.locator("#board").get_attribute("data-deal")
            press(table, "random")
            board = table.locator("#board")
            expect(board).not_to_have_attribute("data-deal", before or "")
            expect(board).to_have_attribute("data-difficulty", "3")
            number = int(board.get_attribute("data-deal") or 0)
            assert difficulty(solve(number)) == 3
            seen.add(number)
        menu(table)
        table.locator("#random-grade").select_option("")

    @pytest.mark.parametrize("name", ["daily", "grade", "deal"])
    def test_a_long_value_is_cut_as_a_deal_is(self, table: Page, site_url: str, name: str) -> None:
        """A link's date, grade or deal of 100,000 characters is quoted cut to 40, then "…".

        So is every message on the way (the search for the date's deal, before Python refuses).
        """
        table.evaluate(WATCH_LONGEST_JS)
        table.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?{name}={'9' * 100_000}")
        message = table.locator("#message")
        expect(message).to_contain_text(f"“{'9' * 40}…”")
        expect(table.locator("#board")).to_have_attribute("data-deal", re.compile(r"^\d+$"))
        assert table.evaluate("() => window.__longest") < 200

    def test_a_long_value_fits_a_phone(self, pages: PageFactory, site_url: str) -> None:
        """On a phone, the message quoting a long date breaks it: nothing runs off the screen."""
        page = pages(**PHONE_OPTIONS)
        boot(page, f"{site_url}?daily={'9' * 1000}")
        message = page.locator("#message")
        expect(message).to_contain_text(f"“{'9' * 40}…”")
        box = message.evaluate(BOX_JS)
        assert box["scroll"] <= box["client"], box
        assert box["right"] <= box["screen"], box

    @pytest.mark.parametrize("text", ["9", "0", "hard", "<b>4</b>"])
    def test_bad_grades_say_what_is_valid(self, table: Page, site_url: str, text: str) -> None:
        """A bad grade in a link is said with the valid grades, over a deal of any grade."""
        before = table.locator("#board").get_attribute("data-deal")
        table.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?deal=random&grade={text}")
        message = table.locator("#message")
        expect(message).to_have_text(
            f"“{text}” is not a grade: a grade is a whole number from 1 to 5."
        )
        expect(message.locator("b")).to_have_count(0)
        expect(table.locator("#board")).not_to_have_attribute("data-deal", before or "")
