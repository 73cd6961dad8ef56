"""The live winnability guard and the deal's grade in a real Chromium.

The library's solver is the oracle (the fixtures' moves are checked against fc-solve in
tests/library/test_session.py): the page must name the move that lost, go back to the last winnable
position, say a deal that cannot be won is lost without Hint, and stay out of the way (off by
a remembered setting; deal changes never wait for a check).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from freecell import DIFFICULTY_GRADES, FREECELLS, Game, card_unicode
from helpers import (
    DEVICES,
    LOSING_MOVES,
    WEB,
    PageFactory,
    blur,
    boot,
    js_object,
    menu,
    open_in_place,
    poll,
    screenshots,
)

SETTLE_JS = WEB / "app" / "page" / "settle.js"
"""Where SETTLE_MS is set: a deal's rest on the table before the worker searches it."""
IMPOSSIBLE = 11982
"""The one deal of 1..32000 that cannot be won."""
LANGUAGES = ("en", "pt", "es", "it", "ru", "zh-Hant")


def lost_sentence(number: int, before: list[str], losing: str) -> str:
    """Return the English sentence that names a losing move to a free cell (the fixtures)."""
    game = Game.from_deal_number(number)
    for move in before:
        game.push(move)
    card = game.position.cascades[int(losing[0]) - 1][-1]
    assert losing[1] in FREECELLS
    return f"Moving {card_unicode(card)} to free cell {losing[1].upper()} lost the game."


COUNT_REQUESTS_JS = """
window.asked = [];
window.answered = [];
const PageWorker = window.Worker;
window.Worker = function (url, options) {
  const worker = new PageWorker(url, options);
  const post = worker.postMessage.bind(worker);
  const ops = new Map();
  worker.postMessage = (message, transfer) => {
    if (message && message.op) {
      window.asked.push(message.op);
      ops.set(message.id, message.op);
    }
    return post(message, transfer);
  };
  worker.addEventListener("message", ({ data }) => {
    if (ops.has(data?.id)) window.answered.push(ops.get(data.id));
  });
  return worker;
};
"""
"""Counts the page's requests to its Python worker by op (window.asked), from the start, and
the answers that came (window.answered): under a paused clock, where no frame is drawn, a test
waits for Python's answer, then lets the clock run for the page to draw it."""
PRESS_N_JS = """() => {
    for (const type of ["keydown", "keyup"]) {
        document.body.dispatchEvent(new KeyboardEvent(type, { key: "n", bubbles: true }));
    }
}"""
"""Presses N once, as a held key repeats it."""


def wait_for_answers(page: Page, count: int) -> None:
    """Wait until Python has answered `count` requests (COUNT_REQUESTS_JS's window.answered).

    Asked from here: under a paused clock, the page's frames and timers do not run.
    """
    poll(page, "(count) => window.answered.length >= count", count, timeout_ms=30_000)


def run_until_drawn(page: Page, attribute: str, value: str, most_ms: int) -> int:
    """Under a paused clock, run it 4 ms at a time until #board's `attribute` is `value`.

    The page draws in an animation frame, which the paused clock holds; returns the ms run.
    """
    board = page.locator("#board")
    ran = 0
    while board.get_attribute(attribute) != value:
        assert ran < most_ms, f"#board[{attribute}] still {board.get_attribute(attribute)!r}"
        page.clock.run_for(4)
        ran += 4
    return ran


def play_keys(page: Page, move: str) -> None:
    """Play a move of two places with the keyboard: its source, then its target."""
    blur(page)
    page.keyboard.press(move[0])
    page.keyboard.press(move[1])


class TestGuard:
    def test_a_winnable_game_says_so(self, table: Page, site_url: str) -> None:
        """Without Hint, the board says the game can be won, and so does the indicator."""
        open_in_place(table, f"{site_url}?deal=617&moves=82")
        expect(table.locator("#board")).to_have_attribute("data-solvable", "yes")
        guard = table.locator("#guard")
        expect(guard).to_be_visible()
        expect(guard).to_have_attribute("aria-label", "The game can still be won")
        expect(guard).to_have_attribute("data-verdict", "yes")
        expect(table.locator("#lost")).to_be_hidden()

    @pytest.mark.parametrize(("number", "before", "losing"), LOSING_MOVES)
    def test_the_losing_move_is_named_and_undone(
        self, table: Page, site_url: str, number: int, before: list[str], losing: str
    ) -> None:
        """The move that loses is named at once; the button goes back; Redo loses it again.

        The loss is said when the move is made, not again when Redo plays it back.
        """
        query = f"?deal={number}" + (f"&moves={','.join(before)}" if before else "")
        open_in_place(table, site_url + query)
        board = table.locator("#board")
        expect(board).to_have_attribute("data-solvable", "yes")
        play_keys(table, losing)
        expect(board).to_have_attribute("data-moves", ",".join([*before, losing]))
        expect(board).to_have_attribute("data-solvable", "no")
        expect(table.locator("#message")).to_have_text(lost_sentence(number, before, losing))
        expect(table.locator("#guard")).to_have_attribute("data-verdict", "no")
        back = table.locator("[data-action=undo-to-winnable]")
        expect(back).to_be_visible()
        back.click()
        expect(board).to_have_attribute("data-moves", ",".join(before))
        expect(board).to_have_attribute("data-solvable", "yes")
        expect(back).to_be_hidden()
        expect(table.locator("#announcer")).to_have_text("Back to the last winnable position")
        table.locator("[data-action=redo]").click()
        expect(board).to_have_attribute("data-solvable", "no")
        expect(back).to_be_visible()
        expect(table.locator("#message")).to_have_text("")

    def test_a_lost_game_stays_lost(self, table: Page, site_url: str) -> None:
        """Moves after the loss keep the verdict and the way back; the loss is said once."""
        open_in_place(table, f"{site_url}?deal=617&moves=3a")
        board = table.locator("#board")
        expect(board).to_have_attribute("data-solvable", "no")
        play_keys(table, "3b")
        expect(board).to_have_attribute("data-moves", "3a,3b")
        expect(board).to_have_attribute("data-solvable", "no")
        expect(table.locator("#message")).to_have_text("")
        expect(table.locator("[data-action=undo-to-winnable]")).to_be_visible()
        table.locator("[data-action=undo-to-winnable]").click()
        expect(board).to_have_attribute("data-moves", "")

    def test_a_deal_that_cannot_be_won(self, table: Page, site_url: str) -> None:
        """Deal 11982 is said to be lost on its own, within 30 s, with no way back to offer."""
        began = time.monotonic()
        open_in_place(table, f"{site_url}?deal={IMPOSSIBLE}")
        expect(table.locator("#board")).to_have_attribute("data-solvable", "no", timeout=30_000)
        assert time.monotonic() - began < 30
        expect(table.locator("#message")).to_contain_text("This deal cannot be won")
        expect(table.locator("#guard")).to_have_attribute("data-verdict", "no")
        expect(table.locator("[data-action=undo-to-winnable]")).to_be_hidden()

    def test_deal_changes_during_a_check(self, table: Page, site_url: str) -> None:
        """Next, held down while 11982's proof runs: every change is shown, the last one checked."""
        open_in_place(table, f"{site_url}?deal={IMPOSSIBLE}")
        blur(table)
        for _ in range(10):
            table.keyboard.press("n", delay=20)
        board = table.locator("#board")
        expect(board).to_have_attribute("data-deal", str(IMPOSSIBLE + 10))
        expect(board).to_have_attribute("data-solvable", "yes")
        expect(table.locator("#message")).not_to_contain_text("cannot be won")

    def test_a_held_key_searches_only_where_it_stops(
        self, pages: PageFactory, site_url: str
    ) -> None:
        """Ten deals passed 20 ms apart (a held N): one check, grade, lookup and par, the last's.

        The page's clock is Playwright's, paused: each deal rests 20 ms (longer only while its
        frame waits to be drawn, never SETTLE_MS), however slow the machine, and the last one
        the page's SETTLE_MS.
        """
        page = pages(browser="clock")  # a clock stays in its context: not the shared one
        page.clock.install()
        page.add_init_script(COUNT_REQUESTS_JS)
        boot(page, f"{site_url}?deal=617")
        board = page.locator("#board")
        expect(board).to_have_attribute("data-difficulty", re.compile("."))
        settle_ms = int(re.findall(r"const SETTLE_MS = (\d+);", SETTLE_JS.read_text())[0])
        page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
        try:
            page.evaluate("() => { window.asked = []; window.answered = []; }")
            for number in range(618, 628):
                page.evaluate(PRESS_N_JS)
                wait_for_answers(page, number - 617)
                rested = run_until_drawn(page, "data-deal", str(number), settle_ms - 4)
                page.clock.run_for(max(0, 20 - rested))
            assert page.evaluate("() => window.asked") == ["new_game"] * 10
            page.clock.run_for(settle_ms - 20)
        finally:
            page.clock.resume()  # the context's clock runs again for the next test
        expect(board).to_have_attribute("data-solvable", "yes")
        expect(board).to_have_attribute("data-difficulty", re.compile("."))
        page.wait_for_function("() => window.asked.includes('par')")  # once the guard answered
        asked = page.evaluate("() => window.asked")
        assert sorted(asked[10:]) == ["check", "grade", "min_cells", "par"], asked
        assert asked.index("par") > asked.index("check"), asked

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_in_every_language(self, table: Page, site_url: str, language: str) -> None:
        """The indicator's name and the lost move's sentence are in the page's language."""
        words = js_object(WEB / "i18n" / f"{language}.js")
        open_in_place(table, f"{site_url}?deal=617&moves=3a&lang={language}")
        guard = table.locator("#guard")
        expect(guard).to_have_attribute("aria-label", words["guard.no"])
        before, after = words["guard.lost"].split("{move}")
        expect(table.locator("#message")).to_have_text(
            re.compile(f"^{re.escape(before)}K♣.*{re.escape(after)}$")
        )
        expect(table.locator("[data-action=undo-to-winnable]")).to_have_text(
            words["action.undo-to-winnable"]
        )
        open_in_place(table, f"{site_url}?deal=617&lang=en")


class TestSetting:
    def test_off_is_quiet_and_remembered(self, pages: PageFactory, site_url: str) -> None:
        """Off: no verdict until Hint is asked, even for a lost game; on again after a reload."""
        page = pages()
        boot(page, f"{site_url}?deal=617")
        expect(page.locator("#board")).to_have_attribute("data-solvable", "yes")
        menu(page)
        page.locator("input#live-check").uncheck()
        expect(page.locator("#guard")).to_be_hidden()
        page.locator(".more-toggle").click()
        play_keys(page, "3a")
        expect(page.locator("#board")).to_have_attribute("data-moves", "3a")
        page.wait_for_timeout(1_000)  # the check would take a few hundred ms
        expect(page.locator("#board")).not_to_have_attribute("data-solvable", re.compile("."))
        expect(page.locator("#message")).to_have_text("")
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
        expect(page.locator("input#live-check")).not_to_be_checked()
        page.wait_for_timeout(1_000)  # nothing comes: no event to wait for, so a wait is the point
        expect(page.locator("#board")).not_to_have_attribute("data-solvable", re.compile("."))
        blur(page)
        page.keyboard.press("Shift+H")
        expect(page.locator("#board")).to_have_attribute("data-solvable", "no")
        menu(page)
        page.locator("input#live-check").check()
        expect(page.locator("#guard")).to_have_attribute("data-verdict", "no")


class TestGrade:
    def test_the_grade_is_the_command_lines(self, table: Page, site_url: str) -> None:
        """#board[data-difficulty] is the grade `freecell solve --format json` gives the deal.

        With a link's moves too: the grade is the deal's, from its start. A deal that cannot
        be won has none.
        """
        numbers = [1, 164, 617, 24]
        result = subprocess.run(
            [sys.executable, "-m", "freecell", "solve", "-f", "json", *map(str, numbers)],
            capture_output=True,
            text=True,
            check=True,
        )
        lines = map(json.loads, result.stdout.splitlines())
        grades = {line["deal"]: line["difficulty"] for line in lines}
        assert set(grades.values()) <= set(DIFFICULTY_GRADES)
        board = table.locator("#board")
        for number in numbers:
            open_in_place(table, f"{site_url}?deal={number}")
            expect(board).to_have_attribute("data-difficulty", str(grades[number]))
            expect(table.locator("#difficulty-value")).to_have_text(f"{grades[number]}/5")
        open_in_place(table, f"{site_url}?deal=617&moves=82,52")
        expect(board).to_have_attribute("data-difficulty", str(grades[617]))
        open_in_place(table, f"{site_url}?deal={IMPOSSIBLE}")
        expect(board).to_have_attribute("data-solvable", "no", timeout=30_000)
        expect(board).not_to_have_attribute("data-difficulty", re.compile("."))
        expect(table.locator("#difficulty")).to_be_hidden()

    def test_a_move_during_the_search_keeps_the_grade(
        self, pages: PageFactory, site_url: str
    ) -> None:
        """A move that ends the grade's search before it is done: the deal is graded anyway.

        Deal 657's search takes Python about a second; its first move is played as soon as the
        page asks for the grade (the page's clock, paused, lets the deal rest SETTLE_MS).
        """
        page = pages(browser="clock")  # a clock stays in its context: not the shared one
        page.clock.install()
        page.add_init_script(COUNT_REQUESTS_JS)
        boot(page, f"{site_url}?deal=617")
        board = page.locator("#board")
        expect(board).to_have_attribute("data-difficulty", re.compile("."))
        page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
        try:
            page.evaluate("() => { window.answered = []; }")
            page.locator("#deal").fill("657")
            page.locator("#deal").press("Enter")
            wait_for_answers(page, 1)
            settle_ms = int(re.findall(r"const SETTLE_MS = (\d+);", SETTLE_JS.read_text())[0])
            rested = run_until_drawn(page, "data-deal", "657", settle_ms)
            page.clock.run_for(settle_ms - rested)  # the deal drawn, and rested
            play_keys(page, "5a")
            wait_for_answers(page, 2)
        finally:
            page.clock.resume()  # the context's clock runs again for the next test
        expect(board).to_have_attribute("data-moves", "5a")
        expect(board).to_have_attribute("data-difficulty", "4")


class TestScreenshots:
    @pytest.mark.parametrize(("device", "options"), DEVICES)
    def test_the_verdict_and_the_way_back_fit(
        self,
        pages: PageFactory,
        site_url: str,
        request: pytest.FixtureRequest,
        device: str,
        options: dict[str, Any],
    ) -> None:
        """A lost game: the indicator, the message and the button are on screen, light and dark."""
        url = f"{site_url}?deal=617&moves=5a,5b,5c,5d"
        if options:
            page = pages(**options, reduced_motion="reduce")
            boot(page, url)
        else:  # the desktop: the module's running page
            page = request.getfixturevalue("still_table")
            open_in_place(page, url)
        expect(page.locator("#guard")).to_have_attribute("data-verdict", "no")
        expect(page.locator("#board")).to_have_attribute("data-difficulty", re.compile("[1-5]"))
        viewport = page.viewport_size or {"width": 1280, "height": 720}
        for selector in ("#guard", "#message", "[data-action=undo-to-winnable]", "#difficulty"):
            expect(page.locator(selector)).to_be_visible()  # the message may come a frame later
            box = page.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["x"] >= 0, selector
            assert box["y"] >= 0, selector
            assert box["x"] + box["width"] <= viewport["width"], selector
            assert box["y"] + box["height"] <= viewport["height"], selector
        screenshots(page, request.config, f"guard/lost-{device}")
