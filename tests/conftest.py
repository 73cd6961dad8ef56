"""Fixtures: fc-solve, and for the browser tests a real Chromium, the built site, an error watch.

The browser tests drive the page in dist/ (built by `python3 build.py`) through Playwright.
Chromium is found through $FREECELL_CHROMIUM, then `chromium` on PATH, then Playwright's own
download; no browser at all is a failure that says what to install, never a skip.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    WebError,
    expect,
)

from devtools.anchor import PROCESS_PER_SITE, open_anchor, serve_anchor
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.site_server import Cdn, serve
from helpers import (
    DESKTOP,
    DIST,
    NO_FC_SOLVE,
    PHONE,
    PHONE_OPTIONS,
    TIMEOUT_MS,
    ContextFactory,
    PageFactory,
    boot,
    content_security_policy,
    origin,
    settle,
)

SUBPATH = "/nested/sub/path/"
"""Where the second server serves dist/: only relative URLs work from there."""

NO_CHROMIUM = (
    "No Chromium for the browser tests. Install one of: Debian's package "
    "(`sudo apt-get install chromium`), Playwright's build "
    "(`.venv/bin/python -m playwright install chromium`), or point FREECELL_CHROMIUM at a "
    "Chromium or Chrome executable."
)

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
"""No time limit per example: the suite runs two processes beside browsers on two cores, where
an example that takes 6 ms alone once took 356 ms (Hypothesis's default limit is 200 ms)."""

collect_ignore_glob = ["pyodide_*.py"]
"""Scripts that run inside Pyodide (see tests/test_pyodide.py): pytest must not import them,
not even for --doctest-modules (pyodide_web_checks.py runs the page's API as it is imported)."""


def pytest_configure(config: pytest.Config) -> None:
    """Register this suite's own marker (the `browser` marker is declared in pyproject.toml).

    And give every `expect` the suite's 30 s (Playwright's default is 5 s), before any test.
    """
    config.addinivalue_line(
        "markers", "console_errors_expected: the test causes console errors on purpose"
    )
    expect.set_options(timeout=TIMEOUT_MS)


# --- fc-solve ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def fc_solve() -> str:
    """Return the path of fc-solve; fail (never skip), saying what to install, if it is missing."""
    found = shutil.which("fc-solve")
    if found is None:
        pytest.fail(NO_FC_SOLVE, pytrace=False)
    return found


# --- the browser ------------------------------------------------------------------------------


def launchable_chromium(playwright: Playwright) -> str | None:
    """Return the Chromium to launch (build.chromium_executable), or None for Playwright's own.

    No Chromium at all fails the test, saying what to install.
    """
    try:
        found = chromium_executable()
    except FileNotFoundError as error:
        pytest.fail(f"{error}. {NO_CHROMIUM}", pytrace=False)
    if found is not None or Path(playwright.chromium.executable_path).is_file():
        return found
    pytest.fail(NO_CHROMIUM, pytrace=False)


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], playwright: Playwright
) -> dict[str, Any]:
    """pytest-playwright's launch options, plus the Chromium found and quiet, headless flags.

    And one renderer process for all the pages of a site in a browser context, so that they
    share the runtime's compiled WebAssembly (devtools.anchor; see WarmContexts).
    """
    options: dict[str, Any] = {"headless": True, **browser_type_launch_args}
    options["args"] = [*options.get("args", []), *CHROMIUM_ARGS, PROCESS_PER_SITE]
    executable = launchable_chromium(playwright)
    if executable is not None:
        options["executable_path"] = executable
    return options


# --- the site ---------------------------------------------------------------------------------


def serve_strictly(
    directory: Path = DIST, prefix: str = "/", cdn: Cdn | None = None
) -> contextlib.AbstractContextManager[str]:
    """Serve a site (dist/) with build.serve, its Content-Security-Policy as a header too.

    So the worker and every script run under it, as strictly as any host could serve them.
    """
    headers = {"Content-Security-Policy": content_security_policy(directory)}
    return serve(directory, prefix=prefix, headers=headers, cdn=cdn)


@pytest.fixture(scope="session")
def _urls() -> Iterator[tuple[str, str]]:
    """Serve the built site twice: at the root and under SUBPATH. Builds nothing itself."""
    if not (DIST / "index.html").is_file():
        pytest.fail(f"{DIST / 'index.html'} is missing: run python3 build.py first", pytrace=False)
    with serve_strictly() as root, serve_strictly(prefix=SUBPATH) as subpath:
        yield root, subpath


@pytest.fixture(scope="session")
def site_url(_urls: tuple[str, str]) -> str:
    """Return the URL of dist/ at the server root, ending in '/'."""
    return _urls[0]


@pytest.fixture
def cdn_site(tmp_path: Path) -> Iterator[tuple[str, Path, Cdn]]:
    """Serve a private copy of dist/ as a CDN whose cache has always expired (no-cache, ETags).

    Yields the URL, the copy (a test may change it) and the Cdn, whose log lists every answer.
    """
    site = tmp_path / "site"
    shutil.copytree(DIST, site)
    cdn = Cdn(max_age=None, log=[])
    with serve_strictly(site, cdn=cdn) as url:
        yield url, site, cdn


@pytest.fixture(scope="session")
def subpath_url(_urls: tuple[str, str]) -> str:
    """Return the URL of the same dist/ served under SUBPATH, ending in '/'."""
    return _urls[1]


# --- pages and their errors -------------------------------------------------------------------


CSP_VIOLATION = "Content Security Policy"
"""What Chromium's console says of every violation of the policy ("Refused to ... because it
violates the following Content Security Policy directive")."""


class ErrorLog:
    """Console errors and uncaught errors of every watched browser context, as text."""

    def __init__(self) -> None:
        self.entries: list[str] = []

    def watch(self, context: BrowserContext) -> None:
        """Record the context's console errors and uncaught errors, in its pages and workers."""
        context.on("console", self._on_console)
        context.on("weberror", self._on_web_error)

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "") or (message.page.url if message.page else "")
            self.entries.append(f"console error: {message.text} ({where})")

    def _on_web_error(self, error: WebError) -> None:
        self.entries.append(f"uncaught error: {error.error}")

    def take(self) -> list[str]:
        """Return the entries recorded since the last call, and forget them."""
        entries, self.entries = self.entries, []
        return entries


@pytest.fixture(scope="session")
def error_log() -> ErrorLog:
    """Return the one log that every context of `make_context` and `make_profile` reports into."""
    return ErrorLog()


@pytest.fixture(autouse=True)
def _fail_on_console_errors(request: pytest.FixtureRequest, error_log: ErrorLog) -> Iterator[None]:
    """Fail a browser test whose pages logged a console error or threw, unless it expects so.

    A Content-Security-Policy violation fails every test, expected errors or not.
    """
    yield
    errors = error_log.take()
    if not request.node.get_closest_marker("browser"):
        return
    violations = [error for error in errors if CSP_VIOLATION in error]
    if violations:
        pytest.fail("the page broke its Content-Security-Policy:\n" + "\n".join(violations))
    if errors and not request.node.get_closest_marker("console_errors_expected"):
        pytest.fail("the page reported errors:\n" + "\n".join(errors), pytrace=False)


CONTEXT_DEFAULTS: dict[str, Any] = {"viewport": DESKTOP, "color_scheme": "light"}
"""A new context's options unless the caller gives its own: a 1280x800 light-scheme desktop."""


def watched(context: BrowserContext, error_log: ErrorLog) -> BrowserContext:
    """Return a new `context` with the suite's 30 s waits, its errors recorded in `error_log`."""
    context.set_default_timeout(TIMEOUT_MS)
    error_log.watch(context)
    return context


@pytest.fixture(scope="session")
def make_context(browser: Browser, error_log: ErrorLog) -> ContextFactory:
    """Return a function that opens a watched browser context; use it in a `with` block.

    Defaults: a 1280x800 light-scheme desktop, 30 s waits. Keyword arguments go to
    `browser.new_context`.
    """

    def new_context(**options: Any) -> BrowserContext:
        return watched(browser.new_context(**{**CONTEXT_DEFAULTS, **options}), error_log)

    return new_context


@pytest.fixture(scope="session")
def make_profile(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    error_log: ErrorLog,
    tmp_path_factory: pytest.TempPathFactory,
) -> ContextFactory:
    """Return a function that opens a watched browser context kept on disk, as a player's is.

    Each is a browser of its own with a profile folder (launch_persistent_context): unlike
    `make_context`'s, which keep nothing on disk, it keeps the code that V8 compiled from the
    page's scripts and WebAssembly for the next page, as every browser does for a repeat visit
    (about 0.2 s of CPU, 7%, a page start less: bench/bench_test_pages.py). Same defaults as
    make_context.
    """

    def new_context(**options: Any) -> BrowserContext:
        folder = tmp_path_factory.mktemp("profile")
        options = {**browser_type_launch_args, **CONTEXT_DEFAULTS, **options}
        return watched(browser_type.launch_persistent_context(folder, **options), error_log)

    return new_context


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
        **options: Any,
    ) -> Page:
        """Open a blank page; `viewport`, `color_scheme`, `reduced_motion`, `locale` are its own.

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


@pytest.fixture(scope="session")
def anchor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Serve the warm contexts' anchor page and the runtime's WebAssembly (devtools.anchor)."""
    with serve_anchor(tmp_path_factory.mktemp("anchor")) as urls:
        yield urls


@pytest.fixture(scope="session")
def warm_contexts(
    make_profile: ContextFactory, site_url: str, subpath_url: str, anchor: tuple[str, str]
) -> Iterator[WarmContexts]:
    """Keep the session's warm browser contexts (see WarmContexts)."""
    contexts = WarmContexts(make_profile, [origin(site_url), origin(subpath_url)], anchor)
    yield contexts
    contexts.close()


@pytest.fixture
def pages(warm_contexts: WarmContexts) -> Iterator[PageFactory]:
    """Return a function that opens a page in a warm context; the pages close after the test.

    Its keyword arguments are context options (`is_mobile`...), the page's own (`viewport`,
    `color_scheme`, `reduced_motion`, `locale`) and `browser`; see WarmContexts.new_page.
    """
    yield warm_contexts.new_page
    warm_contexts.close_pages()


@pytest.fixture(scope="module")
def running_page(warm_contexts: WarmContexts, site_url: str) -> Iterator[Page]:
    """One desktop page for a whole module, booted once (see `table`)."""
    page = warm_contexts.new_page(lasting=True)
    boot(page, f"{site_url}?deal=1")
    yield page
    page.close()


@pytest.fixture(scope="module")
def running_phone(warm_contexts: WarmContexts, site_url: str) -> Iterator[Page]:
    """One 360 px touch phone page for a whole module, booted once (as `running_page`).

    The modules that use it settle it for each test in a fixture of their own (`phone`), to
    the size, scheme and settings their tests start from.
    """
    page = warm_contexts.new_page(lasting=True, **PHONE_OPTIONS)
    boot(page, f"{site_url}?deal=617")
    yield page
    page.close()


@pytest.fixture
def table(running_page: Page) -> Page:
    """Return the module's running page, settled for the next test (see `open_in_place`).

    Much faster than a page of its own (no boot: Python keeps running), for tests about games,
    not about how a page starts or what it stores. Before each test: no dialog or menu open,
    no card picked up, Solve stopped, auto-move on, focus on the page. What Python and the page
    remember of earlier games (statistics, this tab's kept histories) stays.
    """
    settle(running_page)
    return running_page


@pytest.fixture
def still_table(table: Page) -> Iterator[Page]:
    """Return `table` under prefers-reduced-motion for one test, as a page opened with it is.

    No glides, no celebration, Solve at full pace. After the test, the running page is a
    light-scheme desktop with motion again, at its first size.
    """
    table.emulate_media(reduced_motion="reduce")
    yield table
    table.set_viewport_size(DESKTOP)
    table.emulate_media(color_scheme="light", reduced_motion="no-preference")


@pytest.fixture
def page(pages: PageFactory) -> Page:
    """Open a blank desktop page in a warm context (empty localStorage: auto-move, no stats)."""
    return pages()


def record_requests(context: BrowserContext) -> list[str]:
    """Return a list that fills with the URL of every http(s) request the context makes."""
    requested: list[str] = []

    def record(request: Request) -> None:
        if request.url.startswith("http"):
            requested.append(request.url)

    context.on("request", record)
    return requested
