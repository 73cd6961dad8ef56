"""docs/dom.md, the page's DOM contract, names every selector the page's tests rely on."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from helpers import ROOT

DOM = ROOT / "docs" / "dom.md"
USERS = [*sorted((ROOT / "tests" / "page").glob("*.py")), ROOT / "tests" / "helpers.py"]
"""The page's tests and the helpers they share."""
ID = re.compile(r"(?<![\w&])#([a-zA-Z][\w-]*)")
"""An id in a selector (`#board`, `dialog#find`), not an entity or a colour such as `&#35`."""
DATA = re.compile(r"\[(data-[\w-]+)")
"""A data attribute in a selector (`[data-column]`, `#board[data-deal]`)."""
ACTION = re.compile(r"""data-action=["']?([\w-]+)|\bpress\(\w+, ["']([\w-]+)["']""")
"""A button by its action: `[data-action=next]`, or helpers.press(page, "next")."""


def strings(path: Path) -> list[str]:
    """Return the text of every string in a Python source, the literal parts of f-strings too."""
    return [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def used_selectors(paths: list[Path]) -> set[str]:
    """Return the ids (`#x`), data attributes and actions (`data-action=x`) the sources use."""
    used: set[str] = set()
    for path in paths:
        for text in strings(path):
            used |= {f"#{name}" for name in ID.findall(text)}
            used |= set(DATA.findall(text))
        for groups in ACTION.findall(path.read_text(encoding="utf-8")):
            used |= {f"data-action={name}" for name in groups if name}
    return used


def documented(selector: str, text: str) -> bool:
    """Whether docs/dom.md names a selector: `#x` as such; an action in any list of them."""
    if selector.startswith("data-action="):
        name = selector.removeprefix("data-action=")
        text = re.sub(r"\|\s+", "|", text)  # a list of actions wrapped over lines
        return re.search(rf"data-action=[^`\s]*\b{re.escape(name)}\b", text) is not None or (
            re.search(rf"[|\"]{re.escape(name)}[|\"]", text) is not None
        )
    return re.search(rf"{re.escape(selector)}(?![\w-])", text) is not None


class TestDomContract:
    def test_every_selector_the_tests_use_is_documented(self) -> None:
        """Each id, data attribute and action the page's tests rely on is in docs/dom.md."""
        text = DOM.read_text(encoding="utf-8")
        missing = sorted(s for s in used_selectors(USERS) if not documented(s, text))
        assert missing == [], f"docs/dom.md should describe: {', '.join(missing)}"

    def test_a_selector_is_read_from_code_and_strings(self, tmp_path: Path) -> None:
        """Ids, attributes and actions are found in strings, f-strings and press() calls."""
        source = tmp_path / "test_x.py"
        source.write_text(
            'page.locator("#board [data-column]")\n'
            'page.locator(f"#moves-count[data-x={n}]")\n'
            'press(page, "next")\ncolor = "&#35;"\n',
            encoding="utf-8",
        )
        assert used_selectors([source]) == {
            "#board",
            "data-column",
            "#moves-count",
            "data-x",
            "data-action=next",
        }

    def test_an_undocumented_selector_is_missing(self) -> None:
        """A selector the contract does not name is reported, a longer name is not a match."""
        text = '`#board[data-deal]`, `[data-action=next]`, `data-action="copy-link|help"`'
        assert documented("#board", text)
        assert documented("data-deal", text)
        assert documented("data-action=help", text)
        assert not documented("#boar", text)
        assert not documented("#board-x", text)
        assert not documented("data-action=stats-reset", text)
