"""The facts the page shares with the library are written from it (web/src/app/page/rules.js).

build.py writes rules.js from freecell._web.facts before every build (and before the quick
tier); no one writes it by hand, so nothing here compares a copy constant by constant: these
tests fail when the file is not the library's (the build skipped it, or an old one is left),
when a copy is committed, or when a page module spells a fact again.
"""

import re
import subprocess

from freecell import CARD_CODES, Game
from freecell._cards import card_is_red
from freecell._web.facts import json_type, page_facts, rules_module
from helpers import ROOT, WEB, js_object

RULES_JS = WEB / "app" / "page" / "rules.js"


class TestRules:
    def test_rules_js_is_the_library_s(self) -> None:
        """rules.js is what the library writes now: build.py wrote it, from this library."""
        assert RULES_JS.exists(), "web/src/app/page/rules.js is missing: run python3 build.py"
        assert RULES_JS.read_text(encoding="utf-8") == rules_module(), (
            "web/src/app/page/rules.js is not the library's: run python3 build.py"
        )
        assert js_object(RULES_JS) == page_facts()

    def test_no_copy_is_committed(self) -> None:
        """rules.js is the build's: git ignores it and holds no copy."""
        tracked = subprocess.run(
            ["git", "ls-files", "--", RULES_JS.relative_to(ROOT).as_posix()],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert tracked.stdout == ""
        ignored = subprocess.run(["git", "check-ignore", "-q", RULES_JS], cwd=ROOT, check=False)
        assert ignored.returncode == 0

    def test_cards(self) -> None:
        """A card's code as the page makes it (rank, then suit) and its colour are the library's."""
        facts = page_facts()
        codes = [rank + suit for rank in facts["ranks"] for suit in facts["suits"]]
        assert codes == list(CARD_CODES)
        red = [code[1] in facts["red_suits"] for code in codes]
        assert red == [card_is_red(card) for card in range(52)]

    def test_the_snapshot_s_shape(self) -> None:
        """The page's shape of a game is every field of Game.snapshot, with its JSON type."""
        shape = page_facts()["snapshot"]
        game = Game.from_deal_number(617)
        game.push("5a")
        assert list(shape) == list(game.snapshot())
        assert shape["freecells"] == json_type(list[str | None])
        assert shape["auto"] == json_type(list[bool])

    def test_no_other_module_spells_them(self) -> None:
        """No other page module writes a place list, the move syntax or the deal range again."""
        spelled = re.compile(
            r"12345678|\"abcd\"|'abcd'|8589934591|\[1-8a-d\]|1_?000_?000|A23456789TJQK|\"CDHS\""
        )
        offenders = [
            path.name
            for path in sorted((WEB / "app").rglob("*.js"))
            if path.name != "rules.js" and spelled.search(path.read_text())
        ]
        assert offenders == []
