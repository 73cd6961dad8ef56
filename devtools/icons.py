"""Draw the app's PNG icons from web/src/icons/icon.svg, in Chromium; the PNGs are committed.

    .venv/bin/python -m devtools.icons

The web app manifest (web/src/app.webmanifest) names them: 192 and 512 px icons with the
SVG's rounded felt and transparent corners ("any"); a 512 px maskable icon whose felt fills the
square and whose cards sit inside the safe circle (80 % of the width), since the launcher cuts
its own shape; and a 180 px full-square icon for iOS's home screen (apple-touch-icon). Run it
again after changing the SVG.
"""

from __future__ import annotations

import base64
import sys

from playwright.sync_api import sync_playwright

from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.paths import ROOT

ICONS = ROOT / "web" / "src" / "icons"
SVG = ICONS / "icon.svg"
FULL_FELT = ('rx="96" fill="#1d5e3a"', 'fill="#1d5e3a"')
"""The felt's rounded corners, and the felt filling the square (maskable and iOS)."""
SAFE = ('<g id="cards">', '<g id="cards" transform="matrix(0.78 0 0 0.78 56.32 56.32)">')
"""The cards drawn smaller about the middle, inside a maskable icon's safe circle."""


def variants(svg: str) -> dict[str, tuple[int, str]]:
    """Return each PNG's name, size and SVG source."""
    full = svg.replace(*FULL_FELT)
    return {
        "icon-192.png": (192, svg),
        "icon-512.png": (512, svg),
        "icon-maskable-512.png": (512, full.replace(*SAFE)),
        "apple-touch-icon.png": (180, full.replace(*SAFE)),
    }


def main() -> None:
    """Draw every PNG of `variants` into web/src/icons/."""
    svg = SVG.read_text()
    for old, _ in (FULL_FELT, SAFE):
        if old not in svg:
            sys.exit(f"icons.py: {old!r} is missing from {SVG}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        for name, (size, source) in variants(svg).items():
            data = base64.b64encode(source.encode()).decode()
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                f'<body style="margin:0"><img src="data:image/svg+xml;base64,{data}" '
                f'width="{size}" height="{size}" style="display:block"></body>'
            )
            page.screenshot(path=str(ICONS / name), omit_background=True)
            print(f"icons.py: {name} ({size} px)")
        browser.close()


if __name__ == "__main__":
    main()
