"""The page speaking each of its six languages in a real Chromium (the catalogues: library/)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from helpers import (
    DESKTOP,
    LANGUAGES,
    PHONE,
    PageFactory,
    boot,
    engine_after,
    menu,
    open_in_place,
    press,
    screenshot,
    settle,
    shown_columns,
    solution,
)

TAGS = {"en": "en", "pt": "pt-BR", "es": "es", "it": "it", "ru": "ru", "zh-Hant": "zh-Hant"}

NATIVE_NAMES = {
    "en": "English",
    "pt": "Português",
    "es": "Español",
    "it": "Italiano",
    "ru": "Русский",
    "zh-Hant": "中文（繁體）",  # noqa: RUF001 - Chinese writes full-width parentheses
}


CARD_617 = {
    "en": "Jack of Diamonds",
    "pt": "Valete de Ouros",
    "es": "Jota de Diamantes",
    "it": "Fante di Quadri",
    "ru": "валет бубен",
    "zh-Hant": "方塊J",
}
"""The accessible name of JD, the bottom card of deal 617's first cascade."""

TITLE_617 = {
    "en": "FreeCell deal #617",
    "pt": "Jogo de FreeCell nº 617",
    "es": "Partida de FreeCell n.º 617",
    "it": "Partita di FreeCell n. 617",
    "ru": "Расклад FreeCell № 617",
    "zh-Hant": "空當接龍 第 617 局",
}

UNDO = {"en": "Undo", "pt": "Desfazer", "es": "Deshacer", "it": "Annulla", "ru": "Отменить",
        "zh-Hant": "復原"}  # fmt: skip

LANGUAGE_LABEL = {"en": "Language", "pt": "Idioma", "es": "Idioma", "it": "Lingua", "ru": "Язык",
                  "zh-Hant": "語言"}  # fmt: skip

NUMBER_RANGE = {
    "en": "8,589,934,591",
    "pt": "8.589.934.591",
    "es": "8.589.934.591",
    "it": "8.589.934.591",
    "ru": "8\u00a0589\u00a0934\u00a0591",
    "zh-Hant": "8,589,934,591",
}
"""How the help writes the last deal number (Intl.NumberFormat; Russian groups with NBSP)."""

ILLEGAL_2H = {
    "pt": "9♣ não pode ir para as fundações",
    "es": "el 9♣ no puede ir a las fundaciones",
    "it": "9♣ non può andare sulle fondazioni",
    "ru": "карту 9♣ нельзя положить в дом",
    "zh-Hant": "9♣ 還不能進收牌區",
}


def query(page: Page) -> dict[str, list[str]]:
    """Return the page URL's query parameters."""
    return parse_qs(urlsplit(page.url).query)


def expect_language(page: Page, code: str) -> None:
    """Assert the page speaks `code`: <html lang>, the title, the menu, a button, a card name."""
    expect(page.locator("html")).to_have_attribute("lang", TAGS[code])
    expect(page.locator("#language")).to_have_value(code)
    expect(page.get_by_label(LANGUAGE_LABEL[code])).to_have_value(code)
    expect(page.locator("[data-action=undo]")).to_have_text(UNDO[code])


def open_in_language(page: Page, url: str, code: str) -> None:
    """Open a link with ?lang=`code` in the running page; wait until the page speaks it.

    (The language comes after the game is shown: its catalogue may still be loading.)
    """
    open_in_place(page, url)
    expect(page.locator("html")).to_have_attribute("lang", TAGS[code])


def expect_figures(page: Page) -> None:
    """Wait until the deal's figures are in the bar (in place, the last deal's wait unseen)."""
    expect(page.locator("#difficulty")).to_be_visible()
    expect(page.locator("#difficulty .pending")).to_have_count(0)


BAR_ROWS_JS = """() => {
    const shown = [...document.querySelector("header.bar").children]
        .map((item) => item.getBoundingClientRect()).filter((box) => box.width > 0);
    const first = shown[0];
    return shown.every((box) => box.top < first.bottom && box.bottom > first.top) ? 1 : 2;
}"""
"""1 if every item shown in the bar shares the first one's row, else 2."""


@pytest.fixture
def desktop(table: Page) -> Iterator[Page]:
    """Return the module's running page at 1280x800, for a test that resizes it; 1280x800 after."""
    table.set_viewport_size(DESKTOP)
    yield table
    table.set_viewport_size(DESKTOP)


@pytest.fixture
def phone(running_phone: Page) -> Page:
    """Return the module's phone page, settled, at 360x740."""
    running_phone.set_viewport_size(PHONE)
    settle(running_phone)
    return running_phone


@pytest.mark.browser
class TestPageLanguages:
    @pytest.mark.parametrize("code", LANGUAGES)
    def test_lang_parameter(self, table: Page, site_url: str, code: str) -> None:
        """?lang=xx: lang, title, controls, card names, numbers, a refusal from Python.

        Each opened in the running page; the Portuguese notice and the stored language's
        tests boot at links with ?lang=.
        """
        page = table
        open_in_place(page, f"{site_url}?deal=617&lang={code}")
        expect_language(page, code)
        expect(page).to_have_title(TITLE_617[code])
        jack = page.locator("#board [data-column='1'] [data-card]").last
        expect(jack).to_have_attribute("data-card", "JD")
        expect(jack).to_have_accessible_name(CARD_617[code])
        press(page, "help")
        expect(page.locator("#help-range")).to_contain_text(NUMBER_RANGE[code])
        page.keyboard.press("Escape")
        options = page.locator("#language option")
        assert options.all_text_contents() == list(NATIVE_NAMES.values())
        assert query(page)["lang"] == [code]
        assert query(page)["deal"] == ["617"]

    @pytest.mark.parametrize("code", LANGUAGES[1:])
    def test_python_refusal_in_the_language(self, table: Page, site_url: str, code: str) -> None:
        """An illegal move's reason, from Python's code and params, is in the language."""
        page = table
        open_in_place(page, f"{site_url}?deal=1&moves=5a&lang={code}")
        page.locator("#table [data-card='9C']").click()
        page.locator("[data-foundation='2']").click()
        expect(page.get_by_role("alert")).to_contain_text(ILLEGAL_2H[code])
        expect(page.get_by_role("alert")).to_contain_text("2h")
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a")

    @pytest.mark.parametrize("code", LANGUAGES)
    def test_cards_keep_their_capitals_after_a_colon(
        self, table: Page, site_url: str, code: str
    ) -> None:
        """A reason after a colon starts in lower case, unless it starts with a card: Q♥, 10♦."""
        page = table
        alert = page.get_by_role("alert")
        links = [("deal=617&moves=8a,a8", ["8a"], "Q♥"), ("deal=14&moves=6h", [], "10♦")]
        for link, played, card in links:
            open_in_place(page, f"{site_url}?{link}&lang={code}", played)
            expect(alert).to_contain_text(card)
            assert "q♥" not in alert.inner_text()
            assert query(page)["lang"] == [code]  # the link, corrected, keeps its language
        if code == "en":
            open_in_place(page, f"{site_url}?deal=617&moves=a1&lang=en", [])
            expect(alert).to_have_text(
                "The link's move 1, “a1”, was not played: free cell A is empty."
            )

    def test_bad_deal_number_in_russian(self, table: Page, site_url: str) -> None:
        """A bad deal number is refused in Russian, with the valid range in plain digits."""
        page = table
        open_in_place(page, f"{site_url}?deal=617&lang=ru")
        page.locator("#deal").fill("0")
        page.locator("#deal").press("Enter")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Неверный номер расклада «0»")
        expect(alert).to_contain_text("от 1 до 8589934591")

    def test_link_notice_in_portuguese(self, pages: PageFactory, site_url: str) -> None:
        """A link's malformed move is reported in Portuguese, the game replayed up to it."""
        page = pages()
        boot(page, f"{site_url}?deal=1&moves=5a,5b,zz,5c&lang=pt")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("A jogada 3 do link, “zz”, não foi feita")
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a,5b")
        assert query(page)["moves"] == ["5a,5b"]
        assert query(page)["lang"] == ["pt"]

    def test_browser_locale(self, pages: PageFactory, site_url: str) -> None:
        """With no ?lang=, a ru-RU browser gets Russian, and the URL stays without lang."""
        page = pages(locale="ru-RU")
        boot(page, f"{site_url}?deal=617")
        expect_language(page, "ru")
        expect(page).to_have_title(TITLE_617["ru"])
        expect(page.locator("#board [data-card='JD']")).to_have_accessible_name("валет бубен")
        assert "lang" not in query(page)

    @pytest.mark.parametrize(
        ("locale", "code"),
        [("pt-PT", "pt"), ("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hant"), ("de-DE", "en")],
    )
    def test_locale_mapping(
        self, pages: PageFactory, site_url: str, locale: str, code: str
    ) -> None:
        """Regional and unknown locales map to a language the page speaks, else English."""
        page = pages(locale=locale)
        boot(page, f"{site_url}?deal=617")
        expect(page.locator("html")).to_have_attribute("lang", TAGS[code])

    def test_switch_mid_game(self, pages: PageFactory, site_url: str) -> None:
        """Switching language keeps the deal, the moves, the board and the URL; it is remembered."""
        page = pages()
        boot(page, f"{site_url}?deal=1&moves=5a")
        expect_language(page, "en")
        page.locator("#table [data-card='8H']").dblclick()
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a,52")
        before = shown_columns(page)
        for code in ["zh-Hant", "ru", "pt", "en", "it"]:
            menu(page)
            page.locator("#language").select_option(code)
            expect_language(page, code)
            expect(page.locator("#status")).to_have_text("")
            expect(page.locator("#board")).to_have_attribute("data-moves", "5a,52")
            assert shown_columns(page) == before
            assert query(page)["deal"] == ["1"]
            assert query(page)["moves"] == ["5a,52"]
            assert query(page)["lang"] == [code]
        expect(page.locator("#moves-count")).to_have_text("2")
        expect(page).to_have_title("Partita di FreeCell n. 1")
        expect(page.locator("[data-freecell='0']")).to_have_accessible_name(
            "Cella libera A, Sei di Fiori"
        )
        page.locator("[data-action=undo]").click()
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a")
        # The choice is remembered: a plain link now opens in Italian, and says so in its URL.
        other = pages()
        boot(other, f"{site_url}?deal=2")
        expect_language(other, "it")
        assert query(other)["lang"] == ["it"]
        assert query(other)["deal"] == ["2"]

    def test_link_language_beats_the_stored_one(self, pages: PageFactory, site_url: str) -> None:
        """A shared link's ?lang= wins over the language chosen before; next deal keeps it."""
        page = pages(locale="ru-RU")
        page.add_init_script("localStorage.setItem('freecell.language', 'es')")
        boot(page, f"{site_url}?deal=617&lang=zh-Hant")
        expect_language(page, "zh-Hant")
        page.locator("[data-action=next]").click()
        expect(page.locator("#board")).to_have_attribute("data-deal", "618")
        expect(page).to_have_title("空當接龍 第 618 局")
        assert query(page) == {"deal": ["618"], "lang": ["zh-Hant"]}

    def test_won_game_message(self, table: Page, site_url: str) -> None:
        """The win message and the move counter speak the language, numbers formatted."""
        moves = solution(1)
        assert engine_after(1, moves)["won"]
        page = table
        open_in_place(page, f"{site_url}?deal=1&moves={','.join(moves)}&lang=ru")
        expect(page.locator("#win-text")).to_contain_text("Вы выиграли расклад № 1")
        counted = engine_after(1, moves)["player_moves"]
        expect(page.locator("#moves-count")).to_have_text(str(counted))

    @pytest.mark.parametrize("code", LANGUAGES)
    def test_the_bar_is_one_row_on_a_desktop(self, desktop: Page, site_url: str, code: str) -> None:
        """At 1280 px the bar is one row in every language.

        The buttons keep their words where they fit (English, Chinese) and show their icons
        alone, named by their titles, where not. Each language is switched to in the running
        page, from whichever the test before left: the switch refits the bar.
        """
        page = desktop
        open_in_language(page, f"{site_url}?deal=617&lang={code}", code)
        expect_figures(page)
        page.wait_for_timeout(100)  # a refit waits a frame
        assert page.evaluate(BAR_ROWS_JS) == 1
        undo = page.locator("[data-action=undo]")
        expect(undo).to_have_attribute("title", re.compile(r"\S"))
        if code in ("en", "zh-Hant"):
            expect(undo.locator(".label")).to_be_visible()

    def test_the_bar_takes_its_words_back_when_there_is_room(
        self, desktop: Page, site_url: str
    ) -> None:
        """Russian: icons alone at 1280 px, the words at 1900 px, icons again at 1280 px."""
        page = desktop
        open_in_language(page, f"{site_url}?deal=617&lang=ru", "ru")
        expect_figures(page)
        label = page.locator("[data-action=hint] .label")
        expect(label).to_be_hidden()
        page.set_viewport_size({"width": 1900, "height": 800})
        expect(label).to_be_visible()
        assert page.evaluate(BAR_ROWS_JS) == 1
        page.set_viewport_size({"width": 1280, "height": 800})
        expect(label).to_be_hidden()
        page.wait_for_timeout(100)
        assert page.evaluate(BAR_ROWS_JS) == 1

    def test_the_page_name_gives_way_after_the_words(self, desktop: Page, site_url: str) -> None:
        """Russian at 1100 px: icons and no page name keep one row; a screen reader still has it.

        A narrow window whose bar wraps anyway takes as few steps as make the fewest rows:
        Spanish at 720 px, icons in two rows rather than words in three. (The running page,
        resized, then switched to the language.)
        """
        page = desktop
        page.set_viewport_size({"width": 1100, "height": 800})
        open_in_language(page, f"{site_url}?deal=617&lang=ru", "ru")
        expect_figures(page)
        heading = page.get_by_role("heading", level=1, name="Расклады FreeCell")
        expect(heading).to_have_class(re.compile(r"\bvisually-hidden\b"))
        expect(page.locator("[data-action=hint] .label")).to_be_hidden()
        page.wait_for_timeout(100)
        assert page.evaluate(BAR_ROWS_JS) == 1
        page.set_viewport_size({"width": 1440, "height": 800})
        expect(heading).not_to_have_class(re.compile(r"\bvisually-hidden\b"))
        expect(heading).to_be_visible()
        page.set_viewport_size({"width": 720, "height": 800})
        open_in_language(page, f"{site_url}?deal=617&lang=es", "es")
        expect_figures(page)
        expect(page.locator("[data-action=hint] .label")).to_be_hidden()
        expect(page.locator(".brand")).not_to_have_class(re.compile(r"\bvisually-hidden\b"))
        bar = page.locator("header.bar").bounding_box()
        assert bar is not None
        assert bar["height"] < 100  # two rows are 90 px, three 132

    @pytest.mark.parametrize("code", ["zh-Hant", "ru"])
    @pytest.mark.parametrize("width", ["phone", "desktop"])
    def test_screenshots(
        self,
        desktop: Page,
        phone: Page,
        site_url: str,
        *,
        request: pytest.FixtureRequest,
        code: str,
        width: str,
    ) -> None:
        """zh-Hant and ru fit a 360 px phone and a desktop; screenshots go to test-results/.

        On the module's running page of each (the language switched to in place).
        """
        page = phone if width == "phone" else desktop
        open_in_language(page, f"{site_url}?deal=617&moves=8a&lang={code}", code)
        press(page, "help")
        size = page.viewport_size or {"width": 1280}
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        for index in range(8):
            box = page.locator(f"[data-column='{index + 1}']").bounding_box()
            assert box is not None
            assert box["x"] + box["width"] <= size["width"]
        screenshot(page, request.config, f"screenshot-i18n-{code}-{width}", full_page=True)
