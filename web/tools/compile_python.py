"""Build the page's Python inside Pyodide: what the page imports, compiled to bytecode.

compile_python.mjs boots the runtime under Node.js, asks :func:`imported` which modules of the
standard library Python's start imported, runs the page's boot and every request of its API
(``freecell._web.warm_up``), and asks again which modules those imported: of the standard
library, of micropip and of our wheel. A second, fresh runtime then calls
:func:`build_stdlib` and :func:`build_wheel`, which compile them by the runtime's own CPython,
so their magic number and bytecode are what the browser's runtime expects:

- the standard library: exactly the modules imported (less ssl, see compile_python.mjs),
  nothing else, in two zips: those Python's start imported, and the others, which the page
  adds to Python's path after it (web/src/app/worker/stdlib.js);
- micropip's wheel: the modules imported, compiled, in place of its sources (the page uses it
  for one thing, installing our wheel from a file); its other modules are left out;
- our wheel (already the page's copy, without the command line): every module, compiled.

A module the page imports later must be imported by ``warm_up`` (the build checks the result
in a third, fresh runtime). Docstrings and asserts are left out (``optimize=2``); so are the
line tables but for our own wheel's, one line a function instead (:func:`first_lines`: 14 % of
the standard library's bytes). The ``.pyc`` files use the legacy sourceless layout (``foo.pyc``
where ``foo.py`` was), which zipimport and the path finder load directly, with no source to
check against; tracebacks name the file the source would be at. Pyodide's own package wheels
are compiled the same way. The outputs are deterministic: sorted members, fixed timestamps,
and, compiled in a fresh runtime, the same bytes for the same inputs.
"""

from __future__ import annotations

import marshal
import site
import sys
import zipfile
from types import CodeType

STOCK = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
"""Where Pyodide puts the standard library it was given."""
SITE = site.getsitepackages()[0]
"""Where micropip installs wheels."""
DATE = (1980, 1, 1, 0, 0, 0)
"""Every member's timestamp: the same inputs, the same bytes."""


def imported() -> dict[str, list[str]]:
    """Return the files that imported modules came from, sorted, by where they are.

    ``stdlib``: members of the stock zip; ``packages``: paths under site-packages
    (``micropip/__init__.py``). This module imports nothing from either before it is asked
    (what it imports at its top, Python's start has), so the lists are the page's.
    """
    found: dict[str, set[str]] = {"stdlib": set(), "packages": set()}
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(STOCK + "/"):
            found["stdlib"].add(origin.removeprefix(STOCK + "/"))
        elif origin.startswith(SITE + "/"):
            found["packages"].add(origin.removeprefix(SITE + "/"))
    return {where: sorted(names) for where, names in found.items()}


def first_lines(code: CodeType) -> CodeType:
    """Return `code`, and the code it holds, with each instruction on the code's first line.

    A line table maps every instruction to its line and columns. This one says the same line
    for all (the ``def``, or a module's line 1): two bytes for eight instructions, where the
    real table takes one to three for each, so that a traceback into the standard library
    names each frame's function and file, not the line within it. The entries are those of
    CPython's location table (its InternalDocs/code_objects.md): a first byte ``0b1CCCCLLL``
    of kind C = 13, "no columns", for L + 1 code units, then the line's change as a signed
    varint, 0.
    """
    units = len(code.co_code) // 2
    table = bytearray()
    while units:
        length = min(units, 8)
        table += bytes([0x80 | 13 << 3 | length - 1, 0])
        units -= length
    consts = tuple(first_lines(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)


def compiled(source: bytes, filename: str, *, lines: bool = True) -> bytes:
    """Return `source` as a sourceless ``.pyc`` file's bytes; tracebacks show `filename`."""
    from importlib.util import MAGIC_NUMBER  # noqa: PLC0415 - imported() must not see it

    header = MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: no source to check against
    code = compile(source, filename, "exec", dont_inherit=True, optimize=2)
    return header + marshal.dumps(code if lines else first_lines(code))


def member(name: str, compress: int = zipfile.ZIP_DEFLATED) -> zipfile.ZipInfo:
    """Return the header of a zip member `name`: compressed so, dated DATE, readable by all."""
    info = zipfile.ZipInfo(name, DATE)
    info.compress_type = compress
    info.external_attr = 0o644 << 16
    return info


def build_stdlib(names: list[str], out: str) -> str:
    """Write the stock zip's members ``names``, compiled, to ``out``; say what it holds.

    The members are stored, not deflated: the site serves the zip gzipped as a whole (build.py),
    which takes fewer bytes, and the worker inflates it as it arrives, natively, so that
    zipimport reads each module's bytes as they are, not inflating them in WebAssembly while
    Python starts.
    """
    with zipfile.ZipFile(STOCK) as source, zipfile.ZipFile(out, "w") as target:
        for name in sorted(names):
            # The file name tracebacks show: where the source is, in the stock zip.
            data = compiled(source.read(name), f"{STOCK}/{name}", lines=False)
            target.writestr(member(name.removesuffix(".py") + ".pyc", zipfile.ZIP_STORED), data)
    version = sys.version.split()[0]
    name = out.rsplit("/", 1)[-1]
    return f"{name}: {len(names)} modules compiled by Python {version}, nothing else"


def build_wheel(wheel: str, out: str, only: list[str] | None, *, lines: bool) -> str:
    """Write `wheel` to `out` with its modules compiled; say what it holds.

    With `only`, only those modules are kept; the others are left out. The RECORD names the
    new files.
    """
    import base64  # noqa: PLC0415 - imported() must not see them
    import hashlib  # noqa: PLC0415

    with zipfile.ZipFile(wheel) as source:
        names = sorted(source.namelist())
        (record,) = (name for name in names if name.endswith(".dist-info/RECORD"))
        modules = [name for name in names if name.endswith(".py")]
        if only is not None and (missing := set(only) - set(modules)):
            message = f"{wheel} has no {', '.join(sorted(missing))}"
            raise ValueError(message)
        kept = modules if only is None else sorted(only)
        files = {}
        for name in names:
            if name.endswith(".py"):
                if name in kept:
                    files[name + "c"] = compiled(source.read(name), f"{SITE}/{name}", lines=lines)
            elif name != record:
                files[name] = source.read(name)
    listed = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        listed.append(f"{name},sha256={digest},{len(data)}\n")
    files[record] = "".join([*listed, f"{record},,\n"]).encode()
    with zipfile.ZipFile(out, "w") as target:
        for name, data in files.items():
            target.writestr(member(name), data, compresslevel=9)
    left_out = len(modules) - len(kept)
    return f"{out.rsplit('/', 1)[-1]}: {len(kept)} modules compiled, {left_out} left out"
