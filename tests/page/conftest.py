"""Fixtures of the page's tests: a real Chromium, the built site, an error watch, warm contexts.

The browser tests drive the page in dist/ (built by `python3 build.py`) through Playwright.
Chromium is found through $FREECELL_CHROMIUM, then `chromium` on PATH, then Playwright's own
download; no browser at all is a failure that says what to install, never a skip.
"""

from __future__ import annotations

import functools
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    ConsoleMessage,
    Page,
    Playwright,
    WebError,
    expect,
)

from devtools.anchor import PROCESS_PER_SITE, serve_anchor
from devtools.chromium import CHROMIUM_ARGS, chromium_executable
from devtools.site_server import Cdn
from helpers import (
    DESKTOP,
    DIST,
    PHONE_OPTIONS,
    TIMEOUT_MS,
    ContextFactory,
    PageFactory,
    WarmContexts,
    boot,
    origin,
    remembered_pars,
    serve_strictly,
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


def pytest_configure(config: pytest.Config) -> None:
    """Give every `expect` the suite's 30 s (Playwright's default is 5 s), before any test."""
    expect.set_options(timeout=TIMEOUT_MS)


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
def pages(warm_contexts: WarmContexts, request: pytest.FixtureRequest) -> Iterator[PageFactory]:
    """Return a function that opens a page in a warm context; the pages close after the test.

    Its keyword arguments are context options (`is_mobile`...), the page's own (`viewport`,
    `color_scheme`, `reduced_motion`, `locale`) and `browser`; see WarmContexts.new_page. Its
    browser remembers the pars of REMEMBERED_PARS unless the test is marked `pars_unknown`.
    """
    yield functools.partial(warm_contexts.new_page, pars=remembered_pars(request))
    warm_contexts.close_pages()


@pytest.fixture(scope="module")
def running_page(
    warm_contexts: WarmContexts, site_url: str, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """One desktop page for a whole module, booted once (see `table`); pars as `pages`'."""
    page = warm_contexts.new_page(lasting=True, pars=remembered_pars(request))
    boot(page, f"{site_url}?deal=1")
    yield page
    page.close()


@pytest.fixture(scope="module")
def running_phone(
    warm_contexts: WarmContexts, site_url: str, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """One 360 px touch phone page for a whole module, booted once (as `running_page`).

    The modules that use it settle it for each test in a fixture of their own (`phone`), to
    the size, scheme and settings their tests start from.
    """
    page = warm_contexts.new_page(lasting=True, pars=remembered_pars(request), **PHONE_OPTIONS)
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
