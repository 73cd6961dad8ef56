"""Build the page's standard library inside Pyodide: what the page imports, compiled to bytecode.

compile_stdlib.mjs boots the runtime under Node.js, runs the page's boot and every request of
its API (``freecell._web.warm_up``), and asks :func:`imported` which standard library modules
those imported; a second, fresh runtime then calls :func:`build`, which compiles exactly those,
by the runtime's own CPython, so their magic number and bytecode are what the browser's runtime
expects, and nothing else goes into the zip. A module the page imports later must be imported
by ``warm_up`` (the build checks the result in a third, fresh runtime). Docstrings and asserts
are left out (``optimize=2``; the page's own wheel keeps its docstrings: it is compiled in the
browser). The ``.pyc`` files use the legacy sourceless layout (``foo.pyc`` where ``foo.py``
was), which zipimport loads directly. The zip is deterministic: sorted members, fixed
timestamps, no source mtimes in the headers, and, compiled in a fresh runtime, the same bytes
for the same list of modules, whatever our wheel's code.
"""

from __future__ import annotations

import marshal
import sys
import zipfile

STOCK = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
"""Where Pyodide puts the standard library it was given."""


def imported() -> list[str]:
    """Return the members of the stock zip that an imported module came from, sorted.

    This module imports nothing from the zip before it is asked, so the list is the page's.
    """
    found = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(STOCK + "/"):
            found.add(origin.removeprefix(STOCK + "/"))
    return sorted(found)


def build(names: list[str], out: str) -> str:
    """Write the members ``names``, compiled, to ``out``; return a line saying what it holds."""
    from importlib.util import MAGIC_NUMBER  # noqa: PLC0415 - imported() must not see it

    header = MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: no source to check against
    with zipfile.ZipFile(STOCK) as source, zipfile.ZipFile(out, "w") as target:
        for name in sorted(names):
            # The file name tracebacks show: where the source is in the stock zip.
            code = compile(
                source.read(name), f"{STOCK}/{name}", "exec", dont_inherit=True, optimize=2
            )
            info = zipfile.ZipInfo(name.removesuffix(".py") + ".pyc", (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, header + marshal.dumps(code), compresslevel=9)
    version = sys.version.split()[0]
    return f"{len(names)} modules compiled by Python {version}, nothing else"
