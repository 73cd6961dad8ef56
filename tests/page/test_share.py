"""Sharing a deal (share.js) and what a shared link shows (index.html's Open Graph tags).

Chromium on Linux has no Web Share API, so the tests give pages one that records what it is
handed (as a phone's browser would open its share sheet with it); without it the Share button
stays hidden and Copy link is the way. The preview's tags and picture are read from the built
site.
"""

from __future__ import annotations

import re
import struct
from html.parser import HTMLParser

import pytest
from playwright.sync_api import Page, expect

from helpers import (
    DIST,
    PHONE_OPTIONS,
    QUICK_PAR_DEAL,
    PageFactory,
    boot,
    link,
    manifest,
    menu,
    par_of,
    poll,
    press,
)

SHARE_JS = """window.__shared = [];
Object.defineProperty(Navigator.prototype, "share", {
    configurable: true,
    value: async function (data) {
        window.__shared.push(JSON.parse(JSON.stringify(data)));
        if (window.__refuse) throw new DOMException(window.__refuse, window.__refuse);
    },
});
Object.defineProperty(Navigator.prototype, "clipboard", {
    configurable: true,
    get: () => ({ writeText: async (text) => { window.__copied = text; } }),
});"""
"""A Web Share API that records what it is handed (or refuses, with window.__refuse's error),
and a clipboard that records what is written."""


def shared(page: Page) -> list[dict[str, str]]:
    """Return what the page handed the share sheet, in order."""
    return list(page.evaluate("window.__shared"))


class TestShare:
    @pytest.mark.parametrize("device", ["desktop", "phone"])
    def test_the_deals_link_and_its_name(
        self, pages: PageFactory, site_url: str, device: str
    ) -> None:
        """Share hands over the deal's own link and its name, with its par once the page knows it.

        The par is the page's (par.js's), not read back from the DOM: a `data-par` changed on
        `#board` behind the page's back changes nothing.
        """
        page = pages(**(PHONE_OPTIONS if device == "phone" else {}))
        page.add_init_script(SHARE_JS)
        boot(page, link(site_url, QUICK_PAR_DEAL, ["8a", "8b"]))
        press(page, "share")  # at once: the par's search waits for the deal to settle
        poll(page, "() => window.__shared.length === 1")
        name = f"FreeCell deal #{QUICK_PAR_DEAL}"
        assert shared(page) == [
            {"title": name, "text": name, "url": f"{site_url}?deal={QUICK_PAR_DEAL}"}
        ]
        board = page.locator("#board")
        expect(board).to_have_attribute("data-par", re.compile(r"^\d+$"), timeout=120_000)
        par = board.get_attribute("data-par")
        page.evaluate("document.querySelector('#board').dataset.par = '1'")
        press(page, "share")
        poll(page, "() => window.__shared.length === 2")
        assert shared(page)[1]["text"] == f"{name} \N{EN DASH} par {par}"

    def test_in_the_pages_language(self, pages: PageFactory, site_url: str) -> None:
        """The deal's name and par are said in the page's language; the link names no language.

        The browser remembers 617's par (REMEMBERED_PARS): it is known at once.
        """
        page = pages()
        page.add_init_script(SHARE_JS)
        boot(page, link(site_url, 617, [], lang="pt"))
        press(page, "share")
        poll(page, "() => window.__shared.length === 1")
        assert shared(page)[0]["text"] == f"FreeCell, jogo nº 617 \N{EN DASH} par {par_of(617)}"
        assert shared(page)[0]["url"] == f"{site_url}?deal=617"

    def test_a_refused_share_copies_the_link_a_cancel_nothing(
        self, pages: PageFactory, site_url: str
    ) -> None:
        """A share the browser refuses copies the link instead; a sheet cancelled says nothing."""
        page = pages()
        page.add_init_script(SHARE_JS)
        boot(page, link(site_url, 617, []))
        page.evaluate("window.__refuse = 'AbortError'")
        press(page, "share")
        poll(page, "() => window.__shared.length === 1")
        page.wait_for_timeout(200)
        assert page.evaluate("window.__copied") is None
        page.evaluate("window.__refuse = 'NotAllowedError'")
        press(page, "share")
        poll(page, "() => window.__copied === location.href")
        expect(page.locator("#message")).to_contain_text("Copied the link to this deal.")

    def test_hidden_where_the_browser_cannot_share(self, table: Page) -> None:
        """Without the Web Share API there is no Share button; Copy link is there."""
        menu(table)
        expect(table.locator("[data-action=copy-link]")).to_be_visible()
        expect(table.locator("[data-action=share]")).to_be_hidden()


class Tags(HTMLParser):
    """The <meta> tags of a page: {property or name: content}."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Keep a <meta> tag's property (or name) and content."""
        values = dict(attrs)
        key = values.get("property") or values.get("name")
        if tag == "meta" and key and values.get("content") is not None:
            self.meta[key] = str(values["content"])


class TestPreview:
    def test_the_open_graph_and_twitter_tags(self) -> None:
        """The built page names its title, description and picture for Open Graph and X."""
        tags = Tags()
        tags.feed((DIST / "index.html").read_text(encoding="utf-8"))
        meta = tags.meta
        assert meta["og:type"] == "website"
        assert meta["og:title"] == meta["twitter:title"]
        assert meta["og:description"] == meta["twitter:description"]
        assert 50 <= len(meta["og:description"]) <= 200
        assert meta["twitter:card"] == "summary_large_image"
        # Relative in this build (no FREECELL_SITE_URL): the file beside the page.
        assert meta["og:image"] == meta["twitter:image"] == "share/table.png"
        assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
        assert meta["og:image:alt"] == meta["twitter:image:alt"]

    def test_the_picture_is_a_lazy_png_of_the_size_named(self) -> None:
        """The picture is a 1200 x 630 PNG under 200 kB, left out of the service worker's install.

        Only a chat app's reader fetches it, never the page: it costs a player nothing.
        """
        data = (DIST / "share" / "table.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (1200, 630)
        assert len(data) < 200_000
        assert manifest()["files"]["share/table.png"]["lazy"] is True
