"""The ``freecell`` command: print deals by number, or run a subcommand such as ``replay``.

:func:`main` picks the command from the first argument and runs it through
:func:`freecell._cli.streams.run_command`, which turns every fault of the streams into an exit
status and one line on stderr. A command is a function ``NAME_main(argv, stdin, stdout,
stderr) -> int`` in a module of its own: the deals (:mod:`freecell._cli.dealer`),
:mod:`~freecell._cli.replay`, :mod:`~freecell._cli.solve`, :mod:`~freecell._cli.daily`,
:mod:`~freecell._cli.find` and :mod:`~freecell._cli.analyze`, each reading its line with
:mod:`freecell._cli.options`. A subcommand's module is imported only when it runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import BinaryIO, Final, TextIO

from freecell._cli.dealer import deals_main
from freecell._cli.streams import Command, run_command

_PROG: Final = "freecell"


def _subcommand(name: str) -> Command | None:
    """Return the function of the subcommand ``name``, importing its module only now."""
    if name == "analyze":
        from freecell._cli.analyze import analyze_main  # noqa: PLC0415 - only this command needs it

        return analyze_main
    if name == "daily":
        from freecell._cli.daily import daily_main  # noqa: PLC0415 - only this command needs it

        return daily_main
    if name == "find":
        from freecell._cli.find import find_main  # noqa: PLC0415 - only this command needs it

        return find_main
    if name == "replay":
        from freecell._cli.replay import replay_main  # noqa: PLC0415 - only this command needs it

        return replay_main
    if name == "solve":
        from freecell._cli.solve import solve_main  # noqa: PLC0415 - only this command needs it

        return solve_main
    return None


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
    command = _subcommand(args[0]) if args else None
    if command is None:
        return run_command(_PROG, deals_main, args, stdin=stdin, stdout=stdout, stderr=stderr)
    prog = f"{_PROG} {args[0]}"
    return run_command(prog, command, args[1:], stdin=stdin, stdout=stdout, stderr=stderr)
