"""The build's first runtime: the sources that dataclasses and namedtuple compile.

compile_python.mjs puts this in that runtime's site-packages as ``sitecustomize``, which
``site`` imports at Python's start, before any of them; compile_python.py's generated_code
reads GENERATED once the page's boot has run. ``exec`` and ``eval`` note a source when one of
GENERATORS calls them, and run as before. The modules the page's standard library leaves out
(named in the environment's LEFT_OUT) cannot be imported here either: what the start makes
then is what it makes in the page.
"""

from __future__ import annotations

import builtins
import os
import sys

# Nothing more is imported here: a module imported before the two builtins are wrapped would
# make its named tuples unnoted (typing's imports do).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

GENERATORS = (
    ("/dataclasses.py", "add_fns_to_class", "exec"),  # each dataclass's methods, as one source
    ("/collections/__init__.py", "namedtuple", "eval"),  # each named tuple's __new__, a lambda
)
"""Where Python generates code at run time: the file, the function, what it compiles with."""
GENERATED: list[tuple[str, str]] = []
"""What they compiled, in order: ("exec" or "eval", the source)."""

for _name in os.environ.get("LEFT_OUT", "").split():
    sys.modules[_name] = None  # type: ignore[assignment]  # as if absent: import fails


def _noting(run: Callable[..., Any], mode: str) -> Callable[..., Any]:
    """Return `run` (the builtin exec or eval), noting the generators' sources."""

    def noted(source: Any, *namespaces: Any, **options: Any) -> Any:
        frame = sys._getframe(1)  # noqa: SLF001 - the caller: a generator?
        code = frame.f_code
        for file, function, how in GENERATORS:
            if code.co_filename.endswith(file) and code.co_name == function and how == mode:
                GENERATED.append((mode, source))
        given, locals_ = (*namespaces, None, None)[:2]
        if given is None:  # the caller's namespaces, as the builtin takes them
            given, locals_ = frame.f_globals, frame.f_locals if locals_ is None else locals_
        return run(source, given, locals_, **options)

    return noted


builtins.exec = _noting(builtins.exec, "exec")
builtins.eval = _noting(builtins.eval, "eval")
