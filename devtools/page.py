"""Waiting on a page of the site, within its Content-Security-Policy (tests and benches)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

BOOT_MS = 60_000
"""How long the first load may take: Pyodide downloads and starts Python (3-5 s usually)."""


def boot(page: Page, url: str) -> None:
    """Open `url` and wait until the page is ready: Python answers and the first deal is out.

    A page whose start fails (its state "error") fails at once, with what the page says.
    """
    from playwright.sync_api import expect  # noqa: PLC0415 - devtools loads without Playwright

    page.goto(url)
    html = page.locator("html")
    expect(html).to_have_attribute("data-state", STARTED, timeout=BOOT_MS)
    if html.get_attribute("data-state") != "ready":
        said = page.locator("#message").text_content()
        msg = f"the page at {url} did not start: {said}"
        raise AssertionError(msg)


STARTED = re.compile("^(ready|error)$")
"""The page's states once its start is over (`<html data-state>`): ready, or failed."""


OPEN_IN_PLACE_JS = """(url) => {
    history.pushState(null, "", url);
    dispatchEvent(new PopStateEvent("popstate"));
}"""
"""Open a link in the running page as Back and Forward do (evaluate it with the link's URL):
no reload, Python keeps running."""


def poll(page: Page, script: str, arg: Any = None, timeout_ms: int = BOOT_MS) -> Any:
    """Evaluate `script` in the page until it returns something true; return that.

    Playwright's `wait_for_function` evaluates its function with `eval`, which the page's
    Content-Security-Policy forbids; `evaluate` is not subject to it.
    """
    waited = 0
    while True:
        value = page.evaluate(script, arg)
        if value:
            return value
        if waited >= timeout_ms:
            msg = f"still false after {timeout_ms} ms: {script}"
            raise AssertionError(msg)
        page.wait_for_timeout(100)
        waited += 100
