"""Build the page's standard library inside Pyodide: what the page imports, compiled to bytecode.

compile_stdlib.mjs boots the runtime under Node.js, runs the page's boot and every request of
its API (``freecell._web.warm_up``), then imports this module and calls :func:`build`: the
standard library modules imported so far are compiled here, by the runtime's own CPython, so
their magic number and bytecode are what the browser's runtime expects, and nothing else goes
into the zip. A module the page imports later must be imported by ``warm_up`` (the build checks
the result in a fresh runtime). Docstrings and asserts are left out (``optimize=2``; the page's
own wheel keeps its docstrings: it is compiled in the browser). The ``.pyc`` files use the
legacy sourceless layout (``foo.pyc`` where ``foo.py`` was), which zipimport loads directly. The
zip is deterministic: sorted members, fixed timestamps, no source mtimes in the headers.
"""

from __future__ import annotations

import marshal
import sys
import zipfile
from importlib.util import MAGIC_NUMBER


def imported_from(stock: str) -> set[str]:
    """Return the members of the stock zip that an imported module came from."""
    found = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(stock + "/"):
            found.add(origin.removeprefix(stock + "/"))
    return found


def build(out: str) -> str:
    """Write the page's standard library to ``out``; return a line saying what it holds."""
    stock = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
    imported = imported_from(stock)
    header = MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: no source to check against
    with zipfile.ZipFile(stock) as source, zipfile.ZipFile(out, "w") as target:
        for name in sorted(imported):
            # The file name tracebacks show: where the source is in the stock zip.
            code = compile(
                source.read(name), f"{stock}/{name}", "exec", dont_inherit=True, optimize=2
            )
            info = zipfile.ZipInfo(name.removesuffix(".py") + ".pyc", (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, header + marshal.dumps(code), compresslevel=9)
    version = sys.version.split()[0]
    return f"{len(imported)} modules compiled by Python {version}, nothing else"
