"""The plain site (`python3 build.py --plain`) plays a game in a real Chromium.

dist-plain/ is the page with none of the start-up's speed-ups (build.py's LAYERS). Its Python
starts as `loadPyodide()` alone starts it, from the npm package's files, and micropip installs
our wheel uncompiled (web/src/app/worker/python.js, the boot every build shares); no memory snapshot
is taken and no board is remembered, so a repeat visit boots the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from devtools.paths import PLAIN_DIST
from helpers import (
    ContextFactory,
    boot,
    columns_of,
    engine_after,
    moves_of,
    poll,
    record_requests,
    serve_strictly,
    shown_columns,
)

SNAPSHOT_JS = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration?.active?.state !== "activated") return null;
    const names = (await caches.keys()).filter((name) => name.startsWith("freecell-"));
    const found = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
    return found.flat().map((request) => request.url);
}"""
"""The URLs in the site's caches once its service worker is active, else null."""


@pytest.fixture(scope="module")
def plain_url() -> Iterator[str]:
    """Serve dist-plain/ under its Content-Security-Policy; fail if it was not built."""
    if not (PLAIN_DIST / "index.html").is_file():
        pytest.fail(f"{PLAIN_DIST} is missing: run python3 build.py --plain", pytrace=False)
    with serve_strictly(PLAIN_DIST) as url:
        yield url


def test_the_plain_site_has_no_layer() -> None:
    """Its manifest names no layer: the WebAssembly is where loadPyodide looks, stock."""
    manifest = json.loads((PLAIN_DIST / "manifest.json").read_text())
    assert manifest["layers"] == []
    assert manifest["wasm"] == "pyodide/pyodide.asm.wasm"
    assert manifest["stdlib"].endswith("/python_stdlib.zip")
    assert "stdlib_later" not in manifest
    assert "pyodide/pyodide-lock.json" in manifest["files"]


def test_a_game_plays_on_the_plain_site(make_context: ContextFactory, plain_url: str) -> None:
    """A first and a repeat visit boot stock Pyodide, open deal 617 and play a move.

    The page asks for the runtime's stock files, keeps no memory snapshot and remembers no
    board; the move shows the engine's position.
    """
    with make_context() as context:
        requested = record_requests(context)
        page = context.new_page()
        boot(page, f"{plain_url}?deal=617")
        assert shown_columns(page) == columns_of(617)
        assert f"{plain_url}pyodide/pyodide.asm.wasm" in requested
        assert f"{plain_url}pyodide/pyodide-lock.json" in requested
        assert not [url for url in requested if url.endswith(".gz")]
        cached = poll(page, SNAPSHOT_JS)
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
        page.locator("body").focus()
        page.keyboard.press("5")
        page.keyboard.press("a")
        expect(page.locator("#board")).to_have_attribute("data-moves", "5a")
        assert moves_of(page) == ["5a"]
        assert shown_columns(page) == engine_after(617, ["5a"])["cascades"]
        assert page.evaluate("() => localStorage.getItem('freecell.openings')") is None
        assert not [url for url in cached if url.endswith("snapshot.bin")]
        assert not [url for url in poll(page, SNAPSHOT_JS) if url.endswith("snapshot.bin")]
