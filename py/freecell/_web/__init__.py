"""The page adapter: what the worker of the web page calls (:mod:`freecell._web.session`).

The worker imports this package and makes one :class:`Session`; the build calls :func:`warm_up`.
The modules below hold one concern each (docs/architecture.md); :mod:`freecell._web.pyodide` is
Pyodide's plumbing.
"""

from __future__ import annotations

from freecell._web.session import (
    ERROR_CODES,
    FIND_MOST,
    MAX_LINK_MOVES,
    SHORT_SECONDS,
    Session,
    warm_up,
)

__all__ = [
    "ERROR_CODES",
    "FIND_MOST",
    "MAX_LINK_MOVES",
    "SHORT_SECONDS",
    "Session",
    "warm_up",
]
