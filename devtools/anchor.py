"""An anchor that keeps the runtime's WebAssembly compiled in a browser (tests and benches).

V8 compiles a WebAssembly module once per renderer process and hands the same code to every
page and worker there that instantiates the same bytes, with whatever optimised code earlier
ones made. Chromium gives each new tab a process of its own, so each of the site's pages that
a test opens would optimise Python's interpreter again (about 0.5 s of CPU). With
`--process-per-site` the pages of the site share one process; an anchor, a page that is not the
app and holds the module, keeps that process and the module alive between the tests' pages.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from devtools.paths import DIST
from devtools.site_server import serve

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

PROCESS_PER_SITE = "--process-per-site"
"""Chromium's switch: one renderer process for all the pages of a site in a browser context.
A site is a scheme and host: every server on 127.0.0.1 is the same site, whatever its port."""

ANCHOR_HTML = '<!doctype html><title>anchor</title><link rel="icon" href="data:,">'
"""The anchor page: empty, with an icon that costs no request (a missing one is a console
error)."""


@contextlib.contextmanager
def serve_anchor(folder: Path, site: Path = DIST) -> Iterator[tuple[str, str]]:
    """Serve the anchor page beside the built `site`'s WebAssembly, from `folder`, on 127.0.0.1.

    Yields the page's URL and the module's. A server of its own: no site under test, its
    storage or its caches see it.
    """
    wasm = site / json.loads((site / "manifest.json").read_text())["wasm"]
    (folder / "index.html").write_text(ANCHOR_HTML)
    (folder / "runtime.wasm").symlink_to(wasm.resolve())
    with serve(folder) as url:
        yield url, f"{url}runtime.wasm"


def open_anchor(context: BrowserContext, urls: tuple[str, str]) -> Page:
    """Open an anchor page in `context` at `serve_anchor`'s URLs: it compiles the module, keeps it.

    It closes with the context; the site's pages that the context opens meanwhile share it.
    """
    page_url, wasm_url = urls
    page = context.new_page()
    page.goto(page_url)
    page.evaluate(
        "async (url) => { self.kept = await WebAssembly.compileStreaming(fetch(url)); }", wasm_url
    )
    return page
