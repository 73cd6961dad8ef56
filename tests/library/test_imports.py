"""The library's and the page's modules import one another without a circle, in layers.

Deferred (Python) and dynamic (JavaScript) imports included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from build import BUNDLES
from helpers import DIST

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "freecell"
PAGE = Path(__file__).resolve().parents[2] / "web" / "src"
ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
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


def unit_of(path: Path) -> Path:
    """Return the folder (a unit) that a source file of the package belongs to."""
    return path.parent


def is_face(path: Path) -> bool:
    """Return whether a file is its folder's face: ``__init__.py`` or ``__main__.py``."""
    return path.name in {"__init__.py", "__main__.py"}


def module_paths() -> dict[str, Path]:
    """Return each module of the package by its dotted name, with its source file."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_names(source: str) -> list[tuple[str, str]]:
    """Return each ``from MODULE import NAME`` of a source as (module, name), deferred ones too."""
    return [
        (node.module, alias.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    ]


def drawn_units() -> list[Path]:
    """Return the folders of the package as docs/architecture.md draws them, the top layer first.

    The drawing is the code block after "## The library", a folder a line (``freecell/_web/``).
    """
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text[text.index("```", text.index("## The library")) :].split("```")[1]
    return [PACKAGE.parent / line.split()[0] for line in block.strip().splitlines()[1:]]


def layer_faults(
    graph: dict[str, set[str]], paths: dict[str, Path], drawn: list[Path]
) -> list[str]:
    """Return each import that breaks the drawn layers, as "importer -> imported: why".

    A module imports from its own folder; from a folder it lies inside (the engine for
    everything); or from another folder drawn below its own, through that folder's face
    (``freecell._search``, not ``freecell._search.scan``). A folder's face may import the folders
    inside it, whatever their layer: it stands for all of them.
    """
    faults = []
    for module, targets in sorted(graph.items()):
        unit = unit_of(paths[module])
        for target in sorted(targets):
            other = unit_of(paths[target])
            if other == unit or other in unit.parents:
                continue
            if is_face(paths[module]) and unit in other.parents:
                continue
            if not is_face(paths[target]):
                faults.append(f"{module} -> {target}: not through its package")
            elif other not in drawn or unit not in drawn:
                faults.append(f"{module} -> {target}: a folder not drawn")
            elif drawn.index(other) < drawn.index(unit):
                faults.append(f"{module} -> {target}: a folder drawn above its own")
    return faults


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


class TestFolders:
    """The package's folders are its units, in the layers docs/architecture.md draws."""

    def test_the_drawing_has_every_folder_once(self) -> None:
        """Every folder of the package is drawn, once, so a new one cannot hide."""
        drawn = drawn_units()
        assert sorted(drawn) == sorted({unit_of(path) for path in module_paths().values()})
        assert len(set(drawn)) == len(drawn)

    def test_each_folder_imports_only_the_layers_below_it(self) -> None:
        """No import reaches a folder drawn above its own, or past another folder's face."""
        assert layer_faults(import_graph(), module_paths(), drawn_units()) == []

    def test_two_layers_swapped_are_caught(self) -> None:
        """Drawn the other way round, the page adapter and the searches fail the check."""
        drawn = drawn_units()
        web, searches = PACKAGE / "_web", PACKAGE / "_search"
        i, j = drawn.index(web), drawn.index(searches)
        drawn[i], drawn[j] = searches, web
        faults = layer_faults(import_graph(), module_paths(), drawn)
        assert "freecell._web.searches -> freecell._search: a folder drawn above its own" in faults

    def test_a_module_inside_another_folder_is_caught(self) -> None:
        """An import of a module inside another folder, past its face, is a fault."""
        graph = {"freecell._web.known": {"freecell._search.short"}}
        paths = module_paths()
        assert layer_faults(graph, paths, drawn_units()) == [
            "freecell._web.known -> freecell._search.short: not through its package"
        ]

    def test_private_names_stay_in_their_folder(self) -> None:
        """A name with a leading underscore is imported only within its own folder."""
        paths = module_paths()
        for module, path in paths.items():
            for source, name in imported_names(path.read_text(encoding="utf-8")):
                if name.startswith("_") and name != "__version__" and source in paths:
                    assert unit_of(paths[source]) == unit_of(path), f"{module}: {source}.{name}"


class TestPageImportGraph:
    def test_no_module_imports_itself_through_others(self) -> None:
        """No chain of imports among the page's modules, dynamic ones too, comes back."""
        graph = page_import_graph()
        runtime = {"pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs"}  # build.py copies them in
        missing = {target for targets in graph.values() for target in targets} - set(graph)
        assert missing <= runtime, "imports of no module under web/src"
        cycle = find_cycle({**{name: set() for name in runtime}, **graph})
        assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

    def test_each_side_imports_only_its_own_and_the_shared(self) -> None:
        """app/page/ runs in the page, app/worker/ in the worker; app/shared/ (if any) in both.

        Neither side imports the other's modules; what both use sits in app/shared/, which
        imports only its own.
        """
        allowed = {"page": {"page", "shared"}, "worker": {"worker", "shared"}, "shared": {"shared"}}
        graph = page_import_graph()
        app = {name for name in graph if name.startswith("app/")}
        assert {name.split("/")[1] for name in app} <= set(allowed), "a module outside the sides"
        for name in sorted(app):
            side = name.split("/")[1]
            for target in graph[name]:
                if target.startswith("app/"):
                    assert target.split("/")[1] in allowed[side], f"{name} imports {target}"

    def test_every_kind_of_import_counts(self) -> None:
        """Static, side-effect and dynamic imports, over several lines, are all read."""
        source = 'import {\n  a,\n} from "./a.js";\nimport "../b.js";\nawait import("./c.js");'
        assert JS_IMPORT.findall(source) == ["./a.js", "../b.js", "./c.js"]
        graph = page_import_graph()
        assert "app/worker/snapshot.js" in graph["app/worker/worker.js"]
        assert "i18n/en.js" in graph["app/page/i18n.js"]


@pytest.mark.site
class TestSiteBundles:
    """The site's modules are build.py's bundles of these, and what the bundles leave out."""

    def test_the_page_loads_two_bundles(self) -> None:
        """Of the modules under app/, the site holds the two bundles and the two left out.

        boot.js stays a module of its own: index.html loads it alone, and a copy inside main.js
        would start a second worker.
        """
        site = page_import_graph(DIST)
        assert {name for name in site if name.startswith("app/")} == set(BUNDLES) | {
            "app/page/boot.js",
            "app/worker/snapshot.js",
        }
        assert "app/page/boot.js" in site["app/page/main.js"]
        boot = (DIST / "app" / "page" / "boot.js").read_text(encoding="utf-8")
        assert "function startWorker" in boot
        assert "function startWorker" not in (DIST / "app" / "page" / "main.js").read_text(
            encoding="utf-8"
        )
        assert site["app/worker/worker.js"] == {
            "pyodide/pyodide.mjs",
            "pyodide/pyodide.asm.mjs",
            "app/worker/snapshot.js",
        }

    def test_every_import_of_the_site_is_there(self) -> None:
        """Whatever a module of the site imports is a file of the site."""
        site = page_import_graph(DIST)
        for name, targets in site.items():
            assert all((DIST / target).is_file() for target in targets), name
        page = page_import_graph()
        assert {name for name in page if name.startswith("i18n/")} <= set(site)
