"""The fewest free cells a deal needs, shown by the page in a real Chromium (the rule: library/)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from freecell._min_cells import (
    MIN_CELLS_DEALS,
    MIN_CELLS_FILE,
)
from helpers import (
    BOOT_MS,
    KNOWN,
    ContextFactory,
    boot,
    offline_copy_ready,
    open_in_place,
    poll,
    shipped,
)


@pytest.mark.browser
class TestPage:
    """#board[data-min-cells] in a real Chromium: shown, the table fetched once when needed."""

    def test_each_deal_shows_its_value(self, table: Page, site_url: str) -> None:
        """A count is shown in words; an impossible deal shows none; beyond the table, nothing."""
        values = shipped()
        board, shown = table.locator("#board"), table.locator("#min-cells")
        for number in (617, 1, 164):
            open_in_place(table, f"{site_url}?deal={number}")
            expect(board).to_have_attribute("data-min-cells", str(values[number]))
            label = table.locator("#min-cells-label")
            expect(shown).to_be_visible()
            expect(label).to_have_text(
                f"needs {values[number]} free cells" if values[number] else "needs no free cell"
            )
        open_in_place(table, f"{site_url}?deal=11982")
        expect(board).to_have_attribute("data-min-cells", "impossible")
        expect(shown).to_be_hidden()
        open_in_place(table, f"{site_url}?deal={MIN_CELLS_DEALS.stop}")
        expect(board).not_to_have_attribute("data-min-cells", re.compile(".*"))
        expect(shown).to_be_hidden()

    def test_the_table_is_fetched_once_when_needed(self, page: Page, site_url: str) -> None:
        """A deal beyond the table fetches nothing; the first deal it holds fetches it, once."""
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        boot(page, f"{site_url}?deal={MIN_CELLS_DEALS.stop + 5}")
        open_in_place(page, f"{site_url}?deal={MIN_CELLS_DEALS.stop + 6}")
        assert not [url for url in fetched if url.endswith(MIN_CELLS_FILE)]
        board = page.locator("#board")
        for number in (617, 1, 2):
            open_in_place(page, f"{site_url}?deal={number}")
            expect(board).to_have_attribute("data-min-cells", re.compile("[0-4]"))
        assert [url for url in fetched if url.endswith(MIN_CELLS_FILE)] == [
            site_url.split("?", maxsplit=1)[0].rstrip("/") + "/" + MIN_CELLS_FILE
        ]

    @pytest.mark.parametrize(
        "body", ["", "# freecell min-cells 1..3\n123\n"], ids=["empty", "other-deals"]
    )
    def test_a_broken_table_says_nothing(
        self, make_context: ContextFactory, site_url: str, body: str
    ) -> None:
        """A table that is empty or not the site's leaves the attribute out and shows no count.

        A context of its own: its first visit keeps what it fetched for the service worker.
        """
        with make_context() as context:
            context.route(f"**/{MIN_CELLS_FILE}", lambda route: route.fulfill(body=body))
            page = context.new_page()
            board = page.locator("#board")
            boot(page, f"{site_url}?deal=1")
            for number in (1, 2):
                open_in_place(page, f"{site_url}?deal={number}")
                expect(board).to_have_attribute("data-difficulty", re.compile("[1-5]"))
                poll(page, "() => !document.querySelector('#min-cells.pending')")
                expect(board).not_to_have_attribute("data-min-cells", re.compile(".*"))
                expect(page.locator("#min-cells")).to_be_hidden()

    def test_kept_for_offline_once_fetched(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """The service worker does not install the table, but keeps it once the page fetches it."""
        kept = f"() => caches.match({json.dumps(site_url + MIN_CELLS_FILE)}).then(Boolean)"
        with make_context() as context:
            page = context.new_page()
            boot(page, f"{site_url}?deal={MIN_CELLS_DEALS.stop}")
            offline_copy_ready(page)
            assert page.evaluate(kept) is False
            board = page.locator("#board")
            open_in_place(page, f"{site_url}?deal=617")
            expect(board).to_have_attribute("data-min-cells", str(KNOWN[617]))
            assert page.evaluate(kept) is True
            context.set_offline(True)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            open_in_place(page, f"{site_url}?deal=1")
            expect(board).to_have_attribute("data-min-cells", str(KNOWN[1]))
