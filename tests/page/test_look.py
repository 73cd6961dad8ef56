"""The table's look, chosen in the "⋯" menu (web/src/app/page/look.js): deck, left-handed table.

In a real Chromium, light and dark: the colours the page computes, their contrast (WCAG AA on
every face a suit is drawn on), the menu's choice remembered, and axe-core's verdict.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Literal, cast

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from helpers import (
    BOOT_MS,
    DESKTOP,
    PHONE,
    PHONE_OPTIONS,
    ROOT,
    SIDEWAYS_OPTIONS,
    WEB,
    PageFactory,
    boot,
    js_object,
    link,
    menu,
    open_in_place,
    screenshot,
    screenshots,
    settle,
)

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SUITS = ("clubs", "diamonds", "hearts", "spades")

COLOURS_JS = """() => {
    const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const probe = document.createElement("span");
    document.body.append(probe);
    const token = (name) => {
        probe.style.color = `var(${name})`;
        return rgb(getComputedStyle(probe).color);
    };
    const suits = ["clubs", "diamonds", "hearts", "spades"];
    const result = {
        cards: suits.map((suit) => rgb(getComputedStyle(
            document.querySelector(`#table .card.${suit}`)).color)),
        marks: suits.map((suit) => rgb(getComputedStyle(
            document.querySelector(`.foundation.${suit}`), "::before").backgroundColor)),
        faces: ["--card", "--card-edge", "--court"].map(token),
        alert: token("--alert"),
        message: Array.from(document.querySelectorAll("#message .suit"),
            (span) => [span.className, rgb(getComputedStyle(span).color)]),
    };
    probe.remove();
    return result;
}"""


def contrast(one: list[float], other: list[float]) -> float:
    """Return the WCAG contrast ratio of two colours."""
    high, low = sorted([luminance(one), luminance(other)], reverse=True)
    return (high + 0.05) / (low + 0.05)


SIMULATIONS = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}  # fmt: skip
"""Machado, Oliveira and Fernandes (2009): each deficiency at full severity, on linear RGB."""


def linear(channel: float) -> float:
    """Return an sRGB channel (0-255) as linear light (0-1)."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb: list[float], matrix: Any = None) -> tuple[float, float, float]:
    """Return an sRGB colour in CIELAB (D65), as seen through a deficiency's matrix if given."""
    light = [linear(c) for c in rgb]
    if matrix is not None:
        light = [min(max(sum(m * c for m, c in zip(row, light, strict=True)), 0), 1)
                 for row in matrix]  # fmt: skip
    r, g, b = light
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def luminance(rgb: list[float]) -> float:
    """Return the relative luminance of an sRGB colour (WCAG 2)."""
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colours(page: Page) -> dict[str, Any]:
    """Return the colours the page computes for the suits, their faces and the message line."""
    return cast(dict[str, Any], page.evaluate(COLOURS_JS))


def choose_deck(page: Page, deck: str) -> None:
    """Choose a deck in the "⋯" menu."""
    menu(page)
    page.locator("select#deck").select_option(deck)
    page.keyboard.press("Escape")
    expect(page.locator("html")).to_have_attribute("data-deck", deck)


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page; return its violations, briefly."""
    page.evaluate(AXE.read_text())
    return cast(
        list[dict[str, Any]],
        page.evaluate("""() => axe.run(document, {resultTypes: ["violations"]})
            .then((r) => r.violations.map((v) => ({id: v.id, nodes: v.nodes.length,
                target: v.nodes[0]?.target})))"""),
    )


def first_look(page: Page, viewport: ViewportSize) -> Page:
    """Settle a running page and give it a first visit's look, at `viewport`.

    Light, with motion, the two-colour deck, right-handed: the tests that share a running page
    change its look, and each starts from this one.
    """
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme="light", reduced_motion="no-preference")
    settle(page)
    if page.locator("select#deck").input_value() != "two-colour":
        choose_deck(page, "two-colour")
    if page.locator("input#left-handed").is_checked():
        menu(page)
        page.locator("input#left-handed").uncheck()
    settle(page)
    expect(page.locator("html")).not_to_have_attribute("data-left-handed", "")
    return page


@pytest.fixture
def desktop(table: Page) -> Page:
    """Return the module's running page (see `table`) with a first visit's look, at 1280x800."""
    return first_look(table, DESKTOP)


@pytest.fixture
def phone(running_phone: Page) -> Page:
    """Return the module's phone page with a first visit's look, upright (360x740)."""
    return first_look(running_phone, PHONE)


class TestFourColourDeck:
    @pytest.mark.parametrize("scheme", ["light", "dark"])
    def test_four_suits_four_colours_with_contrast(
        self,
        desktop: Page,
        site_url: str,
        scheme: Literal["light", "dark"],
        request: pytest.FixtureRequest,
    ) -> None:
        """Four-colour: the suits' colours differ pairwise, each 4.5:1 on every card face.

        In the module's running page, from the two-colour deck (a first visit's deck: see
        test_remembered).
        """
        page = desktop
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        open_in_place(page, link(site_url, 1, ["5a", "5b", "5c", "5d"], lang="en"))
        two = colours(page)
        assert two["cards"][0] == two["cards"][3]  # two-colour: clubs as black as spades
        assert page.locator("select#deck").input_value() == "two-colour"
        choose_deck(page, "four-colour")
        page.locator("[data-card='9C']").click()
        page.locator("[data-foundation='2']").click()
        expect(page.get_by_role("alert")).to_contain_text("9♣")
        four = colours(page)
        for one, other in itertools.combinations(range(4), 2):
            assert four["cards"][one] != four["cards"][other], (SUITS[one], SUITS[other])
            assert four["marks"][one] != four["marks"][other], (SUITS[one], SUITS[other])
        for suit, ink in zip(SUITS, four["cards"], strict=True):
            for face in four["faces"]:
                assert contrast(ink, face) >= 4.5, (suit, ink, face)
        for deficiency, matrix in SIMULATIONS.items():  # as colour-blind eyes see them
            seen = [lab(ink, matrix) for ink in four["cards"]]
            for one, other in itertools.combinations(range(4), 2):
                distance = math.dist(seen[one], seen[other])
                assert distance >= 15, (deficiency, SUITS[one], SUITS[other], distance)
        spans = dict(four["message"])
        assert set(spans) == {"suit clubs"}
        assert contrast(spans["suit clubs"], four["alert"]) >= 4.5
        assert spans["suit clubs"] not in (two["cards"][3], four["cards"][3])
        assert axe_violations(page) == []
        screenshot(page, request.config, f"screenshot-four-colour-{scheme}")

    def test_remembered(self, pages: PageFactory, site_url: str) -> None:
        """A first visit's deck is two-colour; the one chosen is remembered for the next visit.

        (In localStorage `freecell.deck`.)
        """
        page = pages()
        boot(page, f"{site_url}?deal=617")
        expect(page.locator("html")).to_have_attribute("data-deck", "two-colour")
        expect(page.locator("select#deck")).to_have_value("two-colour")
        choose_deck(page, "four-colour")
        assert page.evaluate("() => localStorage.getItem('freecell.deck')") == "four-colour"
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")
        expect(page.locator("select#deck")).to_have_value("four-colour")
        choose_deck(page, "two-colour")
        page.evaluate("() => localStorage.setItem('freecell.deck', '<b>x</b>')")
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-deck", "two-colour")


HANDS_JS = """() => {
    const rect = (selector) => document.querySelector(selector).getBoundingClientRect();
    const centre = (box) => box.left + box.width / 2;
    return {
        foundations: rect(".foundations"),
        freecells: rect(".freecells"),
        more: centre(rect(".more-toggle")),
        undo: centre(rect("[data-action=undo]")),
        width: innerWidth,
    };
}"""


class TestLeftHanded:
    # Its page comes through request.getfixturevalue (only the one it uses is settled);
    # warm_contexts puts the browser in its fixture closure, so "chromium" stays in its ids.
    @pytest.mark.usefixtures("warm_contexts")
    @pytest.mark.parametrize(
        ("shape", "options"),
        [
            ("desktop", {}),
            ("upright", PHONE_OPTIONS),
            ("sideways", SIDEWAYS_OPTIONS),
        ],
    )
    def test_the_foundations_go_left_of_the_free_cells(
        self,
        site_url: str,
        shape: str,
        options: dict[str, Any],
        request: pytest.FixtureRequest,
    ) -> None:
        """Left-handed: foundations left of the free cells, the menu's "⋯" in the left half.

        Chosen in the module's running desktop or phone page; a reload keeps it.
        """
        page: Page = request.getfixturevalue("desktop" if shape == "desktop" else "phone")
        page.set_viewport_size(options.get("viewport", DESKTOP))
        page.emulate_media(reduced_motion="reduce")
        open_in_place(page, link(site_url, 617, ["8a"], lang="en"))
        right = cast(dict[str, Any], page.evaluate(HANDS_JS))
        assert right["freecells"]["right"] <= right["foundations"]["left"]
        assert right["more"] > right["width"] / 2
        menu(page)
        page.locator("input#left-handed").check()
        page.keyboard.press("Escape")
        expect(page.locator("html")).to_have_attribute("data-left-handed", "")
        left = cast(dict[str, Any], page.evaluate(HANDS_JS))
        assert left["foundations"]["right"] <= left["freecells"]["left"], left
        assert left["more"] < left["width"] / 2, left
        if shape == "upright":
            assert left["undo"] < left["width"] / 2, left
        screenshots(page, request.config, f"screenshot-left-handed-{shape}")
        assert axe_violations(page) == []
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        expect(page.locator("input#left-handed")).to_be_checked()
        assert page.evaluate("() => localStorage.getItem('freecell.left-handed')") == "on"


SETTINGS = {
    "#auto": "auto-play.label",
    "#deck": "deck.label",
    "#left-handed": "left-handed.label",
    "#tap-to-move": "tap.label",
    "#live-check": "live.label",
    "#show-par": "par.show",
    "#random-grade": "grade.label",
}
"""The menu's settings and the catalogue key of each one's name (the language's is its own)."""


class TestSettings:
    @pytest.mark.parametrize("code", ["en", "pt", "es", "it", "ru", "zh-Hant"])
    def test_each_is_in_the_menu_and_named_in_the_language(
        self, desktop: Page, site_url: str, code: str
    ) -> None:
        """Every setting is in the "⋯" menu and a screen reader hears its name in the language.

        The language switched to in the module's running page.
        """
        catalogue = js_object(WEB / "i18n" / f"{code}.js")
        page = desktop
        open_in_place(page, link(site_url, 617, lang=code))
        expect(page.locator("#language")).to_have_value(code)  # set in the step that sets the words
        menu(page)
        for selector, key in SETTINGS.items():
            control = page.locator(f".more-panel {selector}")
            expect(control).to_be_visible()
            expect(control).to_have_accessible_name(catalogue[key])

    def test_the_keyboard_sets_them_and_they_are_remembered(
        self, pages: PageFactory, site_url: str
    ) -> None:
        """With keys alone: the menu opens, the deck, auto-play and the left hand change; kept.

        A first visit's table is right-handed (the left-handed tests start from that look).
        """
        page = pages()
        boot(page, f"{site_url}?deal=617")
        expect(page.locator("input#left-handed")).not_to_be_checked()
        expect(page.locator("html")).not_to_have_attribute("data-left-handed", "")
        page.locator(".more-toggle").focus()
        page.keyboard.press("Enter")
        expect(page.locator(".more-toggle")).to_have_attribute("aria-expanded", "true")
        for selector, key in (
            ("#auto", "ArrowDown"),
            ("#deck", "ArrowDown"),
            ("#left-handed", "Space"),
        ):
            while not page.evaluate(f"() => document.activeElement?.matches('{selector}')"):
                page.keyboard.press("Tab")
            page.keyboard.press(key)
        expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")
        expect(page.locator("html")).to_have_attribute("data-left-handed", "")
        stored = page.evaluate("() => ({...localStorage})")
        assert (stored["freecell.auto-play"], stored["freecell.deck"]) == ("all", "four-colour")
        assert stored["freecell.left-handed"] == "on"
        page.reload()
        expect(page.locator("select#auto")).to_have_value("all")
        expect(page.locator("select#deck")).to_have_value("four-colour")
        expect(page.locator("input#left-handed")).to_be_checked()
