"""How the tests and the benches launch Chromium (devtools.chromium): Playwright's switches kept.

Chromium keeps only the last `--disable-features` of its command line, and Playwright puts its
own first: CHROMIUM_ARGS' must name Playwright's features again, then ours.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import playwright
import pytest

from devtools.chromium import CHROMIUM_ARGS, DISABLED_FEATURES, PLAYWRIGHT_DISABLED_FEATURES

if TYPE_CHECKING:
    from playwright.sync_api import Page

PLAYWRIGHT_LIST = re.compile(r"disabledFeatures = \[(.*?)\]", re.DOTALL)
"""Where Playwright's driver lists the features it disables (chromiumSwitches.ts, bundled)."""


def playwright_disabled_features() -> list[str]:
    """Return the features that the installed Playwright disables when it launches Chromium."""
    driver = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    for script in sorted(driver.rglob("*.js")):
        found = PLAYWRIGHT_LIST.search(script.read_text(encoding="utf-8"))
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))
            return re.findall(r'"([^"]+)"', body)
    pytest.fail(f"no `disabledFeatures = [...]` in Playwright's driver under {driver}")


def test_playwright_features_stay_disabled() -> None:
    """Our one `--disable-features` names every feature Playwright disables, and it is the last."""
    assert playwright_disabled_features() == PLAYWRIGHT_DISABLED_FEATURES
    switches = [arg for arg in CHROMIUM_ARGS if arg.startswith("--disable-features=")]
    assert switches == [f"--disable-features={','.join(DISABLED_FEATURES)}"]
    assert set(PLAYWRIGHT_DISABLED_FEATURES) <= set(DISABLED_FEATURES)


@pytest.mark.browser
def test_a_new_tab_builds_no_page_of_the_browser(page: Page) -> None:
    """No address-bar popup, or other page of Chromium's own, is built beside the tests' pages."""
    page.goto("about:blank")
    cdp = page.context.browser.new_browser_cdp_session()  # type: ignore[union-attr]
    targets = cdp.send("Target.getTargets")["targetInfos"]
    cdp.detach()
    assert [target["url"] for target in targets if target["type"] == "browser_ui"] == []
    assert any(target["type"] == "page" for target in targets)
