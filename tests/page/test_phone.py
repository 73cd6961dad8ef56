"""The table on phones and tablets (issue 19), in a real Chromium emulating touch screens.

Geometry at each device of Playwright's descriptors and at the issue's target sizes, at the
start of a deal and with the longest cascade a game can make (19 cards); screenshots of each,
light and dark, under test-results/phone/. Then touch: one tap plays a card, a card with no move
shakes and says why, tap to pick up and tap a target, a long press, a finger's drag, a double
tap that makes one move and never zooms; the fan's steps; the web app manifest.

Every test plays in the module's one running phone page (`phone`), resized per device: layout
depends on the viewport, and every device here is a touch screen with a coarse pointer.
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any, cast

import pytest
from playwright.sync_api import Page, Playwright, ViewportSize, expect

from helpers import (
    DIST,
    PHONE,
    WATCH_ANIMATIONS_JS,
    WEB,
    link,
    manifest,
    menu,
    moves_of,
    open_in_place,
    poll,
    screenshots,
    settle,
    solution,
)

LONGEST = (8, ["1a", "12", "12", "5h", "5b", "52", "52", "32", "1c", "12", "a2", "b2", "1a",
               "12", "7b", "72", "82"])  # fmt: skip
"""Deal 8 and moves that build cascade 2 to 19 cards, the longest a game can make (7 dealt cards
ending in a king, then a queen down to an ace); its first 11 moves make a 14-card cascade."""

DEVICES = [
    "iPhone 13", "iPhone 13 landscape", "Pixel 7", "Pixel 7 landscape",
    "Galaxy S9+", "Galaxy S9+ landscape", "iPad (gen 7)", "iPad (gen 7) landscape",
]  # fmt: skip
"""Playwright's device descriptors whose viewports the geometry tests take."""

UPRIGHT_TARGETS: list[ViewportSize] = [
    {"width": 360, "height": 740},
    {"width": 390, "height": 844},
    {"width": 412, "height": 915},
]
LANDSCAPE_TARGETS: list[ViewportSize] = [
    {"width": 844, "height": 390},
    {"width": 740, "height": 360},
]

GEOMETRY_JS = """() => {
    const rect = (element) => element.getBoundingClientRect();
    const cards = Array.from(document.querySelectorAll("#table [data-card]"));
    const columns = Array.from(document.querySelectorAll("#board [data-column]"),
        (column) => Array.from(column.querySelectorAll("[data-card]")));
    let strip = Infinity;
    for (const column of columns) {
        for (let i = 1; i < column.length; i++) {
            strip = Math.min(strip, rect(column[i]).top - rect(column[i - 1]).top);
        }
    }
    const first = document.querySelector("#board [data-card]");
    const controls = Array.from(document.querySelectorAll(
        ".bar .button, .bar #deal, .more-panel select, .more-panel .toggle"))
        .filter((element) => element.getClientRects().length > 0)
        .map((element) => Math.min(rect(element).width, rect(element).height));
    const doc = document.documentElement;
    return {
        cardWidth: rect(first).width,
        strip,
        corner: parseFloat(getComputedStyle(first, "::before").fontSize),
        bar: rect(document.querySelector(".bar")).height,
        left: Math.min(...cards.map((card) => rect(card).left)),
        right: Math.max(...cards.map((card) => rect(card).right)),
        bottom: Math.max(...cards.map((card) => rect(card).bottom)),
        width: innerWidth,
        height: innerHeight,
        scrollWidth: doc.scrollWidth,
        scrollHeight: doc.scrollHeight,
        smallestControl: Math.min(...controls),
        longest: Math.max(...columns.map((column) => column.length)),
    };
}"""


@pytest.fixture
def phone(running_phone: Page) -> Page:
    """Return the module's phone page, settled, at 360x740, light, with motion."""
    running_phone.set_viewport_size(PHONE)
    running_phone.emulate_media(color_scheme="light", reduced_motion="no-preference")
    settle(running_phone)
    return running_phone


def geometry(page: Page) -> dict[str, float]:
    """Measure the table: card width, the thinnest strip, corners, bar, extent, scrolling."""
    return cast(dict[str, float], page.evaluate(GEOMETRY_JS))


def assert_fits(fit: dict[str, float], where: object) -> None:
    """Every card on screen, nothing scrolls, every control at least 44 px, corners 12 px."""
    assert fit["left"] >= -0.5, where
    assert fit["right"] <= fit["width"] + 0.5, where
    assert fit["bottom"] <= fit["height"] + 0.5, where
    assert fit["scrollWidth"] <= fit["width"], where
    assert fit["scrollHeight"] <= fit["height"], where
    assert fit["corner"] >= 12, where
    assert fit["smallestControl"] >= 44, where


def finger(page: Page) -> Any:
    """Return a CDP session that sends the page touch events (a finger)."""
    return page.context.new_cdp_session(page)


def touch(cdp: Any, kind: str, x: float = 0, y: float = 0) -> None:
    """Send one touch event: touchStart, touchMove (at x, y) or touchEnd."""
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def strip_of(page: Page, code: str) -> tuple[float, float]:
    """Return a point in the visible top strip of a card, as a finger would touch it."""
    box = page.locator(f"#table [data-card='{code}']").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + 8


class TestGeometry:
    @pytest.mark.parametrize("size", UPRIGHT_TARGETS, ids=lambda s: f"{s['width']}x{s['height']}")
    def test_upright_targets(self, phone: Page, site_url: str, size: ViewportSize) -> None:
        """Upright: cards at least 40 px wide, strips at least 24 px at the start, nothing scrolls.

        At 360x740 a 14-card cascade still shows strips of 20 px at least.
        """
        phone.set_viewport_size(size)
        open_in_place(phone, link(site_url, 617, []))
        fit = geometry(phone)
        assert_fits(fit, (size, fit))
        assert fit["cardWidth"] >= 41, fit
        assert fit["strip"] >= 26, fit
        if size["width"] == 360:
            number, moves = LONGEST
            open_in_place(phone, link(site_url, number, moves[:11]))
            fit = geometry(phone)
            assert fit["longest"] == 14, fit
            assert_fits(fit, (size, fit))
            assert fit["strip"] >= 22, fit

    @pytest.mark.parametrize("size", LANDSCAPE_TARGETS, ids=lambda s: f"{s['width']}x{s['height']}")
    def test_landscape_targets(self, phone: Page, site_url: str, size: ViewportSize) -> None:
        """Sideways: a bar of one row at most 60 px, cards at least 48 px, strips 20 px."""
        phone.set_viewport_size(size)
        open_in_place(phone, link(site_url, 617, []))
        fit = geometry(phone)
        assert_fits(fit, (size, fit))
        assert fit["bar"] <= 56, fit
        assert fit["cardWidth"] >= 52, fit
        assert fit["strip"] >= 24, fit

    @pytest.mark.parametrize("device", DEVICES)
    def test_devices(
        self,
        phone: Page,
        site_url: str,
        playwright: Playwright,
        request: pytest.FixtureRequest,
        device: str,
    ) -> None:
        """Each device fits a deal and a 19-card cascade without scrolling; screenshots.

        Sideways the bar is one row; a phone's cards fill its width upright (8 columns, small
        gaps); corners 12 px at least; controls 44 px at least. Light and dark, at the start
        and with the longest cascade, to test-results/phone/.
        """
        size = cast(ViewportSize, playwright.devices[device]["viewport"])
        phone.set_viewport_size(size)
        phone.emulate_media(reduced_motion="reduce")
        number, moves = LONGEST
        name = device.replace(" ", "-").replace("(", "").replace(")", "").lower()
        shots = {"start": link(site_url, 617, []), "19": link(site_url, number, moves)}
        for shot, url in shots.items():
            open_in_place(phone, url)
            fit = geometry(phone)
            assert_fits(fit, (device, shot, fit))
            if size["width"] > size["height"]:
                assert fit["bar"] <= 60, (device, fit)
            if shot == "19":
                assert fit["longest"] == 19, fit
            elif size["width"] < 500:
                assert fit["cardWidth"] >= (size["width"] - 40) / 8, (device, fit)
            screenshots(phone, request.config, f"phone/{name}-{shot}", scale="css")

    def test_the_menu_fits_sideways(self, phone: Page, site_url: str) -> None:
        """At 740x360 the open menu fits under the bar, its controls 44 px at least."""
        phone.set_viewport_size(LANDSCAPE_TARGETS[1])
        open_in_place(phone, link(site_url, 617, []))
        menu(phone)
        panel = phone.locator(".more-panel").bounding_box()
        assert panel is not None
        assert panel["y"] + panel["height"] <= 360
        fit = geometry(phone)
        assert fit["smallestControl"] >= 44, fit
        assert fit["scrollHeight"] <= 360, fit


REACH_JS = """() => {
    const rect = (element) => element.getBoundingClientRect();
    const buttons = ["undo", "redo", "hint", "solve"].map((action) =>
        rect(document.querySelector(`[data-action=${action}]`)));
    const cards = Array.from(document.querySelectorAll("#table [data-card], .slot"), rect);
    const field = document.querySelector("#deal");
    return {
        centres: buttons.map((box) => box.top + box.height / 2),
        buttonsTop: Math.min(...buttons.map((box) => box.top)),
        cardsBottom: Math.max(...cards.map((box) => box.bottom)),
        field: [field.value, field.scrollWidth, field.clientWidth],
        height: innerHeight,
    };
}"""


class TestThumbReach:
    @pytest.mark.parametrize(
        "size", [{"width": 320, "height": 568}, *UPRIGHT_TARGETS], ids=lambda s: f"{s['width']}"
    )
    def test_the_game_buttons_sit_at_the_bottom(
        self, phone: Page, site_url: str, size: ViewportSize
    ) -> None:
        """Upright, Undo, Redo, Hint and Solve's centres are in the bottom third; no card under."""
        phone.set_viewport_size(size)
        number, moves = LONGEST
        for url in (link(site_url, 617, []), link(site_url, number, moves)):
            open_in_place(phone, url)
            reach = cast(dict[str, Any], phone.evaluate(REACH_JS))
            assert all(y > size["height"] * 2 / 3 for y in reach["centres"]), reach
            assert reach["cardsBottom"] <= reach["buttonsTop"], reach
            assert_fits(geometry(phone), (size, reach))

    @pytest.mark.parametrize(
        "size",
        [{"width": 320, "height": 568}, PHONE, *LANDSCAPE_TARGETS],
        ids=lambda s: f"{s['width']}x{s['height']}",
    )
    def test_the_deal_field_shows_every_digit(
        self, phone: Page, site_url: str, size: ViewportSize
    ) -> None:
        """The deal field shows 8589934591 whole (nothing scrolled out of it), from 320 px up."""
        phone.set_viewport_size(size)
        open_in_place(phone, link(site_url, 8589934591, []))
        value, scroll, client = cast(dict[str, Any], phone.evaluate(REACH_JS))["field"]
        assert value == "8589934591"
        assert scroll <= client, (scroll, client)


INSIDE_JS = """() => new Promise((resolve) => requestAnimationFrame(() => {
    const boxes = Array.from(document.querySelectorAll(
        "#table [data-card], .slot, .bar .button, .bar #deal"),
        (element) => element.getBoundingClientRect()).filter((box) => box.width > 0);
    resolve({
        left: Math.min(...boxes.map((box) => box.left)),
        top: Math.min(...boxes.map((box) => box.top)),
        right: Math.max(...boxes.map((box) => box.right)),
        bottom: Math.max(...boxes.map((box) => box.bottom)),
    });
}))"""
"""The extent of the cards, the slots and the bar's controls, once the page has laid out."""


class TestSafeAreas:
    @pytest.mark.parametrize(
        ("size", "insets"),
        [
            ({"width": 390, "height": 844}, {"top": 47, "bottom": 34, "left": 0, "right": 0}),
            ({"width": 844, "height": 390}, {"top": 0, "bottom": 21, "left": 47, "right": 47}),
        ],
        ids=["upright", "sideways"],
    )
    def test_the_notch_and_the_home_indicator_stay_clear(
        self, phone: Page, site_url: str, size: ViewportSize, insets: dict[str, int]
    ) -> None:
        """No card, slot or control lies under an (emulated) notch or home indicator."""
        cdp = finger(phone)
        phone.set_viewport_size(size)
        open_in_place(phone, link(site_url, 617, []))
        cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": insets})
        try:
            box = cast(dict[str, float], phone.evaluate(INSIDE_JS))
        finally:
            cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": {}})
        assert box["left"] >= insets["left"], box
        assert box["top"] >= insets["top"], box
        assert box["right"] <= size["width"] - insets["right"], box
        assert box["bottom"] <= size["height"] - insets["bottom"], box


class TestFan:
    def test_it_follows_the_longest_cascade_in_steps(self, phone: Page, site_url: str) -> None:
        """Sideways, where the height is short, the fan tightens at each step, and only there.

        The steps: the longest cascade passing 9, 12, 15 cards (19 is the most).
        """
        phone.set_viewport_size(LANDSCAPE_TARGETS[1])
        number, moves = LONGEST
        strips = {}
        for count in (0, 4, 6, 8, 10, 17):  # the longest: 7, 9, 10, 12, 13, 19 cards
            open_in_place(phone, link(site_url, number, moves[:count]))
            fit = geometry(phone)
            strips[int(fit["longest"])] = fit["strip"]
        same = [(7, 9), (10, 12)]
        assert all(abs(strips[a] - strips[b]) < 1 for a, b in same), strips
        assert strips[9] > strips[10] + 2 > strips[13] + 4 > strips[19] + 6, strips

    def test_it_holds_during_a_drag(self, phone: Page, site_url: str) -> None:
        """A change of the longest cascade while a card is dragged moves the fan only at the drop.

        Undo (a key) takes the 10th card off the longest cascade mid-drag.
        """
        phone.set_viewport_size(LANDSCAPE_TARGETS[1])
        number, moves = LONGEST
        open_in_place(phone, link(site_url, number, moves[:6]))
        fan = "() => document.getElementById('table').style.getPropertyValue('--fan-cards')"
        assert phone.evaluate(fan) == "12"
        cdp = finger(phone)
        x, y = strip_of(phone, "QH")  # the bottom card of cascade 1
        touch(cdp, "touchStart", x, y)
        touch(cdp, "touchMove", x + 20, y + 30)
        expect(phone.locator(".drag-ghost")).to_have_count(1)
        phone.keyboard.press("Control+z")
        expect(phone.locator("#board")).to_have_attribute("data-moves", ",".join(moves[:5]))
        assert phone.evaluate(fan) == "12"
        touch(cdp, "touchEnd")
        poll(phone, f"() => ({fan})() === '9'", timeout_ms=5000)


class TestTap:
    def test_on_by_default_and_one_tap_plays(self, phone: Page, site_url: str) -> None:
        """On a touch screen #tap-to-move starts on; one tap on Q♥ of deal 617 plays 82."""
        open_in_place(phone, link(site_url, 617, []))
        expect(phone.locator("#tap-to-move")).to_be_checked()
        phone.locator("[data-card='QH']").tap()
        expect(phone.locator("#board")).to_have_attribute("data-moves", "82")

    def test_a_double_tap_is_one_move_and_never_zooms(self, phone: Page, site_url: str) -> None:
        """Two quick taps on Q♥ play it once: the second does not play the 2♠ it uncovers."""
        open_in_place(phone, link(site_url, 617, []))
        phone.wait_for_timeout(300)  # a tap of the last test at the same place is long past
        box = phone.locator("[data-card='QH']").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        phone.touchscreen.tap(x, y)
        phone.touchscreen.tap(x, y)
        expect(phone.locator("#board")).to_have_attribute("data-moves", "82")
        phone.wait_for_timeout(400)
        assert moves_of(phone) == ["82"]
        assert phone.evaluate("() => visualViewport.scale") == 1

    def test_no_move_shakes_and_says_why(self, phone: Page, site_url: str) -> None:
        """A covered card shakes and the announcer says why; under reduced motion, no shake."""
        open_in_place(phone, link(site_url, 617, []))
        phone.evaluate(WATCH_ANIMATIONS_JS)
        x, y = strip_of(phone, "KD")
        phone.touchscreen.tap(x, y)
        expect(phone.locator("#announcer")).to_have_text(
            "K♦ is covered by cards out of sequence with it."
        )
        poll(phone, "() => window.__animated === true", timeout_ms=5000)
        assert moves_of(phone) == []
        expect(phone.locator("#message")).to_be_empty()
        phone.emulate_media(reduced_motion="reduce")
        phone.evaluate("() => { document.getElementById('announcer').textContent = ''; }")
        phone.wait_for_timeout(500)  # the shake is over; and this is no double tap's second
        phone.evaluate(WATCH_ANIMATIONS_JS)
        phone.touchscreen.tap(x, y)
        expect(phone.locator("#announcer")).not_to_be_empty()
        phone.wait_for_timeout(300)
        assert phone.evaluate("() => window.__animated") is False

    def test_off_a_tap_picks_up_and_a_tap_puts_down(self, phone: Page, site_url: str) -> None:
        """With #tap-to-move off (remembered), tap Q♥ then K♣: 83; a double tap sends home."""
        open_in_place(phone, link(site_url, 617, []))
        menu(phone)
        phone.locator("#tap-to-move").uncheck()
        assert phone.evaluate("() => localStorage.getItem('freecell.tap-to-move')") == "off"
        phone.locator(".more-toggle").click()
        phone.locator("[data-card='QH']").tap()
        expect(phone.locator("[data-card='QH']")).to_have_attribute("aria-current", "true")
        x, y = strip_of(phone, "KC")
        phone.touchscreen.tap(x, y)
        expect(phone.locator("#board")).to_have_attribute("data-moves", "83")
        open_in_place(phone, link(site_url, 1, ["5a", "5b", "5c", "5d"]))
        box = phone.locator("[data-card='AD']").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        phone.touchscreen.tap(x, y)
        phone.touchscreen.tap(x, y)
        expect(phone.locator("[data-foundation='1'] [data-card='AD']")).to_have_count(1)
        assert moves_of(phone)[4] == "5h"
        assert phone.evaluate("() => visualViewport.scale") == 1

    def test_a_long_press_picks_up(self, phone: Page, site_url: str) -> None:
        """With #tap-to-move on, a finger held on Q♥ picks it up; a tap on K♣ puts it there."""
        open_in_place(phone, link(site_url, 617, []))
        cdp = finger(phone)
        x, y = strip_of(phone, "QH")
        touch(cdp, "touchStart", x, y)
        expect(phone.locator("[data-card='QH']")).to_have_attribute("aria-current", "true")
        touch(cdp, "touchEnd")
        phone.wait_for_timeout(100)
        assert moves_of(phone) == []
        x, y = strip_of(phone, "KC")
        phone.touchscreen.tap(x, y)
        expect(phone.locator("#board")).to_have_attribute("data-moves", "83")

    def test_a_finger_drags_the_card_above_it(self, phone: Page, site_url: str) -> None:
        """Dragged by a finger, Q♥ sits over the touch point with its corner above it; no scroll.

        Dropped on K♣, the move is 83.
        """
        open_in_place(phone, link(site_url, 617, []))
        cdp = finger(phone)
        x0, y0 = strip_of(phone, "QH")
        target = phone.locator("[data-card='KC']").bounding_box()
        assert target is not None
        x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] * 0.6
        touch(cdp, "touchStart", x0, y0)
        for step in range(1, 9):
            touch(cdp, "touchMove", x0 + (x1 - x0) * step / 8, y0 + (y1 - y0) * step / 8)
        # Touch moves are handled at the next frame: wait until the last one has been.
        ghost = poll(
            phone,
            """([x, y]) => {
                const card = document.querySelector(".drag-ghost [data-corner]");
                const box = card?.getBoundingClientRect();
                return box && Math.abs(box.left + box.width / 2 - x) < 1 &&
                    box.top < y && {top: box.top, bottom: box.bottom};
            }""",
            [x1, y1],
            timeout_ms=5000,
        )
        corner = geometry(phone)["corner"]
        assert ghost["top"] + 1.5 * corner < y1 < ghost["bottom"], (ghost, y1)
        touch(cdp, "touchEnd")
        expect(phone.locator("#board")).to_have_attribute("data-moves", "83")
        assert phone.evaluate("() => [scrollX, scrollY, visualViewport.scale]") == [0, 0, 1]


def png_size(path: Any) -> tuple[int, int]:
    """Return a PNG's width and height, from its IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def colour(name: str, scheme: str) -> str:
    """Return a colour token of colors.css (`--bar`, `--felt`) in the light or dark scheme."""
    text = (WEB / "styles" / "colors.css").read_text()
    dark = text.index("prefers-color-scheme: dark")
    block = text[dark:] if scheme == "dark" else text[:dark]
    match = re.search(rf"--{name}: (#[0-9a-f]{{6}});", block)
    assert match is not None, (name, scheme)
    return match.group(1)


class TestHistorySlider:
    @pytest.mark.parametrize("size", [PHONE, LANDSCAPE_TARGETS[0]], ids=["upright", "sideways"])
    def test_a_finger_scrubs_the_game(self, phone: Page, site_url: str, size: ViewportSize) -> None:
        """A finger drags the slider back to the deal and forth to the last move.

        The slider is on screen, 44 px tall, upright most of the screen's width (beside the
        deal's difficulty) and sideways in the one row of the bar, which stays 56 px tall at most.
        """
        phone.set_viewport_size(size)
        moves = solution(617)[:20]
        open_in_place(phone, link(site_url, 617, moves))
        box = phone.locator("input[type=range]#history").bounding_box()
        assert box is not None
        assert box["height"] >= 44, box
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= size["width"], box
        assert box["width"] >= (size["width"] * 0.7 if size is PHONE else 200), box
        assert geometry(phone)["bar"] <= (160 if size is PHONE else 56)
        cdp = finger(phone)
        y = box["y"] + box["height"] / 2
        right, left = box["x"] + box["width"] - 10, box["x"] + 10
        sweeps: list[tuple[float, float, list[str]]] = [(right, left, []), (left, right, moves)]
        for start, end, played in sweeps:
            touch(cdp, "touchStart", start, y)
            for step in range(1, 11):
                touch(cdp, "touchMove", start + (end - start) * step / 10, y)
            touch(cdp, "touchEnd")
            expect(phone.locator("#board")).to_have_attribute("data-moves", ",".join(played))
            assert moves_of(phone) == played


class TestInstall:
    def test_the_web_app_manifest(self) -> None:
        """Standalone, with 192, 512 and maskable PNG icons of those sizes, theme colours."""
        app = json.loads((WEB / "app.webmanifest").read_text())
        assert app["display"] == "standalone"
        assert app["start_url"] == app["scope"] == "./"
        sizes = {(icon["purpose"], icon["sizes"]) for icon in app["icons"]}
        assert {("any", "192x192"), ("any", "512x512"), ("maskable", "512x512")} <= sizes
        for icon in app["icons"]:
            if icon["type"] == "image/png":
                width, height = (int(n) for n in icon["sizes"].split("x"))
                assert png_size(WEB / icon["src"]) == (width, height), icon
        assert app["theme_color"] == colour("bar", "light")
        assert app["background_color"] == colour("felt", "light")

    def test_the_page_names_it_and_both_theme_colours(self) -> None:
        """index.html links the manifest and gives the bar's colour, light and dark."""
        page = (WEB / "index.html").read_text()
        assert '<link rel="manifest" href="app.webmanifest">' in page
        for scheme in ("light", "dark"):
            meta = (
                f'<meta name="theme-color" content="{colour("bar", scheme)}" '
                f'media="(prefers-color-scheme: {scheme})">'
            )
            assert meta in page

    def test_offline_it_has_everything(self) -> None:
        """The service worker's list (the sealed manifest.json) holds the manifest and icons."""
        files = manifest()["files"]
        app = json.loads((DIST / "app.webmanifest").read_text())
        assert "app.webmanifest" in files
        for icon in app["icons"]:
            assert icon["src"] in files

    def test_chromium_reads_it(self, phone: Page) -> None:
        """Chromium finds the manifest and reports no error in it."""
        cdp = finger(phone)
        found = cdp.send("Page.getAppManifest")
        assert found["url"].endswith("/app.webmanifest")
        assert found["errors"] == []
