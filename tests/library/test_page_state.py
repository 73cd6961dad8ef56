"""The page's state (web/src/app/page/state.js): each field has one module that writes it.

docs/architecture.md's table "The state's owners" names the owner of every field; the code is
held to it here: every field of `createState` has exactly one owner in the table, and no module
but its owner writes it.
"""

from __future__ import annotations

import re

import pytest

from helpers import ROOT

PAGE = ROOT / "web" / "src" / "app" / "page"
DOC = ROOT / "docs" / "architecture.md"
FIELD = re.compile(r"^    (\w+): ", re.MULTILINE)
"""A field of the object createState returns (indented once inside it)."""
WRITE = re.compile(r"(?<![\w.$])state\.(\w+)(?:\.\w+|\[[^\]]*\])*\s*(?:[-+*/|&?]*=(?!=)|\+\+|--)")
"""An assignment to a field of the state, or to a part of one (`state.pending.grade = ...`)."""
WHOLESALE = re.compile(r"Object\.assign\(\s*state\b|\bdelete\s+state\.|\[state\.\w+[^\]]*\]\s*=")
"""Writes the WRITE pattern would miss: every one is refused."""
ROW = re.compile(r"^\| `(\w+\.js)` \| ((?:`\w+`(?:, )?)+) \|$", re.MULTILINE)


def fields() -> list[str]:
    """Return the fields of the page's state, as createState declares them."""
    source = (PAGE / "state.js").read_text(encoding="utf-8")
    body = source[source.index("export function createState") :]
    body = body[: body.index("\n  };\n")]
    return FIELD.findall(body)


def owners(text: str) -> dict[str, str]:
    """Return each field's owner from the architecture's table; a field named twice fails."""
    table = text[text.index("### The state's owners") :]
    found: dict[str, str] = {}
    for module, names in ROW.findall(table):
        for name in re.findall(r"`(\w+)`", names):
            assert name not in found, f"state.{name} has two owners in docs/architecture.md"
            found[name] = module
    return found


def writers(sources: dict[str, str]) -> dict[str, set[str]]:
    """Return, for each field written, the modules that write it."""
    found: dict[str, set[str]] = {}
    for module, source in sources.items():
        for name in WRITE.findall(source):
            found.setdefault(name, set()).add(module)
    return found


def page_sources() -> dict[str, str]:
    """Return the source of each of the page's modules, by file name."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(PAGE.glob("*.js"))}


def test_every_field_has_one_owner_in_the_docs() -> None:
    """The table names an owner for each field createState declares, and no other field."""
    declared = fields()
    assert len(declared) > 20, "createState's fields were not read"
    assert sorted(owners(DOC.read_text(encoding="utf-8"))) == sorted(declared)


def test_only_its_owner_writes_a_field() -> None:
    """Each field written is written by its owner alone, and each owner writes its fields."""
    table = owners(DOC.read_text(encoding="utf-8"))
    found = writers(page_sources())
    assert set(found) <= set(table), "a field written that createState does not declare"
    wrong = {name: modules for name, modules in found.items() if modules != {table[name]}}
    assert not wrong, f"fields written by another module than their owner: {wrong}"
    assert set(found) == set(table), "an owner that writes nothing"


def test_no_write_hides_from_the_check() -> None:
    """No module writes the state in a way the pattern would not see (Object.assign...)."""
    hidden = {name: WHOLESALE.findall(source) for name, source in page_sources().items()}
    assert not {name: found for name, found in hidden.items() if found}


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("state.game = game;", {"game"}),
        ("state.pending.grade = false;", {"pending"}),
        ("state.clock.started ??= now;", {"clock"}),
        ("state.count += 1; state.count++;", {"count"}),
        ("if (state.game === game) return state.hint == null;", set()),
        ("dom.state.game = 1; mystate.x = 2;", set()),
    ],
)
def test_a_write_is_seen(line: str, written: set[str]) -> None:
    """The pattern sees assignments of every kind, and comparisons are not writes."""
    assert set(writers({"x.js": line})) == written


def test_a_second_writer_is_caught() -> None:
    """A setting written at the start by main.js (as it was) is a second writer."""
    sources = page_sources()
    sources["main.js"] += "\nstate.auto = 'off';\n"
    table = owners(DOC.read_text(encoding="utf-8"))
    assert writers(sources)["auto"] != {table["auto"]}
