"""Hint and Solve in the page, in a real Chromium: the solver runs in the worker, in slices.

The library's solver is the oracle: a hint is the first move of the solution it finds from the
same position (it is deterministic), and every game Solve plays replays to a win.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from freecell import CASCADES, FREECELLS, Game, Move, solve
from freecell._notation import player_moves
from freecell._web.replies import made
from helpers import (
    PHONE_OPTIONS,
    PageFactory,
    blur,
    boot,
    menu,
    moves_of,
    open_in_place,
    par_of,
    press,
    screenshot,
    set_auto,
    short_solution,
)

IMPOSSIBLE = 11982
"""The one deal of 1..32000 that cannot be won."""


def game_after(number: int, moves: list[str]) -> Game:
    """Return the engine's game of deal `number` after `moves`."""
    game = Game.from_deal_number(number)
    for move in moves:
        game.push(move)
    return game


def last_turn(number: int, moves: list[str]) -> int:
    """Return where the last turn of a game played with safe auto-play starts (its move's index).

    After a player's move every safe move home is played, so a move that is the safe automatic
    move of its position is one of those (a game's first move aside).
    """
    game, start = Game.from_deal_number(number), 0
    for index, move in enumerate(moves):
        if index == 0 or str(game.next_auto_move("safe")) != move:
            start = index
        game.push(move)
    return start


class TestHint:
    @pytest.mark.parametrize("moves", [[], ["82", "52", "23"]])
    def test_the_next_move_of_a_solution(
        self, table: Page, site_url: str, moves: list[str]
    ) -> None:
        """Shift+H marks the card and the target of the solver's first move, and says it."""
        query = f"?deal=617&moves={','.join(moves)}" if moves else "?deal=617"
        open_in_place(table, site_url + query)
        expect(table.locator("#board")).to_have_attribute("data-moves", ",".join(moves))
        position = game_after(617, moves).position
        first = solve(position).moves[0]
        moved = made(position, first)
        blur(table)
        table.keyboard.press("Shift+H")
        expect(table.locator("[data-hint=from]")).to_have_attribute("data-card", moved["cards"][0])
        target = table.locator("[data-hint=to]")
        if first.target in CASCADES:
            expect(target).to_have_attribute("data-column", first.target)
        elif first.target in FREECELLS:
            expect(target).to_have_attribute("data-freecell", str(FREECELLS.index(first.target)))
        else:
            expect(target).to_have_attribute("data-foundation", re.compile("[0-3]"))
        expect(table.locator("#board")).to_have_attribute("data-solvable", "yes")
        expect(table.locator("#message")).to_contain_text("Hint:")
        # Follow the hint: click the card, then its target; the next hint comes as well.
        table.locator("[data-hint=from]").click()
        target.click()
        expect(table.locator("#board")).to_have_attribute("data-moves", re.compile(str(first)))
        table.keyboard.press("Shift+H")
        expect(table.locator("[data-hint=from]")).to_have_count(1)

    def test_a_move_clears_the_hint(self, table: Page, site_url: str) -> None:
        """The hint's marks and data-solvable go with the next change of the game.

        (With the live guard off: on, it says at once whether the next deal can be won.)
        """
        open_in_place(table, f"{site_url}?deal=1")
        menu(table)
        table.locator("input#live-check").uncheck()
        blur(table)
        table.keyboard.press("Shift+H")
        expect(table.locator("[data-hint]")).to_have_count(2)
        table.locator("[data-action=next]").click()
        expect(table.locator("#board")).to_have_attribute("data-deal", "2")
        expect(table.locator("[data-hint]")).to_have_count(0)
        expect(table.locator("#board")).not_to_have_attribute("data-solvable", "yes")

    def test_an_impossible_deal_is_proved(self, table: Page, site_url: str) -> None:
        """Deal 11982: the table says it cannot be won, and that this was proved."""
        open_in_place(table, f"{site_url}?deal={IMPOSSIBLE}")
        press(table, "hint")
        expect(table.locator("#board")).to_have_attribute("data-solvable", "no", timeout=120_000)
        expect(table.locator("#message")).to_contain_text("This deal cannot be won")
        expect(table.locator("#message")).to_contain_text("proved")
        expect(table.locator("[data-hint]")).to_have_count(0)

    def test_the_page_answers_during_a_search(self, table: Page, site_url: str) -> None:
        """While the proof for 11982 runs, Next opens the next deal at once; the proof is lost."""
        open_in_place(table, f"{site_url}?deal={IMPOSSIBLE}")
        blur(table)
        table.keyboard.press("Shift+H")
        table.keyboard.press("n")
        # The proof takes seconds; the deal change must not wait for it.
        expect(table.locator("#board")).to_have_attribute(
            "data-deal", str(IMPOSSIBLE + 1), timeout=2_500
        )
        table.locator("[data-card]").first.wait_for()
        expect(table.locator("#message")).not_to_contain_text("cannot be won")
        expect(table.locator("#board")).not_to_have_attribute("data-solvable", "no")


class TestSolve:
    def test_solve_wins_and_undo_takes_back_one_move(
        self, still_table: Page, site_url: str
    ) -> None:
        """Solve plays the rest to a win (a game that replays to a win); Undo takes a turn back.

        Solve follows auto-play (`safe` here): its last move's automatic moves go with it.
        """
        page = still_table
        open_in_place(page, f"{site_url}?deal=1&moves=5a,5b")
        press(page, "solve")
        expect(page.locator("html")).to_have_attribute("data-won", "true", timeout=120_000)
        moves = moves_of(page)
        assert moves[:2] == ["5a", "5b"]
        assert game_after(1, moves).is_won()
        expect(page.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
        page.locator("[data-action=undo]").click()
        turn = last_turn(1, moves)
        assert turn < len(moves) - 1  # the solution ends in a move and safe moves home
        expect(page.locator("#board")).to_have_attribute("data-moves", ",".join(moves[:turn]))

    def test_solve_follows_auto_play_all(self, still_table: Page, site_url: str) -> None:
        """With auto-play `all`, Solve wins, and no card that could go home waits for a move."""
        page = still_table
        set_auto(page, "all")
        open_in_place(page, f"{site_url}?deal=3")
        press(page, "solve")
        expect(page.locator("html")).to_have_attribute("data-won", "true", timeout=120_000)
        game = Game.from_deal_number(3)
        for index, move in enumerate(moves_of(page)):
            waiting = game.next_auto_move("all")
            assert index == 0 or waiting is None or str(waiting) == move
            game.push(move)
        assert game.is_won()

    def test_stop(self, table: Page, site_url: str) -> None:
        """Shift+S again stops Solve: the moves stop coming, each one legal and in the link.

        The button's icon says what a press does (its label is hidden on narrow bars): play,
        or stop while Solve plays.
        """
        solve = table.locator("[data-action=solve]")
        open_in_place(table, f"{site_url}?deal=617")
        expect(solve.locator(".solve-play")).to_be_visible()
        expect(solve.locator(".solve-stop")).to_be_hidden()
        blur(table)
        table.keyboard.press("Shift+S")
        expect(solve).to_have_attribute("aria-pressed", "true")
        expect(solve.locator(".solve-stop")).to_be_visible()
        expect(solve.locator(".solve-play")).to_be_hidden()
        expect(table.locator("#moves-count")).not_to_have_text("0")
        table.keyboard.press("Shift+S")
        expect(solve).to_have_attribute("aria-pressed", "false")
        expect(solve.locator(".solve-play")).to_be_visible()
        stopped = moves_of(table)
        # Nothing comes: Solve's next move would come 420 ms after its last (solve.js's SOLVE_MS),
        # Python knowing the rest at once. A wait is the point here, as short as shows it.
        table.wait_for_timeout(600)
        assert moves_of(table) == stopped
        assert not game_after(617, stopped).is_won()
        assert f"moves={','.join(stopped)}" in table.url

    def test_a_key_stops_it(self, table: Page, site_url: str) -> None:
        """Any key, such as Escape, stops Solve too."""
        open_in_place(table, f"{site_url}?deal=24")
        blur(table)
        table.keyboard.press("Shift+S")
        expect(table.locator("#moves-count")).not_to_have_text("0")
        table.keyboard.press("Escape")
        expect(table.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")


SEARCH_MS = 180_000
"""How long a short search in the page may take here (seconds idle; much more on a loaded
machine)."""


class TestShortSolve:
    """Solve plays the short search's solution; Hint takes it once known."""

    @pytest.mark.parametrize(
        ("device", "number"), [("desktop", 28), ("phone", 3)], ids=["desktop", "phone"]
    )
    def test_solve_plays_the_short_solution(
        self, pages: PageFactory, site_url: str, request: pytest.FixtureRequest, device: str,
        number: int,
    ) -> None:  # fmt: skip
        """Solve wins in the library's short solution's player moves, showing its search.

        #searching shows the search (said once to screen readers) and goes when the moves
        start; then the history slider walks the game Solve played.
        """
        phone = device == "phone"
        scheme = "dark" if phone else "light"
        url = f"{site_url}?deal={number}"
        if phone:
            page = pages(**PHONE_OPTIONS, color_scheme=scheme, reduced_motion="reduce")
            boot(page, url)
        else:  # the module's running page, which has said other things to screen readers
            page = request.getfixturevalue("still_table")
            open_in_place(page, url)
            page.locator("[data-column] [data-card]").last.click()
            expect(page.locator("#announcer")).to_contain_text("picked up")
            page.keyboard.press("Escape")
        expect(page.locator("#board")).to_have_attribute("data-solvable", "yes")  # the guard
        if phone:
            page.locator("[data-action=solve]").tap()
        else:
            press(page, "solve")
        searching = page.locator("#searching")
        expect(searching).to_be_visible()
        expect(searching).to_contain_text("Looking for a short solution…")
        expect(page.get_by_role("progressbar")).to_have_accessible_name(
            "Looking for a short solution…"
        )
        expect(page.locator("#announcer")).to_have_text("Looking for a short solution…")
        screenshot(page, request.config, f"solve/searching-{device}-{scheme}")
        expect(page.locator("html")).to_have_attribute("data-won", "true", timeout=SEARCH_MS)
        expect(searching).to_be_hidden()
        screenshot(page, request.config, f"solve/won-{device}-{scheme}")
        moves = moves_of(page)
        game = game_after(number, moves)
        assert game.is_won()
        assert player_moves(map(Move.parse, moves)) <= par_of(number)
        # The history slider walks the game Solve played, move by move.
        slider = page.locator("input[type=range]#history")
        expect(slider).to_have_attribute("max", str(len(moves)))
        slider.fill("10")
        expect(page.locator("#board")).to_have_attribute("data-moves", ",".join(moves[:10]))
        slider.fill(str(len(moves)))
        expect(page.locator("html")).to_have_attribute("data-won", "true")

    def test_stopping_the_search_changes_nothing(self, table: Page, site_url: str) -> None:
        """Solve again while it searches stops it: #searching goes, and no move ever comes."""
        open_in_place(table, f"{site_url}?deal=5")
        blur(table)
        table.keyboard.press("Shift+S")
        expect(table.locator("#searching")).to_be_visible()
        table.keyboard.press("Shift+S")
        expect(table.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
        expect(table.locator("#searching")).to_be_hidden()
        # Nothing comes for 2 s: a wait is the point here, as no event says "no move will come".
        table.wait_for_timeout(2_000)
        assert moves_of(table) == []
        assert "moves=" not in table.url

    def test_a_hint_after_a_stopped_solve_is_the_short_one(
        self, table: Page, site_url: str
    ) -> None:
        """Stopped after a move or two, Solve leaves its short solution for Hint to follow.

        (Deal 7: there, today's search's first move differs from the short solution's.)
        """
        number = 7
        short = [str(move) for move in short_solution(number).moves]
        set_auto(table, "off")  # the page's moves are then the solution's own
        open_in_place(table, f"{site_url}?deal={number}")
        blur(table)
        table.keyboard.press("Shift+S")
        expect(table.locator("#board")).not_to_have_attribute("data-moves", "", timeout=SEARCH_MS)
        table.keyboard.press("Shift+S")
        expect(table.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
        played = moves_of(table)
        assert played == short[: len(played)]
        position = game_after(number, played).position
        assert str(solve(position).moves[0]) != short[len(played)]  # the test tells them apart
        table.keyboard.press("Shift+H")
        moved = made(position, position.resolve(short[len(played)])[0])
        expect(table.locator("[data-hint=from]")).to_have_attribute("data-card", moved["cards"][0])

    def test_a_game_action_during_the_search_stops_it(self, table: Page, site_url: str) -> None:
        """Next while Solve searches opens the next deal; no move of the search ever comes."""
        open_in_place(table, f"{site_url}?deal=9")
        blur(table)
        table.keyboard.press("Shift+S")
        expect(table.locator("#searching")).to_be_visible()
        table.keyboard.press("n")
        expect(table.locator("#board")).to_have_attribute("data-deal", "10")
        expect(table.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
        expect(table.locator("#searching")).to_be_hidden()
        table.wait_for_timeout(2_000)  # nothing comes (as in test_stopping_the_search...)
        assert moves_of(table) == []
