"""The start-up optimisations, in a real Chromium: the compiled stdlib, the offline copy, subpaths.

Timings are not tested here; bench/bench_web.py measures them (docs/performance.md).
"""

from __future__ import annotations

import re
import zipfile

import pytest
from playwright.sync_api import Page, Request, expect

from conftest import record_requests
from helpers import BOOT_MS, DIST, ContextFactory, boot, columns_of, manifest, poll, shown_columns

pytestmark = pytest.mark.browser

ACTIVE_JS = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === "activated"
        && Boolean(await caches.match(new URL("index.html", registration.scope).href));
}"""


def assert_board(page: Page, number: int) -> None:
    """Assert the board shows exactly the dealer's deal `number`."""
    page.wait_for_selector(f"#board[data-deal='{number}']", timeout=BOOT_MS)
    assert shown_columns(page) == columns_of(number)


def offline_copy_ready(page: Page) -> None:
    """Wait until the service worker is active and serves this page's next visit.

    Chromium routes navigations to a just-activated service worker only a moment later, so the
    page is visited again (online) until the service worker controls it.
    """
    poll(page, ACTIVE_JS)
    for _ in range(10):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            return
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    pytest.fail("the service worker never took control of the page")


class TestCompiledStdlib:
    def test_the_zip_holds_bytecode(self) -> None:
        """The page's stdlib is compiled (legacy `.pyc` layout) and the stock one stays too."""
        files = manifest()
        assert re.fullmatch(r"stdlib/[0-9a-f]{12}/python_stdlib\.zip", files["stdlib"])
        assert (DIST / "pyodide" / "python_stdlib.zip").is_file()
        with zipfile.ZipFile(DIST / files["stdlib"]) as stdlib:
            names = set(stdlib.namelist())
        for module in ("encodings/__init__", "json/__init__", "asyncio/__init__", "typing"):
            assert f"{module}.pyc" in names
            assert f"{module}.py" not in names
        assert "unittest/__init__.py" not in names
        assert "unittest/__init__.pyc" not in names

    def test_the_page_loads_the_compiled_stdlib(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """The page downloads the compiled stdlib, not the stock one, and deals with it."""
        requested: list[str] = []

        def record(request: Request) -> None:
            requested.append(request.url)

        with make_context() as context:
            context.on("request", record)
            page = context.new_page()
            boot(page, f"{site_url}?deal=617")
            assert_board(page, 617)
        assert f"{site_url}{manifest()['stdlib']}" in requested
        assert f"{site_url}pyodide/python_stdlib.zip" not in requested


class TestServiceWorker:
    @pytest.mark.parametrize("where", ["root", "subpath"])
    def test_second_visit_works_offline(
        self, make_context: ContextFactory, site_url: str, subpath_url: str, where: str
    ) -> None:
        """After one visit the site works offline, at the root and under a subpath."""
        base = site_url if where == "root" else subpath_url
        with make_context() as context:
            page = context.new_page()
            boot(page, f"{base}?deal=617")
            assert_board(page, 617)
            offline_copy_ready(page)
            scope = page.evaluate(
                "() => navigator.serviceWorker.getRegistration().then((r) => r.scope)"
            )
            assert scope == base
            context.set_offline(True)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)
            page.locator("[data-action=next]").click()
            assert_board(page, 618)
            assert page.evaluate("() => navigator.serviceWorker.controller !== null")

    def test_subpath_requests_stay_under_it(
        self, make_context: ContextFactory, subpath_url: str
    ) -> None:
        """From a subpath, the first and the repeat visit request nothing outside it."""
        with make_context() as context:
            requested = record_requests(context)
            page = context.new_page()
            boot(page, f"{subpath_url}?deal=617")
            offline_copy_ready(page)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)
        assert requested
        assert [url for url in requested if not url.startswith(subpath_url)] == []


SNAPSHOT_JS = """async () =>
    Boolean(await caches.match(new URL("snapshot.bin", location.href).href))"""
DAMAGE_JS = """async (damage) => {
    const url = new URL("snapshot.bin", location.href).href;
    const names = await caches.keys();
    for (const name of names) {
        const cache = await caches.open(name);
        const saved = await cache.match(url);
        if (!saved) continue;
        const layout = JSON.parse(saved.headers.get("x-snapshot-layout"));
        const bytes = new Uint8Array(await saved.arrayBuffer());
        // "zeros": the right size, nothing in it; "truncated": half the bytes the layout says;
        // "layout": the bytes, with a layout that is no JSON.
        const body = damage === "zeros"
            ? new Uint8Array(bytes.length)
            : damage === "truncated" ? bytes.subarray(0, bytes.length >> 1) : bytes;
        const headers = new Headers(saved.headers);
        if (damage === "layout") headers.set("x-snapshot-layout", "{");
        await cache.put(url, new Response(body, { headers }));
        return layout.memory;
    }
    return 0;
}"""
SNAPSHOT_SIZE_JS = """async () => {
    const saved = await caches.match(new URL("snapshot.bin", location.href).href);
    if (!saved) return null;
    const layout = JSON.parse(saved.headers.get("x-snapshot-layout"));
    const bytes = new Uint8Array(await saved.arrayBuffer());
    const expected = layout.files.reduce((sum, [, size]) => sum + size, layout.memory);
    return { complete: bytes.length === expected, nonzero: bytes.subarray(0, 64).some(Boolean) };
}"""


def visit_with_snapshot(page: Page, url: str) -> None:
    """Visit, wait for the snapshot in the cache and the service worker in charge."""
    boot(page, url)
    poll(page, SNAPSHOT_JS)
    offline_copy_ready(page)


class TestSnapshot:
    def test_a_repeat_visit_resumes_python(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """The second visit resumes Python from the snapshot: no micropip, no wheel, same play."""
        files = manifest()
        with make_context() as context:
            page = context.new_page()
            visit_with_snapshot(page, f"{site_url}?deal=617")
            requested = record_requests(context)
            boot(page, f"{site_url}?deal=1&moves=5a")
            page.wait_for_selector("#board[data-moves='5a']", timeout=BOOT_MS)
            page.locator("[data-action=undo]").click()
            page.wait_for_selector("#board[data-moves='']")
            assert_board(page, 1)
            page.locator("[data-action=next]").click()
            assert_board(page, 2)
            page.wait_for_timeout(500)  # a loading stage reported late would show by now
            expect(page.locator("#status")).to_have_text("")
        assert f"{site_url}{files['stdlib']}" in requested
        assert f"{site_url}{files['micropip']}" not in requested
        assert f"{site_url}{files['dealer']}" not in requested

    @pytest.mark.parametrize("damage", ["zeros", "truncated", "layout"])
    def test_a_damaged_snapshot_is_replaced(
        self, make_context: ContextFactory, site_url: str, damage: str
    ) -> None:
        """A snapshot that cannot be restored: Python boots as on a first visit and saves anew."""
        files = manifest()
        with make_context() as context:
            page = context.new_page()
            visit_with_snapshot(page, f"{site_url}?deal=617")
            assert page.evaluate(DAMAGE_JS, damage) > 0
            requested = record_requests(context)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)
            poll(page, f"({SNAPSHOT_SIZE_JS})().then((found) => found?.complete && found.nonzero)")
        assert f"{site_url}{files['dealer']}" in requested
