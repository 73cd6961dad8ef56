"""The library runs unchanged on Pyodide's Python 3.14 (under Node.js, from the built wheel).

Also with the site's own runtime and Python (dist/: its WebAssembly without the exports the page
cannot call, and only the Python the page imports, compiled): every request of the page's API
answers there as it does in CPython.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import freecell
from helpers import DIST, GOLDEN_1_32000, ROOT, SOLUTIONS, manifest

RUNTIME = ROOT / "web" / "node_modules" / "pyodide"
WON = (617, 22)
"""The deals whose committed fc-solve solutions are replayed in Pyodide; 22's has a hex count."""

HERE = Path(__file__).resolve().parent
"""This folder, which holds the scripts that run inside Pyodide."""


def run_node(node: str, script: str, *args: Path | str) -> Any:
    """Run one of the tests' Node.js scripts; return the JSON its last line prints."""
    result = subprocess.run(
        [node, HERE / script, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]  # the runtime prints its whole source
    return json.loads(result.stdout.splitlines()[-1])


def node_and_wheel() -> tuple[str, Path]:
    """Return Node.js and the built wheel; fail, saying what to run, if either is missing."""
    node = shutil.which("node")
    wheels = sorted((ROOT / "build" / "wheel").glob("freecell_deals-*.whl"))
    if node is None or not (RUNTIME / "pyodide.mjs").exists() or len(wheels) != 1:
        pytest.fail("needs Node.js, web/node_modules (npm ci) and the wheel: run python3 build.py")
    return node, wheels[0]


@pytest.fixture(scope="module")
def pyodide_result() -> dict[str, Any]:
    """Run the checks once in Pyodide and return what they found."""
    node, wheel = node_and_wheel()
    checks = HERE / "pyodide_checks.py"
    solutions = [SOLUTIONS / f"{number}.txt" for number in WON]
    result: dict[str, Any] = run_node(node, "pyodide_run.mjs", RUNTIME, wheel, checks, *solutions)
    return result


@pytest.mark.site
class TestOnPyodide:
    @pytest.mark.slow
    def test_runs_on_python_3_14(self, pyodide_result: dict[str, object]) -> None:
        """The runtime is Pyodide's Python 3.14."""
        assert pyodide_result["version"] == [3, 14]

    def test_golden_digest(self, pyodide_result: dict[str, object]) -> None:
        """Deals 1..32000 dealt in Pyodide hash to pysol-cards' digest."""
        assert pyodide_result["digest"] == GOLDEN_1_32000

    def test_doctests(self, pyodide_result: dict[str, object]) -> None:
        """Every docstring example passes in Pyodide."""
        assert pyodide_result["doctest_failures"] == 0

    def test_solutions_replay_to_a_win(self, pyodide_result: dict[str, object]) -> None:
        """fc-solve's solutions of deals 617 and 22 (a run written 82vc) win in Pyodide."""
        assert pyodide_result["won"] == {str(n): True for n in WON}

    def test_solver_wins(self, pyodide_result: dict[str, object]) -> None:
        """Our solver's solution of deal 1000, found in Pyodide, wins there."""
        assert pyodide_result["solver_won"] is True


WEB_CHECKS = HERE / "pyodide_web_checks.py"


@pytest.mark.site
class TestSitePython:
    """The site's standard library and compiled wheel are enough for what the page asks."""

    @staticmethod
    def run_on_site_python(script: Path) -> Any:
        """Run a script under Node.js in the site's runtime, stdlib and wheel; return its JSON.

        The site's runtime is its own: its WebAssembly lacks the exports the page cannot call
        (build.py's shrink_runtime).
        """
        node, _ = node_and_wheel()
        return run_node(node, "pyodide_run.mjs", DIST, DIST / manifest()["wheel"], script)

    @pytest.mark.slow
    def test_every_request_answers_as_in_cpython(self) -> None:
        """Each request of the page's API, refusals included, replies as CPython's does."""
        in_pyodide = self.run_on_site_python(WEB_CHECKS)
        result = subprocess.run(
            [sys.executable, WEB_CHECKS], capture_output=True, text=True, check=True
        )
        in_cpython = json.loads(result.stdout)
        assert len(in_pyodide) > 40
        assert in_pyodide == in_cpython

    @pytest.mark.slow
    def test_a_traceback_into_the_standard_library(self) -> None:
        """Each frame of the site's compiled standard library has its file, function and line.

        Its line is the function's first (one line a function: compile_python.py), so a
        traceback names where it went; Pyodide formats one for every Python error it hands
        to JavaScript.
        """
        result = self.run_on_site_python(HERE / "pyodide_traceback_checks.py")
        frames = result["frames"]
        assert [name for _, name, _ in frames[1:]] == ["loads", "decode", "raw_decode"]
        for filename, _, line in frames[1:]:
            assert filename.startswith("/lib/python314.zip/json/")
            assert isinstance(line, int)
            assert line > 1
        assert "json.decoder.JSONDecodeError: Expecting property name" in result["formatted"]


def function_exports(wasm: Path) -> set[str]:
    """Return the names of the functions a WebAssembly module exports (its export section)."""
    data = wasm.read_bytes()

    def leb(at: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = data[at]
            value, shift, at = value | (byte & 0x7F) << shift, shift + 7, at + 1
            if byte < 0x80:
                return value, at

    at = 8  # after the magic number and the version
    while at < len(data):
        section, (size, at) = data[at], leb(at + 1)
        if section == 7:  # the export section: names, each with a kind and an index
            count, at = leb(at)
            names = set()
            for _ in range(count):
                length, at = leb(at)
                name, kind = data[at : at + length].decode(), data[at + length]
                _, at = leb(at + length + 1)
                if kind == 0:
                    names.add(name)
            return names
        at += size
    return set()


class TestSiteRuntime:
    """The site's WebAssembly is Pyodide's without what only a shared library could call."""

    @pytest.mark.site
    def test_every_export_the_runtime_calls_is_there(self) -> None:
        """Each export the runtime's JavaScript calls or reads by name is in the site's copy.

        Found here by its call sites (`_name(`, `Module._name`, `Module["_name"]`), not by
        the words shrink_wasm.mjs keeps; and the site's copy lacks most of the others.
        """
        glue = (RUNTIME / "pyodide.asm.mjs").read_text()
        assigned = re.search(r"function assignWasmExports\(wasmExports\)\{([^}]*)\}", glue)
        assert assigned is not None
        rest = glue[: assigned.start()] + glue[assigned.end() :]
        exported = set(re.findall(r'wasmExports\["(\w+)"\]', assigned.group(1)))
        sites = r'(?<![\w$.])_(\w+)\(|Module\._(\w+)|Module\["_(\w+)"\]'
        called = {name for match in re.findall(sites, rest) for name in match} & exported
        stock = function_exports(RUNTIME / "pyodide.asm.wasm")
        site = function_exports(DIST / manifest()["wasm"])
        assert len(called & stock) > 100  # malloc, PyDict_New, Py_IncRef ...
        assert called & stock <= site
        assert len(site) < len(stock) / 10

    def test_the_page_reaches_the_runtime_only_through_its_api(self) -> None:
        """No page module calls the WebAssembly's exports (`pyodide._module`) itself.

        shrink_wasm.mjs keeps the exports that the runtime's JavaScript names, not the page's.
        """
        for module in (ROOT / "web" / "src").rglob("*.js"):
            assert "_module" not in module.read_text(), module


@pytest.fixture(scope="module")
def snapshot_result() -> dict[str, Any]:
    """Round-trip a memory snapshot through the page's snapshot.js under Node.js, once."""
    node = shutil.which("node")
    if node is None or not (DIST / "manifest.json").exists():
        pytest.fail("needs Node.js and dist/: run python3 build.py")
    result: dict[str, Any] = run_node(node, "pyodide_snapshot.mjs", DIST)
    return result


@pytest.mark.site
class TestSnapshot:
    """What the page's worker does on a repeat visit, with the built site's own files."""

    def test_python_resumes_with_the_dealer(self, snapshot_result: dict[str, Any]) -> None:
        """The resumed runtime deals and plays, and its session is its own."""
        assert snapshot_result["taken"] is True
        assert snapshot_result["version"] == [3, 14]
        assert snapshot_result["first_cascade"] == ["7D", "TD", "TH", "KD", "4C", "4S", "JD"]
        assert snapshot_result["moves"] == ["5a"]  # warm_up left the session's game alone

    def test_only_pages_with_data_are_stored(self, snapshot_result: dict[str, Any]) -> None:
        """The stored snapshot leaves out the memory's pages of zeros, and reads back whole."""
        assert snapshot_result["same_memory"] is True
        assert snapshot_result["stored"] < snapshot_result["memory"] * 0.7

    def test_site_packages_come_back(self, snapshot_result: dict[str, Any]) -> None:
        """The installed wheel's files are restored with the memory, metadata included."""
        assert snapshot_result["dealer_version"] == freecell.__version__
        assert snapshot_result["dealer_file_exists"] is True
        files = snapshot_result["files"]
        assert any(path.endswith("/freecell/_web/session.pyc") for path in files)
        assert any(path.endswith(".dist-info/METADATA") for path in files)

    def test_the_second_stdlib_zip_comes_back(self, snapshot_result: dict[str, Any]) -> None:
        """The standard library's second zip is restored with the files: its modules import."""
        assert snapshot_result["later_stdlib"] == "/lib/python_stdlib_later.zip"

    def test_no_installer_in_the_snapshot(self, snapshot_result: dict[str, Any]) -> None:
        """micropip installed the wheel, and is gone from the resumed runtime."""
        assert snapshot_result["micropip_imported"] is False


def test_node_imports_the_page_modules_without_a_warning() -> None:
    """The build's Node.js tools import the page's modules (snapshot.js) without a warning.

    web/package.json says its .js files are ES modules; without it Node.js warns on every build
    (MODULE_TYPELESS_PACKAGE_JSON) and parses each module twice.
    """
    node = shutil.which("node")
    if node is None:
        pytest.fail("needs Node.js")
    module = (ROOT / "web" / "src" / "app" / "worker" / "snapshot.js").as_uri()
    result = subprocess.run(
        [node, "--input-type=module", "-e", f"await import({json.dumps(module)});"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
