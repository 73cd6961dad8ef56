"""What several test modules share: paths, the committed solutions, and driving the page."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import strategies as st
from playwright.sync_api import (
    BrowserContext,
    Locator,
    Page,
    Request,
    Route,
    ViewportSize,
    expect,
)

from devtools import page as shared
from devtools.anchor import open_anchor
from devtools.site_server import Cdn, serve
from freecell import CARD_CODES, FORMATS, Game, Position, Solution, deal, format_deal, solve
from freecell._cli.replay import move_words
from freecell._min_cells import MIN_CELLS_FILE, MinCells, parse_min_cells

NO_FC_SOLVE = (
    "fc-solve is not on PATH. Install Debian's package (`sudo apt-get install "
    "freecell-solver-bin`) or build it from https://fc-solve.shlomifish.org/."
)


def fc_solve_finds_no_solution(position: Position, cells: int = 4) -> bool:
    """Tell whether fc-solve's complete scan over single-card moves (`-to 01ABCDE`) fails.

    `cells` is the number of free cells of the game (fc-solve's `--freecells-num`). A solution
    that fc-solve's fastest preset (`-l lg`) finds first answers as well: the complete scan
    would find one too, some in seconds where the preset takes milliseconds (deal 6016 with
    one cell: 10 s against 0.03 s). Fails the test, saying what to install, without fc-solve.
    """
    program = shutil.which("fc-solve")
    if program is None:
        pytest.fail(NO_FC_SOLVE, pytrace=False)
    return not any(
        _fc_solve_solves(program, position, cells, scan) for scan in (["-l", "lg"], COMPLETE)
    )


COMPLETE = ["-to", "01ABCDE"]
"""fc-solve's complete scan over single-card moves: when it fails, no solution exists."""


def _fc_solve_solves(program: str, position: Position, cells: int, scan: list[str]) -> bool:
    """Tell whether fc-solve, with these options for its scan, solves the position."""
    result = subprocess.run(
        [program, "--freecells-num", str(cells), *scan, "-m", "-snx", "-"],
        input=str(position) + "\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"},
    )
    assert "This game is solveable." in result.stdout or "I could not solve" in result.stdout
    return "This game is solveable." in result.stdout


ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WEB = ROOT / "web" / "src"
SOLUTIONS = ROOT / "tests" / "data" / "solutions"

BOOT_MS = shared.BOOT_MS
"""How long the first load may take (devtools.page's, which the benches share)."""
poll = shared.poll
"""Evaluate a script in the page until it returns something true (devtools.page's)."""
TIMEOUT_MS = 30_000
"""The default wait for one step."""
QUICK_PAR_DEAL = 3
"""A deal whose par comes soonest of 1..40 (its short search took 1.2 s of CPU in CPython, 617's
4.7 s, 2026-11-29): for the tests that wait for a par, not for one deal's."""

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}
PHONE_OPTIONS: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
"""A browser context's options for a 360 px touch phone."""
SIDEWAYS_OPTIONS: dict[str, Any] = {**PHONE_OPTIONS, "viewport": {"width": 740, "height": 360}}
"""The same phone turned sideways."""
DEVICES = [("desktop", {}), ("phone", PHONE_OPTIONS), ("phone-sideways", SIDEWAYS_OPTIONS)]
"""A desktop, the phone and the phone sideways: `(name, page options)` for parametrize."""
SCHEMES: tuple[Literal["light"], Literal["dark"]] = ("light", "dark")
"""The colour schemes each screenshot is taken in."""

ContextFactory = Callable[..., BrowserContext]
"""conftest's `make_context`: opens a watched browser context, for a `with` block."""
PageFactory = Callable[..., Page]
"""conftest's `pages`: opens a page in a warm browser context (see conftest.WarmContexts)."""

LOSING_MOVES = [(617, [], "3a"), (617, ["1a", "1b"], "1c"), (617, ["5a", "5b", "5c"], "5d")]
"""Moves that lose a winnable game: (deal, the moves before, the move that loses).

Found with the solver; test_the_fixtures_are_true checks each with fc-solve too."""

GOLDEN_1_32000 = "a06b93ff95c6307079f5e67938a5dcd1786b3469cc18cdf85919357bc4174a68"
"""sha256 of pysol-cards' fcs boards for deals 1..32000 concatenated, computed once."""

LANGUAGES = ["en", "pt", "es", "it", "ru", "zh-Hant"]
"""The page's languages, as web/src/app/page/i18n.js lists them."""
MIN_CELLS_TABLE = WEB / MIN_CELLS_FILE
"""The site's table of the fewest free cells."""
KNOWN = {1: 3, 164: 0, 617: 4, 11982: "impossible"}
"""Single deals whose fewest free cells are published."""


def shipped() -> dict[int, MinCells]:
    """Return the values of the site's table of the fewest free cells."""
    return parse_min_cells(MIN_CELLS_TABLE.read_text(encoding="ascii"))


BOARD_JS = """() => Array.from(document.querySelectorAll("#board [data-column]"),
    (column) => Array.from(column.querySelectorAll("[data-card]"), (card) => card.dataset.card))"""


WATCH_ANIMATIONS_JS = """() => {
    window.__animated = false;
    const watch = () => {
        if (document.getAnimations().length > 0) window.__animated = true;
        else requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
}"""
"""Set window.__animated once any animation runs in a frame from now on."""


def solution(number: int) -> list[str]:
    """Return the committed fc-solve solution of a deal as move tokens, first move first."""
    return list(move_words((SOLUTIONS / f"{number}.txt").read_text().splitlines()))


def engine_after(number: int, moves: list[str]) -> dict[str, Any]:
    """Return the engine's snapshot of deal `number` after `moves`, as plain values."""
    game = Game.from_deal_number(number)
    for move in moves:
        game.push(move)
    return dict(game.snapshot())


def columns_of(number: int) -> list[list[str]]:
    """Return the dealer's 8 columns of deal `number`, as card codes, first dealt card first."""
    return [[CARD_CODES[card] for card in column] for column in deal(number).columns]


def js_object(path: Path) -> dict[str, Any]:
    """Read an ES module whose default export is a JSON object (catalogues, rules.js)."""
    text = path.read_text(encoding="utf-8")
    body = text[text.index("export default ") + len("export default ") :].strip()
    value: dict[str, Any] = json.loads(body.removesuffix(";"))
    return value


def origin(url: str) -> str:
    """Return the origin (scheme://host:port) of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def manifest() -> dict[str, Any]:
    """Return the built site's manifest.json."""
    return dict(json.loads((DIST / "manifest.json").read_text()))


# --- the page -----------------------------------------------------------------------------------


boot = shared.boot


def link(site_url: str, number: int, moves: list[str] | None = None, **params: str) -> str:
    """Return the link to a game: deal `number` after `moves`, with any other parameters."""
    query = f"?deal={number}" + (f"&moves={','.join(moves)}" if moves else "")
    return site_url + query + "".join(f"&{name}={value}" for name, value in params.items())


OPEN_IN_PLACE_JS = shared.OPEN_IN_PLACE_JS


def open_in_place(page: Page, url: str, played: list[str] | None = None) -> None:
    """Open a link in the running page, as Back and Forward do, and wait until it is shown.

    That is its deal with its moves, or with `played` for a link whose moves are not all
    played. Much faster than `boot` (no reload, Python keeps running): for tests that look at
    games, not at how a page starts.
    """
    query = parse_qs(urlsplit(url).query)
    page.evaluate(OPEN_IN_PLACE_JS, url)
    board = page.locator("#board")
    moves = query.get("moves", [""])[0] if played is None else ",".join(played)
    expect(board).to_have_attribute("data-deal", query["deal"][0])
    expect(board).to_have_attribute("data-moves", moves)
    # The cards glide from where the last game left them: a click or drag lands where they end.
    poll(page, "() => document.getAnimations().length === 0", timeout_ms=TIMEOUT_MS)


def settle(page: Page) -> None:
    """Make a running page ready for the next test: nothing open or picked up, auto-play safe.

    Escape closes a dialog, puts a picked-up card down and stops Solve; the menu closes with
    its toggle. Tap-to-move is as the device starts it: on for a touch screen, off for a mouse.
    The live guard and the clock are on.
    """
    blur(page)
    for _ in range(2):
        page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("[aria-current]")).to_have_count(0)
    expect(page.locator("[data-action=solve]")).to_have_attribute("aria-pressed", "false")
    if page.locator("select#auto").input_value() != "safe":
        menu(page)
        page.locator("select#auto").select_option("safe")
    if not page.locator("input#live-check").is_checked():
        menu(page)
        page.locator("input#live-check").check()
    if not page.locator("input#show-timer").is_checked():
        menu(page)
        page.locator("input#show-timer").check()
    coarse = page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    if page.locator("input#tap-to-move").is_checked() != coarse:
        menu(page)
        page.locator("input#tap-to-move").set_checked(coarse)
    toggle = page.locator(".more-toggle")
    if toggle.get_attribute("aria-expanded") == "true":
        toggle.click()
    blur(page)


def moves_of(page: Page) -> list[str]:
    """Return the move tokens of the game on the board (#board[data-moves])."""
    text = page.locator("#board").get_attribute("data-moves") or ""
    return [token for token in text.split(",") if token]


def screenshot_path(config: pytest.Config, name: str) -> Path:
    """Where a screenshot artifact goes: test-results/NAME.png."""
    return config.rootpath / "test-results" / f"{name}.png"


def screenshot(target: Page | Locator, config: pytest.Config, name: str, **options: Any) -> None:
    """Save a screenshot of a page or an element as test-results/NAME.png, if asked for.

    Only with pytest's `--screenshots` (tests/conftest.py): they are for a person to look at,
    and nothing compares them, so a run that does not ask spends nothing on them.
    """
    if config.getoption("screenshots"):
        target.screenshot(path=screenshot_path(config, name), **options)


TRANSITIONS_END_JS = """() => {
    getComputedStyle(document.body).color;  // the new scheme's styles, and their transitions
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
    return Promise.all(transitions.map((transition) => transition.finished.catch(() => null)));
}"""
"""Wait until the transitions a change of style starts (the buttons' colours) have ended."""


def screenshots(page: Page, config: pytest.Config, name: str, **options: Any) -> None:
    """Take the page's screenshot in each colour scheme, if asked for: NAME-light.png, -dark.

    Only with `--screenshots` (see `screenshot`). Each waits for the colours' transitions to
    end. Keyword arguments go to `page.screenshot` (`full_page`, `scale`). The page stays dark.
    """
    if not config.getoption("screenshots"):
        return
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        page.evaluate(TRANSITIONS_END_JS)
        screenshot(page, config, f"{name}-{scheme}", **options)


def center(locator: Locator) -> tuple[float, float]:
    """Return the middle of an element's visible top strip (cards overlap below it)."""
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 10)


def mouse_drag(page: Page, source: Locator, target: Locator, steps: int = 10) -> None:
    """Drag with the mouse from the middle of `source` to just inside the top of `target`."""
    x, y = center(source)
    tx, ty = center(target)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(tx, ty + 20, steps=steps)
    page.mouse.up()


def shown_columns(page: Page) -> list[list[str]]:
    """Return the card codes of each `[data-column]` on the page, left to right, in DOM order."""
    return cast(list[list[str]], page.evaluate(BOARD_JS))


def content_security_policy(site: Path = DIST) -> str:
    """Return the Content-Security-Policy that a built page declares in its <meta> tag."""
    match = re.search(
        r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">',
        (site / "index.html").read_text(),
    )
    assert match is not None, f"{site}/index.html declares no Content-Security-Policy"
    return match.group(1)


def press(page: Page, action: str) -> None:
    """Click the `[data-action=...]` button, opening the "⋯" menu first if it is in there."""
    button = page.locator(f"[data-action={action}]")
    if not button.is_visible():
        page.locator(".more-toggle").click()
    button.click()


def menu(page: Page) -> None:
    """Open the "⋯" menu (the language, the auto-move setting and the rarer actions)."""
    toggle = page.locator(".more-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def set_auto(page: Page, mode: str) -> None:
    """Choose auto-play (`off`, `safe` or `all`) in the "⋯" menu's select#auto."""
    select = page.locator("select#auto")
    if select.input_value() != mode:
        menu(page)
        select.select_option(mode)
        page.keyboard.press("Escape")
    expect(select).to_have_value(mode)


def tap_to_move(page: Page, on: bool) -> None:
    """Turn the "⋯" menu's #tap-to-move on or off (on a phone it starts on), and close the menu."""
    menu(page)
    page.locator("input#tap-to-move").set_checked(on)
    page.locator(".more-toggle").click()


def blur(page: Page) -> None:
    """Move focus out of any control, so that keys go to the page's shortcuts."""
    page.evaluate("() => document.activeElement?.blur()")


class Gate:
    """A route handler that holds requests until it is opened, then lets them all through."""

    def __init__(self) -> None:
        self.opened = False
        self.held: list[Route] = []

    def __call__(self, route: Route) -> None:
        """Hold the request, or let it through once the gate is open."""
        if self.opened:
            route.continue_()
        else:
            self.held.append(route)

    def open(self) -> None:
        """Let the held requests, and any later ones, through."""
        self.opened = True
        for route in self.held:
            route.continue_()
        self.held.clear()


# --- fuzzing: text that may be a position, lines that may be moves ------------------------------

_BOARDS = [format_deal(deal(n), fmt) for n in (1, 617, -1) for fmt in FORMATS] + [
    str(Position.from_deal(deal(617)).apply("8a").apply("8b")),
]
_TOKENS = [
    "AS", "10D", "T♦", "KH", "ZZ", "Foundations:", "Freecells:", "H-5", "S-K", "C-", "-", ":",
    "#", " ", "    ", "\n", "\r\n", "\t", "{", "}", "[", "]", '"', ",", '"columns"', "NaN", "true",
    "null", "1e999", "-0", "\x00", "\x1b", "\u2028", "\ufeff", "\udcff", "9" * 50,
]  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
    | st.sampled_from(["AS", "KD", "TH", "10C", "2S"]),
    lambda inner: st.lists(inner, max_size=9)
    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=60,
)  # fmt: skip


@st.composite
def damaged_boards(draw: st.DrawFn) -> str:
    """Draw a board of some format with a few pieces cut out, swapped or inserted."""
    text = draw(st.sampled_from(_BOARDS))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        piece = draw(st.sampled_from(_TOKENS) | st.text(max_size=4))
        text = text[:at] + piece + text[at + cut :]
    return text


positions = st.one_of(  # for parse_position, `solve -` and `replay -`
    damaged_boards(),
    json_values.map(json.dumps),
    st.dictionaries(st.sampled_from(["columns", "rows", "number"]), json_values).map(json.dumps),
    st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join),
    st.text(),
)

_LINES = [
    "-=-=-=-=-=-=-=-=-=-=-=-", "", "8a 8b 8c 87 a2 c2 8d 8h 2a 2c ", "This game is solveable.",
    "Total number of states checked is 2624.", "This scan generated 17 states.", "Move: 5a ",
    "I could not solve this game.", "====================", ": JD KD 2S 4C 3S 6D 6S",
    "Foundations: H-0 C-0 D-0 S-0 ", "Freecells:  6C            ", " 6C       H-0 C-0 D-0 S-0",
    "617: 83 2a 21", "-: unknown", "# solved", "5a", "5b", "1z", "82vc", "36v3", "ah", "h1",
]  # fmt: skip
_MOVE_PIECES = ["5a", "5b", "1a", "82vc", "2h", " ", ",", "\x00", "\x1b", "\t", "\r", "zz", "9"]

move_lines = st.lists(  # for the move reader: fc-solve's output, moves, damage
    st.sampled_from(_LINES)
    | st.lists(st.sampled_from(_MOVE_PIECES), max_size=8).map("".join)
    | st.text(max_size=12),
    max_size=30,
).map(lambda lines: "".join(line + "\n" for line in lines))


# --- the service worker and the snapshot ---------------------------------------------------


ACTIVE_JS = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === "activated"
        && Boolean(await caches.match(new URL("index.html", registration.scope).href));
}"""


def offline_copy_ready(page: Page) -> None:
    """Wait until the service worker is active and serves this page's next visit.

    Chromium routes navigations to a just-activated service worker only a moment later, so the
    page is visited again (online) until the service worker controls it.
    """
    poll(page, ACTIVE_JS)
    for _ in range(10):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            return
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    pytest.fail("the service worker never took control of the page")


SNAPSHOT_JS = """async () =>
    Boolean(await caches.match(new URL("snapshot.bin", location.href).href))"""
"""Whether the page's memory snapshot is in the service worker's cache."""


def worker_marks(page: Page) -> dict[str, float]:
    """Return the page's Python worker's performance marks, as epoch milliseconds by name."""
    [worker] = page.workers
    marks: dict[str, float] = worker.evaluate(
        "Object.fromEntries(performance.getEntriesByType('mark')"
        ".map((mark) => [mark.name, performance.timeOrigin + mark.startTime]))"
    )
    return marks


# --- browsers, for the page's tests (tests/page/conftest.py makes the fixtures) -------------


def serve_strictly(
    directory: Path = DIST, prefix: str = "/", cdn: Cdn | None = None
) -> contextlib.AbstractContextManager[str]:
    """Serve a site (dist/) with build.serve, its Content-Security-Policy as a header too.

    So the worker and every script run under it, as strictly as any host could serve them.
    """
    headers = {"Content-Security-Policy": content_security_policy(directory)}
    return serve(directory, prefix=prefix, headers=headers, cdn=cdn)


@functools.cache
def short_solution(number: int) -> Solution:
    """Return freecell.solve(number, short=True), searched once a session (seconds)."""
    return solve(number, short=True)


def par_of(number: int) -> int:
    """Return deal `number`'s par: the player moves of its short solution."""
    return short_solution(number).player_moves


REMEMBERED_PARS = (1, 617)
"""The deals whose par the browser of a test's pages remembers, unless the test is marked
`pars_unknown`: the two that most page tests open. Their pars are `par_of`'s, searched once a
session in the test process, so that the pages show them at once, as to a player who played
them before, instead of searching them again behind every test (par's search was about a
quarter of the page tests' CPU: docs/performance-log.md). tests/page/test_par.py and the other
tests about the search or the stored pars see a browser that remembers none."""


def remembered_pars(request: pytest.FixtureRequest) -> dict[int, int]:
    """Return the pars that the browser of the requesting test's pages remembers.

    Those of REMEMBERED_PARS, unless the test (or its module) is marked `pars_unknown`.
    """
    if request.node.get_closest_marker("pars_unknown"):
        return {}
    return {number: par_of(number) for number in REMEMBERED_PARS}


def remember_pars(page: Page, pars: dict[int, int]) -> None:
    """Store pars in the page's browser as par.js keeps them, before the page first starts.

    Only while none is stored there (localStorage freecell.par): a test's own changes stay.
    Not in a document without storage of its own (about:blank, the browser's pages).
    """
    value = json.dumps(json.dumps([[str(deal), par] for deal, par in pars.items()]))
    page.add_init_script(
        "if (location.protocol.startsWith('http') "
        "&& localStorage.getItem('freecell.par') === null) "
        f"localStorage.setItem('freecell.par', {value})"
    )


CONTEXT_OPTIONS = frozenset({"is_mobile", "has_touch", "device_scale_factor"})
"""The options only a browser context can take; a warm context is kept for each set of them."""


class WarmContexts:
    """Browser contexts kept for the whole session, one per set of CONTEXT_OPTIONS.

    A cold context makes every page a first visit (download, compile, micropip, snapshot: about
    3 s); a warm one (a profile on disk: see `make_profile`) keeps its HTTP cache, service
    worker, snapshot and the code V8 compiled, so its later pages resume Python (1.2-1.5 s).
    Each also keeps an anchor page (devtools.anchor): the pages of a site share a renderer
    process, and the anchor keeps the runtime's WebAssembly compiled there, so each page's
    worker gets the code that earlier pages' Python optimised instead of optimising the
    interpreter again (about 0.4 s of CPU a page less: bench/bench_test_pages.py).
    What a test may leave behind goes before its first page opens: the sites' localStorage, the
    context's routes, permissions and offline mode, and any page still open. (A new page has
    its own sessionStorage.) The pages of one test in one context are tabs that see each
    other's storage. A test adds init scripts to its page, never to a warm context (they cannot
    be removed).
    """

    def __init__(
        self, make_context: ContextFactory, origins: list[str], anchor: tuple[str, str]
    ) -> None:
        self._make_context = make_context
        self._origins = origins
        self._anchor = anchor
        """The anchor page's URL and its WebAssembly's (devtools.anchor.serve_anchor)."""
        self._anchors: set[Page] = set()
        self._contexts: dict[str, BrowserContext] = {}
        self._in_use: set[str] = set()
        """The contexts the current test has used: reset before its first page, not after."""

    def new_page(
        self,
        *,
        lasting: bool = False,
        browser: str = "",
        locale: str | None = None,
        pars: dict[int, int] | None = None,
        **options: Any,
    ) -> Page:
        """Open a blank page; `viewport`, `color_scheme`, `reduced_motion`, `locale` are its own.

        `pars` are stored in its browser (`remember_pars`) if it is the test's first there.

        A `lasting` page outlives the test (a module's running page): it opens in a context
        kept for such pages, one caller at a time, which each opening resets and no test's
        pages touch; the caller closes it. A `browser` name other than "" opens the page in a
        context of that name (another browser: its own storage, service worker and cache).
        """
        context_options = {k: v for k, v in options.items() if k in CONTEXT_OPTIONS}
        page_options = {k: v for k, v in options.items() if k not in CONTEXT_OPTIONS}
        viewport = page_options.pop("viewport", PHONE if options.get("is_mobile") else DESKTOP)
        media = {"color_scheme": "light", "reduced_motion": "no-preference", **page_options}
        unknown = set(media) - {"color_scheme", "reduced_motion"}
        if unknown:
            msg = f"a page in a warm context takes no {sorted(unknown)}"
            raise TypeError(msg)
        key = json.dumps(
            {**context_options, "lasting": lasting, "browser": browser}, sort_keys=True
        )
        context = self._contexts.get(key)
        if context is None:
            context = self._make_context(**context_options, viewport=viewport)
            self._contexts[key] = context
            self._anchors.add(open_anchor(context, self._anchor))
        fresh = lasting or key not in self._in_use
        if not lasting:
            self._in_use.add(key)
        if fresh:
            self._reset(context)
        page = context.new_page()
        if fresh:
            self._clear_storage(page)
            if pars:
                remember_pars(page, pars)
        page.set_viewport_size(viewport)
        page.emulate_media(**media)
        if locale is not None:
            emulate_locale(page, locale)
        return page

    def _test_pages(self, context: BrowserContext) -> list[Page]:
        """Return the context's pages but its anchor."""
        return [page for page in context.pages if page not in self._anchors]

    def _reset(self, context: BrowserContext) -> None:
        """Take away what a test may have left in a context, but its storage."""
        for page in self._test_pages(context):
            page.close()
        context.unroute_all(behavior="ignoreErrors")
        context.clear_permissions()
        context.set_offline(False)

    def _clear_storage(self, page: Page) -> None:
        """Clear the sites' localStorage in the page's context (through the page's CDP)."""
        cdp = page.context.new_cdp_session(page)
        for site in self._origins:
            cdp.send(
                "Storage.clearDataForOrigin", {"origin": site, "storageTypes": "local_storage"}
            )
        cdp.detach()

    def close_pages(self) -> None:
        """Close the pages of the contexts a test used (the contexts stay): it has ended."""
        for key in self._in_use:
            for page in self._test_pages(self._contexts[key]):
                page.close()
        self._in_use.clear()

    def close(self) -> None:
        """Close the contexts."""
        for context in self._contexts.values():
            context.close()
        self._contexts.clear()
        self._anchors.clear()


def emulate_locale(page: Page, locale: str) -> None:
    """Give a blank page a browser locale, as a context's `locale` option does, for its life.

    The two DevTools calls Playwright makes for that option (`navigator.languages`, the
    Accept-Language header and Intl's default), in a session that lasts as long as the page
    (the overrides end with it). So a page in a warm context, which resumes Python, can have
    any locale: a context made for one would make the page a first visit.
    """
    cdp = page.context.new_cdp_session(page)
    user_agent = page.evaluate("() => navigator.userAgent")
    cdp.send("Emulation.setLocaleOverride", {"locale": locale})
    cdp.send("Emulation.setUserAgentOverride", {"userAgent": user_agent, "acceptLanguage": locale})


def record_requests(context: BrowserContext) -> list[str]:
    """Return a list that fills with the URL of every http(s) request the context makes."""
    requested: list[str] = []

    def record(request: Request) -> None:
        if request.url.startswith("http"):
            requested.append(request.url)

    context.on("request", record)
    return requested


def export(page: Page, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """Export from the statistics dialog; return the file and what it holds."""
    if not page.locator("dialog#stats").is_visible():
        press(page, "stats")
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return path, json.loads(path.read_text(encoding="utf-8"))
