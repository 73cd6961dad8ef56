"""Your games and statistics in a file (web/src/app/page/archive.js, docs/archive.md), in Chromium.

Export a won game, import it into a fresh browser context, import it twice, and refuse
corrupted and hostile files (10 MB, wrong types, script in strings) with nothing lost and
nothing from the file read as HTML; "My games" opens a game again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple, cast

import pytest
from playwright.sync_api import Page, expect

from helpers import (
    PageFactory,
    WarmContexts,
    blur,
    boot,
    engine_after,
    export,
    link,
    menu,
    open_in_place,
    press,
    settle,
    solution,
)

pytestmark = pytest.mark.pars_unknown  # the tests compare what the page stores, pars too


def figures(page: Page) -> dict[str, str]:
    """Return the statistics dialog's figures, by their data-stat names."""
    return {
        name: page.locator(f"[data-stat={name}]").inner_text()
        for name in ("played", "won", "rate", "best-streak")
    }


def win_deal_1(page: Page, site_url: str) -> list[str]:
    """Open deal 1 one move from its end, play the last move by keys; return the moves."""
    moves = solution(1)
    boot(page, link(site_url, 1, moves[:-1]))
    blur(page)
    source, target = moves[-1][0], moves[-1][1]
    page.keyboard.press(source)
    page.keyboard.press(target)
    expect(page.locator("html")).to_have_attribute("data-won", "true")
    return moves


def import_file(page: Page, path: Path, said: str) -> None:
    """Import a file through [data-action=import]'s file chooser; wait for `said`."""
    if not page.locator("dialog#stats").is_visible():
        press(page, "stats")
    with page.expect_file_chooser() as chooser:
        page.locator("[data-action=import]").click()
    chooser.value.set_files(path)
    expect(page.locator("#archive-message")).to_contain_text(said)


class Won(NamedTuple):
    """The module's browser that won deal 1 (four-colour deck), and its export made then."""

    page: Page
    path: Path
    data: dict[str, Any]


@pytest.fixture(scope="module")
def won(
    warm_contexts: WarmContexts, site_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Won]:
    """Win deal 1 (four-colour deck) in a page of the module's own and export at once.

    Booted once for the module: the export's tests only read the file, and the tests that
    use the page settle it first and compare with what it held when they began.
    """
    page = warm_contexts.new_page(lasting=True)
    win_deal_1(page, site_url)
    menu(page)
    page.locator("select#deck").select_option("four-colour")
    path, data = export(page, tmp_path_factory.mktemp("exported"))
    yield Won(page, path, data)
    page.close()


@pytest.fixture
def exported(won: Won) -> tuple[Path, dict[str, Any]]:
    """Return the export of a won game of deal 1 (four-colour deck), made once a module."""
    return won.path, won.data


@pytest.fixture
def player(won: Won) -> Page:
    """Return the page that won deal 1 and exported, settled for the next test.

    And with deal 1's par known: the par found after the win is written into the statistics
    and the stored pars, which a test that compares the storage before and after must not see
    happen in between (it did once in CI).
    """
    settle(won.page)
    expect(won.page.locator("#board")).to_have_attribute(
        "data-par", re.compile(r"^\d+$"), timeout=120_000
    )
    return won.page


class TestExport:
    def test_the_file_holds_the_games_and_statistics(
        self, exported: tuple[Path, dict[str, Any]]
    ) -> None:
        """The file is the documented version 1: statistics, daily, deals, settings, games."""
        path, data = exported
        assert path.name.startswith("freecell-deals-")
        assert path.suffix == ".json"
        assert (data["format"], data["version"]) == ("freecell-deals", 1)
        assert data["statistics"] == {"played": 1, "won": 1, "streak": 1, "best": 1}
        assert data["imported"] == {}
        assert data["settings"]["freecell.deck"] == "four-colour"
        [game] = data["games"]
        moves = solution(1)
        assert (game["deal"], game["result"], game["moves"]) == (1, "won", ",".join(moves))
        counted = engine_after(1, moves)["player_moves"]  # the moves not home
        assert game["player_moves"] == counted < len(moves)
        assert data["deals"]["1"]["fewest"] == counted

    def test_deals_won_before_the_games_log_are_in_the_file(
        self, pages: PageFactory, site_url: str, tmp_path: Path
    ) -> None:
        """A deal the statistics hold as won, though no logged game shows it, is in the file."""
        record = {"version": 1, "played": 1, "won": 1, "streak": 1, "best": 1,
                  "deals": {"617": {"won": True, "fewest": 84}}}  # fmt: skip
        page = pages()
        page.add_init_script(f"localStorage.setItem('freecell.stats', '{json.dumps(record)}')")
        boot(page, link(site_url, 3, []))
        _, data = export(page, tmp_path)
        assert data["deals"] == {"617": {"fewest": 84}}


class TestImport:
    def test_into_a_fresh_browser_and_twice(
        self, exported: tuple[Path, dict[str, Any]], pages: PageFactory, site_url: str
    ) -> None:
        """A fresh browser takes the games, counts and settings; a second import adds nothing."""
        path, data = exported
        page = pages(browser="B")  # another browser context: its own storage
        boot(page, link(site_url, 617))
        press(page, "stats")
        expect(page.locator("#my-games")).to_contain_text("No game played yet.")
        import_file(page, path, "Imported: 1 new game")
        expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")
        after = figures(page)
        assert after == {"played": "1", "won": "1", "rate": "100%", "best-streak": "1"}
        games = page.locator("#my-games a")
        expect(games).to_have_count(1)
        assert games.get_attribute("href") == f"?deal=1&moves={data['games'][0]['moves']}"
        import_file(page, path, "Nothing new in this file")
        assert figures(page) == after
        expect(games).to_have_count(1)
        games.click()  # the link opens the game again
        expect(page.locator("html")).to_have_attribute("data-won", "true")
        expect(page.locator("#board")).to_have_attribute("data-deal", "1")

    def test_a_file_passed_back_counts_nothing_twice(
        self, exported: tuple[Path, dict[str, Any]], pages: PageFactory, site_url: str,
        tmp_path: Path,
    ) -> None:  # fmt: skip
        """B imports A's file, plays a game, exports; A imports B's: A's own game once."""
        path, _ = exported
        other = pages(browser="B")  # browser B, A's file imported
        boot(other, link(site_url, 617, ["8a"]))
        import_file(other, path, "Imported: 1 new game")
        (tmp_path / "b").mkdir()
        back, data = export(other, tmp_path / "b")
        assert data["statistics"]["played"] == 1  # B's own game, 617
        assert len(data["imported"]) == 1  # A's counts, as A's
        fresh = pages()  # a third browser: the warm default context, its storage emptied
        boot(fresh, link(site_url, 2))
        import_file(fresh, back, "Imported: 2 new games")
        import_file(fresh, path, "Nothing new in this file")
        assert figures(fresh)["played"] == "2"


HOSTILE = "<img src=x onerror=window.__xss=1>"
BEYOND = 2**53 - 1  # Number.MAX_SAFE_INTEGER: a count no export holds
ID = re.compile(r"^[\w-]{1,64}$")  # identity.js's rule for an id


def archive(device: str, **fields: Any) -> dict[str, Any]:
    """Return a valid file of `device`: no game, no count, unless `fields` say otherwise."""
    data: dict[str, Any] = {
        "format": "freecell-deals", "version": 1, "exported": "2026-11-28T10:00:00.000Z",
        "device": device, "statistics": {"played": 0, "won": 0, "streak": 0, "best": 0},
        "imported": {}, "daily": [], "deals": {}, "settings": {}, "games": [],
    }  # fmt: skip
    data.update(fields)
    return data


def written(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    """Write a file to import; return its path."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def logged(count: int, start: datetime, prefix: str) -> list[dict[str, Any]]:
    """Return `count` games of deal 617, one a minute from `start`, their ids from `prefix`."""
    return [
        {"id": f"{prefix}{index:04d}", "deal": 617,
         "date": (start + timedelta(minutes=index)).isoformat(timespec="milliseconds")[:23] + "Z",
         "result": "playing", "moves": "8a", "daily": None}
        for index in range(count)
    ]  # fmt: skip


def stored_games(page: Page) -> list[dict[str, Any]]:
    """Return the games log as localStorage holds it."""
    return cast(list[dict[str, Any]], page.evaluate(
        "() => JSON.parse(localStorage.getItem('freecell.games') || '[]')"
    ))  # fmt: skip


class TestMerging:
    def test_an_import_never_costs_a_game_of_this_browser(
        self, pages: PageFactory, site_url: str, tmp_path: Path
    ) -> None:
        """300 games dated 9999 are refused; 300 newer ones leave this browser's games in.

        The log keeps the latest 300 games: before, a file of 300 games dated later than this
        browser's own dropped them all (cut by date), and a date of 9999 was taken.
        """
        own = logged(2, datetime(2026, 11, 27, 9, 0, tzinfo=UTC), "own")  # as this page logs
        page = pages()
        page.add_init_script(
            f"if (!localStorage.getItem('freecell.games'))"
            f" localStorage.setItem('freecell.games', {json.dumps(json.dumps(own))})"
        )
        boot(page, link(site_url, 3))
        future = logged(300, datetime(9999, 12, 30, tzinfo=UTC), "file")
        for game in future:
            game["date"] = "9999-12-31T00:00:00.000Z"
        import_file(page, written(tmp_path, "future", archive("other", games=future)),
                    "can't be imported")  # fmt: skip
        expect(page.locator("#archive-message")).to_contain_text("“games[0].date”")
        early = logged(1, datetime(2001, 1, 1, tzinfo=UTC), "early")  # before the page existed
        import_file(page, written(tmp_path, "early", archive("other", games=early)),
                    "can't be imported")  # fmt: skip
        assert stored_games(page) == own
        now = datetime.now(UTC).replace(microsecond=0)
        newer = logged(300, now - timedelta(hours=6), "file")
        import_file(page, written(tmp_path, "newer", archive("other", games=newer)),
                    "Imported: 298 new games")  # fmt: skip
        games = stored_games(page)
        assert len(games) == 300
        assert [g["id"] for g in games if g["id"].startswith("own")] == ["own0000", "own0001"]
        _, data = export(page, tmp_path)
        assert [g["id"] for g in data["games"][:2]] == ["own0000", "own0001"]
        assert all(set(g) == {"id", "deal", "date", "result", "moves", "daily"}
                   for g in data["games"])  # fmt: skip

    def test_every_name_an_object_inherits_is_a_device_like_any(
        self, pages: PageFactory, site_url: str, tmp_path: Path
    ) -> None:
        """Devices named constructor, toString, __proto__ ... each count, exactly once.

        Every name of Object.prototype that the id rule admits, as a file's device and among
        its imported devices: the figures were NaN, or a device's counts went missing.
        """
        page = pages()
        boot(page, link(site_url, 3))
        names = page.evaluate("() => Object.getOwnPropertyNames(Object.prototype)")
        names = [name for name in names if ID.match(name)]
        assert {"constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"} <= set(names)
        first, *others = names
        counts = {name: {"played": 10 + index, "won": index, "best": 1}
                  for index, name in enumerate(others)}  # fmt: skip
        data = archive(first, statistics={"played": 5, "won": 5, "streak": 2, "best": 3},
                       imported=counts)  # fmt: skip
        path = written(tmp_path, "inherited", data)
        import_file(page, path, "Imported: no new game")
        played = 5 + sum(entry["played"] for entry in counts.values())
        won = 5 + sum(entry["won"] for entry in counts.values())
        assert figures(page)["played"] == f"{played:,}"
        assert figures(page)["won"] == f"{won:,}"
        import_file(page, path, "Nothing new in this file")
        assert figures(page)["played"] == f"{played:,}"
        stored = json.loads(page.evaluate("() => localStorage.getItem('freecell.imported')"))
        assert set(stored["devices"]) == set(names)
        _, exported = export(page, tmp_path)
        assert set(exported["imported"]) == set(names)
        for name in names:  # each as the file's own device, more games than before: it grows
            more = archive(name, statistics={"played": 100, "won": 1, "streak": 0, "best": 1})
            import_file(page, written(tmp_path, f"as-{name}", more), "Imported: no new game")
        text = page.locator("dialog#stats").inner_text()
        assert "NaN" not in text
        assert figures(page)["played"] == f"{100 * len(names):,}"
        # As settings' names they are another version's settings, left out; as deals' keys
        # they are no deal numbers, refused.
        settings = archive(first, settings=dict.fromkeys(names, "on"))
        import_file(page, written(tmp_path, "settings", settings), "Nothing new in this file")
        for field in ("deals", "par"):
            bad = archive(first, **{field: dict.fromkeys(names, 1)})
            import_file(page, written(tmp_path, field, bad), f"its “{field}” is not")

    def test_a_file_without_games_says_what_it_changed(
        self, pages: PageFactory, site_url: str, tmp_path: Path
    ) -> None:
        """Counts, then par, then a setting and no game: each says what it took from the file.

        Counts and no game said "Nothing new ... Nothing changed" while the figures changed;
        then "the statistics and settings" whatever changed; a file of pars alone, "Nothing new".
        """
        page = pages()
        boot(page, link(site_url, 3))
        statistics = {"played": 7, "won": 4, "streak": 1, "best": 2}
        deck = {"freecell.deck": "four-colour"}
        taken = "Imported: no new game. Taken from the file:"
        steps: list[tuple[dict[str, Any], str]] = [
            ({}, f"{taken} other browsers' games played and won."),
            ({"par": {"617": 40}}, f"{taken} deals' par."),
            ({"settings": deck}, f"{taken} settings."),
            ({"par": {"617": 41}, "settings": deck}, "Nothing new in this file"),
        ]
        for index, (fields, said) in enumerate(steps):
            data = archive("elsewhere", statistics=statistics, **fields)
            import_file(page, written(tmp_path, f"step-{index}", data), said)
        assert figures(page)["played"] == "7"
        pars = page.evaluate("() => JSON.parse(localStorage.getItem('freecell.par'))")
        assert ["617", 40] in pars
        expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")

    def test_counts_stop_at_the_ceiling(self, pages: PageFactory, site_url: str) -> None:
        """A game played at 1,000,000,000 games leaves the count there, across a reload.

        The count went to 1,000,000,001, which the record then read back as no count (0).
        """
        record = {"version": 2, "played": 10**9, "won": 10**9, "streak": 10**9,
                  "best": 10**9, "deals": {}, "daily": [], "games": []}  # fmt: skip
        page = pages()
        page.add_init_script(
            "if (!localStorage.getItem('freecell.stats'))"
            f" localStorage.setItem('freecell.stats', '{json.dumps(record)}')"
        )
        win_deal_1(page, site_url)
        for _ in range(2):  # as played, then as stored
            press(page, "stats")
            assert figures(page) == {"played": "1,000,000,000", "won": "1,000,000,000",
                                     "rate": "100%", "best-streak": "1,000,000,000"}  # fmt: skip
            page.reload()
            expect(page.locator("#board")).to_have_attribute("data-deal", "1")


class TestMyGames:
    def test_a_game_opens_in_place_in_the_language_chosen(
        self, player: Page, site_url: str
    ) -> None:
        """A game of "My games" keeps the chosen language and opens in place, the dialog shut."""
        page = player
        moves = ",".join(solution(1))  # the won game, the only one logged
        open_in_place(page, link(site_url, 617, lang="pt"))  # a link that chooses Portuguese
        try:
            page.evaluate("() => { window.notReloaded = true; }")
            press(page, "stats")
            game = page.locator("#my-games a")
            expect(game).to_have_attribute("href", f"?deal=1&moves={moves}&lang=pt")
            game.click()
            expect(page.locator("#board")).to_have_attribute("data-moves", moves)
            expect(page.locator("dialog#stats")).to_be_hidden()
            assert page.evaluate("() => window.notReloaded") is True
            assert page.evaluate("() => location.search") == f"?deal=1&moves={moves}&lang=pt"
            expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
        finally:
            open_in_place(page, link(site_url, 1, lang="en"))  # the other tests read English


def files(valid: dict[str, Any]) -> dict[str, tuple[bytes, str]]:
    """Bad files, each with what the refusal names, made from a valid export."""

    def changed(path: list[Any], value: Any) -> bytes:
        data = json.loads(json.dumps(valid))
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
        return json.dumps(data).encode()

    return {
        "not-json": (b'{"format": "freecell-deals", "version": 1,', "not a JSON file"),
        "ten-megabytes": (b" " * 10_000_000 + json.dumps(valid).encode(), "larger than 2 MB"),
        "not-ours": (b'{"deals": []}', "not an export of FreeCell Deals"),
        "version": (changed(["version"], 99), "reads version 1"),
        "played-text": (changed(["statistics", "played"], "5"), "“statistics.played”"),
        "won-over-played": (changed(["statistics", "won"], 99), "“statistics.won”"),
        "games-object": (changed(["games"], {"0": 1}), "“games”"),
        "script-id": (changed(["games", 0, "id"], HOSTILE), "“games[0].id”"),
        "script-moves": (changed(["games", 0, "moves"], HOSTILE), "“games[0].moves”"),
        "script-setting": (changed(["settings", "freecell.deck"], HOSTILE), "“settings."),
        "script-device": (changed(["device"], HOSTILE), "“device”"),
        "deal-range": (changed(["games", 0, "deal"], 2**40), "“games[0].deal”"),
        "played-beyond": (changed(["statistics", "played"], BEYOND), "more than 1,000,000,000"),
        "best-beyond": (
            changed(["imported"], {"b": {"played": 1, "won": 1, "best": BEYOND}}),
            "“imported.b.best” is more than 1,000,000,000",
        ),
        "fewest-beyond": (changed(["deals", "1", "fewest"], BEYOND), "“deals.1.fewest”"),
        "long-id-beyond": (  # the field quoted as every message quotes: 40 characters and "…"
            changed(["imported"], {"d" * 64: {"played": 1, "won": 1, "best": BEYOND}}),
            f"“imported.{'d' * 31}…” is more than",
        ),
        "same-game-thrice": (changed(["games"], valid["games"] * 3), "“games[1].id”"),
        "par-beyond": (changed(["par"], {"617": BEYOND}), "“par.617” is more than 1,000,000,000"),
        "deal-par-beyond": (changed(["deals", "1", "par"], BEYOND), "“deals.1.par” is more"),
        "dated-9999": (
            changed(["games", 0, "date"], "9999-12-31T00:00:00.000Z"),
            "“games[0].date”",
        ),
    }


KINDS = ["not-json", "ten-megabytes", "not-ours", "version", "played-text", "won-over-played",
         "games-object", "script-id", "script-moves", "script-setting", "script-device",
         "deal-range", "played-beyond", "best-beyond", "fewest-beyond", "long-id-beyond",
         "same-game-thrice", "dated-9999", "par-beyond", "deal-par-beyond"]  # fmt: skip


class TestBadFiles:
    @pytest.mark.parametrize("kind", KINDS)
    def test_refused_with_nothing_lost(
        self,
        exported: tuple[Path, dict[str, Any]],
        player: Page,
        tmp_path: Path,
        kind: str,
    ) -> None:
        """A bad file is refused, saying why; statistics, games and settings stay; no script."""
        _, valid = exported
        content, reason = files(valid)[kind]
        page = player  # the browser that won deal 1 and exported, its file's source
        press(page, "stats")
        expect(page.locator("#archive-message")).to_be_empty()
        deck = page.locator("html").get_attribute("data-deck")
        before = figures(page), page.evaluate("() => ({...localStorage})")
        bad = tmp_path / f"{kind}.json"
        bad.write_bytes(content)
        import_file(page, bad, "can't be imported")
        expect(page.locator("#archive-message")).to_contain_text(reason)
        expect(page.locator("#archive-message")).to_contain_text("Nothing changed.")
        assert (figures(page), page.evaluate("() => ({...localStorage})")) == before
        expect(page.locator("img[src='x']")).to_have_count(0)
        assert page.evaluate("() => typeof window.__xss === 'undefined'")
        assert page.locator("html").get_attribute("data-deck") == deck
