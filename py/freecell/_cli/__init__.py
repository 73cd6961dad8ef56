"""The ``freecell`` command: print deals by number, or run a subcommand such as ``replay``.

:func:`main` picks the command from the first argument and runs it through
:func:`freecell._cli.streams.run_command`, which turns every fault of the streams into an exit
status and one line on stderr. A command is a function ``NAME_main(argv, stdin, stdout,
stderr) -> int`` in a module of its own: the deals (:mod:`freecell._cli.dealer`),
:mod:`~freecell._cli.replay`, :mod:`~freecell._cli.solve`, :mod:`~freecell._cli.daily`,
:mod:`~freecell._cli.find` and :mod:`~freecell._cli.analyze`, each reading its line with
:mod:`freecell._cli.options`. A subcommand's module is imported only when it runs, inside
:func:`~freecell._cli.streams.run_command` (a signal then ends the command as at any instant).
The installed ``freecell`` command starts in ``_freecell_command``, outside the package, which
keeps Ctrl-C and SIGTERM quiet while the package itself is imported (``python -m freecell``
from the package's first line).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import BinaryIO, Final, TextIO, cast

from freecell._cli.dealer import deals_main
from freecell._cli.streams import Command, run_command

_PROG: Final = "freecell"


_SUBCOMMANDS: Final = frozenset({"analyze", "daily", "find", "replay", "solve"})
"""The subcommands: each NAME is a module of this package, whose ``NAME_main`` runs it."""


def _subcommand(name: str) -> Command:
    """Return a command that imports the subcommand ``name``'s module when it runs, then runs it.

    The import happens inside :func:`run_command`: Ctrl-C or SIGTERM while it is under way (a
    module may take a tenth of a second) ends the command as it does at any other instant.
    """

    def command(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
        module = importlib.import_module(f"freecell._cli.{name}")
        run = cast(Command, getattr(module, f"{name}_main"))
        return run(argv, stdin, stdout, stderr)

    return command


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    r"""Run the command with ``argv`` (default: ``sys.argv[1:]``) and return its exit status.

    Streams left out are the process's own; ``stdin`` gives bytes, decoded as UTF-8.

    >>> import io, freecell
    >>> out = io.StringIO()
    >>> main(["--version"], stdout=out), out.getvalue() == f"freecell {freecell.__version__}\n"
    (0, True)
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in _SUBCOMMANDS:
        return run_command(_PROG, deals_main, args, stdin=stdin, stdout=stdout, stderr=stderr)
    prog = f"{_PROG} {args[0]}"
    command = _subcommand(args[0])
    return run_command(prog, command, args[1:], stdin=stdin, stdout=stdout, stderr=stderr)
