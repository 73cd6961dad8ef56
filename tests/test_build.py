"""build.py's layers of the start-up: which a command line asks for, where each site goes."""

from __future__ import annotations

import re

import pytest

from build import LAYERS, NEEDS, chosen_layers, site_folder
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
        layers = chosen_layers(plain=False, without="snapshot, routes")
        assert layers == frozenset(LAYERS) - {"snapshot", "routes"}
        assert site_folder(layers) == ROOT / "dist-without-routes-snapshot"

    def test_a_layer_goes_with_the_one_it_needs(self) -> None:
        """Leaving out compile leaves out the layers that need it."""
        layers = chosen_layers(plain=False, without="compile")
        assert layers == frozenset(LAYERS) - {"compile", *NEEDS}

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
    assert {"stream", "snapshot", "openings", "routes", "patterns"} <= asked
