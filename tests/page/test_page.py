"""The web page in dist/, driven in a real Chromium: it must show exactly what the dealer deals.

Each class shares one booted page where it can (the `app` fixture, at ?deal=617; the phone's
layout `phone`); every test first puts that page in the state it needs. Python's own dealer is
the oracle for every board.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any, Protocol, cast
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import Page, expect

from freecell import MAX_DEAL, Game, card_name, deal, parse_position
from helpers import (
    BOOT_MS,
    DESKTOP,
    OPEN_IN_PLACE_JS,
    PHONE,
    PHONE_OPTIONS,
    SCHEMES,
    TIMEOUT_MS,
    ContextFactory,
    Gate,
    WarmContexts,
    blur,
    boot,
    columns_of,
    content_security_policy,
    open_in_place,
    origin,
    poll,
    press,
    remembered_pars,
    screenshots,
    settle,
    shown_columns,
)

VALID_RANGE = "1 to 8589934591"
"""Every message about a bad deal number says what is valid, and so contains this."""
BAD_TEXT = {
    "letters": "abc",
    "empty": "",
    "zero": "0",
    "minus-3": "-3",
    "fraction": "1.5",
    "too-large": "99999999999",
    "html": "<img src=x onerror=window.__xss=1>",
    "trailing-letters": "617abc",
}
BAD_QUERIES = {
    **{name: "deal=" + quote(text) for name, text in BAD_TEXT.items()},
    "repeated": "deal=1&deal=2",
}

MARKUP = "<img src=x onerror=window.__xss=1><script>window.__xss=2</script>"
HOSTILE_QUERIES = {
    "markup-deal": "deal=" + quote(MARKUP),
    "markup-moves": "deal=1&moves=" + quote(MARKUP),
    "markup-lang": "deal=1&lang=" + quote(MARKUP),
    "huge-number": "deal=" + "9" * 400,
    "unicode-digits": "deal=" + quote("６١٧"),  # noqa: RUF001 - full-width and Arabic digits
    "nul": "deal=617%00&moves=5a%00",
    "ten-thousand-moves": "deal=1&moves=" + ",".join(["5a", "a5"] * 5000),
    "duplicates": "deal=617&moves=5a&moves=5b&lang=ru&lang=pt",
    "bidi-and-spaces": "deal=%E2%80%AE617%20&moves=%20%205a%20",
    "javascript-url": "deal=javascript:window.__xss=3",
}
"""Links an attacker or a broken program could make."""
TRAP_DIALOGS_JS = """
window.__dialogs = 0;
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = () => { window.__dialogs += 1; };
}
"""
MADE_FROM_INPUT_JS = """() => Array.from(document.querySelectorAll("*"))
    .filter((element) => ["IMG", "B", "IFRAME", "OBJECT", "EMBED"].includes(element.tagName)
        || (element.tagName === "SCRIPT" && !element.src)
        || Array.from(element.attributes).some((attribute) => /^on/i.test(attribute.name)))
    .map((element) => element.outerHTML.slice(0, 80))"""


class ErrorLog(Protocol):
    """conftest's `error_log`: the console errors and uncaught errors seen so far."""

    def take(self) -> list[str]:
        """Return the errors recorded since the last call, and forget them."""
        ...


RUNTIME_FILES = ["**/pyodide.asm.wasm", "**/python_stdlib.zip.gz", "**/freecell_deals-*.whl"]
FAILS_WITHIN_MS = 10_000
"""A runtime file that cannot be downloaded is reported this soon (it once took 45 s)."""

WATCH_ALERT_JS = """() => {
    window.__alertObserver?.disconnect();
    window.__alertChanges = 0;
    window.__alertObserver = new MutationObserver(() => { window.__alertChanges += 1; });
    window.__alertObserver.observe(document.querySelector("[role=alert]"),
        {childList: true, characterData: true, subtree: true});
}"""
NOT_INJECTED_JS = "() => typeof window.__xss === 'undefined'"


# --- helpers ------------------------------------------------------------------------------------


def deal_params(page: Page) -> list[str]:
    """Every `deal` value in the page's URL."""
    return parse_qs(urlsplit(page.url).query, keep_blank_values=True).get("deal", [])


def wait_for_deal(page: Page, number: int) -> None:
    """Wait until the board shows deal `number` (data-deal is set after the cards)."""
    page.wait_for_selector(f"#board[data-deal='{number}']")


def assert_shows(page: Page, number: int) -> None:
    """Assert the page shows deal `number`: its cards exactly, the title and the URL."""
    wait_for_deal(page, number)
    assert shown_columns(page) == columns_of(number)
    expect(page).to_have_title(f"FreeCell deal #{number}")
    expect(page).to_have_url(re.compile(rf"[?&]deal={re.escape(str(number))}(&|$)"))
    assert deal_params(page) == [str(number)]


def show(page: Page, number: int) -> None:
    """Type a deal number into the field, press Enter and wait for the board."""
    page.locator("#deal").fill(str(number))
    page.locator("#deal").press("Enter")
    wait_for_deal(page, number)


def shown_number(page: Page) -> int:
    """Return the deal number the board says it shows."""
    return int(page.locator("#board").get_attribute("data-deal") or "nan")


def watch_alert(page: Page) -> None:
    """Start counting changes of the alert region, to tell a new message from an old one."""
    page.evaluate(WATCH_ALERT_JS)


def expect_new_alert(page: Page, text: str) -> None:
    """Wait for the alert region to change since `watch_alert`, then to contain `text`."""
    poll(page, "() => window.__alertChanges > 0", timeout_ms=TIMEOUT_MS)
    expect(page.get_by_role("alert")).to_contain_text(text)


def assert_nothing_injected(page: Page) -> None:
    """Assert that typed or linked HTML was never parsed: no img, no script side effect."""
    expect(page.locator("img[src='x']")).to_have_count(0)
    assert page.evaluate(NOT_INJECTED_JS)


def clipboard(page: Page) -> str:
    """Return the text on the clipboard (needs the clipboard-read permission)."""
    return cast(str, page.evaluate("() => navigator.clipboard.readText()"))


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(
    warm_contexts: WarmContexts, site_url: str, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """One booted desktop page for the module, opened at ?deal=617, allowed the clipboard."""
    page = warm_contexts.new_page(lasting=True, pars=remembered_pars(request))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin(site_url))
    boot(page, f"{site_url}?deal=617")
    yield page
    page.close()


@pytest.fixture
def phone(running_phone: Page) -> Page:
    """Return the class's phone page, settled for the next test (see conftest's `table`)."""
    settle(running_phone)
    return running_phone


# --- tests --------------------------------------------------------------------------------------


class TestRendering:
    def test_link_opens_its_deal(self, app: Page) -> None:
        """?deal=617 opens deal 617: its 52 cards in the dealer's columns, title and URL."""
        assert_shows(app, 617)

    @pytest.mark.parametrize(
        "number",
        [1, 617, -1, -2, 1_000_000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, MAX_DEAL],
    )
    def test_typed_deal_renders_exactly(self, app: Page, number: int) -> None:
        """A typed deal, special and extended ones too, shows exactly the dealer's columns."""
        show(app, number)
        assert_shows(app, number)

    def test_link_to_the_largest_deal(self, app: Page, site_url: str) -> None:
        """A first load at ?deal=8589934591 shows the last deal of the extended range."""
        boot(app, f"{site_url}?deal={MAX_DEAL}")
        assert_shows(app, MAX_DEAL)

    def test_table_shape(self, app: Page) -> None:
        """The table has cascades of 7,7,7,7,6,6,6,6 cards, 4 empty free cells and foundations."""
        show(app, 617)
        assert [len(column) for column in shown_columns(app)] == [7, 7, 7, 7, 6, 6, 6, 6]
        expect(app.locator("#board > *")).to_have_count(8)
        expect(app.locator("[data-freecell]")).to_have_count(4)
        expect(app.locator("[data-foundation]")).to_have_count(4)
        expect(
            app.locator("[data-freecell] [data-card], [data-foundation] [data-card]")
        ).to_have_count(0)


class TestAccessibility:
    def test_every_card_is_named(self, app: Page) -> None:
        """Each of the 52 cards' accessible name is its English name, as card_name says."""
        show(app, 617)
        cards = app.locator("#board [data-card]")
        expect(cards).to_have_count(52)
        in_dom_order = [card for column in deal(617).columns for card in column]
        for index, card in enumerate(in_dom_order):
            expect(cards.nth(index)).to_have_accessible_name(card_name(card))

    def test_cascades_are_lists(self, app: Page) -> None:
        """Assistive technology sees each cascade as a list and each card as a list item."""
        show(app, 617)
        columns = app.locator("#board [data-column]")
        expect(columns.and_(app.get_by_role("list"))).to_have_count(8)
        expect(app.locator("#board [data-card]").and_(app.get_by_role("listitem"))).to_have_count(
            52
        )

    def test_focus_ring(self, app: Page) -> None:
        """A button reached with Tab shows a focus ring: an outline or a box-shadow."""
        app.locator("h1").first.click()
        for _ in range(20):
            app.keyboard.press("Tab")
            if app.evaluate("() => document.activeElement?.tagName") == "BUTTON":
                break
        else:
            pytest.fail("Tab never reached a button")
        style = cast(
            dict[str, Any],
            app.evaluate("""() => {
                const element = document.activeElement;
                const css = getComputedStyle(element);
                return {outlineStyle: css.outlineStyle, outlineWidth: css.outlineWidth,
                        boxShadow: css.boxShadow, focusVisible: element.matches(":focus-visible")};
            }"""),
        )
        assert style["focusVisible"], style
        outline = style["outlineStyle"] != "none" and style["outlineWidth"] not in {"0px", ""}
        assert outline or style["boxShadow"] != "none", style


class TestNavigation:
    def test_next_button(self, app: Page) -> None:
        """Next after 617 shows 618 and the URL becomes ?deal=618."""
        show(app, 617)
        app.locator("[data-action=next]").click()
        assert_shows(app, 618)

    def test_prev_button(self, app: Page) -> None:
        """Prev after 617 shows 616."""
        show(app, 617)
        app.locator("[data-action=prev]").click()
        assert_shows(app, 616)

    @pytest.mark.parametrize(
        ("number", "action", "said"),
        [
            (MAX_DEAL, "next", f"{MAX_DEAL} is the last deal: there is none after it."),
            (-2, "prev", "-2 is the first deal: there is none before it."),
        ],
    )
    def test_the_ends_of_the_deals(
        self, app: Page, site_url: str, number: int, action: str, said: str
    ) -> None:
        """At the last deal Next is off, at -2 Prev: pressed, the page says why, and keeps the game.

        Opening the deal says nothing of the kind: the player has not asked for another.
        """
        open_in_place(app, f"{site_url}?deal={number}&moves=1a")
        other = "prev" if action == "next" else "next"
        expect(app.locator(f"[data-action={action}]")).to_be_disabled()
        expect(app.locator(f"[data-action={other}]")).to_be_enabled()
        expect(app.locator("#message")).not_to_have_text(said)  # nothing was pressed yet
        blur(app)
        app.keyboard.press(action[0])  # N or P
        expect(app.locator("#message")).to_have_text(said)
        expect(app.locator("#board")).to_have_attribute("data-moves", "1a")
        assert deal_params(app) == [str(number)]

    def test_random_button(self, app: Page) -> None:
        """Random shows some valid deal, exactly, and puts it in the URL."""
        show(app, 617)
        press(app, "random")
        expect(app.locator("#board")).not_to_have_attribute("data-deal", "617")
        number = shown_number(app)
        assert 1 <= number <= MAX_DEAL
        assert_shows(app, number)

    def test_back_and_forward(self, app: Page) -> None:
        """Every change of deal is a history entry: back and forward restore the deals."""
        show(app, 617)
        app.locator("[data-action=next]").click()
        wait_for_deal(app, 618)
        app.locator("[data-action=next]").click()
        assert_shows(app, 619)
        app.go_back()
        assert_shows(app, 618)
        app.go_back()
        assert_shows(app, 617)
        app.go_forward()
        assert_shows(app, 618)

    def test_url_is_a_share_link(self, app: Page) -> None:
        """The URL after Next, opened in another tab, shows the same deal."""
        show(app, 617)
        app.locator("[data-action=next]").click()
        assert_shows(app, 618)
        other = app.context.new_page()
        try:
            boot(other, app.url)
            assert_shows(other, 618)
        finally:
            other.close()

    def test_no_deal_in_the_url(self, app: Page, site_url: str) -> None:
        """Without ?deal= the page picks one of deals 1..1000000 and replaces the URL with it."""
        other = app.context.new_page()
        try:
            boot(other, site_url)
            expect(other.locator("#board")).to_have_attribute("data-deal", re.compile(r"\d+"))
            number = shown_number(other)
            assert 1 <= number <= 1_000_000
            assert_shows(other, number)
            other.go_back()  # replaced, not pushed: back leaves the page
            expect(other).to_have_url("about:blank")
        finally:
            other.close()

    def test_a_name_no_one_gives_leaves_the_url(self, app: Page, site_url: str) -> None:
        """?%00deal=1 (a NUL, then "deal") opens a deal, and the URL keeps no %00 name.

        Another site's parameter (utm_source) stays, as it was; the NUL name stayed too.
        """
        other = app.context.new_page()
        try:
            boot(other, f"{site_url}?%00deal=1&utm_source=news&%20=x")
            expect(other.locator("#board")).to_have_attribute("data-deal", re.compile(r"\d+"))
            expect(other).to_have_url(re.compile(r"[?&]utm_source=news(&|$)"))
            query = urlsplit(other.url).query
            assert "%00" not in query
            assert "%20" not in query
            assert "+=" not in query
        finally:
            other.close()

    @pytest.mark.parametrize(
        ("name", "query"),
        [("moves", "moves=5a&moves=5b"), ("daily", "daily=2026-11-27&daily=2026-11-28"),
         ("grade", "grade=2&grade=3"), ("lang", "lang=ru&lang=pt")],
    )  # fmt: skip
    def test_a_parameter_given_twice_is_refused_as_two_deals_are(
        self, app: Page, site_url: str, name: str, query: str
    ) -> None:
        """&moves=83&moves=2a, two dailies, grades or languages: refused, saying which.

        Two moves were joined, and of the others the first was taken, while two deals are
        refused; each is refused with one message, and the URL keeps neither value.
        """
        open_in_place(app, f"{site_url}?deal=617")
        watch_alert(app)
        app.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?deal=1&{query}")
        expect_new_alert(app, f"The link gives “{name}” more than once")
        assert_nothing_injected(app)
        expect(app.locator("#board")).not_to_have_attribute("data-moves", "5a,5b")
        expect(app.locator("html")).to_have_attribute("lang", "en")
        assert f"{name}=" not in urlsplit(app.url).query


class TestKeyboard:
    def test_n_and_p(self, app: Page) -> None:
        """`n` opens the next deal and `p` the previous one."""
        show(app, 617)
        blur(app)
        app.keyboard.press("n")
        assert_shows(app, 618)
        app.keyboard.press("p")
        assert_shows(app, 617)
        app.keyboard.press("p")
        assert_shows(app, 616)

    def test_r(self, app: Page) -> None:
        """`r` opens a random deal."""
        show(app, 617)
        blur(app)
        app.keyboard.press("r")
        expect(app.locator("#board")).not_to_have_attribute("data-deal", "617")
        assert_shows(app, shown_number(app))

    def test_slash_focuses_the_field(self, app: Page) -> None:
        """`/` moves focus to the deal field without typing a slash into it."""
        show(app, 617)
        blur(app)
        app.keyboard.press("/")
        expect(app.locator("#deal")).to_be_focused()
        assert "/" not in app.locator("#deal").input_value()

    def test_question_mark_toggles_help(self, app: Page) -> None:
        """`?` opens the help dialog and closes it; so do Escape and its close button."""
        show(app, 617)
        blur(app)
        dialog = app.locator("dialog#help")
        expect(dialog).to_be_hidden()
        app.keyboard.press("?")
        expect(dialog).to_be_visible()
        app.keyboard.press("?")
        expect(dialog).to_be_hidden()
        app.keyboard.press("?")
        expect(dialog).to_be_visible()
        app.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        press(app, "help")
        expect(dialog).to_be_visible()
        dialog.locator("[data-action=close]").click()
        expect(dialog).to_be_hidden()

    def test_a_dialog_over_another_gives_focus_back_in_turn(self, app: Page) -> None:
        """I in the help opens the statistics over it; each closing gives focus back in turn."""
        show(app, 617)
        opener = app.locator("[data-action=next]")
        opener.focus()
        app.keyboard.press("?")
        dialog = app.locator("dialog#help")
        expect(dialog).to_be_visible()
        inside = dialog.locator("[data-action=close]")
        inside.focus()
        app.keyboard.press("i")
        expect(app.locator("dialog#stats")).to_be_visible()
        app.keyboard.press("Escape")
        expect(app.locator("dialog#stats")).to_be_hidden()
        expect(inside).to_be_focused()
        app.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        expect(opener).to_be_focused()

    def test_a_number_typed_again_is_kept(self, app: Page) -> None:
        """A number typed again after Next stays in the field while the deal's figures arrive.

        The field once took any text the player had asked for before as not being typed, so the
        render of a late reply (the grade, 100 ms and a search after the deal opened) put the
        deal shown back over it, and Enter reopened that deal.
        """
        show(app, 617)
        blur(app)
        app.keyboard.press("n")
        wait_for_deal(app, 618)
        field = app.locator("#deal")
        field.fill("617")
        expect(app.locator("#board")).to_have_attribute("data-difficulty", re.compile("."))
        expect(field).to_have_value("617")
        field.press("Enter")
        assert_shows(app, 617)

    def test_keys_in_the_field_are_text(self, app: Page) -> None:
        """Letters typed into the deal field are text, not shortcuts."""
        show(app, 617)
        field = app.locator("#deal")
        field.fill("")
        field.press_sequentially("nrp")
        expect(field).to_have_value("nrp")
        expect(app.locator("#board")).to_have_attribute("data-deal", "617")
        assert deal_params(app) == ["617"]


class TestCopy:
    def test_copy_link(self, app: Page) -> None:
        """Copy link puts the page's URL, ?deal=617, on the clipboard and says so."""
        show(app, 617)
        app.evaluate("() => navigator.clipboard.writeText('nothing yet')")
        watch_alert(app)
        press(app, "copy-link")
        expect_new_alert(app, "Copied")
        assert clipboard(app) == app.url
        assert app.url.endswith("?deal=617")

    def test_copy_text(self, app: Page, site_url: str) -> None:
        """Copy text puts the position on the table on the clipboard, in fc-solve's format."""
        open_in_place(app, f"{site_url}?deal=617&moves=82,52")
        app.evaluate("() => navigator.clipboard.writeText('nothing yet')")
        watch_alert(app)
        blur(app)
        app.keyboard.press("t")
        expect_new_alert(app, "Copied")
        game = Game.from_deal_number(617)
        for move in ("82", "52"):
            game.push(move)
        text = clipboard(app)
        assert text == f"{game.position}\n"
        assert parse_position(text) == game.position
        # `freecell solve -` reads it, and its solution wins from that position.
        solved = subprocess.run(
            [sys.executable, "-m", "freecell", "solve", "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        label, _, moves = solved.stdout.partition(": ")
        assert label == "-"
        for move in moves.split():
            game.push(move)
        assert game.is_won()

    def test_a_copy_the_browser_never_ends_holds_nothing_up(self, app: Page) -> None:
        """A clipboard that never answers (a browser may wait on a permission) delays no action.

        Copy link and Copy text leave their writes pending; Next still opens the next deal.
        """
        show(app, 617)
        app.evaluate("() => { navigator.clipboard.writeText = () => new Promise(() => {}); }")
        try:
            press(app, "copy-link")
            press(app, "copy-text")
            press(app, "next")
            wait_for_deal(app, 618)
        finally:
            app.evaluate("() => { delete navigator.clipboard.writeText; }")


class TestBadInput:
    @pytest.mark.parametrize("text", BAD_TEXT.values(), ids=BAD_TEXT.keys())
    def test_typed(self, app: Page, text: str) -> None:
        """A bad typed number gets a message saying what is valid; the board and URL stay."""
        show(app, 617)
        watch_alert(app)
        app.locator("#deal").fill(text)
        app.locator("#deal").press("Enter")
        expect_new_alert(app, VALID_RANGE)
        expect(app.locator("#board")).to_have_attribute("data-deal", "617")
        assert shown_columns(app) == columns_of(617)
        assert deal_params(app) == ["617"]
        assert_nothing_injected(app)

    @pytest.mark.parametrize("query", BAD_QUERIES.values(), ids=BAD_QUERIES.keys())
    def test_in_the_link(self, app: Page, site_url: str, query: str) -> None:
        """A bad link gets a message that says what is valid, and nothing is injected.

        Opened in the running page, as Back and Forward open links (test_hostile_links boots
        at links as bad), after a good deal, which stays or gives way to a whole one. (Opened in
        place, so that no pending action pushes its own URL over the link's.)
        """
        open_in_place(app, f"{site_url}?deal=617")
        watch_alert(app)
        app.evaluate(OPEN_IN_PLACE_JS, f"{site_url}?{query}")
        expect_new_alert(app, VALID_RANGE)
        assert_nothing_injected(app)
        # The board is a whole deal: data-deal is set after the cards, so a deal that gives
        # way to another can be caught between the two, then both agree.
        for _ in range(100):
            shown = app.locator("#board").get_attribute("data-deal")
            if shown is None or shown_columns(app) == columns_of(int(shown)):
                break
            app.wait_for_timeout(100)
        else:
            pytest.fail(f"the cards are not deal {shown}'s")

    @pytest.mark.parametrize("query", HOSTILE_QUERIES.values(), ids=HOSTILE_QUERIES.keys())
    def test_hostile_links(self, page: Page, site_url: str, query: str) -> None:
        """A hostile link: ready, a deal or a clear message, nothing made from it, Next works."""
        page.add_init_script(TRAP_DIALOGS_JS)
        boot(page, f"{site_url}?{query}")
        said = page.locator("#message").text_content() or ""
        shown = page.locator("#board").get_attribute("data-deal")
        assert shown is not None or said.strip(), "neither a deal nor a message"
        assert page.evaluate(MADE_FROM_INPUT_JS) == []
        before = shown
        page.locator("[data-action=next]").click()
        expect(page.locator("#board")).to_have_attribute("data-deal", re.compile(r"-?\d+"))
        expect(page.locator("#board")).not_to_have_attribute("data-deal", before or "")
        assert page.evaluate("() => window.__dialogs") == 0
        assert_nothing_injected(page)


class TestLoading:
    def test_latest_choice_while_loading_wins(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """While Python loads, the status says so and the field works; the last deal asked wins.

        A first visit (a cold context), the only one that loads the wheel.
        """
        with make_context() as context:
            page = context.new_page()
            gate = Gate()
            page.route("**/freecell_deals-*.whl", gate)
            page.goto(f"{site_url}?deal=617")
            html = page.locator("html")
            expect(html).to_have_attribute("data-state", "loading")
            talking = page.locator("[role=status], [role=alert]").filter(has_text=re.compile(r"\w"))
            expect(talking.first).to_be_visible()
            for number in (1000, 2000):
                page.locator("#deal").fill(str(number))
                page.locator("#deal").press("Enter")
            expect(html).to_have_attribute("data-state", "loading")
            gate.open()
            expect(html).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_shows(page, 2000)

    @pytest.mark.console_errors_expected
    @pytest.mark.parametrize("pattern", RUNTIME_FILES)
    def test_runtime_file_missing_then_retry(
        self, make_context: ContextFactory, site_url: str, pattern: str
    ) -> None:
        """A runtime file that fails to load on a first visit: said at once, then Retry.

        First it is missing (HTTP 404), then, at the first Retry, its connection is cut. Each
        time the message names the file (and the HTTP status), and the worker leaves no
        uncaught error behind; the next Retry boots. A fresh context: a later visit resumes
        Python without the runtime's files.
        """
        file = pattern.removeprefix("**/").split("*")[0]
        with make_context() as context:
            page = context.new_page()
            uncaught: list[str] = []
            page.on("pageerror", lambda error: uncaught.append(str(error)))
            page.route(pattern, lambda route: route.fulfill(status=404, body="missing"))
            page.goto(f"{site_url}?deal=617")
            html = page.locator("html")
            alert = page.get_by_role("alert")
            retry = page.locator("[data-action=retry]")

            def failed(*said: str) -> None:
                """Check the failure is said at once, naming the file, with Retry offered."""
                expect(html).to_have_attribute("data-state", "error", timeout=FAILS_WITHIN_MS)
                for text in ("Python could not be loaded", file, *said):
                    expect(alert).to_contain_text(text)
                expect(retry).to_be_visible()
                assert uncaught == []

            failed("HTTP 404")
            page.unroute(pattern)
            page.route(pattern, lambda route: route.abort())
            retry.click()
            expect(alert).not_to_contain_text("HTTP 404")  # the first failure's message is gone
            failed()
            page.unroute(pattern)
            retry.click()
            expect(html).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_shows(page, 617)
            assert uncaught == []


class TestLayout:
    def test_phone_width(self, phone: Page, site_url: str) -> None:
        """At 360 px wide all 8 cascades fit: no horizontal scrolling, every column on screen."""
        page = phone
        open_in_place(page, f"{site_url}?deal=617")
        assert_shows(page, 617)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        columns = page.locator("#board [data-column]")
        expect(columns).to_have_count(8)
        for index in range(8):
            column = columns.nth(index)
            expect(column).to_be_visible()
            box = column.bounding_box()
            assert box is not None
            assert box["x"] >= 0, (index, box)
            assert box["x"] + box["width"] <= PHONE["width"], (index, box)

    # Its page comes through request.getfixturevalue; warm_contexts puts the browser in its
    # fixture closure, so it gets the shared page (not a second one) and "chromium" in its ids.
    @pytest.mark.usefixtures("warm_contexts")
    @pytest.mark.parametrize(
        ("name", "options"),
        [
            ("desktop", {"viewport": DESKTOP}),
            ("phone", PHONE_OPTIONS),
        ],
    )
    def test_light_and_dark(
        self,
        site_url: str,
        request: pytest.FixtureRequest,
        name: str,
        options: dict[str, Any],
    ) -> None:
        """Light and dark schemes both render, differently; screenshots go to test-results/."""
        colours_js = """() => [document.documentElement, document.body]
            .map((element) => getComputedStyle(element).backgroundColor).join(" ")"""
        page: Page = request.getfixturevalue("phone" if options.get("is_mobile") else "app")
        assert page.viewport_size == options["viewport"]
        open_in_place(page, f"{site_url}?deal=617")
        assert_shows(page, 617)
        colours = {}
        try:
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                colours[scheme] = page.evaluate(colours_js)
            assert colours["light"] != colours["dark"]
            screenshots(page, request.config, f"screenshot-{name}", full_page=True)
        finally:
            page.emulate_media(color_scheme="light")  # as the shared page was


class TestErrors:
    def test_a_session_logs_no_errors(self, app: Page, error_log: ErrorLog) -> None:
        """Loading, every button and a typed deal log no console error and throw nothing."""
        show(app, 617)
        for action in ("next", "prev", "random", "copy-link", "copy-text", "help", "stats"):
            press(app, action)
            app.keyboard.press("Escape")  # closes a window that opened, drops nothing else
        show(app, 1)
        assert error_log.take() == []


POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'"
)
"""The Content-Security-Policy the page must hold itself to: no inline script or style, no eval."""


class TestSecurity:
    def test_the_page_declares_the_policy(self) -> None:
        """index.html carries the strict Content-Security-Policy in a <meta> tag."""
        assert content_security_policy() == POLICY

    def test_a_violation_is_caught(self, app: Page, error_log: ErrorLog) -> None:
        """An inline script is refused under the policy, and the tests see the refusal."""
        app.evaluate("""() => {
            const script = document.createElement("script");
            script.textContent = "window.__inline = 1";
            document.head.append(script);
        }""")
        errors: list[str] = []
        for _ in range(50):  # the refusal reaches the console a moment later
            errors += error_log.take()
            if any("Content Security Policy" in error for error in errors):
                break
            app.wait_for_timeout(100)
        assert any("Content Security Policy" in error for error in errors), errors
        assert app.evaluate("() => typeof window.__inline") == "undefined"
