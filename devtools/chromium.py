"""The Chromium that the browser tests, the benches and the drawing tools launch, and how."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""How the browser tests and the bench start Chromium: headless-safe, and quiet on a closed
network (no background requests, updates or sync)."""


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
