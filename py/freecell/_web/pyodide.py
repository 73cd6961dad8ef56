"""Pyodide's plumbing for the page: what the worker calls around Python's memory snapshot.

It is no part of the page's API (:mod:`freecell._web`): ``web/src/app/worker/snapshot.js`` calls
:func:`forget_installer` once, before it takes the snapshot.
"""

from __future__ import annotations

import gc
import sys


def forget_installer() -> None:
    """Drop micropip from ``sys.modules``, so that Pyodide can snapshot Python's memory.

    micropip holds JavaScript objects that a memory snapshot cannot keep; the page installs
    our wheel with it once, on a build's first visit, and never needs it again.

    >>> forget_installer()
    """
    for name in [name for name in sys.modules if name.partition(".")[0] == "micropip"]:
        del sys.modules[name]
    gc.collect()
