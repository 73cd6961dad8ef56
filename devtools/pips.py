"""Draw the cards' pips as PNGs from the suits' SVG shapes, in Chromium, into cards.css.

    .venv/bin/python -m devtools.pips

web/src/styles/cards.css gives each suit its shape as an SVG (`--pip`: the aces and the
foundations' empty slots show it) and the same shape drawn at PIP_PX pixels as PNGs, upright
(`--pip-raster`) and turned (`--pip-raster-down`), which the other cards' pips use as mask
layers: Chromium draws an SVG image anew wherever it is painted, and a deal change paints about
280 pips (the PNGs made each change's frame about 4 ms shorter: docs/performance-log.md). Run it
again after changing a suit's SVG; the browser tests check that each PNG is its SVG, turned or
not (tests/page/test_table.py).
"""

from __future__ import annotations

import base64
import re
import struct
import sys
import zlib

from playwright.sync_api import sync_playwright

from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.paths import ROOT

CARDS_CSS = ROOT / "web" / "src" / "styles" / "cards.css"
PIP_PX = 64
"""The PNGs' size: a pip is at most about 50 device pixels wide (a 4K screen's cards)."""
LEVELS = 16
"""The opacities a PNG's pixel takes, from transparent to opaque (a 4-bit palette)."""
SUIT_RULE = re.compile(
    r'(?P<head>\.(?P<suit>clubs|diamonds|hearts|spades) \{\n  --pip: url\("(?P<svg>[^"]+)"\);\n)'
    r'(?:  --pip-raster: url\("(?P<up>[^"]*)"\);\n)?'
    r'(?:  --pip-raster-down: url\("(?P<down>[^"]*)"\);\n)?'
)
"""A suit's rule in cards.css: its SVG shape, then the PNGs drawn from it, upright and turned
(if drawn yet)."""
TURNS = {"--pip-raster": False, "--pip-raster-down": True}
"""Each PNG's custom property and whether its pip is turned."""


def suit_shapes(css: str) -> dict[str, str]:
    """Return each suit's SVG shape (a data URL) as cards.css gives it."""
    shapes = {match["suit"]: match["svg"] for match in SUIT_RULE.finditer(css)}
    if len(shapes) != 4:
        sys.exit(f"pips.py: {CARDS_CSS} should give 4 suits a --pip, found {sorted(shapes)}")
    return shapes


ALPHA_JS = """async ([url, size, turned]) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = new OffscreenCanvas(size, size);
    const context = canvas.getContext("2d");
    if (turned) {
        context.translate(size, size);
        context.rotate(Math.PI);
    }
    context.drawImage(image, 0, 0, size, size);
    const { data } = context.getImageData(0, 0, size, size);
    return Array.from(data.filter((_, index) => index % 4 === 3));
}"""
"""Draws an image at size x size pixels, turned or not, and returns its alpha channel."""


def alpha_png(alpha: list[int], size: int) -> bytes:
    """Return a PNG of an alpha channel: a black pip whose opacity takes LEVELS steps.

    A mask needs only the alpha: a 4-bit palette of black at LEVELS opacities stores half a
    byte a pixel, about a sixth of Chromium's RGBA screenshot once compressed; 16 steps are more
    than a pip's anti-aliased edge, a pixel or two wide, can show.
    """

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    steps = [round(value * (LEVELS - 1) / 255) for value in alpha]
    rows = b"".join(
        b"\0" + bytes(high << 4 | low for high, low in zip(row[::2], row[1::2], strict=True))
        for row in (steps[start : start + size] for start in range(0, size * size, size))
    )
    opacities = bytes(round(step * 255 / (LEVELS - 1)) for step in range(LEVELS))
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 4, 3, 0, 0, 0)),
            chunk(b"PLTE", bytes(3 * LEVELS)),
            chunk(b"tRNS", opacities),
            chunk(b"IDAT", zlib.compress(rows, 9)),
            chunk(b"IEND", b""),
        ]
    )


def main() -> None:
    """Draw each suit's PNGs and write them into cards.css after the suit's SVG."""
    css = CARDS_CSS.read_text()
    pngs: dict[tuple[str, str], str] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        for suit, svg in suit_shapes(css).items():
            for name, turned in TURNS.items():
                alpha = page.evaluate(ALPHA_JS, [svg, PIP_PX, turned])
                png = alpha_png(alpha, PIP_PX)
                pngs[suit, name] = "data:image/png;base64," + base64.b64encode(png).decode()
        browser.close()

    def with_png(match: re.Match[str]) -> str:
        lines = [f'  {name}: url("{pngs[match["suit"], name]}");\n' for name in TURNS]
        return match["head"] + "".join(lines)

    CARDS_CSS.write_text(SUIT_RULE.sub(with_png, css))
    size = sum(len(url) for url in pngs.values())
    print(f"drew {len(pngs)} pips of {PIP_PX} px into {CARDS_CSS.relative_to(ROOT)} ({size:,} B)")


if __name__ == "__main__":
    main()
