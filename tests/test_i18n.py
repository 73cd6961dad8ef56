"""The page's six languages: complete catalogues, and the page speaking each one in Chromium.

The catalogues (web/src/i18n/<code>.js) are ES modules whose default export is a JSON object;
the static tests read them as JSON and compare their keys with the keys the sources use:
`t("key")`, `list("key")` and `fill(element, "key", ...)` calls in web/src/app/*.js and
`data-i18n="key"` / `data-i18n-*="key"` attributes in web/src/index.html. Errors that Python
reports are keyed "error.<code>" for every code in freecell.ERROR_CODES, in every language
English included (the library's own English messages are the command line's).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from freecell._errors import ERROR_CODES, MESSAGES
from helpers import (
    DESKTOP,
    PHONE,
    WEB,
    PageFactory,
    boot,
    columns_of,
    engine_after,
    js_object,
    menu,
    open_in_place,
    press,
    screenshot_path,
    settle,
    shown_columns,
    solution,
)

CATALOGUES = WEB / "i18n"
LANGUAGES = ["en", "pt", "es", "it", "ru", "zh-Hant"]
TAGS = {"en": "en", "pt": "pt-BR", "es": "es", "it": "it", "ru": "ru", "zh-Hant": "zh-Hant"}
NATIVE_NAMES = {
    "en": "English",
    "pt": "Português",
    "es": "Español",
    "it": "Italiano",
    "ru": "Русский",
    "zh-Hant": "中文（繁體）",  # noqa: RUF001 - Chinese writes full-width parentheses
}
PLURAL_FORMS = {
    "en": {"one", "other"},
    "pt": {"one", "other"},
    "es": {"one", "other"},
    "it": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "zh-Hant": {"other"},
}

USE_IN_JS = re.compile(r"""\b(?:t|list|fill)\((?:\s*\w+,)?\s*"([a-z0-9.-]+)"\s*[,)]""")
USE_IN_HTML = re.compile(r"""\bdata-i18n(?:-[a-z-]+)?="([a-z0-9.-]+)\"""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(code: str) -> dict[str, Any]:
    """Read a language's catalogue: the JSON object after `export default`."""
    return js_object(CATALOGUES / f"{code}.js")


def used_keys() -> set[str]:
    """Every key the page's sources use."""
    keys: set[str] = set()
    for path in sorted((WEB / "app").glob("*.js")):
        keys |= set(USE_IN_JS.findall(path.read_text(encoding="utf-8")))
    keys |= set(USE_IN_HTML.findall((WEB / "index.html").read_text(encoding="utf-8")))
    return keys


def texts(value: Any) -> list[str]:
    """Return the strings of a catalogue value: itself, its plural forms or its list items."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return [str(v) for v in value]


# --- the catalogues -----------------------------------------------------------------------------


class TestCatalogues:
    def test_every_used_key_is_in_english(self) -> None:
        """en.js holds the keys the sources use and one per Python error code, and no other."""
        english = set(catalogue("en"))
        used = used_keys() | {f"error.{code}" for code in ERROR_CODES}
        assert used - english == set(), "used but missing from en.js"
        assert english - used == set(), "in en.js but used nowhere"

    @pytest.mark.parametrize("code", LANGUAGES[1:])
    def test_same_keys_as_english(self, code: str) -> None:
        """Every other language has exactly English's keys."""
        keys = set(catalogue(code))
        wanted = set(catalogue("en"))
        assert wanted - keys == set(), f"missing from {code}.js"
        assert keys - wanted == set(), f"in {code}.js but unused"

    @pytest.mark.parametrize("code", LANGUAGES)
    def test_values_are_well_formed(self, code: str) -> None:
        """Texts are non-empty; plurals have the language's forms; placeholders match English."""
        english = catalogue("en")
        for key, value in catalogue(code).items():
            assert all(text.strip() for text in texts(value)), key
            if isinstance(value, dict):
                assert set(value) == PLURAL_FORMS[code], key
            if isinstance(value, list):
                assert len(value) == len(english[key]), key
            if key in english and not isinstance(value, list) and not key.startswith("error."):
                theirs = {p for text in texts(english[key]) for p in PLACEHOLDER.findall(text)}
                ours = {p for text in texts(value) for p in PLACEHOLDER.findall(text)}
                assert ours == theirs, key

    def test_error_placeholders_are_python_params(self) -> None:
        """Each error text's placeholders are among the params of its code's Python message."""
        for code in LANGUAGES:
            for key, value in catalogue(code).items():
                if key.startswith("error."):
                    english = MESSAGES[key.removeprefix("error.")]
                    params = {
                        re.split(r"[.\[]", name)[0]
                        for _, name, _, _ in string.Formatter().parse(english)
                        if name
                    }
                    found = {p for text in texts(value) for p in PLACEHOLDER.findall(text)}
                    assert found <= params, (code, key, found - params)

    def test_card_vocabulary(self) -> None:
        """Each language names the cards in its own words."""
        names = {code: catalogue(code) for code in LANGUAGES}
        assert names["pt"]["card.ranks"][10] == "Valete"
        assert names["it"]["card.ranks"][10] == "Fante"
        assert names["es"]["card.ranks"][10] == "Jota"
        assert names["ru"]["card.ranks"][0] == "туз"
        assert names["ru"]["card.suits"] == ["треф", "бубен", "червей", "пик"]
        assert names["zh-Hant"]["card.suits"] == ["梅花", "方塊", "紅心", "黑桃"]


# --- the page in each language ------------------------------------------------------------------

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
        path = screenshot_path(request.config, f"screenshot-i18n-{code}-{width}")
        page.screenshot(path=path, full_page=True)


def test_deal_617_first_cascade_ends_in_the_jack_of_diamonds() -> None:
    """The card the page tests name: deal 617's first cascade ends in JD."""
    assert columns_of(617)[0][-1] == "JD"
