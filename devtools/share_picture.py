"""Draw the picture a shared link shows (web/src/share/table.png), in Chromium; it is committed.

    python3 build.py && .venv/bin/python -m devtools.share_picture

The Open Graph and Twitter card tags of web/src/index.html name it: the page itself, built
(dist/), at 1200 x 630 px (the size both protocols show largest, 1.91:1), light, on deal 617
a few moves in, so that it is a table as a player sees it. The build leaves it out of the
service worker's install (build.py's LAZY): only a chat app's reader fetches it. Draw it
again when the table's look changes.
"""

from __future__ import annotations

from playwright.sync_api import ViewportSize, sync_playwright

from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.page import poll
from devtools.paths import DIST, ROOT
from devtools.site_server import serve

PICTURE = ROOT / "web" / "src" / "share" / "table.png"
SIZE: ViewportSize = {"width": 1200, "height": 630}
LINK = "?deal=617&moves=8a,8b,8c,87,a2,c2,8d,8h"
"""Deal 617 eight moves in (its committed solution's first): cards in the free cells, one home."""


def main() -> None:
    """Draw PICTURE from the built site (dist/)."""
    with serve(DIST) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport=SIZE, color_scheme="light", reduced_motion="reduce")
        page.goto(url + LINK)
        poll(page, "() => document.documentElement.dataset.state === 'ready'", timeout_ms=60_000)
        poll(page, "() => document.getAnimations().length === 0", timeout_ms=10_000)
        page.wait_for_timeout(500)  # the deal's grade and the guard's verdict in the bar
        PICTURE.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(PICTURE))
        browser.close()
    print(f"share_picture.py: {PICTURE.relative_to(ROOT)} ({PICTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
