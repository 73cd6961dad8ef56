"""Par in the page (web/src/app/par.js): the deal's par beside the move count.

Moves are counted as a player counts them; a win is measured against par; par is in the
statistics and the export file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from freecell import CARD_CODES, Game, Move
from helpers import (
    PHONE_OPTIONS,
    PageFactory,
    boot,
    export,
    link,
    par_of,
    press,
    remember_pars,
    short_solution,
)

pytestmark = pytest.mark.pars_unknown  # the page searches every par

PAR_DEAL = 617


def short_moves(number: int) -> list[str]:
    """Return the moves of deal `number`'s short solution, as tokens."""
    return [str(move) for move in short_solution(number).moves]


def before_last_player_move(moves: list[str]) -> tuple[list[str], str]:
    """Split a solution before its last move not home: the moves up to it, and that move."""
    last = max(index for index, move in enumerate(moves) if not move.endswith("h"))
    return moves[:last], moves[last]


def play(page: Page, number: int, moves: list[str], move: str) -> None:
    """Play `move` in deal `number` after `moves` by clicking: its cards, then its target."""
    game = Game.from_deal_number(number)
    for made in moves:
        game.push(made)
    resolved, count = game.position.resolve(Move.parse(move))
    source, target = resolved.source, resolved.target
    if source.isdigit():
        top = game.position.cascades[int(source) - 1][-count]  # a run's top card takes it all
        page.locator(f"[data-card='{CARD_CODES[top]}']").click()
    else:
        page.locator(f"[data-freecell='{'abcd'.index(source)}'] [data-card]").click()
    if target.isdigit():
        page.locator(f"[data-column='{target}']").click()
    else:
        page.locator(f"[data-freecell='{'abcd'.index(target)}']").click()


def all_home(page: Page) -> None:
    """Before the page starts: every card that can go home goes, and a tap only picks up."""
    page.add_init_script(
        "localStorage.setItem('freecell.auto-play', 'all');"
        "localStorage.setItem('freecell.tap-to-move', 'off');"
    )


def won_in_time(page: Page, text: str) -> str:
    """Return the win message `text` as the page ends it: with the time the clock stopped at."""
    seconds = int(page.locator("#timer").get_attribute("data-seconds") or "-1")
    return f"{text} Time: {seconds // 60}:{seconds % 60:02d}."


def stored(page: Page, key: str) -> Any:
    """Return a localStorage value of the page, parsed."""
    return json.loads(page.evaluate(f"() => localStorage.getItem('{key}')") or "null")


class TestMovesCount:
    def test_moves_home_are_free(self, page: Page, site_url: str) -> None:
        """A move followed by an automatic move home counts one; so does the library."""
        boot(page, link(site_url, 3, []))
        play(page, 3, [], "1a")
        expect(page.locator("#board")).to_have_attribute("data-moves", "1a,5h")
        expect(page.locator("#moves-count")).to_have_text("1")
        game = Game.from_deal_number(3)
        for move in ("1a", "5h"):
            game.push(move)
        assert game.player_moves == 1


class TestPar:
    @pytest.mark.parametrize("device", ["desktop", "phone"])
    def test_par_of_617_is_the_short_solutions_count(
        self, pages: PageFactory, site_url: str, device: str
    ) -> None:
        """Deal 617's par shows "…" while searching, then solve(617, short=True)'s count."""
        page = pages(**(PHONE_OPTIONS if device == "phone" else {}))
        boot(page, link(site_url, PAR_DEAL, []))
        shown = time.monotonic()
        par = page.locator("#par")
        expect(par).to_be_visible()
        expected = str(par_of(PAR_DEAL))
        if page.locator("#board").get_attribute("data-par") is None:
            expect(page.locator("#par-value")).to_have_text("…")
        expect(page.locator("#board")).to_have_attribute("data-par", expected, timeout=120_000)
        print(f"{device}: par of {PAR_DEAL} shown {time.monotonic() - shown:.1f} s after the board")
        expect(page.locator("#par-value")).to_have_text(expected)
        assert stored(page, "freecell.par") == [[str(PAR_DEAL), int(expected)]]

    def test_a_remembered_par_shows_at_once_and_is_not_searched(
        self, page: Page, site_url: str
    ) -> None:
        """A deal played again shows the par this browser remembers, and Python is not asked."""
        remember_pars(page, {PAR_DEAL: 999})
        boot(page, link(site_url, PAR_DEAL, []))
        expect(page.locator("#par-value")).to_have_text("999")
        page.wait_for_timeout(3000)  # settled, the guard answered: a search would lower it
        expect(page.locator("#board")).to_have_attribute("data-par", "999")

    def test_the_menu_hides_par_and_remembers(self, page: Page, site_url: str) -> None:
        """input#show-par off hides #par (data-par stays); a reload keeps it off."""
        remember_pars(page, {5: 20})
        boot(page, link(site_url, 5, []))
        expect(page.locator("#par")).to_be_visible()
        page.locator(".more-toggle").click()
        page.locator("#show-par").uncheck()
        expect(page.locator("#par")).to_be_hidden()
        boot(page, page.url)
        expect(page.locator("#board")).to_have_attribute("data-par", "20")
        expect(page.locator("#par")).to_be_hidden()
        assert page.evaluate("() => localStorage.getItem('freecell.show-par')") == "off"


class TestWin:
    @pytest.mark.parametrize("device", ["desktop", "phone"])
    def test_a_win_at_par(self, pages: PageFactory, site_url: str, device: str) -> None:
        """The short solution's moves, the last one played, win at par: "you matched"."""
        page = pages(**(PHONE_OPTIONS if device == "phone" else {}))
        all_home(page)
        par = par_of(PAR_DEAL)
        remember_pars(page, {PAR_DEAL: par})
        before, last = before_last_player_move(short_moves(PAR_DEAL))
        boot(page, link(site_url, PAR_DEAL, before))
        expect(page.locator("#moves-count")).to_have_text(str(par - 1))
        play(page, PAR_DEAL, before, last)
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        won = f"You won deal #{PAR_DEAL}! {par} moves, par {par}: you matched the best we know."
        expect(page.locator("#win-text")).to_have_text(won_in_time(page, won))
        expect(page.locator("#moves-count")).to_have_text(str(par))

    def test_under_par_is_the_new_par_kept_in_statistics_and_export(
        self, page: Page, site_url: str, tmp_path: Path
    ) -> None:
        """A win under the par known is said, becomes the par, and stays after a reload."""
        all_home(page)
        par = par_of(PAR_DEAL)
        remember_pars(page, {PAR_DEAL: par + 5})
        before, last = before_last_player_move(short_moves(PAR_DEAL))
        boot(page, link(site_url, PAR_DEAL, before))
        expect(page.locator("#par-value")).to_have_text(str(par + 5))
        play(page, PAR_DEAL, before, last)
        expect(page.locator("#win-text")).to_have_text(
            won_in_time(
                page,
                f"You won deal #{PAR_DEAL}! {par} moves, par {par + 5}: 5 under par! "
                "Your line is now this deal's par in this browser.",
            )
        )
        expect(page.locator("#par-value")).to_have_text(str(par))
        boot(page, page.url)
        expect(page.locator("#par-value")).to_have_text(str(par))
        press(page, "stats")
        expect(page.locator("dialog#stats [data-stat=at-par]")).to_have_text("1")
        _, data = export(page, tmp_path)
        assert data["deals"] == {str(PAR_DEAL): {"fewest": par, "par": par}}
        assert data["par"] == {str(PAR_DEAL): par}
        [game] = data["games"]
        assert (game["result"], game["player_moves"]) == ("won", par)
        record = stored(page, "freecell.stats")
        assert record["version"] == 2
        assert record["deals"][str(PAR_DEAL)] == {"won": True, "fewest": par, "par": par}

    def test_a_par_found_after_the_win_measures_it(self, page: Page, site_url: str) -> None:
        """A win while par is still searched is measured once the par comes."""
        all_home(page)
        par = par_of(PAR_DEAL)
        before, last = before_last_player_move(short_moves(PAR_DEAL))
        boot(page, link(site_url, PAR_DEAL, before))
        play(page, PAR_DEAL, before, last)
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        won = f"You won deal #{PAR_DEAL}! {par} moves, par {par}: you matched the best we know."
        expect(page.locator("#win-text")).to_have_text(won_in_time(page, won), timeout=120_000)
        record = stored(page, "freecell.stats")
        assert record["deals"][str(PAR_DEAL)] == {"won": True, "fewest": par, "par": par}
