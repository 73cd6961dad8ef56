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
- our wheel (already the page's copy, without the command line): every module, compiled;
- the page's regular expressions: those the boot compiles after Python's start, compiled
  here, in a module of the second zip that puts them into ``re``'s cache (:func:`patterns`;
  web/src/app/worker/stdlib.js names it and imports it);
- the code ``dataclasses`` and ``collections.namedtuple`` generate in the boot (the methods of
  each dataclass, each named tuple's ``__new__``), from Python's start on: the build's first
  runtime notes each source (record_generated.py, its ``sitecustomize``), and the first zip's
  ``sitecustomize``, which ``site`` imports at Python's start, holds them compiled and hands
  them to the two modules (:func:`generated_code`).

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

import importlib
import marshal
import re
import site
import sys
import zipfile
from types import CodeType
from typing import Any

STOCK = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
"""Where Pyodide puts the standard library it was given."""
SITE = site.getsitepackages()[0]
"""Where micropip installs wheels."""
DATE = (1980, 1, 1, 0, 0, 0)
"""Every member's timestamp: the same inputs, the same bytes."""
PATTERNS_LOADER = '''"""The page's regular expressions, compiled at build time, into re's cache.

re compiles a pattern in Python code the first time a program asks for it. The page's boot
asks for these after Python's start (micropip's and our wheel's imports, the install, the
requests), in WebAssembly the browser has not optimised yet. The build ran the same boot in
the same runtime and wrote down what re compiled (web/tools/compile_python.py, patterns); the
page imports this before micropip (web/src/app/worker/stdlib.js), and re.compile then finds each in
its cache.
"""

import _sre
import re

for _pattern, _flags, _compiled_flags, _code, _groups, _index, _names in PATTERNS:
    re._cache[type(_pattern), _pattern, _flags] = _sre.compile(
        _pattern, _compiled_flags, memoryview(_code).cast("I").tolist(), _groups, _index, _names
    )
del _pattern, _flags, _compiled_flags, _code, _groups, _index, _names
'''
"""What the module does with its PATTERNS: each as re._compiler.compile would make it."""

GENERATED_LOADER = '''"""The code Python generates in the page's boot, compiled at build time.

dataclasses makes each dataclass's methods, and collections.namedtuple each named tuple's
__new__, by writing their source and compiling it with Python's compiler as the class is made:
Python's start does so for the classes of traceback's colours, asyncio and others, micropip's
and our wheel's imports for theirs. In the browser that compiler runs on WebAssembly not
optimised yet. The build ran the same boot in the same runtime and compiled each source
(web/tools/compile_python.py, generated_code); site imports this module at Python's start,
before any of them, and the two modules' exec and eval then take the code from CODE. A source
that is not there compiles as before, and is noted in MISSED.
"""

import collections
import marshal

TAKEN = set()
MISSED = []


def _compiled(run, mode):
    def compiled(source, *namespaces):
        key = mode, source
        code = CODE.get(key)
        if code is None:
            MISSED.append(key)
            return run(source, *namespaces)
        TAKEN.add(key)
        return run(marshal.loads(code), *namespaces)

    return compiled


collections.eval = _compiled(eval, "eval")  # first: dataclasses' imports make named tuples

import dataclasses  # noqa: E402

dataclasses.exec = _compiled(exec, "exec")
'''
"""What the first zip's sitecustomize does with its CODE (see generated_code)."""


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


PatternKey = tuple[type, str | bytes, int]
"""A key of re.compile's cache: the pattern's type, the pattern, its flags."""


def re_cache() -> dict[PatternKey, re.Pattern[Any]]:
    """Return re.compile's own cache (``re._cache``, which type checkers do not know)."""
    cache: dict[PatternKey, re.Pattern[Any]] = vars(re)["_cache"]
    return cache


def cached_patterns() -> frozenset[PatternKey]:
    """Return the keys of the patterns in ``re``'s cache: those compiled so far."""
    return frozenset(re_cache())


def patterns(compiled_before: frozenset[PatternKey]) -> str:
    """Return a module's source that loads the patterns in re's cache, but `compiled_before`.

    Each as ``re._compiler.compile`` makes it (``_sre.compile``'s arguments; the code as the
    runtime's bytes, four to a code word), in the cache's order. The same runtime compiles
    them the same way, and :func:`check_patterns` checks the result in the browser's Python.
    """
    from array import array  # noqa: PLC0415 - imported() must not see it

    compiler, parser = (importlib.import_module(f"re._{name}") for name in ("compiler", "parser"))
    rows = []
    for key in re_cache():
        if key in compiled_before:
            continue
        _, pattern, flags = key
        parsed = parser.parse(pattern, flags)
        code = array("I", compiler._code(parsed, flags)).tobytes()  # noqa: SLF001
        names: list[str | None] = [None] * parsed.state.groups
        for name, index in parsed.state.groupdict.items():
            names[index] = name
        groups = (parsed.state.groups - 1, dict(parsed.state.groupdict), tuple(names))
        rows.append((pattern, flags, flags | parsed.state.flags, code, *groups))
    return f"PATTERNS = {tuple(rows)!r}\n{PATTERNS_LOADER}"


def check_patterns(module: str) -> int:
    """Raise unless re.compile takes each pattern of `module` from its cache, as it compiles it.

    `module`: :func:`patterns`'s, imported as the page does, in a runtime that then ran the
    page's boot (the build's check, and tests/processes/pyodide_snapshot.mjs). Return how many
    it holds.
    """
    compiler = importlib.import_module("re._compiler")
    table = importlib.import_module(module).PATTERNS
    for pattern, flags, *_ in table:
        cached = re_cache().get((type(pattern), pattern, flags))
        if cached is None or re.compile(pattern, flags) is not cached:
            message = f"{module}: re.compile did not take {pattern!r} from its cache"
            raise AssertionError(message)
        if cached != compiler.compile(pattern, flags):
            message = f"{module}: {pattern!r} is not what re compiles"
            raise AssertionError(message)
    return len(table)


def generated(mode: str, source: str) -> CodeType:
    """Return the code that ``exec`` (`mode` ``"exec"``) or ``eval`` compiles from `source`.

    As the generators call them: ``<string>``, no ``__future__`` of the caller's (they have
    none).
    """
    return compile(source, "<string>", mode, dont_inherit=True)


def generated_code(recorder: str) -> str:
    """Return a module's source that hands over the code `recorder` noted, compiled.

    `recorder`: record_generated.py, imported at Python's start under that name.

    CODE maps each (``"exec"`` or ``"eval"``, source) to the code :func:`generated` compiles
    from it there, marshalled, in the order first made. The same runtime compiles it the same
    way, and :func:`check_generated` checks the result in the browser's Python.
    """
    noted = dict.fromkeys(importlib.import_module(recorder).GENERATED)
    code = {key: marshal.dumps(generated(*key)) for key in noted}
    return f"CODE = {code!r}\n{GENERATED_LOADER}"


def check_generated(module: str) -> tuple[int, int]:
    """Raise unless `module`'s code is what Python compiles, and the boot compiled none itself.

    `module`: :func:`generated_code`'s, imported by site at Python's start, in a runtime that
    then ran the page's boot (the build's check, and tests/processes/pyodide_snapshot.mjs). Return
    how many of its sources the boot took from it, and how many it holds.
    """
    table = importlib.import_module(module)
    if table.MISSED:
        (_, source), count = table.MISSED[0], len(table.MISSED)
        message = f"{module}: the boot compiled {count} generated sources itself, first:\n{source}"
        raise AssertionError(message)
    for (mode, source), code in table.CODE.items():
        built = marshal.loads(code)  # noqa: S302 - the build's own, as the page loads it
        if built != generated(mode, source):
            message = f"{module}: {source.splitlines()[0]!r} is not what Python compiles"
            raise AssertionError(message)
    return len(table.TAKEN), len(table.CODE)


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


def build_stdlib(names: list[str], out: str, extra: dict[str, str] | None = None) -> str:
    """Write the stock zip's members ``names``, compiled, to ``out``; say what it holds.

    `extra`: modules of the build's own (a name such as ``page_patterns.py``, its source),
    compiled beside them.

    The members are stored, not deflated: the site serves the zip gzipped as a whole (build.py),
    which takes fewer bytes, and the worker inflates it as it arrives, natively, so that
    zipimport reads each module's bytes as they are, not inflating them in WebAssembly while
    Python starts.
    """
    with zipfile.ZipFile(STOCK) as source, zipfile.ZipFile(out, "w") as target:
        modules = [(name, source.read(name)) for name in sorted(names)]
        modules += [(name, text.encode()) for name, text in sorted((extra or {}).items())]
        for name, text in modules:
            # The file name tracebacks show: where the source is (the stock zip, for its own).
            data = compiled(text, f"{STOCK}/{name}", lines=False)
            target.writestr(member(name.removesuffix(".py") + ".pyc", zipfile.ZIP_STORED), data)
    version = sys.version.split()[0]
    name = out.rsplit("/", 1)[-1]
    added = "".join(f" and {module}" for module in sorted(extra or {}))
    return f"{name}: {len(names)} modules{added} compiled by Python {version}, nothing else"


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
