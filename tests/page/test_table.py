"""The table as a player meets it, in a real Chromium: it fits, it shows targets, it keeps score.

Each broken behaviour the table issue listed has a test here; so do the dialogs, the
statistics, reduced motion, and accessibility (axe-core, 0 violations).
"""

from __future__ import annotations

import json
import re
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from devtools import pips
from freecell import Game, Position
from helpers import (
    PHONE_OPTIONS,
    ROOT,
    SNAPSHOT_JS,
    WATCH_ANIMATIONS_JS,
    ContextFactory,
    PageFactory,
    blur,
    boot,
    columns_of,
    engine_after,
    link,
    menu,
    moves_of,
    open_in_place,
    poll,
    press,
    screenshots,
    shown_columns,
    solution,
    tap_to_move,
    worker_marks,
)

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(360, 640), (360, 740), (1024, 600), (1280, 800), (1920, 1080), (2560, 1440)]
FITS_JS = """() => {
    const cards = Array.from(document.querySelectorAll("#table [data-card]"));
    const bottom = Math.max(...cards.map((card) => card.getBoundingClientRect().bottom));
    const right = Math.max(...cards.map((card) => card.getBoundingClientRect().right));
    const doc = document.documentElement;
    return {bottom, right, width: innerWidth, height: innerHeight,
            scrollHeight: doc.scrollHeight, scrollWidth: doc.scrollWidth,
            cardWidth: cards[0].getBoundingClientRect().width};
}"""


def long_cascade() -> tuple[int, list[str]]:
    """Return deal 22 and the first moves of its fc-solve solution that build 17 cards in a row."""
    moves = solution(22)[:56]
    assert max(len(cascade) for cascade in engine_after(22, moves)["cascades"]) == 17
    return 22, moves


class TestPips:
    def test_each_png_is_its_svg(self, page: Page) -> None:
        """The cards' pips (PNGs, upright and turned) are the suits' SVG shapes, in Chromium."""
        css = pips.CARDS_CSS.read_text()
        shapes = list(pips.SUIT_RULE.finditer(css))
        assert sorted(shape["suit"] for shape in shapes) == sorted(pips.suit_shapes(css))
        assert len(shapes) == 4
        size = pips.PIP_PX
        for shape in shapes:
            for png, turned in ((shape["up"], False), (shape["down"], True)):
                assert png, (shape["suit"], turned)
                drawn = page.evaluate(pips.ALPHA_JS, [shape["svg"], size, turned])
                raster = page.evaluate(pips.ALPHA_JS, [png, size, False])
                differences = [abs(a - b) for a, b in zip(drawn, raster, strict=True)]
                assert sum(drawn) > size * size * 255 * 0.2  # a shape, not an empty square
                assert sum(differences) / len(differences) < 1, (shape["suit"], turned)
                assert max(differences) < 64, (shape["suit"], turned)


class TestTargets:
    def test_cascades_with_cards_are_marked(self, table: Page, site_url: str) -> None:
        """Q♥ of deal 617 picked up: K♠ and K♣ and the free cells are marked, visibly."""
        open_in_place(table, link(site_url, 617, []))
        table.locator("[data-card='QH']").click()
        targets = table.locator("[data-target]")
        expect(targets).to_have_count(6)
        for code in ("KS", "KC"):
            card = table.locator(f"[data-column] [data-card='{code}']")
            expect(card).to_have_attribute("data-target", "true")
            style = card.evaluate("(e) => getComputedStyle(e).outlineStyle")
            assert style != "none"
        expect(table.locator("[data-freecell][data-target]")).to_have_count(4)

    def test_the_foundation_of_the_suit(self, table: Page, site_url: str) -> None:
        """An ace picked up marks its own suit's foundation (A♦: the second)."""
        open_in_place(
            table, link(site_url, 1, ["5a", "5b", "5c", "5d"])
        )  # a link adds no auto move
        table.locator("[data-card='AD']").click()
        expect(table.locator("[data-foundation][data-target]")).to_have_attribute(
            "data-foundation", "1"
        )


class TestAutoMove:
    def test_turning_it_on_plays_the_safe_moves(self, table: Page, site_url: str) -> None:
        """Deal 1, auto-play off, 5a 5b 5c 5d: choosing `safe` sends A♦ home at once."""
        open_in_place(table, link(site_url, 1, ["5a", "5b", "5c", "5d"]))
        menu(table)
        select = table.locator("select#auto")
        select.select_option("off")
        select.select_option("safe")
        expect(table.locator("#board")).to_have_attribute("data-moves", "5a,5b,5c,5d,5h")
        expect(table.locator("[data-foundation='1'] [data-card='AD']")).to_have_count(1)


class TestInputIsNeverLost:
    def test_ten_nexts(self, table: Page, site_url: str) -> None:
        """Ten N presses with no gap from deal 100 land on deal 110."""
        open_in_place(table, link(site_url, 100, []))
        blur(table)
        for _ in range(10):
            table.keyboard.press("n")
        expect(table.locator("#board")).to_have_attribute("data-deal", "110")

    def test_a_render_keeps_the_cards_it_does_not_move(self, page: Page, site_url: str) -> None:
        """A render that moves no card rebuilds none, even on a page opened with no cascade.

        A press on a card whose release came after a render that rebuilt it (a reply of the
        live guard, say) would lose the click. A page opened at deal 1 one move from the win
        (its cascades all empty) rebuilt its free cells' and foundations' cards on every render.
        """
        moves = solution(1)[:-1]
        assert not any(engine_after(1, moves)["cascades"])
        boot(page, link(site_url, 1, moves))
        cards = page.locator("[data-freecell] [data-card], [data-foundation] [data-card]")
        kept = [card.element_handle() for card in cards.all()]
        page.locator("[data-card='KD']").click()  # picked up: a render, and one with targets
        expect(page.locator("[data-card='KD'][aria-current]")).to_have_count(1)
        expect(page.locator("[data-target]").first).to_be_attached()
        assert [handle.evaluate("(card) => card.isConnected") for handle in kept] == [True] * 5

    def test_keys_at_ready(self, make_context: ContextFactory, site_url: str) -> None:
        """`8` `a` pressed the moment the page is ready make the move, every time.

        On a first visit (a cold context) and on a visit that resumes Python (the context's
        next page, once the first visit has stored its snapshot).
        """
        with make_context() as context:
            for repeat in (False, True):
                page = context.new_page()
                boot(page, link(site_url, 617, []))
                page.keyboard.press("8")
                page.keyboard.press("a")
                expect(page.locator("#board")).to_have_attribute("data-moves", "8a")
                assert ("snapshot-found" in worker_marks(page)) == repeat  # Python resumed
                poll(page, SNAPSHOT_JS)  # in the context's cache: its next page resumes


class TestBadLinks:
    @pytest.mark.parametrize(
        ("query", "action"), [("deal=0", "next"), ("deal=1&deal=2", "prev"), ("deal=abc", "next")]
    )
    def test_a_message_and_a_board_then_next_and_prev_go_on(
        self, page: Page, site_url: str, query: str, action: str
    ) -> None:
        """A bad deal in a link: its message over a random deal the URL names; Next steps on.

        As a bad date or grade is: one rule for every bad link, a message and a board.
        """
        boot(page, f"{site_url}?{query}")
        expect(page.locator("#message")).to_contain_text("1 to 8589934591")
        board = page.locator("#board")
        expect(board).to_have_attribute("data-deal", re.compile(r"^\d+$"))
        shown = int(board.get_attribute("data-deal") or 0)
        assert shown_columns(page) == columns_of(shown)
        assert parse_qs(urlsplit(page.url).query)["deal"] == [str(shown)]
        press(page, action)
        after = shown + (1 if action == "next" else -1)
        expect(board).to_have_attribute("data-deal", str(after if after >= 1 else -1))

    def test_after_a_bad_number_next_goes_on(self, table: Page, site_url: str) -> None:
        """A bad typed number leaves the deal shown; Next steps from it."""
        open_in_place(table, link(site_url, 617, []))
        table.locator("#deal").fill("0")
        table.locator("#deal").press("Enter")
        expect(table.locator("#message")).to_contain_text("1 to 8589934591")
        press(table, "next")
        expect(table.locator("#board")).to_have_attribute("data-deal", "618")


class TestNoLayoutShift:
    def test_messages_and_the_win_do_not_move_the_table(self, table: Page, site_url: str) -> None:
        """A refusal and the win banner appear over the table: it does not move."""
        moves = solution(1)
        open_in_place(table, link(site_url, 1, moves[:-1]))
        board = table.locator("#board")
        before = board.bounding_box()
        table.locator("[data-foundation='0']").click()  # cards never leave: a message appears
        expect(table.locator("#message")).not_to_be_empty()
        assert board.bounding_box() == before
        table.locator("[data-freecell='2'] [data-card]").click()
        table.locator("[data-foundation='0']").click()
        expect(table.locator("#win")).to_be_visible()
        assert board.bounding_box() == before
        win = table.locator("#win").bounding_box()
        felt = table.locator("#table").bounding_box()
        assert win is not None
        assert felt is not None
        middle = win["x"] + win["width"] / 2
        assert abs(middle - (felt["x"] + felt["width"] / 2)) < 2

    def test_figures_that_come_later_never_wrap_the_bar(self, table: Page, site_url: str) -> None:
        """A deal's grade and free cells, shown a moment after it, fit the bar before a frame."""
        open_in_place(table, link(site_url, 2, []))
        expect(table.locator("#board")).to_have_attribute("data-difficulty", re.compile("."))
        # The bar as a deal without figures leaves it (an impossible one), fitted before they
        # came (on a wider window): every word shown. The heights it has, each time its size
        # changes, are recorded before the frame is drawn.
        table.evaluate(
            """() => {
              for (const id of ["difficulty", "grade", "min-cells"]) {
                document.getElementById(id).hidden = true;
              }
              const bar = document.querySelector(".bar");
              delete bar.dataset.fit;
              window.barHeights = [];
              new ResizeObserver(([entry]) => window.barHeights.push(entry.contentRect.height))
                .observe(bar);
            }"""
        )
        open_in_place(table, link(site_url, 1, solution(1)[:-1]))  # 126 moves: a wide count
        expect(table.locator("#board")).to_have_attribute("data-difficulty", re.compile("."))
        heights = table.evaluate("window.barHeights")
        assert heights
        assert len(set(heights)) == 1, heights


class TestOneDrawAFrame:
    def test_many_asks_in_a_frame_draw_once(self, table: Page, site_url: str) -> None:
        """Four changes in one task (show-par switched four times) draw the page once.

        In the next frame: every draw writes <html data-state>, each write one mutation record.
        The deal's searches have answered first (guard, grade, fewest cells, par): a reply of
        theirs between the two frames would draw again.
        """
        open_in_place(table, link(site_url, 617, []))
        board = table.locator("#board")
        expect(board).to_have_attribute("data-solvable", "yes")
        for answered in ("data-difficulty", "data-min-cells", "data-par"):
            expect(board).to_have_attribute(answered, re.compile(r"^\d+$"))
        draws = table.evaluate(
            """() => new Promise((resolve) => {
              const records = [];
              const observer = new MutationObserver((list) => records.push(...list));
              observer.observe(document.documentElement, { attributeFilter: ["data-state"] });
              const box = document.querySelector("#show-par");
              for (let turn = 0; turn < 4; turn += 1) {
                box.checked = !box.checked;
                box.dispatchEvent(new Event("change", { bubbles: true }));
              }
              records.push(...observer.takeRecords());
              const now = records.length;
              requestAnimationFrame(() => requestAnimationFrame(() => {
                records.push(...observer.takeRecords());
                observer.disconnect();
                resolve({ now, after: records.length });
              }));
            })"""
        )
        assert draws == {"now": 0, "after": 1}
        expect(table.locator("#show-par")).to_be_checked()


class TestEmptyCascade:
    @staticmethod
    def position() -> tuple[int, list[str], str, str, int]:
        """Return a game of deal 617 with an empty cascade and a run of 2+ that may go there.

        That is the deal, the moves, the run's cascade, the empty one and the run's length.
        """
        moves = solution(617)
        game = Game.from_deal_number(617)
        for index, move in enumerate(moves):
            game.push(move)
            position: Position = game.position
            empty = [str(k + 1) for k, cascade in enumerate(position.cascades) if not cascade]
            if not empty or position.max_run(to_empty_cascade=True) < 2:
                continue
            for k in range(8):
                run = position.run_at(str(k + 1))
                if len(run) >= 2 and len(position.cascades[k]) > len(run):
                    count = min(len(run), position.max_run(to_empty_cascade=True))
                    return 617, moves[: index + 1], str(k + 1), empty[0], count
        pytest.fail("no such position in the solution")

    def test_a_click_takes_the_run(self, table: Page, site_url: str) -> None:
        """A click on a run's bottom card, then an empty cascade, moves all the run that may go."""
        number, moves, source, empty, count = self.position()
        open_in_place(table, link(site_url, number, moves))
        table.locator(f"[data-column='{source}'] [data-card]").last.click()
        table.locator(f"[data-column='{empty}']").click()
        expect(table.locator(f"[data-column='{empty}'] [data-card]")).to_have_count(count)

    def test_a_drag_of_one_card_moves_one(self, table: Page, site_url: str) -> None:
        """Dragging a run's bottom card to an empty cascade moves that one card."""
        number, moves, source, empty, _ = self.position()
        open_in_place(table, link(site_url, number, moves))
        card = table.locator(f"[data-column='{source}'] [data-card]").last
        box = card.bounding_box()
        target = table.locator(f"[data-column='{empty}']").bounding_box()
        assert box is not None
        assert target is not None
        table.mouse.move(box["x"] + box["width"] / 2, box["y"] + 10)
        table.mouse.down()
        table.mouse.move(target["x"] + target["width"] / 2, target["y"] + 20, steps=8)
        table.mouse.up()
        expect(table.locator(f"[data-column='{empty}'] [data-card]")).to_have_count(1)
        assert moves_of(table)[-1] == f"{source}{empty}"


class TestDialogs:
    @pytest.mark.parametrize(
        ("key", "dialog", "action"), [("?", "help", "help"), ("i", "stats", "stats")]
    )
    def test_focus_and_escape(
        self, table: Page, site_url: str, key: str, dialog: str, action: str
    ) -> None:
        """A dialog takes the focus, closes with Esc or its button, and gives focus back."""
        open_in_place(table, link(site_url, 617, []))
        blur(table)
        table.keyboard.press(key)
        window = table.locator(f"dialog#{dialog}")
        expect(window).to_be_visible()
        assert table.evaluate(
            f"() => document.getElementById('{dialog}').contains(document.activeElement)"
        )
        table.keyboard.press("n")  # the game's keys rest while a window is open
        expect(table.locator("#board")).to_have_attribute("data-deal", "617")
        table.keyboard.press("Escape")
        expect(window).to_be_hidden()
        press(table, action)
        expect(window).to_be_visible()
        window.locator("[data-action=close]").click()
        expect(window).to_be_hidden()
        expect(table.locator(".more-toggle")).to_be_focused()


def stats_shown(page: Page) -> dict[str, str]:
    """Open the statistics, read the figures, close it."""
    press(page, "stats")
    figures = {
        name: page.locator(f"dialog#stats [data-stat={name}]").inner_text()
        for name in ("played", "won", "streak", "best-streak")
    }
    page.keyboard.press("Escape")
    return figures


PRESS_KEYS_JS = """(keys) => {
    for (const key of keys) {
        for (const type of ["keydown", "keyup"]) {
            document.body.dispatchEvent(new KeyboardEvent(type, { key, bubbles: true }));
        }
    }
}"""
"""Presses keys one after another at once, as fast as a page can be given them."""


STORED_PLAYED_JS = """(played) =>
    JSON.parse(localStorage.getItem("freecell.stats") ?? "{}").played === played"""
"""Whether the stored record counts `played` games."""


WRITTEN_JS = """async (played) =>
    JSON.parse(localStorage.getItem("freecell.stats") ?? "{}").played === played
    && (await navigator.locks.query()).held.length === 0
    && (await navigator.locks.query()).pending.length === 0"""
"""Whether the stored record counts `played` games and no write waits for the tabs' lock."""


NO_LOCKS_JS = "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"
"""Takes the Web Locks API away, as in a browser without it."""


def press_keys(page: Page, *keys: str) -> None:
    """Press keys on the page's shortcuts, the focus out of any control."""
    blur(page)
    for key in keys:
        page.keyboard.press(key)


class TestStatistics:
    def test_played_won_streak_across_reloads(self, page: Page, site_url: str) -> None:
        """A first move counts a game played, once; a win counts once; both survive a reload.

        The first reload opens the same deal further on: the game resumed, not played again.
        """
        boot(page, link(site_url, 1, []))
        assert stats_shown(page) == {"played": "0", "won": "0", "streak": "0", "best-streak": "0"}
        page.locator("[data-card='6C']").dblclick()
        expect(page.locator("#moves-count")).to_have_text("1")
        assert stats_shown(page)["played"] == "1"
        moves = solution(1)
        boot(page, link(site_url, 1, moves[:-1]))  # the same deal, resumed: not played again
        assert stats_shown(page)["played"] == "1"
        page.locator("[data-freecell='2'] [data-card]").click()
        page.locator("[data-foundation='0']").click()
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        figures = stats_shown(page)
        assert figures == {"played": "1", "won": "1", "streak": "1", "best-streak": "1"}
        boot(page, page.url)
        assert stats_shown(page)["won"] == "1"
        press(page, "play-next")
        expect(page.locator("#board")).to_have_attribute("data-deal", "2")
        press(page, "prev")
        counted = engine_after(1, moves)["player_moves"]  # the moves not home
        expect(page.locator("#message")).to_contain_text(
            f"You won this deal before, in {counted} moves"
        )

    def test_a_link_with_moves_counts_as_played(self, page: Page, site_url: str) -> None:
        """Someone's link to a game in progress counts as a game played once, when opened."""
        boot(page, link(site_url, 5, ["5a", "5b"]))
        assert stats_shown(page)["played"] == "1"
        page.locator("[data-action=undo]").click()
        expect(page.locator("#moves-count")).to_have_text("1")
        assert stats_shown(page)["played"] == "1"

    def test_leaving_an_unfinished_game_breaks_the_streak(self, page: Page, site_url: str) -> None:
        """Next from a game with moves, not won, counts it played and ends the streak."""
        record = {"version": 1, "played": 3, "won": 3, "streak": 3, "best": 3, "deals": {}}
        page.add_init_script(f"localStorage.setItem('freecell.stats', '{json.dumps(record)}')")
        boot(page, link(site_url, 1, []))
        page.locator("[data-card='6C']").dblclick()
        expect(page.locator("#moves-count")).to_have_text("1")
        press(page, "next")
        expect(page.locator("#board")).to_have_attribute("data-deal", "2")
        figures = stats_shown(page)
        assert figures == {"played": "4", "won": "3", "streak": "0", "best-streak": "3"}

    def test_another_tab_sees_each_game_counted(self, pages: PageFactory, site_url: str) -> None:
        """A tab that has read the statistics sees what another tab counts afterwards."""
        first, second = pages(), pages()
        boot(first, link(site_url, 1, []))
        boot(second, link(site_url, 2, []))
        assert stats_shown(second)["played"] == "0"
        first.locator("[data-card='6C']").dblclick()
        expect(first.locator("#moves-count")).to_have_text("1")
        second.bring_to_front()
        assert stats_shown(second)["played"] == "1"
        second.locator("[data-card='AS']").dblclick()  # home, from deal 2's first cascade
        expect(second.locator("#board")).to_have_attribute("data-moves", re.compile(r"h$"))
        expect(second.locator("#moves-count")).to_have_text("0")  # a move home is free
        first.bring_to_front()
        assert stats_shown(first)["played"] == "2"

    def test_two_tabs_count_each_game_once(self, pages: PageFactory, site_url: str) -> None:
        """Two tabs, each at its own deal, moving in turn: two games played, not one a move."""
        tabs = {1: pages(), 2: pages()}  # two tabs of one browser: they share the storage
        for number, tab in tabs.items():
            boot(tab, link(site_url, number, []))
        for move in ["1a", "2b", "3c", "4d"]:
            for number, tab in tabs.items():
                press_keys(tab, *move)
                expect(tab.locator("#board")).to_have_attribute(
                    "data-moves", re.compile(rf"(^|,){move}(,|$)")
                )
                # In turn: this tab's write is stored (and its lock free) before the other moves.
                played = number if move == "1a" else len(tabs)
                poll(tab, WRITTEN_JS, played)
        for tab in tabs.values():
            assert stats_shown(tab)["played"] == "2"

    @pytest.mark.parametrize("locks", [True, False], ids=["web-locks", "no-web-locks"])
    def test_two_tabs_at_the_same_moment_lose_no_update(
        self, pages: PageFactory, site_url: str, locks: bool
    ) -> None:
        """Both tabs pressing N, 1, A at once, again and again: every game each starts counts.

        With Web Locks (Chromium has them) and without (an older browser's page).
        """
        tabs = [pages(), pages()]
        for number, tab in enumerate(tabs, start=1):
            if not locks:
                tab.add_init_script(NO_LOCKS_JS)
            boot(tab, link(site_url, number, []))
            assert tab.evaluate("() => Boolean(navigator.locks)") is locks
        rounds = 10
        for done in range(1, rounds + 1):
            for tab in tabs:  # dispatched without waiting: both tabs work at the same time
                tab.evaluate(PRESS_KEYS_JS, ["n", "1", "a"])
            for number, tab in enumerate(tabs, start=1):
                board = tab.locator("#board")
                expect(board).to_have_attribute("data-deal", str(number + done))
                expect(board).to_have_attribute("data-moves", re.compile(r"^1a"))
        for tab in tabs:
            tab.bring_to_front()
            assert stats_shown(tab)["played"] == str(2 * rounds)

    def test_a_tab_that_writes_an_older_record_loses_no_game(
        self, pages: PageFactory, site_url: str
    ) -> None:
        """A record written over from a copy without another tab's game: that game comes back."""
        first, second = pages(), pages()
        boot(first, link(site_url, 1, []))
        boot(second, link(site_url, 2, []))
        first.locator("[data-card='6C']").dblclick()
        expect(first.locator("#moves-count")).to_have_text("1")
        poll(second, STORED_PLAYED_JS, 1)
        older = {"version": 1, "played": 0, "won": 0, "streak": 0, "best": 0, "deals": {}}
        second.evaluate(f"() => localStorage.setItem('freecell.stats', '{json.dumps(older)}')")
        poll(second, STORED_PLAYED_JS, 1)
        assert stats_shown(first)["played"] == "1"

    def test_a_corrupted_record_keeps_what_is_sound(self, page: Page, site_url: str) -> None:
        """Bad values in the stored record cost only themselves; the page works on."""
        record = {"played": "many", "won": 2, "streak": -4, "best": 5,
                  "deals": {"7": {"won": True, "fewest": 88}, "x": 1}}  # fmt: skip
        page.add_init_script(f"localStorage.setItem('freecell.stats', '{json.dumps(record)}')")
        boot(page, link(site_url, 7, []))
        expect(page.locator("#message")).to_contain_text("in 88 moves")
        figures = stats_shown(page)
        assert figures == {"played": "0", "won": "0", "streak": "0", "best-streak": "5"}

    def test_reset_asks_first(self, table: Page, site_url: str) -> None:
        """Reset asks for confirmation; Keep keeps, Reset forgets."""
        open_in_place(table, link(site_url, 617, []))
        table.locator("[data-card='QH']").dblclick()  # a first move: a game played, at least
        expect(table.locator("#board")).to_have_attribute("data-moves", "82")
        played = stats_shown(table)["played"]
        assert played != "0"
        press(table, "stats")
        table.locator("[data-action=stats-reset]").click()
        table.locator("[data-action=stats-reset-no]").click()
        expect(table.locator("[data-stat=played]")).to_have_text(played)
        table.locator("[data-action=stats-reset]").click()
        table.locator("[data-action=stats-reset-yes]").click()
        expect(table.locator("[data-stat=played]")).to_have_text("0")

    def test_a_game_won_after_a_reset_counts_played_and_won(
        self, page: Page, site_url: str
    ) -> None:
        """Reset in the middle of a game, then the win: one game played and won, not 0 and 0."""
        moves = solution(1)
        boot(page, link(site_url, 1, moves[:-1]))
        press(page, "stats")
        page.locator("[data-action=stats-reset]").click()
        page.locator("[data-action=stats-reset-yes]").click()
        expect(page.locator("[data-stat=played]")).to_have_text("0")
        page.keyboard.press("Escape")
        page.locator("[data-freecell='2'] [data-card]").click()
        page.locator("[data-foundation='0']").click()
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        figures = stats_shown(page)
        assert figures == {"played": "1", "won": "1", "streak": "1", "best-streak": "1"}


class TestMotion:
    def test_moves_glide(self, table: Page, site_url: str) -> None:
        """With motion allowed, a move's card glides (an animation runs).

        Watched every frame from before the move: a glide may end before a poll comes.
        """
        open_in_place(table, link(site_url, 617, []))
        table.evaluate(WATCH_ANIMATIONS_JS)
        table.locator("[data-card='QH']").dblclick()
        expect(table.locator("#board")).to_have_attribute("data-moves", "82")
        poll(table, "() => window.__animated === true", timeout_ms=5000)

    def test_reduced_motion_has_none(self, still_table: Page, site_url: str) -> None:
        """Under prefers-reduced-motion nothing animates, and the move is there at once."""
        open_in_place(still_table, link(site_url, 1, ["5a", "5b", "5c"]))
        blur(still_table)
        still_table.keyboard.press("5")
        still_table.keyboard.press("d")
        expect(still_table.locator("#board")).to_have_attribute("data-moves", "5a,5b,5c,5d,5h")
        assert still_table.evaluate("() => document.getAnimations().length") == 0


class TestScreenReaders:
    def test_moves_are_said(self, table: Page, site_url: str) -> None:
        """Each move, automatic ones too, is said in the polite live region."""
        open_in_place(table, link(site_url, 1, ["5a", "5b", "5c"]))
        blur(table)
        table.keyboard.press("5")
        expect(table.locator("#announcer")).to_have_text("J♠ picked up")
        table.keyboard.press("d")
        expect(table.locator("#announcer")).to_have_text("J♠ to free cell D; A♦ home")

    @pytest.mark.parametrize("where", ["start", "selection", "help", "stats", "won"])
    def test_axe_finds_nothing(self, table: Page, site_url: str, where: str) -> None:
        """axe-core finds no violation: at the start, with a selection, in dialogs, at a win."""
        moves = solution(1)
        open_in_place(table, link(site_url, 1, moves[:-1] if where == "won" else []))
        if where == "selection":
            table.locator("[data-card='6S']").click()
        elif where in ("help", "stats"):
            press(table, where)
        elif where == "won":
            table.locator("[data-freecell='2'] [data-card]").click()
            table.locator("[data-foundation='0']").click()
            expect(table.locator("#win")).to_be_visible()
        table.evaluate(AXE.read_text())  # evaluate, not a <script>: the table's CSP forbids inline
        result = cast(
            list[dict[str, Any]],
            table.evaluate("""() => axe.run(document, {resultTypes: ["violations"]})
                .then((r) => r.violations.map((v) => ({id: v.id, nodes: v.nodes.length,
                    target: v.nodes[0]?.target})))"""),
        )
        assert result == []


class TestEverySize:
    @pytest.mark.parametrize("device", ["phone", "desktop"])
    def test_fit_and_screenshots(
        self, pages: PageFactory, site_url: str, request: pytest.FixtureRequest, device: str
    ) -> None:
        """Every game fits without scrolling, a 17-card cascade too; screenshots to look at.

        At each size of the device, in one page (the desktop's: the module's running page): at
        the start, with a long cascade and a selection, and won; light and dark, English and
        Russian. Under reduced motion, so that each is taken as soon as the page is still (no
        glide, no celebration, no colour transitions to wait for). On large screens the cards
        grow past the old 104 px limit.
        """
        phone = PHONE_OPTIONS if device == "phone" else {}
        sizes = [(width, height) for width, height in SIZES if (width < 500) == bool(phone)]
        number, moves = long_cascade()
        won = solution(1)
        shots = {
            "start": link(site_url, 617, []),
            "long": link(site_url, number, moves),
            "won": link(site_url, 1, won[:-1]),
        }
        if phone:
            page = pages(**phone, reduced_motion="reduce")
            boot(page, f"{shots['start']}&lang=en")
            tap_to_move(page, on=False)  # a tap picks a card up, for the selection's screenshots
        else:
            page = request.getfixturevalue("still_table")
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            for language in ("en", "ru"):
                for name, url in shots.items():
                    open_in_place(page, f"{url}&lang={language}")
                    expect(page.locator("html")).to_have_attribute("lang", language)
                    fit = cast(dict[str, float], page.evaluate(FITS_JS))
                    where = (name, width, height, fit)
                    assert fit["bottom"] <= fit["height"] + 0.5, where
                    assert fit["right"] <= fit["width"] + 0.5, where
                    assert fit["scrollHeight"] <= fit["height"], where
                    assert fit["scrollWidth"] <= fit["width"], where
                    if width >= 1920:
                        assert fit["cardWidth"] > 104, where
                    if name == "long":
                        page.locator("#board [data-column] [data-card]").last.click()
                        expect(page.locator("[aria-current]").first).to_be_visible()
                    if name == "won":
                        page.locator("[data-freecell='2'] [data-card]").click()
                        page.locator("[data-foundation='0']").click()
                        expect(page.locator("#win")).to_be_visible()
                    screenshots(page, request.config, f"table/{name}-{width}x{height}-{language}")
                    scrolled = cast(dict[str, float], page.evaluate(FITS_JS))["scrollHeight"]
                    assert scrolled <= height, where
        if not phone:
            open_in_place(page, f"{shots['start']}&lang=en")  # the table's language again
