"""Draw the cards' pips as PNGs from the suits' SVG shapes, in Chromium, into cards.css.

    .venv/bin/python web/tools/pips.py

web/src/styles/cards.css gives each suit its shape as an SVG (`--pip`: the aces and the
foundations' empty slots show it) and the same shape drawn at PIP_PX pixels as PNGs, upright
(`--pip-raster`) and turned (`--pip-raster-down`), which the other cards' pips use as mask
layers: Chromium draws an SVG image anew wherever it is painted, and a deal change paints about
280 pips (the PNGs made each change's frame about 4 ms shorter: docs/performance.md). Run it
again after changing a suit's SVG; the browser tests check that each PNG is its SVG, turned or
not (tests/test_table.py).
"""

from __future__ import annotations

import base64
import re
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from build import CHROMIUM_ARGS, chromium_executable  # noqa: E402 - build.py lives at the root

CARDS_CSS = ROOT / "web" / "src" / "styles" / "cards.css"
PIP_PX = 96
"""The PNGs' size: a pip is at most about 50 device pixels wide (a 4K screen's cards)."""
SUIT_RULE = re.compile(
    r'(?P<head>\.(?P<suit>clubs|diamonds|hearts|spades) \{\n  --pip: url\("(?P<svg>[^"]+)"\);\n)'
    r'(?:  --pip-raster: url\("[^"]*"\);\n)?'
    r'(?:  --pip-raster-down: url\("[^"]*"\);\n)?'
)
"""A suit's rule in cards.css: its SVG shape, then the PNGs drawn from it, upright and turned
(if drawn yet)."""
TURNS = {"--pip-raster": "none", "--pip-raster-down": "rotate(180deg)"}
"""Each PNG's custom property and how its pip is turned."""


def suit_shapes(css: str) -> dict[str, str]:
    """Return each suit's SVG shape (a data URL) as cards.css gives it."""
    shapes = {match["suit"]: match["svg"] for match in SUIT_RULE.finditer(css)}
    if len(shapes) != 4:
        sys.exit(f"pips.py: {CARDS_CSS} should give 4 suits a --pip, found {sorted(shapes)}")
    return shapes


def main() -> None:
    """Draw each suit's PNGs and write them into cards.css after the suit's SVG."""
    css = CARDS_CSS.read_text()
    pngs: dict[tuple[str, str], str] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": PIP_PX, "height": PIP_PX})
        for suit, svg in suit_shapes(css).items():
            for name, turn in TURNS.items():
                page.set_content(
                    f'<body style="margin:0"><img src="{svg}" width="{PIP_PX}" '
                    f'height="{PIP_PX}" style="display:block; transform: {turn}"></body>'
                )
                page.locator("img").evaluate("(image) => image.decode()")
                png = page.screenshot(omit_background=True)
                pngs[suit, name] = "data:image/png;base64," + base64.b64encode(png).decode()
        browser.close()

    def with_png(match: re.Match[str]) -> str:
        lines = [f'  {name}: url("{pngs[match["suit"], name]}");\n' for name in TURNS]
        return match["head"] + "".join(lines)

    CARDS_CSS.write_text(SUIT_RULE.sub(with_png, css))
    print(f"drew {len(pngs)} pips of {PIP_PX} px into {CARDS_CSS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
