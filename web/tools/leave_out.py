"""The build's first runtime: the modules the page's standard library leaves out, unimportable.

compile_python.mjs puts this in that runtime's site-packages as ``sitecustomize``, which
``site`` imports at Python's start, before the modules that would import them. The modules
named in the environment's LEFT_OUT then cannot be imported here either, so what the start
imports (and the build keeps) is what it imports in the page.
"""

from __future__ import annotations

import os
import sys

for _name in os.environ.get("LEFT_OUT", "").split():
    sys.modules[_name] = None  # type: ignore[assignment]  # as if absent: import fails
