"""The library's and the page's modules import one another without a circle.

Deferred (Python) and dynamic (JavaScript) imports included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from build import BUNDLES
from helpers import DIST

PACKAGE = Path(__file__).resolve().parent.parent / "py" / "freecell"
PAGE = Path(__file__).resolve().parent.parent / "web" / "src"
ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")
"""A relative module specifier in an ES module: `from "./x.js"`, `import "./x.js"`,
`import("./x.js")` (the page's modules import only by relative path, and only .js files)."""


def module_name(path: Path) -> str:
    """Return the dotted name of a source file of the package: ``freecell._cli.solve``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """Return the ``modules`` that a module's source imports anywhere: at the top, in functions."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict[str, set[str]]:
    """Return each module of the package with the package's modules it imports."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {
        module_name(path): imported(
            path.read_text(encoding="utf-8"),
            module_name(path),
            path.name == "__init__.py",
            modules,
        )
        for path in paths
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one circle of imports as the modules along it, first repeated last; or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for other in sorted(graph[module]):
            if (cycle := visit(other)) is not None:
                return cycle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        if (cycle := visit(module)) is not None:
            return cycle
    return None


def documented_layers() -> list[list[set[str]]]:
    """Return the chains of modules that docs/architecture.md draws, each a list of layers.

    The paragraph reads "`_names` → `_errors` → ..., and `_cli.streams` → ... → `_cli`: each
    module imports only modules to its left"; modules side by side (`_fcs`, `_clicks`) are one
    layer.
    """
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index("`_names` →")
    drawn = " ".join(text[start : text.index(": each module", start)].split())
    return [
        [{f"freecell.{name}" for name in re.findall(r"`([\w.]+)`", layer)} for layer in chain]
        for chain in (part.split("→") for part in drawn.split(", and "))
    ]


def page_import_graph(root: Path = PAGE) -> dict[str, set[str]]:
    """Return each ES module of the page (web/src, or the built site) with the files it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.js")):
        targets = {
            (path.parent / spec).resolve().relative_to(root).as_posix()
            for spec in JS_IMPORT.findall(path.read_text(encoding="utf-8"))
        }
        graph[path.relative_to(root).as_posix()] = targets
    return graph


class TestImportGraph:
    def test_no_module_imports_itself_through_others(self) -> None:
        """No chain of imports, even one inside a function, leads a module back to itself."""
        cycle = find_cycle(import_graph())
        assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

    def test_deferred_and_relative_imports_count(self) -> None:
        """An import inside a function counts, and so does a relative one."""
        source = "def f():\n    from . import b\n    from .c import x\n    import p.d\n"
        modules = {"p", "p.a", "p.b", "p.c", "p.d"}
        assert imported(source, "p.a", False, modules) == {"p", "p.b", "p.c", "p.d"}

    def test_a_cycle_is_found(self) -> None:
        """Two modules that import each other are a cycle, named along its way."""
        assert find_cycle({"a": {"b"}, "b": {"a"}, "c": set()}) == ["a", "b", "a"]
        assert find_cycle({"a": {"b"}, "b": set()}) is None

    def test_every_module_is_read(self) -> None:
        """The graph holds the package and its modules, so a new module cannot hide."""
        graph = import_graph()
        assert {"freecell", "freecell._cards", "freecell._errors", "freecell._web"} <= set(graph)


class TestDocumentedLayers:
    def test_each_module_imports_only_modules_to_its_left(self) -> None:
        """A module of docs/architecture.md's chains imports none of its layer or to its right."""
        graph = import_graph()
        for chain in documented_layers():
            for index, layer in enumerate(chain):
                assert layer <= set(graph), f"no such module: {layer - set(graph)}"
                later = set().union(*chain[index:])
                for module in layer:
                    assert not graph[module] & later, f"{module} imports {graph[module] & later}"

    def test_every_command_module_is_drawn(self) -> None:
        """Every module of the command line (freecell._cli) has its place in the chains."""
        drawn = {module for chain in documented_layers() for layer in chain for module in layer}
        commands = {module for module in import_graph() if module.startswith("freecell._cli")}
        assert commands - drawn == set()


class TestPageImportGraph:
    def test_no_module_imports_itself_through_others(self) -> None:
        """No chain of imports among the page's modules, dynamic ones too, comes back."""
        graph = page_import_graph()
        runtime = {"pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs"}  # build.py copies them in
        missing = {target for targets in graph.values() for target in targets} - set(graph)
        assert missing <= runtime, "imports of no module under web/src"
        cycle = find_cycle({**{name: set() for name in runtime}, **graph})
        assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

    def test_every_kind_of_import_counts(self) -> None:
        """Static, side-effect and dynamic imports, over several lines, are all read."""
        source = 'import {\n  a,\n} from "./a.js";\nimport "../b.js";\nawait import("./c.js");'
        assert JS_IMPORT.findall(source) == ["./a.js", "../b.js", "./c.js"]
        graph = page_import_graph()
        assert "app/snapshot.js" in graph["app/worker.js"]
        assert "i18n/en.js" in graph["app/i18n.js"]


class TestSiteBundles:
    """The site's modules are build.py's bundles of these, and what the bundles leave out."""

    def test_the_page_loads_two_bundles(self) -> None:
        """Of the modules under app/, the site holds the two bundles and the two left out.

        boot.js stays a module of its own: index.html loads it alone, and a copy inside main.js
        would start a second worker.
        """
        site = page_import_graph(DIST)
        assert {name for name in site if name.startswith("app/")} == set(BUNDLES) | {
            "app/boot.js",
            "app/snapshot.js",
        }
        assert "app/boot.js" in site["app/main.js"]
        boot = (DIST / "app" / "boot.js").read_text(encoding="utf-8")
        assert "function startWorker" in boot
        assert "function startWorker" not in (DIST / "app" / "main.js").read_text(encoding="utf-8")
        assert site["app/worker.js"] == {
            "pyodide/pyodide.mjs",
            "pyodide/pyodide.asm.mjs",
            "app/snapshot.js",
        }

    def test_every_import_of_the_site_is_there(self) -> None:
        """Whatever a module of the site imports is a file of the site."""
        site = page_import_graph(DIST)
        for name, targets in site.items():
            assert all((DIST / target).is_file() for target in targets), name
        page = page_import_graph()
        assert {name for name in page if name.startswith("i18n/")} <= set(site)
