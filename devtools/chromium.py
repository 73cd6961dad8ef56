"""The Chromium that the browser tests, the benches and the drawing tools launch, and how."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
]
"""The features that Playwright (the version pyproject.toml pins) switches off when it launches
Chromium. Chromium keeps only the last `--disable-features`, so ours must name them again
(tests/library/test_build.py checks this list against Playwright's own)."""

DISABLED_FEATURES = [
    *PLAYWRIGHT_DISABLED_FEATURES,
    "PreloadTopChromeWebUI",
    "WebUIOmniboxPopup",
    "WebUIOmniboxFullPopup",
    "WebUIOmniboxAimPopup",
]
"""Playwright's, and the address bar's popup: headless Chromium (156) builds that web page for
every new tab, about 0.6 s of CPU that no test and no bench looks at."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    f"--disable-features={','.join(DISABLED_FEATURES)}",
]
"""How the browser tests and the bench start Chromium: headless-safe, quiet on a closed
network (no background requests, updates or sync), and without the browser's own pages."""


def chromium_executable() -> str | None:
    """Return the Chromium that the tests and the benches launch, or None for Playwright's own.

    $FREECELL_CHROMIUM (a path, or a name on PATH) if set, else `chromium` on PATH. A
    FREECELL_CHROMIUM that names no executable is an error, not a fallback.
    """
    configured = os.environ.get("FREECELL_CHROMIUM")
    if configured:
        found = shutil.which(configured)
        if found is None:
            msg = f"FREECELL_CHROMIUM={configured!r} is not an executable file"
            raise FileNotFoundError(msg)
        return found
    return shutil.which("chromium")


def find_chromium() -> str | None:
    """Return how the browser tests will find Chromium, or None if they cannot."""
    if path := chromium_executable():
        return path
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache/ms-playwright"))
    if any(cache.glob("chromium*/chrome-linux*/chrome")):
        return "Playwright's own Chromium"
    return None
