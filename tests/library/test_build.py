"""build.py: the start-up's layers (which a command line asks for, where each site goes).

Also the machine's busy time, which its test command reports.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from build import (
    LAYERS,
    busy_cpu_seconds,
    chosen_layers,
    site_address,
    site_folder,
    write_site_address,
)
from devtools.paths import DIST, PLAIN_DIST, ROOT

LAYER_CHECK = re.compile(r"""layers\??\.(?:has|includes)\(\s*["'](\w+)["']\s*\)""")
"""How the page's code asks whether a layer is on: `layers.has("snapshot")`."""


class TestChosenLayers:
    def test_all_by_default(self) -> None:
        """Without options the site has every layer, in dist/."""
        layers = chosen_layers(plain=False, without=None)
        assert layers == frozenset(LAYERS)
        assert site_folder(layers) == DIST

    def test_plain_has_none(self) -> None:
        """--plain leaves out every layer, into dist-plain/."""
        assert chosen_layers(plain=True, without=None) == frozenset()
        assert site_folder(frozenset()) == PLAIN_DIST

    def test_without_names_its_folder(self) -> None:
        """--without leaves out the layers named, into a folder that names them, sorted."""
        layers = chosen_layers(plain=False, without="openings, bundles")
        assert layers == frozenset(LAYERS) - {"openings", "bundles"}
        assert site_folder(layers) == ROOT / "dist-without-bundles-openings"

    def test_an_unknown_layer_is_refused(self) -> None:
        """A name that is no layer ends the build, naming the layers."""
        with pytest.raises(SystemExit, match="no layer speed; the layers: shrink"):
            chosen_layers(plain=False, without="speed")


def test_the_page_asks_only_for_layers_the_build_knows() -> None:
    """Each layer the page's code asks about is one of build.py's LAYERS, and some are asked."""
    asked = set()
    for module in (ROOT / "web" / "src").rglob("*.js"):
        asked |= set(LAYER_CHECK.findall(module.read_text()))
    assert asked <= set(LAYERS)
    assert {"stream", "snapshot", "openings"} <= asked


def test_busy_cpu_seconds_count_work() -> None:
    """A quarter of a second of work adds about that much to the machine's busy time.

    (It is None where the system has no /proc/stat.)
    """
    before = busy_cpu_seconds()
    if not Path("/proc/stat").exists():
        assert before is None
        return
    assert before is not None
    started = time.process_time()
    while time.process_time() - started < 0.25:
        pass
    after = busy_cpu_seconds()
    assert after is not None
    assert after - before >= 0.2


class TestSiteAddress:
    def test_the_previews_urls_become_absolute(self) -> None:
        """With the site's address, og:image and twitter:image are absolute, and og:url added."""
        page = (ROOT / "web" / "src" / "index.html").read_text(encoding="utf-8")
        address = "https://example.org/freecell/"
        text = write_site_address(page, address)
        picture = f"{address}share/table.png"
        assert f'<meta property="og:image" content="{picture}">' in text
        assert f'<meta name="twitter:image" content="{picture}">' in text
        assert f'<meta property="og:url" content="{address}">' in text
        assert 'content="share/table.png"' not in text

    @pytest.mark.parametrize(
        "value",
        ["example.org/", "https://example.org/freecell", "ftp://example.org/", "https://a b/"],
    )
    def test_an_address_that_is_none_is_refused(self, value: str) -> None:
        """An address that is not http(s)://host/.../ stops the build with a message."""
        with pytest.raises(SystemExit, match="FREECELL_SITE_URL"):
            site_address(value)

    def test_none_given_leaves_them_relative(self) -> None:
        """No address (unset or empty): the build keeps the relative URLs."""
        assert site_address(None) is None
        assert site_address("") is None
        assert site_address("https://example.org/") == "https://example.org/"
