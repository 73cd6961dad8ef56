"""The start-up work, in a real Chromium: stdlib, preloads, service worker, snapshot.

The compiled stdlib, the page's preload taken by the worker, the service worker (the
whole site from its cache, a new build offered and taken, offline, subpaths) and the memory
snapshot.

Timings are not tested here; bench/bench_web.py and bench_network.py measure them
(docs/performance.md).
"""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import io
import json
import re
import shutil
import time
import tomllib
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from build import RUNTIME_JS, seal
from devtools.site_server import Cdn
from helpers import (
    BOARD_JS,
    BOOT_MS,
    DIST,
    ROOT,
    SNAPSHOT_JS,
    ContextFactory,
    Gate,
    boot,
    columns_of,
    engine_after,
    manifest,
    offline_copy_ready,
    poll,
    record_requests,
    serve_strictly,
    shown_columns,
    worker_marks,
)


def assert_board(page: Page, number: int, moves: list[str] | None = None) -> None:
    """Assert the board shows exactly the engine's deal `number` (after `moves`, if given)."""
    page.wait_for_selector(f"#board[data-deal='{number}']", timeout=BOOT_MS)
    if moves is None:
        assert shown_columns(page) == columns_of(number)
    else:
        assert shown_columns(page) == engine_after(number, moves)["cascades"]


STATUS_LOG_SCRIPT = """
window.__statuses = [];
new MutationObserver(() => {
  const line = document.getElementById("status");
  const text = line?.textContent;
  if (text !== undefined && text !== window.__statuses.at(-1)) window.__statuses.push(text);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""
BOARD_AND_READY_SCRIPT = """
new MutationObserver(() => {
  const shown = document.getElementById("board")?.dataset.deal !== undefined;
  if (window.__board === undefined && shown) window.__board = performance.now();
  if (window.__ready === undefined && document.documentElement.dataset.state === "ready") {
    window.__ready = performance.now();
  }
}).observe(document, { childList: true, subtree: true, attributes: true });
"""
FIRST_BOARD_SCRIPT = f"""
window.__columns = {BOARD_JS};
new MutationObserver(() => {{
  const columns = window.__columns();
  if (window.__first === undefined && columns.some((column) => column.length)) {{
    window.__first = columns;
  }}
}}).observe(document, {{ childList: true, subtree: true }});
"""


def swap_the_first_cascades(reply: dict[str, Any]) -> None:
    """Swap cascades 1 and 2: the 52 cards, each once, in another deal's order."""
    cascades = reply["game"]["cascades"]
    cascades[0], cascades[1] = cascades[1], cascades[0]


def put_an_unknown_card(reply: dict[str, Any]) -> None:
    """Write a card code no deck has."""
    reply["game"]["cascades"][0][0] = "ZZ"


def duplicate_a_card(reply: dict[str, Any]) -> None:
    """Put one card in two places (and lose another)."""
    cascade = reply["game"]["cascades"][0]
    cascade[0] = cascade[1]


def deal_five_thousand_cards(reply: dict[str, Any]) -> None:
    """Fill a cascade with 5,000 cards."""
    reply["game"]["cascades"][0] = ["AS"] * 5000


def claim_a_move(reply: dict[str, Any]) -> None:
    """Claim a move the address does not ask for (the cards as after it)."""
    reply["game"] = engine_after(617, ["8a"])


def misname_a_face(reply: dict[str, Any]) -> None:
    """Give the ace of spades a king's face."""
    reply["faces"]["AS"]["rank_index"] = 12


def add_a_field(reply: dict[str, Any]) -> None:
    """Swap cascades 1 and 2 (shown first, alone) and give the game a field Snapshot lacks."""
    swap_the_first_cascades(reply)
    reply["game"]["score"] = 0


PROGRESS = re.compile(r"^Downloading Python… (\d+)% \((\d+\.\d) of (\d+\.\d) MB\)$")


def now_ms(page: Page) -> float:
    """Return the page's clock as epoch milliseconds."""
    return float(page.evaluate("performance.timeOrigin + performance.now()"))


def answered(cdn: Cdn, start_ms: float, end_ms: float) -> list[str]:
    """Return the paths the server answered for requests it received between two times."""
    assert cdn.log is not None
    return [s.path for s in list(cdn.log) if start_ms / 1000 <= s.start <= end_ms / 1000]


def worker_resources(page: Page, value: str) -> dict[str, Any]:
    """Return, by URL, `value` (JavaScript of `entry`) of each resource timing of the worker."""
    [worker] = page.workers
    found: dict[str, Any] = worker.evaluate(
        "Object.fromEntries(performance.getEntriesByType('resource')"
        f".map((entry) => [entry.name, {value}]))"
    )
    return found


class FirstVisit(NamedTuple):
    """One first visit of the page, at deal 617 in a cold context (see `first_visit`)."""

    base: str
    """The URL of the site it visited, ending in '/'."""
    cdn: Cdn
    """The site's server, whose log lists every answer."""
    context: BrowserContext
    page: Page
    requested: list[str]
    """The URL of every request of the context, from its start."""
    console: list[str]
    """The page's console messages, from its start."""


@pytest.fixture(scope="module")
def first_visit(
    make_context: ContextFactory, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FirstVisit]:
    """Visit the page once in a cold context, for the tests that only watch a first visit.

    A cold context boots everything (downloads, compiles, micropip, the snapshot): about 7 s of
    CPU, once for these tests rather than once each. The site is a private copy of dist/ served
    as a CDN whose cache has always expired (as `cdn_site`'s), whose log lists every answer.
    """
    site = tmp_path_factory.mktemp("first-visit") / "site"
    shutil.copytree(DIST, site)
    cdn = Cdn(max_age=None, log=[])
    with serve_strictly(site, cdn=cdn) as base, make_context() as context:
        requested: list[str] = []
        context.on("request", lambda request: requested.append(request.url))
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        boot(page, f"{base}?deal=617")
        assert_board(page, 617)
        yield FirstVisit(base, cdn, context, page, requested, console)


class TestFirstVisit:
    """What a first visit downloads, when, and in what order its worker works.

    The first three watch one visit (`first_visit`); the first of them reads the site's log,
    so it comes before the third, whose repeat visit the log would list too.
    """

    def test_each_file_is_downloaded_once(self, first_visit: FirstVisit) -> None:
        """The page's preload starts the runtime's JavaScript, the worker takes it.

        Nothing is downloaded twice, not the preload, and nothing outside the manifest; and the
        browser does not warn that the preload went unused (it would, three seconds after the
        page's load event).
        """
        files = manifest()
        page, cdn = first_visit.page, first_visit.cdn
        since_load = page.evaluate(
            "performance.now() - performance.getEntriesByType('navigation')[0].loadEventEnd"
        )
        # The browser warns of an unused preload 3 s after the load event: a wait is the point.
        page.wait_for_timeout(max(0, 3500 - since_load))
        assert [text for text in first_visit.console if "preload" in text] == []
        assert cdn.log is not None
        counts = Counter(s.path.split("?")[0] for s in cdn.log if s.status == 200)
        assert [path for path, count in counts.items() if count > 1] == []
        for name in (files["wasm"], files["stdlib"], files["stdlib_later"], files["wheel"]):
            assert counts[f"/{name}"] == 1
        assert counts[f"/{RUNTIME_JS}"] == 1
        listed = {f"/{name}" for name in files["files"]} | {"/", "/manifest.json", "/sw.js"}
        assert set(counts) <= listed

    def test_what_the_start_does_not_need_waits_for_the_webassembly(
        self, first_visit: FirstVisit
    ) -> None:
        """The standard library's first zip downloads beside the WebAssembly; the rest after it.

        The second zip and the wheels are needed only once Python has started, which needs the
        WebAssembly whole: on a slow link they would delay it by their own bytes.
        """
        files, base = manifest(), first_visit.base
        timings = worker_resources(first_visit.page, "[entry.startTime, entry.responseEnd]")
        wasm_end = timings[base + files["wasm"]][1]
        assert timings[base + files["stdlib"]][0] < wasm_end
        for name in ("stdlib_later", "micropip", "wheel"):
            assert timings[base + files[name]][0] >= wasm_end, name

    def test_the_first_board_does_not_wait_for_the_snapshot(self, first_visit: FirstVisit) -> None:
        """The worker saves Python's memory once it has answered: the board comes first.

        The snapshot is then taken as usual, and the next visit (a new tab) resumes from it.
        Which of the page's render and the worker's snapshot ends first is up to the threads'
        scheduling (on a busy machine the page's thread may wait its turn); what the worker does
        is not: its reply is on its way before the snapshot begins.
        """
        page = first_visit.page
        poll(page, SNAPSHOT_JS)
        marks = worker_marks(page)
        assert marks["wheel-imported"] < marks["answered"] < marks["snapshot-taken"]
        again = first_visit.context.new_page()
        boot(again, f"{first_visit.base}?deal=617")
        assert_board(again, 617)
        marks = worker_marks(again)
        assert "snapshot-found" in marks
        assert "micropip-imported" not in marks
        again.close()

    def test_the_status_line_shows_the_download(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """While downloading, the status line counts up to 100%, then says Python is starting.

        Meanwhile the progress bar shows the fraction downloaded, over the table's empty frame,
        and the deal field shows the deal being opened.
        """
        with make_context() as context:
            page = context.new_page()
            page.add_init_script(STATUS_LOG_SCRIPT)
            gate = Gate()  # the WebAssembly waits until the page shows some progress
            page.route("**/pyodide.asm.wasm", gate)
            page.goto(f"{site_url}?deal=617")
            expect(page.locator("#status")).to_have_text(PROGRESS, timeout=BOOT_MS)
            assert page.locator("#status").get_attribute("aria-busy") is not None
            bar = page.locator("progress#progress")
            expect(bar).to_be_visible()
            fraction = bar.evaluate("(bar) => bar.position")  # -1 while it has no value
            assert 0 <= fraction < 1
            expect(page.locator("[data-freecell]")).to_have_count(4)
            expect(page.locator("#board [data-column]")).to_have_count(8)
            expect(page.locator("#deal")).to_have_value("617")
            gate.open()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            statuses: list[str] = page.evaluate("window.__statuses")
            expect(page.locator("#status")).to_have_text("")
            assert page.locator("#status").get_attribute("aria-busy") is None
        progress = [m for m in map(PROGRESS.match, statuses) if m]
        percents = [int(m[1]) for m in progress]
        assert len(percents) >= 2, statuses
        assert percents == sorted(percents)
        assert percents[0] < 100
        assert percents[-1] == 100
        assert progress[-1][2] == progress[-1][3]
        assert statuses.index("Starting Python…") > statuses.index(progress[-1][0])

    def test_a_wait_without_a_size_shows_a_moving_bar_only_after_a_second(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """Until the sizes are known the bar is hidden, for a second; then it moves.

        A moving bar is repainted every frame, on the CPU that Python's start needs: a wait
        shorter than that (a repeat visit's start) shows none.
        """
        with make_context() as context:
            page = context.new_page()
            gate = Gate()  # no manifest, so no sizes: the worker waits
            page.route("**/manifest.json", gate)
            page.goto(f"{site_url}?deal=617")
            expect(page.locator("#status")).not_to_have_text("")
            bar = page.locator("progress#progress")
            expect(bar).to_be_hidden()
            expect(bar).to_be_visible(timeout=5000)
            assert page.evaluate("performance.now()") >= 1000  # from the page's start
            assert bar.evaluate("(bar) => bar.position") == -1  # no value: it moves
            gate.open()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


@pytest.fixture(scope="module")
def _returning(make_profile: ContextFactory) -> Iterator[BrowserContext]:
    with make_profile() as context:
        yield context


@pytest.fixture
def returning(_returning: BrowserContext) -> Iterator[BrowserContext]:
    """Return the module's context for repeat visits to site_url; its pages close after the test.

    A browser profile on disk (`make_profile`), as a player's: repeat visits find the code V8
    compiled. Each test of a repeat visit begins with a visit of its own
    (`visit_with_snapshot`): the first such test's is a first visit, the later ones' repeat
    visits, which are quicker.
    """
    yield _returning
    for page in _returning.pages:
        page.close()
    _returning.set_offline(False)


class TestAppShell:
    def test_a_repeat_visit_asks_only_for_updates(
        self, make_context: ContextFactory, cdn_site: tuple[str, Path, Cdn]
    ) -> None:
        """With the HTTP cache expired, a repeat visit's only request before the board is sw.js.

        The worker's resource timing says where its runtime came from: the WebAssembly from the
        browser's HTTP cache ("cache"), whose copy has its compiled code, though expired; the
        standard library from the build's cache ("cache-storage").
        """
        base, _, cdn = cdn_site
        files = manifest()
        with make_context() as context:
            page = context.new_page()
            visit_with_snapshot(page, f"{base}?deal=617")
            page.close()
            again = context.new_page()
            started = time.time() * 1000
            boot(again, f"{base}?deal=1")
            assert_board(again, 1)
            requests = answered(cdn, started, now_ms(again))
            delivered = worker_resources(again, "entry.deliveryType")
        assert set(requests) <= {"/sw.js"}, requests
        assert delivered[base + files["wasm"]] == "cache", delivered
        assert delivered[base + files["stdlib"]] == "cache-storage", delivered

    def test_a_repeat_visit_shows_the_remembered_board_first(
        self, returning: BrowserContext, site_url: str
    ) -> None:
        """The same address again: its board is out before Python is, and is Python's board."""
        page = returning.new_page()
        visit_with_snapshot(page, f"{site_url}?deal=617&moves=5a")
        page.close()
        again = returning.new_page()
        again.add_init_script(BOARD_AND_READY_SCRIPT)
        boot(again, f"{site_url}?deal=617&moves=5a")
        board, ready = again.evaluate("[window.__board, window.__ready]")
        assert board < ready
        assert_board(again, 617, ["5a"])
        again.locator("[data-action=undo]").click()
        expect(again.locator("#board")).to_have_attribute("data-moves", "")

    def test_a_bad_remembered_board_is_ignored(
        self, returning: BrowserContext, site_url: str
    ) -> None:
        """Whatever the storage holds, the page shows Python's board (and throws nothing).

        Each bad value is stored under the key the page itself remembered its opening with,
        then the page is opened again; one visit, then a reload for each value.
        """
        stored = [
            "{",
            '"text"',
            '[{"build": "BUILD", "key": KEY, "reply": {"ok": true, "game": {"cascades": 5}}}]',
            '[{"build": "BUILD", "key": KEY, "reply": {"ok": true, "game": {"cascades": [[]]}}}]',
            "[null, 1]",
        ]
        page = returning.new_page()
        visit_with_snapshot(page, f"{site_url}?deal=617")
        remembered = page.evaluate("() => localStorage.getItem('freecell.openings')")
        key = json.loads(remembered)[0]["key"]
        for bad in stored:
            value = bad.replace("BUILD", manifest()["build"]).replace("KEY", json.dumps(key))
            page.evaluate("(value) => localStorage.setItem('freecell.openings', value)", value)
            page.reload()
            html = page.locator("html")
            expect(html).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)

    def test_a_tampered_remembered_reply_gives_way_to_python(
        self, returning: BrowserContext, site_url: str
    ) -> None:
        """A remembered reply that is not Python's is refused, or replaced once Python answers.

        A reply with known, distinct cards in another order (two cascades swapped) cannot be
        told from the deal's without Python: it is shown first, then Python's board replaces it
        (and Hint answers for that board). Every other tampered reply is refused before it is
        shown. One visit, then a reload for each tampered reply.
        """
        tampers = [
            (swap_the_first_cascades, True),
            (put_an_unknown_card, False),
            (duplicate_a_card, False),
            (deal_five_thousand_cards, False),
            (claim_a_move, False),
            (misname_a_face, False),
            (add_a_field, False),
        ]
        page = returning.new_page()
        page.add_init_script(FIRST_BOARD_SCRIPT)
        visit_with_snapshot(page, f"{site_url}?deal=617")
        python_says = page.evaluate("() => localStorage.getItem('freecell.openings')")
        for tamper, shown_first in tampers:
            entries = json.loads(python_says)
            tamper(entries[0]["reply"])
            page.evaluate(
                "(value) => localStorage.setItem('freecell.openings', value)", json.dumps(entries)
            )
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            poll(
                page,
                "(expected) => JSON.stringify(window.__columns()) === JSON.stringify(expected)",
                columns_of(617),
            )
            page.wait_for_timeout(200)  # and it stays
            assert_board(page, 617)
            first = page.evaluate("window.__first")
            assert (first != columns_of(617)) is shown_first, (tamper.__name__, first)
            if shown_first:
                page.locator("[data-action=hint]").click()
                expect(page.locator("#board")).to_have_attribute("data-solvable", "yes")

    def test_a_new_build_is_offered_then_taken_by_every_tab(
        self, make_context: ContextFactory, cdn_site: tuple[str, Path, Cdn]
    ) -> None:
        """A new build waits in the background; its notice's Reload switches every tab to it.

        The game in progress (its moves are in the address) is still there after the reload,
        and every file the pages then use is the new build's.
        """
        base, site, _ = cdn_site
        url = f"{base}?deal=1&moves=5a"
        with make_context() as context:
            first = context.new_page()
            visit_with_snapshot(first, url)
            second = context.new_page()
            boot(second, url)
            assert second.evaluate("() => navigator.serviceWorker.controller !== null")
            # The new build: a changed page and a changed module, sealed as build.py does.
            page = site / "index.html"
            page.write_text(
                page.read_text().replace("</head>", '<meta name="x-build" content="two">\n</head>')
            )
            module = site / "app" / "page" / "main.js"
            module.write_text(module.read_text() + "// build two\n")
            build = seal(site, json.loads((site / "manifest.json").read_text()))["build"]
            first.evaluate(
                "() => navigator.serviceWorker.getRegistration().then((r) => r.update())"
            )
            for tab in (first, second):
                expect(tab.locator("#update")).to_be_visible(timeout=BOOT_MS)
                expect(tab.locator("#update")).to_contain_text(
                    "A new version of this page is ready."
                )
                assert tab.locator("meta[name=x-build]").count() == 0
                assert tab.evaluate("() => document.getElementById('board').dataset.moves") == "5a"
            with first.expect_navigation(), second.expect_navigation():
                first.locator("[data-action=update]").click()
            for tab in (first, second):
                expect(tab.locator("html")).to_have_attribute(
                    "data-state", "ready", timeout=BOOT_MS
                )
                expect(tab.locator("meta[name=x-build]")).to_have_count(1)
                assert tab.url == url
                expect(tab.locator("#board")).to_have_attribute("data-moves", "5a")
                expect(tab.locator("#update")).to_be_hidden()
                assert tab.evaluate("() => caches.keys()") == [f"freecell-{build}"]
                assert (
                    tab.evaluate(
                        "() => fetch('manifest.json').then((r) => r.json()).then((m) => m.build)"
                    )
                    == build
                )
                assert tab.evaluate(
                    "() => fetch('app/page/main.js').then((r) => r.text())"
                ).endswith("// build two\n")
            builds = first.evaluate(
                "() => JSON.parse(localStorage.getItem('freecell.openings')).map((o) => o.build)"
            )
            assert set(builds) == {build}


def wheel_files(path: Path) -> dict[str, bytes]:
    """Return the files of the wheel at `path`, by name."""
    with zipfile.ZipFile(path) as wheel:
        return {name: wheel.read(name) for name in wheel.namelist()}


def check_compiled(page: dict[str, bytes], original: dict[str, bytes]) -> None:
    """Check that `page` holds `original`'s modules compiled and its other files unchanged.

    Each module is a sourceless ``.pyc`` (no source date or size to check in its header); every
    other file is the original's, byte for byte; the RECORD names exactly the files, with their
    hashes and sizes.
    """
    (record,) = (name for name in page if name.endswith(".dist-info/RECORD"))
    for name, data in page.items():
        if name.endswith(".pyc"):
            assert name.removesuffix("c") in original
            assert data[4:16] == bytes(12), name
        elif name != record:
            assert data == original[name], name
    listed = {}
    for line in page[record].decode().splitlines():
        name, hashed, size = line.split(",")
        listed[name] = (hashed, size)
    assert set(listed) == set(page)
    for name, data in page.items():
        if name != record:
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert listed[name] == (f"sha256={digest.decode()}", str(len(data)))


class TestSiteWheels:
    def test_the_page_wheel_is_the_library_compiled_less_the_command_line(self) -> None:
        """The site's wheel is the library's, compiled, less the command line.

        The page never runs the command line, and `freecell analyze` needs Dask and pyarrow,
        which Pyodide has not: those bytes stay off the wire. Every module of the rest is there,
        compiled to bytecode (in the runtime itself, at build time: see compile_python.mjs).
        """
        extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "optional-dependencies"
        ]["analyze"]
        needs = {re.split(r"[=<>~!\[ ]", requirement)[0] for requirement in extra}
        (library,) = (ROOT / "build" / "wheel").glob("freecell_deals-*.whl")
        original = wheel_files(library)
        page = wheel_files(DIST / manifest()["wheel"])

        def imports(source: bytes) -> set[str]:
            found = set()
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Import):
                    found |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module.split(".")[0])
            return found

        command_line = {
            name
            for name in original
            if name.startswith("freecell/_cli/")
            or name in {"freecell/__main__.py", "_freecell_command.py"}
            or name.endswith(".dist-info/entry_points.txt")
        }
        analyze = {
            name for name in original if name.endswith(".py") and imports(original[name]) & needs
        }
        assert analyze, f"no module of the library imports {needs}: nothing to leave out"
        assert analyze <= command_line
        kept = set(original) - command_line
        assert set(page) == {name + "c" if name.endswith(".py") else name for name in kept}
        check_compiled(page, original)

    def test_micropip_is_compiled(self) -> None:
        """The site's micropip is the wheel the runtime's lock names, its modules compiled.

        Of its modules, those the page's boot imports; the page uses micropip to install one
        wheel from a file, and the build checks that the result does.
        """
        files = manifest()
        page = wheel_files(DIST / files["micropip"])
        original = wheel_files(ROOT / "build" / "micropip" / Path(files["micropip"]).name)
        assert "micropip/__init__.pyc" in page
        assert not [name for name in page if name.endswith(".py")]
        check_compiled(page, original)


def site_zip(key: str) -> zipfile.ZipFile:
    """Return one of the site's standard library zips (manifest key), which it serves gzipped."""
    return zipfile.ZipFile(io.BytesIO(gzip.decompress((DIST / manifest()[key]).read_bytes())))


class TestCompiledStdlib:
    def test_the_zip_holds_only_bytecode(self) -> None:
        """The page's stdlib is what it imports, compiled (legacy `.pyc` layout), nothing else.

        The stock runtime's source-only zip and its packages' lock file are not in the site;
        nor is ssl, which Python's start imports only if it is there (asyncio).
        """
        files = manifest()
        assert re.fullmatch(r"stdlib/[0-9a-f]{12}/python_stdlib\.zip\.gz", files["stdlib"])
        assert not (DIST / "pyodide" / "python_stdlib.zip").exists()
        assert not (DIST / "pyodide" / "pyodide-lock.json").exists()
        with site_zip("stdlib") as stdlib:
            names = set(stdlib.namelist())
        for module in ("encodings/__init__", "json/__init__", "re/__init__", "typing"):
            assert f"{module}.pyc" in names
        assert {name for name in names if not name.endswith(".pyc")} == set()
        for unused in ("unittest/__init__.pyc", "doctest.pyc", "sqlite3/__init__.pyc", "ssl.pyc"):
            assert unused not in names

    def test_the_zips_are_stored_and_served_gzipped(self) -> None:
        """Members stored, the whole file gzipped: fewer bytes than deflated members.

        zipimport then reads each module as it is, with no inflating in WebAssembly while
        Python starts; the worker inflates the file as it arrives.
        """
        for key in ("stdlib", "stdlib_later"):
            with site_zip(key) as part:
                members = part.infolist()
                assert {member.compress_type for member in members} == {zipfile.ZIP_STORED}
                deflated = io.BytesIO()
                with zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as again:
                    for member in members:
                        again.writestr(member.filename, part.read(member), compresslevel=9)
            assert (DIST / manifest()[key]).stat().st_size < len(deflated.getvalue())

    def test_what_the_start_does_not_import_is_a_zip_of_its_own(self) -> None:
        """The modules only the page's boot imports after Python's start: a second zip.

        Split by top-level package (a package's modules are found only where it is), so the
        two zips share none; micropip's `tarfile` is in the second, the codecs in the first,
        and nothing of the build's own in either (its first runtime's `sitecustomize`).
        """
        files = manifest()
        pattern = r"stdlib/[0-9a-f]{12}/python_stdlib_later\.zip\.gz"
        assert re.fullmatch(pattern, files["stdlib_later"])
        tops = []
        for key in ("stdlib", "stdlib_later"):
            with site_zip(key) as part:
                names = set(part.namelist())
            assert {name for name in names if not name.endswith(".pyc")} == set()
            tops.append({name.split("/")[0].removesuffix(".pyc") for name in names})
        first, later = tops
        assert first & later == set()
        assert "tarfile" in later  # micropip's
        assert {"encodings", "importlib", "pyodide"} <= first
        assert "sitecustomize" not in first | later
        assert first.isdisjoint({"ssl", "_ssl"})  # left out, and what only ssl imports

    def test_the_page_loads_the_compiled_stdlib(self, first_visit: FirstVisit) -> None:
        """The page downloads the compiled stdlib, not the stock one, and deals with it.

        micropip comes from the site (the version Pyodide's lock names), no lock file at all.
        (Watched in TestFirstVisit's visit.)
        """
        base, requested = first_visit.base, first_visit.requested
        assert f"{base}{manifest()['stdlib']}" in requested
        installers = {url for url in requested if "micropip" in url}
        assert installers == {f"{base}{manifest()['micropip']}"}
        assert not [url for url in requested if url.endswith("-lock.json")]

    def test_a_host_may_send_the_zips_inflated(
        self, make_context: ContextFactory, site_url: str
    ) -> None:
        """A host that serves `.gz` with `Content-Encoding: gzip` has the browser inflate it.

        The worker then gets a zip where it expects gzip, and takes it as it is. (The service
        worker, installing once Python is ready, may ask for them again.)
        """
        inflated: list[str] = []

        def as_zip(key: str) -> Callable[[Route], None]:
            def fulfill(route: Route) -> None:
                inflated.append(key)
                body = gzip.decompress((DIST / manifest()[key]).read_bytes())
                route.fulfill(status=200, body=body, content_type="application/zip")

            return fulfill

        with make_context() as context:
            for key in ("stdlib", "stdlib_later"):
                context.route(f"{site_url}{manifest()[key]}", as_zip(key))
            page = context.new_page()
            boot(page, f"{site_url}?deal=617")
            assert_board(page, 617)
        assert set(inflated) == {"stdlib", "stdlib_later"}


def plays_offline(context: BrowserContext, page: Page, scope: str, deal: int) -> None:
    """Check that the service worker's scope is `scope` and that offline `deal` and Next work."""
    registered = page.evaluate(
        "() => navigator.serviceWorker.getRegistration().then((r) => r.scope)"
    )
    assert registered == scope
    context.set_offline(True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    assert_board(page, deal)
    page.locator("[data-action=next]").click()
    assert_board(page, deal + 1)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")


class TestServiceWorker:
    def test_second_visit_works_offline(self, returning: BrowserContext, site_url: str) -> None:
        """After one visit the site works offline (at the root; under a subpath, see below).

        In the module's context for repeat visits.
        """
        page = returning.new_page()
        boot(page, f"{site_url}?deal=617")
        assert_board(page, 617)
        offline_copy_ready(page)
        plays_offline(returning, page, site_url, 617)

    def test_subpath_requests_stay_under_it(
        self, make_context: ContextFactory, subpath_url: str
    ) -> None:
        """From a subpath, the first and the repeat visit request nothing outside it.

        And the page keeps its address there: Next opens the next deal under the subpath. Then
        offline, the site works there too (its service worker's scope is the subpath). One
        cold context for both: a first visit costs about 7 s of CPU.
        """
        with make_context() as context:
            requested = record_requests(context)
            page = context.new_page()
            boot(page, f"{subpath_url}?deal=617")
            offline_copy_ready(page)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)
            page.locator("[data-action=next]").click()
            assert_board(page, 618)
            expect(page).to_have_title("FreeCell deal #618")
            assert page.url == f"{subpath_url}?deal=618"
            plays_offline(context, page, subpath_url, 618)
        assert requested
        assert [url for url in requested if not url.startswith(subpath_url)] == []


DAMAGE_JS = """async (damage) => {
    const url = new URL("snapshot.bin", location.href).href;
    const names = await caches.keys();
    for (const name of names) {
        const cache = await caches.open(name);
        const saved = await cache.match(url);
        if (!saved) continue;
        const layout = JSON.parse(saved.headers.get("x-snapshot-layout"));
        const bytes = new Uint8Array(await saved.arrayBuffer());
        // "zeros": the right size, nothing in it; "truncated": half the bytes the layout says;
        // "layout": the bytes, with a layout that is no JSON.
        const body = damage === "zeros"
            ? new Uint8Array(bytes.length)
            : damage === "truncated" ? bytes.subarray(0, bytes.length >> 1) : bytes;
        const headers = new Headers(saved.headers);
        if (damage === "layout") headers.set("x-snapshot-layout", "{");
        await cache.put(url, new Response(body, { headers }));
        return layout.memory;
    }
    return 0;
}"""
SNAPSHOT_SIZE_JS = """async () => {
    const saved = await caches.match(new URL("snapshot.bin", location.href).href);
    if (!saved) return null;
    const layout = JSON.parse(saved.headers.get("x-snapshot-layout"));
    const bytes = new Uint8Array(await saved.arrayBuffer());
    const expected = [...layout.pages, ...layout.files].reduce((sum, [, size]) => sum + size, 0);
    return { complete: bytes.length === expected, nonzero: bytes.subarray(0, 64).some(Boolean) };
}"""


def visit_with_snapshot(page: Page, url: str) -> None:
    """Visit, wait for the snapshot in the cache and the service worker in charge."""
    boot(page, url)
    poll(page, SNAPSHOT_JS)
    offline_copy_ready(page)


class TestSnapshot:
    def test_a_repeat_visit_resumes_python(self, returning: BrowserContext, site_url: str) -> None:
        """The second visit resumes Python from the snapshot: no wheel, same play."""
        files = manifest()
        page = returning.new_page()
        visit_with_snapshot(page, f"{site_url}?deal=617")
        requested = record_requests(returning)
        boot(page, f"{site_url}?deal=1&moves=5a")
        page.wait_for_selector("#board[data-moves='5a']", timeout=BOOT_MS)
        page.locator("[data-action=undo]").click()
        page.wait_for_selector("#board[data-moves='']")
        assert_board(page, 1)
        page.locator("[data-action=next]").click()
        assert_board(page, 2)
        page.wait_for_timeout(500)  # a loading stage reported late would show by now
        expect(page.locator("#status")).to_have_text("")
        assert f"{site_url}{files['stdlib']}" in requested
        for name in ("stdlib_later", "wheel"):  # the first with the snapshot's files
            assert f"{site_url}{files[name]}" not in requested

    def test_a_damaged_snapshot_is_replaced(self, returning: BrowserContext, site_url: str) -> None:
        """A snapshot that cannot be restored: Python boots as on a first visit and saves anew.

        Each kind of damage in turn, done to the snapshot saved after the one before.
        """
        files = manifest()
        page = returning.new_page()
        visit_with_snapshot(page, f"{site_url}?deal=617")
        requested = record_requests(returning)
        for damage in ("zeros", "truncated", "layout"):
            assert page.evaluate(DAMAGE_JS, damage) > 0, damage
            requested.clear()
            page.reload()
            html = page.locator("html")
            expect(html).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
            assert_board(page, 617)
            saved = f"({SNAPSHOT_SIZE_JS})().then((found) => found?.complete && found.nonzero)"
            poll(page, saved)
            assert f"{site_url}{files['wheel']}" in requested, damage
            assert f"{site_url}{files['stdlib_later']}" in requested, damage
