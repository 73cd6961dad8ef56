"""Playing a deal in the page, in a real Chromium: click, drag, keys, undo, links that replay.

The Python engine (freecell.Game) is the oracle: after any moves, the page must show exactly the
engine's snapshot after the same moves. Every test opens the link it needs in the module's running
page (conftest's `table`), or the phone's in the module's phone page (`phone`); tests of what a
page opened fresh or reloaded shows, or of a language a link chose, boot pages of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from helpers import (
    DESKTOP,
    PHONE,
    PHONE_OPTIONS,
    WEB,
    PageFactory,
    blur,
    boot,
    center,
    engine_after,
    js_object,
    link,
    mouse_drag,
    moves_of,
    open_in_place,
    press,
    screenshot,
    screenshots,
    set_auto,
    settle,
    solution,
    tap_to_move,
)

TABLE_JS = """() => ({
    cascades: Array.from(document.querySelectorAll("#board [data-column]"),
        (column) => Array.from(column.querySelectorAll("[data-card]"), (c) => c.dataset.card)),
    freecells: Array.from(document.querySelectorAll("[data-freecell]"),
        (slot) => slot.querySelector("[data-card]")?.dataset.card ?? null),
    foundations: Array.from(document.querySelectorAll("[data-foundation]"),
        (slot) => slot.querySelector("[data-card]")?.dataset.card ?? null),
})"""


# --- helpers ------------------------------------------------------------------------------------


def engine_table(number: int, moves: list[str]) -> dict[str, Any]:
    """Return what the engine says the table holds after `moves` from deal `number`."""
    snap = engine_after(number, moves)
    return {
        "cascades": snap["cascades"],
        "freecells": snap["freecells"],
        "foundations": snap["foundations"],
    }


def shown_table(page: Page) -> dict[str, Any]:
    """Return the card codes the page shows in the cascades, free cells and foundations."""
    return cast(dict[str, Any], page.evaluate(TABLE_JS))


def url_moves(page: Page) -> str:
    """Return the `moves` parameter of the page's URL ('' when there is none)."""
    return parse_qs(urlsplit(page.url).query).get("moves", [""])[0]


def open_game(page: Page, site_url: str, number: int, moves: list[str] | None = None) -> None:
    """Open deal `number` with `moves` from a link, in a running page; wait for those moves."""
    open_in_place(page, link(site_url, number, moves))
    expect_moves(page, moves or [])


def expect_moves(page: Page, moves: list[str]) -> None:
    """Wait until the board's moves are `moves`, and the URL carries them."""
    expect(page.locator("#board")).to_have_attribute("data-moves", ",".join(moves))
    expect(page).to_have_url(
        re.compile(r"moves=" + re.escape(",".join(moves)) if moves else r"^[^&]*deal=\d+$")
    )


def card(page: Page, code: str) -> Locator:
    """Return the element of a card, wherever it is."""
    return page.locator(f"#table [data-card='{code}']")


def dress(page: Page, viewport: ViewportSize, **media: Any) -> None:
    """Give a running page a viewport and media features (light, with motion, unless given)."""
    page.set_viewport_size(viewport)
    page.emulate_media(**{"color_scheme": "light", "reduced_motion": "no-preference", **media})


def put_back(page: Page, viewport: ViewportSize) -> None:
    """Put a shared page's looks back: its viewport, light, with motion, scrolled to the top."""
    dress(page, viewport)
    page.evaluate("() => window.scrollTo(0, 0)")


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def phone(running_phone: Page) -> Iterator[Page]:
    """Return the module's phone page, settled as `table` is; its looks are put back after."""
    settle(running_phone)
    yield running_phone
    put_back(running_phone, PHONE)


@pytest.fixture
def desktop(table: Page) -> Iterator[Page]:
    """Return `table`, for a test that changes its looks: they are put back after."""
    yield table
    put_back(table, DESKTOP)


# --- tests --------------------------------------------------------------------------------------


class TestClick:
    def test_card_then_free_cell(self, table: Page, site_url: str) -> None:
        """Clicking a cascade's bottom card and then a free cell moves it there."""
        open_game(table, site_url, 1)
        card(table, "6C").click()
        expect(card(table, "6C")).to_have_attribute("aria-current", "true")
        table.locator("[data-freecell='1']").click()
        expect_moves(table, ["5b"])
        expect(table.locator("[data-freecell='1'] [data-card='6C']")).to_have_count(1)
        expect(table.locator("#moves-count")).to_have_text("1")
        assert shown_table(table) == engine_table(1, ["5b"])

    def test_click_again_drops_the_card(self, table: Page, site_url: str) -> None:
        """Clicking the picked-up card again puts it down: nothing moves."""
        open_game(table, site_url, 1)
        card(table, "6C").click()
        card(table, "6C").click()
        expect(table.locator("[aria-current]")).to_have_count(0)
        assert moves_of(table) == []

    def test_double_click_sends_a_card(self, table: Page, site_url: str) -> None:
        """A double click plays the engine's best move for the card."""
        open_game(table, site_url, 617)
        card(table, "QH").dblclick()
        expect_moves(table, ["82"])
        assert shown_table(table) == engine_table(617, ["82"])

    def test_auto_moves_follow(self, table: Page, site_url: str) -> None:
        """With safe auto-move on, the safe moves home follow, each its own token."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        card(table, "JS").click()
        table.locator("[data-freecell='3']").click()
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        expect(table.locator("[data-foundation] [data-card='AD']")).to_have_count(1)

    def test_auto_move_off_is_remembered(self, table: Page, site_url: str) -> None:
        """With auto-move off only the user's move is played, and the setting survives a reload."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        set_auto(table, "off")
        card(table, "JS").click()
        table.locator("[data-freecell='3']").click()
        expect_moves(table, ["5a", "5b", "5c", "5d"])
        other = table.context.new_page()
        try:
            boot(other, table.url)
            expect(other.locator("select#auto")).to_have_value("off")
        finally:
            other.close()


class TestDrag:
    def test_mouse_drag_to_a_cascade(self, table: Page, site_url: str) -> None:
        """Dragging a card with the mouse onto a cascade where it fits moves it."""
        open_game(table, site_url, 617)
        x, y = center(card(table, "QH"))
        tx, ty = center(table.locator("[data-column='2'] [data-card]").last)
        table.mouse.move(x, y)
        table.mouse.down()
        table.mouse.move(x + 10, y + 10, steps=3)
        expect(table.locator(".drag-ghost")).to_have_count(1)
        table.mouse.move(tx, ty + 20, steps=8)
        table.mouse.up()
        expect_moves(table, ["82"])
        expect(table.locator(".drag-ghost, .dragging")).to_have_count(0)
        assert shown_table(table) == engine_table(617, ["82"])

    def test_mouse_drag_to_a_free_cell(self, table: Page, site_url: str) -> None:
        """Dragging a card onto an empty free cell moves it there."""
        open_game(table, site_url, 617)
        mouse_drag(table, card(table, "QH"), table.locator("[data-freecell='2']"))
        expect_moves(table, ["8c"])

    def test_refused_drop_changes_nothing(self, table: Page, site_url: str) -> None:
        """A drop where the card cannot go is refused with the reason; the card stays."""
        open_game(table, site_url, 617)
        before = shown_table(table)
        mouse_drag(table, card(table, "QH"), table.locator("[data-foundation='0']"))
        expect(table.get_by_role("alert")).to_contain_text("can't go home yet")
        assert shown_table(table) == before
        assert moves_of(table) == []


class TestKeyboard:
    def test_digit_then_letter(self, table: Page, site_url: str) -> None:
        """A cascade's digit picks its bottom card (shown selected); a letter puts it in a cell."""
        open_game(table, site_url, 1)
        blur(table)
        table.keyboard.press("5")
        expect(card(table, "6C")).to_have_attribute("aria-current", "true")
        expect(table.locator("[data-column='5']")).to_have_attribute("data-selected", "true")
        table.keyboard.press("a")
        expect_moves(table, ["5a"])
        table.keyboard.press("a")
        table.keyboard.press("5")
        expect(table.get_by_role("alert")).to_contain_text("can't go on")
        assert moves_of(table) == ["5a"]

    def test_escape_cancels(self, table: Page, site_url: str) -> None:
        """Escape puts the picked-up card back; the next key picks a source again."""
        open_game(table, site_url, 1)
        blur(table)
        table.keyboard.press("5")
        expect(table.locator("[aria-current]")).to_have_count(1)
        table.keyboard.press("Escape")
        expect(table.locator("[aria-current]")).to_have_count(0)
        table.keyboard.press("1")
        table.keyboard.press("b")
        expect_moves(table, ["1b"])

    def test_same_key_twice_is_the_best_move(self, table: Page, site_url: str) -> None:
        """Pressing a cascade's digit twice plays the engine's best move for its bottom card."""
        open_game(table, site_url, 617)
        blur(table)
        table.keyboard.press("8")
        table.keyboard.press("8")
        expect_moves(table, ["82"])

    def test_tab_and_enter(self, table: Page, site_url: str) -> None:
        """A cascade and a free cell reached with Tab take Enter to pick up and put down."""
        open_game(table, site_url, 1)
        table.locator("[data-column='5']").focus()
        table.keyboard.press("Enter")
        table.locator("[data-freecell='2']").focus()
        expect(table.locator("[data-freecell='2']")).to_be_focused()
        table.keyboard.press("Enter")
        expect_moves(table, ["5c"])


class TestUndoRedo:
    def test_buttons(self, table: Page, site_url: str) -> None:
        """Undo and Redo buttons take back and replay moves; the counter follows."""
        open_game(table, site_url, 1, ["5a", "5b"])
        table.locator("[data-action=undo]").click()
        expect_moves(table, ["5a"])
        expect(table.locator("#moves-count")).to_have_text("1")
        table.locator("[data-action=redo]").click()
        expect_moves(table, ["5a", "5b"])
        expect(table.locator("[data-action=redo]")).to_be_disabled()

    def test_keys(self, table: Page, site_url: str) -> None:
        """Ctrl+Z undoes; Ctrl+Y and Ctrl+Shift+Z redo."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        blur(table)
        table.keyboard.press("Control+z")
        expect_moves(table, ["5a", "5b"])
        table.keyboard.press("Control+z")
        expect_moves(table, ["5a"])
        table.keyboard.press("Control+y")
        expect_moves(table, ["5a", "5b"])
        table.keyboard.press("Control+Shift+Z")
        expect_moves(table, ["5a", "5b", "5c"])

    def test_undo_takes_back_the_auto_moves_too(self, table: Page, site_url: str) -> None:
        """One undo takes back a move and the automatic moves that followed it."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        blur(table)
        table.keyboard.press("5")
        table.keyboard.press("d")
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        table.keyboard.press("Control+z")
        expect_moves(table, ["5a", "5b", "5c"])
        assert shown_table(table) == engine_table(1, ["5a", "5b", "5c"])

    def test_a_move_home_by_hand_stays_one_move(self, table: Page, site_url: str) -> None:
        """A card sent home by hand with auto-move off is undone alone after turning it on."""
        open_game(table, site_url, 1)
        set_auto(table, "off")
        blur(table)
        for move in ["5a", "5b", "5c", "5d", "5h"]:
            table.keyboard.press(move[0])
            table.keyboard.press(move[1])
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        set_auto(table, "safe")
        table.locator("[data-action=undo]").click()
        expect_moves(table, ["5a", "5b", "5c", "5d"])
        assert shown_table(table) == engine_table(1, ["5a", "5b", "5c", "5d"])

    def test_restart(self, table: Page, site_url: str) -> None:
        """Restart shows the deal again; Redo replays the moves, so nothing is lost."""
        open_game(table, site_url, 1, ["5a", "5b"])
        press(table, "restart")
        expect_moves(table, [])
        assert shown_table(table) == engine_table(1, [])
        table.locator("[data-action=redo]").click()
        expect_moves(table, ["5a"])


def slider(page: Page) -> Locator:
    """Return the history slider."""
    return page.locator("input[type=range]#history")


def expect_slider(page: Page, value: int, total: int) -> None:
    """Wait until the history slider spans `total` moves and stands at `value`."""
    expect(slider(page)).to_have_attribute("max", str(total))
    expect(slider(page)).to_have_value(str(value))


COUNT_SEEKS_JS = """() => {
    window.seeks = 0;
    const post = Worker.prototype.postMessage;
    window.unpatchSeeks = () => { Worker.prototype.postMessage = post; };
    Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.op === "seek") window.seeks += 1;
        return post.call(this, message, ...rest);
    };
}"""

SWEEP_JS = """([from, to]) => {
    const slider = document.querySelector("#history");
    const by = from < to ? 1 : -1;
    for (let value = from; value !== to + by; value += by) {
        slider.value = String(value);
        slider.dispatchEvent(new Event("input", {bubbles: true}));
    }
}"""
"""Move the slider from one value to another one step at a time, as fast as a script can."""


class TestHistorySlider:
    def test_with_undo_and_redo(self, table: Page, site_url: str) -> None:
        """The slider spans the moves played and the moves to redo and follows Undo and Redo.

        Set anywhere, the board is the engine's after that many moves, and the URL carries them.
        """
        moves = solution(617)[:12]
        open_game(table, site_url, 617, moves)
        expect_slider(table, 12, 12)
        table.locator("[data-action=undo]").click()
        expect_moves(table, moves[:11])
        expect_slider(table, 11, 12)
        for count in (0, 7, 12, 3):
            slider(table).fill(str(count))
            expect_moves(table, moves[:count])
            expect_slider(table, count, 12)
            assert shown_table(table) == engine_table(617, moves[:count])
        expect(table.locator("#moves-count")).to_have_text("3")
        table.locator("[data-action=redo]").click()
        expect_moves(table, moves[:4])
        expect_slider(table, 4, 12)
        table.locator("[data-action=undo]").click()
        table.locator("[data-action=undo]").click()
        expect_moves(table, moves[:2])
        expect_slider(table, 2, 12)

    def test_keys_step_one_move_through_automatic_ones(self, table: Page, site_url: str) -> None:
        """`,` and `.` step one move, an automatic one too; Undo still takes a whole turn."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        blur(table)
        table.keyboard.press("5")
        table.keyboard.press("d")
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        table.keyboard.press(",")
        expect_moves(table, ["5a", "5b", "5c", "5d"])
        expect(table.locator("#announcer")).to_have_text("Moves played: 4 of 5")
        table.keyboard.press(",")
        expect_moves(table, ["5a", "5b", "5c"])
        expect_slider(table, 3, 5)
        for _ in range(3):  # the third is past the end: nothing happens
            table.keyboard.press(".")
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        expect(table.locator("[data-action=redo]")).to_be_disabled()
        table.keyboard.press("Control+z")
        expect_moves(table, ["5a", "5b", "5c"])

    def test_keys_in_the_deal_field_are_text(self, table: Page, site_url: str) -> None:
        """Typing `,` or `.` in the deal field types them; the game stays."""
        open_game(table, site_url, 1, ["5a", "5b"])
        field = table.locator("#deal")
        field.fill("")
        field.press_sequentially(",.")
        expect(field).to_have_value(",.")
        expect_moves(table, ["5a", "5b"])

    def test_a_move_from_an_earlier_point_starts_a_new_branch(
        self, table: Page, site_url: str
    ) -> None:
        """A move made after going back replaces the moves ahead, as after Undo."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        slider(table).fill("1")
        expect_moves(table, ["5a"])
        expect(table.locator("[data-action=redo]")).to_be_enabled()
        blur(table)
        table.keyboard.press("6")
        table.keyboard.press("b")
        expect_moves(table, ["5a", "6b"])
        expect_slider(table, 2, 2)
        expect(table.locator("[data-action=redo]")).to_be_disabled()

    def test_a_drag_asks_only_for_the_latest_point(self, table: Page, site_url: str) -> None:
        """Forty input events in a row make one request; a mouse drag ends on its last point."""
        moves = solution(617)[:40]
        open_game(table, site_url, 617, moves)
        table.evaluate(COUNT_SEEKS_JS)
        try:
            table.evaluate(SWEEP_JS, [39, 0])
            expect_moves(table, [])
            assert table.evaluate("() => window.seeks") == 1
            assert shown_table(table) == engine_table(617, [])
            box = slider(table).bounding_box()
            assert box is not None
            y = box["y"] + box["height"] / 2
            table.mouse.move(box["x"] + 4, y)
            table.mouse.down()
            table.mouse.move(box["x"] + box["width"] + 20, y, steps=30)
            table.mouse.up()
            expect_moves(table, moves)
            assert shown_table(table) == engine_table(617, moves)
        finally:
            table.evaluate("() => window.unpatchSeeks()")

    def test_a_solution_after_solve(self, table: Page, site_url: str) -> None:
        """After Solve, the slider goes back and forth through the solution it played."""
        prefix = solution(1)[:-6]
        open_game(table, site_url, 1, prefix)
        press(table, "solve")
        expect(table.locator("html")).to_have_attribute("data-won", "true", timeout=30_000)
        played = moves_of(table)
        assert played[: len(prefix)] == prefix
        expect_slider(table, len(played), len(played))
        slider(table).fill(str(len(prefix)))
        expect_moves(table, prefix)
        expect(table.locator("html")).not_to_have_attribute("data-won", "true")
        blur(table)
        table.keyboard.press(".")
        expect_moves(table, played[: len(prefix) + 1])
        assert shown_table(table) == engine_table(1, played[: len(prefix) + 1])

    def test_named_in_every_language(self, page: Page, site_url: str) -> None:
        """The slider's accessible name and its value's text are in the page's language.

        In a page of its own: a language a link chose stays in the running page's links.
        """
        boot(page, link(site_url, 1, ["5a", "5b"]))
        for code in ["en", "pt", "es", "it", "ru", "zh-Hant"]:
            words = js_object(WEB / "i18n" / f"{code}.js")
            open_in_place(page, link(site_url, 1, ["5a", "5b"], lang=code))
            expect(page.locator("html")).to_have_attribute("lang", re.compile(code.split("-")[0]))
            expect(slider(page)).to_have_accessible_name(words["history.label"])
            value = words["history.value"].format(played="2", total="2")
            expect(slider(page)).to_have_attribute("aria-valuetext", value)

    # Its page comes through request.getfixturevalue; warm_contexts puts the browser in its
    # fixture closure, so it gets the shared page (not a second one) and "chromium" in its ids.
    @pytest.mark.usefixtures("warm_contexts")
    @pytest.mark.parametrize(
        ("device", "options"),
        [
            ("desktop", {}),
            ("phone", PHONE_OPTIONS),
            ("phone-sideways", {**PHONE_OPTIONS, "viewport": {"width": 844, "height": 390}}),
        ],
    )  # fmt: skip  # sideways on a larger phone: on the 360 px one the slider has 140 px
    def test_screenshots(
        self,
        site_url: str,
        request: pytest.FixtureRequest,
        device: str,
        options: dict[str, Any],
    ) -> None:
        """Halfway through a game, the slider sits in the bar and fits; light and dark shots.

        Measured once the deal's figures are in the bar, the last thing it shows: the slider
        then has the room its layout leaves it (at least its minimum, 64 px at 1280 px in
        English), and the phones' its own row.
        """
        moves = solution(617)[:40]
        page: Page = request.getfixturevalue("phone" if options else "desktop")
        dress(page, options.get("viewport", DESKTOP), reduced_motion="reduce")
        open_game(page, site_url, 617, moves)
        slider(page).fill("25")
        expect_moves(page, moves[:25])
        blur(page)
        expect(page.locator("#grade")).to_be_visible()
        box = slider(page).bounding_box()
        width = page.viewport_size["width"] if page.viewport_size else 1280
        least = slider(page).evaluate("(slider) => parseFloat(getComputedStyle(slider).minWidth)")
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
        assert box["width"] >= (240 if options else least)
        assert box["height"] >= (44 if options else 36)
        screenshots(page, request.config, f"history/slider-{device}")


class TestLinks:
    def test_win_from_a_shared_link(self, table: Page, site_url: str) -> None:
        """A link to deal 1 one move from the end, then the last move by clicking, wins."""
        moves = solution(1)
        last = moves[-1]
        assert last == "ch"
        open_game(table, site_url, 1, moves[:-1])
        expect(table.locator("html")).not_to_have_attribute("data-won", re.compile(".*"))
        table.locator("[data-freecell='2'] [data-card]").click()
        table.locator("[data-foundation='0']").click()
        expect(table.locator("html")).to_have_attribute("data-won", "true")
        expect(table.locator("#win")).to_be_visible()
        expect(table.locator("#win")).to_contain_text("You won deal #1")
        assert moves_of(table) == moves
        table.locator("[data-action=play-next]").click()
        expect(table.locator("#board")).to_have_attribute("data-deal", "2")
        expect(table.locator("html")).not_to_have_attribute("data-won", re.compile(".*"))

    def test_reload_restores_the_exact_board(self, table: Page, site_url: str) -> None:
        """A half-played link, opened and reloaded, shows the engine's board after its moves."""
        moves = solution(617)[:40]
        open_game(table, site_url, 617, moves)
        expected = engine_table(617, moves)
        assert shown_table(table) == expected
        boot(table, table.url)  # the same address again: a reload
        expect_moves(table, moves)
        assert shown_table(table) == expected

    def test_reload_keeps_undo_and_redo(self, table: Page, site_url: str) -> None:
        """After an undo, a reload keeps the move to redo and how the last turn was grouped."""
        open_game(table, site_url, 1, ["5a", "5b", "5c"])
        blur(table)
        table.keyboard.press("5")
        table.keyboard.press("d")
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        table.locator("[data-action=undo]").click()
        expect_moves(table, ["5a", "5b", "5c"])
        boot(table, table.url)  # the same address again: a reload
        expect_moves(table, ["5a", "5b", "5c"])
        redo = table.locator("[data-action=redo]")
        expect(redo).to_be_enabled()
        redo.click()
        expect_moves(table, ["5a", "5b", "5c", "5d", "5h"])
        table.locator("[data-action=undo]").click()
        expect_moves(table, ["5a", "5b", "5c"])

    def test_played_moves_reach_the_url(self, table: Page, site_url: str) -> None:
        """After moves, the table's own URL reopens the same game elsewhere."""
        open_game(table, site_url, 1)
        card(table, "6C").dblclick()
        expect_moves(table, ["5a"])
        other = table.context.new_page()
        try:
            boot(other, table.url)
            expect_moves(other, ["5a"])
            assert shown_table(other) == engine_table(1, ["5a"])
        finally:
            other.close()

    def test_link_ignores_the_auto_setting(self, table: Page, site_url: str) -> None:
        """A link replays its moves exactly even with auto-move on: no automatic moves added."""
        open_game(table, site_url, 1, ["5a", "5b", "5c", "5d"])
        expect(table.locator("select#auto")).to_have_value("safe")
        assert shown_table(table) == engine_table(1, ["5a", "5b", "5c", "5d"])

    @pytest.mark.parametrize(
        ("moves", "played", "bad"),
        [("5a,5b,zz,5c", ["5a", "5b"], "“zz”"), ("5a,2h,5b", ["5a"], "“2h”"),
         ("<img src=x onerror=window.__xss=1>", [], "<img")],
    )  # fmt: skip
    def test_bad_moves_are_reported(
        self, table: Page, site_url: str, moves: str, played: list[str], bad: str
    ) -> None:
        """A bad token is reported; the game is replayed up to it and the URL corrected.

        Opened in the running page, as Back and Forward open links (the next test boots at
        such a link), after a good game that said nothing of it.
        """
        open_game(table, site_url, 2)
        alert = table.locator("#message[role=alert]")
        expect(alert).not_to_contain_text(bad)
        open_in_place(table, f"{site_url}?deal=1&moves={moves}", played)
        expect(alert).to_contain_text(bad)
        expect_moves(table, played)
        assert url_moves(table) == ",".join(played)
        assert shown_table(table) == engine_table(1, played)
        expect(table.locator("img[src='x']")).to_have_count(0)
        assert table.evaluate("() => typeof window.__xss === 'undefined'")

    def test_a_bad_link_opened_fresh(self, page: Page, site_url: str) -> None:
        """A page opened at a link with a bad token reports it, replays up to it, fixes the URL."""
        boot(page, f"{site_url}?deal=1&moves=5a,5b,zz,5c")
        expect(page.get_by_role("alert")).to_contain_text("“zz”")
        expect_moves(page, ["5a", "5b"])
        assert url_moves(page) == "5a,5b"
        assert shown_table(page) == engine_table(1, ["5a", "5b"])

    def test_back_and_forward(self, table: Page, site_url: str) -> None:
        """A new deal is a history entry; going back restores the game with its moves."""
        open_game(table, site_url, 1, ["5a"])
        card(table, "8H").dblclick()
        expect_moves(table, ["5a", "52"])
        table.locator("[data-action=next]").click()
        expect(table.locator("#board")).to_have_attribute("data-deal", "2")
        expect_moves(table, [])
        table.go_back()
        expect(table.locator("#board")).to_have_attribute("data-deal", "1")
        expect_moves(table, ["5a", "52"])
        table.go_forward()
        expect(table.locator("#board")).to_have_attribute("data-deal", "2")

    def test_back_while_an_action_is_under_way(self, table: Page, site_url: str) -> None:
        """Back during an action (a setting's automatic moves) opens the entry gone back to.

        The action ends after the event and writes its own game's address: the entry gone back
        to is read as the event found it, and written again for the game opened.
        """
        open_game(table, site_url, 3, ["1a", "5h"])
        table.evaluate(
            """(url) => {
                const auto = document.querySelector("select#auto");
                auto.value = "all";
                auto.dispatchEvent(new Event("change", { bubbles: true }));
                history.pushState(null, "", url);
                dispatchEvent(new PopStateEvent("popstate"));
            }""",
            f"{site_url}?deal=1&moves=5a",
        )
        expect(table.locator("#board")).to_have_attribute("data-deal", "1")
        expect_moves(table, ["5a"])
        assert parse_qs(urlsplit(table.url).query) == {"deal": ["1"], "moves": ["5a"]}


class TestAutoPlay:
    def test_all_sends_home_a_card_that_safe_keeps(self, table: Page, site_url: str) -> None:
        """Deal 3, 1a: `safe` sends A♥ home; `all` 2♥ too (black aces out); Undo takes the turn."""
        open_game(table, site_url, 3)
        card(table, "8C").click()
        table.locator("[data-freecell='0']").click()
        expect_moves(table, ["1a", "5h"])
        set_auto(table, "all")  # at once, 2♥ goes home too (see the next test)
        expect_moves(table, ["1a", "5h", "6h"])
        open_game(table, site_url, 3)  # opening a deal plays nothing by itself
        card(table, "8C").click()
        table.locator("[data-freecell='0']").click()
        expect_moves(table, ["1a", "5h", "6h"])
        expect(table.locator("[data-foundation='2'] [data-card='2H']")).to_have_count(1)
        assert shown_table(table) == engine_table(3, ["1a", "5h", "6h"])
        table.locator("[data-action=undo]").click()
        expect_moves(table, [])
        table.locator("[data-action=redo]").click()
        expect_moves(table, ["1a", "5h", "6h"])
        assert table.evaluate("() => localStorage.getItem('freecell.auto-play')") == "all"

    def test_choosing_all_plays_what_it_allows_now(self, table: Page, site_url: str) -> None:
        """Turning `all` on sends home at once the card `safe` kept, as an automatic move."""
        open_game(table, site_url, 3, ["1a", "5h"])
        set_auto(table, "all")
        expect_moves(table, ["1a", "5h", "6h"])

    def test_the_old_checkbox_off_stays_off(self, pages: PageFactory, site_url: str) -> None:
        """A browser that had the old auto-move checkbox off (`freecell.auto-move`) gets `off`."""
        page = pages()
        page.add_init_script("localStorage.setItem('freecell.auto-move', 'off')")
        boot(page, f"{site_url}?deal=3")
        expect(page.locator("select#auto")).to_have_value("off")

    def test_a_link_made_with_all_replays_with_off(
        self, table: Page, pages: PageFactory, site_url: str
    ) -> None:
        """A link made with `all` opens the same game with auto-play `off`: it holds each move."""
        open_game(table, site_url, 3)
        set_auto(table, "all")
        expect_moves(table, ["5h", "6h"])  # what `all` plays at once on the deal
        open_game(table, site_url, 3)
        card(table, "8C").dblclick()
        expect_moves(table, ["1a", "5h", "6h"])
        other = pages()
        other.add_init_script("localStorage.setItem('freecell.auto-play', 'off')")
        boot(other, table.url)
        expect(other.locator("select#auto")).to_have_value("off")
        expect_moves(other, ["1a", "5h", "6h"])
        assert shown_table(other) == shown_table(table)


class TestIllegal:
    def test_illegal_move_shows_the_reason(self, table: Page, site_url: str) -> None:
        """A refused move says why in the alert and changes nothing."""
        open_game(table, site_url, 1, ["5a"])
        before = shown_table(table)
        card(table, "9C").click()
        table.locator("[data-foundation='2']").click()
        expect(table.get_by_role("alert")).to_contain_text("9♣ can't go home yet: A♣ comes first.")
        assert shown_table(table) == before
        assert moves_of(table) == ["5a"]
        assert url_moves(table) == "5a"
        expect(table.locator("#moves-count")).to_have_text("1")


class TestLook:
    # Its page comes through request.getfixturevalue; warm_contexts puts the browser in its
    # fixture closure, so it gets the shared page (not a second one) and "chromium" in its ids.
    @pytest.mark.usefixtures("warm_contexts")
    @pytest.mark.parametrize(
        ("name", "options"),
        [
            ("desktop-light", {"color_scheme": "light"}),
            ("phone-dark", {**PHONE_OPTIONS, "color_scheme": "dark"}),
        ],
    )  # fmt: skip
    def test_mid_game(
        self,
        site_url: str,
        request: pytest.FixtureRequest,
        name: str,
        options: dict[str, Any],
    ) -> None:
        """Mid-game, with long cascades and a selection, nothing scrolls sideways; screenshots."""
        moves = solution(617)[:70]
        page: Page = request.getfixturevalue("phone" if options.get("is_mobile") else "desktop")
        dress(page, options.get("viewport", DESKTOP), color_scheme=options["color_scheme"])
        open_game(page, site_url, 617, moves)
        if options.get("has_touch"):
            tap_to_move(page, on=False)  # a tap would play the card, not pick it up
        longest = max(len(column) for column in engine_table(617, moves)["cascades"])
        assert longest >= 12
        page.locator("#board [data-column] [data-card]").last.click()
        expect(page.locator("[aria-current]").first).to_be_visible()
        width = page.viewport_size["width"] if page.viewport_size else 1280
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        for index in range(8):
            box = page.locator(f"[data-column='{index + 1}']").bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= width
        screenshot(page, request.config, f"screenshot-play-{name}", full_page=True)


@pytest.mark.browser
class TestTouch:
    def test_touch_drag_to_a_free_cell(self, phone: Page, site_url: str) -> None:
        """A finger dragging a cascade's bottom card onto a free cell makes that move."""
        page = phone
        open_game(page, site_url, 1)
        cdp = page.context.new_cdp_session(page)
        source = page.locator("[data-column='5'] [data-card]").last.bounding_box()
        target = page.locator("[data-freecell='0']").bounding_box()
        assert source is not None
        assert target is not None
        x0, y0 = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
        x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]},
        )
        for i in range(1, 11):
            point = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a")
        expect(page.locator("[data-freecell='0'] [data-card]")).to_have_attribute("data-card", "6C")
