"""Where things are: the repository, the web sources, the runtime, the built sites."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
"""The site `python3 build.py` builds: every layer of the start-up (build.py's LAYERS)."""
PLAIN_DIST = ROOT / "dist-plain"
"""The site `python3 build.py --plain` builds: none of them."""
PYODIDE = WEB / "node_modules" / "pyodide"
"""The pinned Pyodide runtime, as its npm package has it (web/package.json)."""
