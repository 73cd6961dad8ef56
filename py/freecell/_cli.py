"""The ``freecell`` command: print deals by number, or run a subcommand such as ``replay``.

:func:`main` picks the command from the first argument and runs it inside the one guard of
:func:`freecell._command.run_command`, which turns every fault of the streams into an exit
status and one line on stderr. A subcommand is a function ``NAME_main(argv, stdin, stdout,
stderr) -> int`` in a module of its own, imported only when it runs (:func:`_subcommand`).

The options are read here rather than by :mod:`argparse`, which writes to ``sys.stdout`` and
``sys.stderr`` itself, exits the process, and echoes a whole bad argument in its messages.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import BinaryIO, Final, TextIO

import freecell
from freecell._command import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    Command,
    quoted,
    run_command,
)
from freecell._deal import (
    FORMATS,
    VALID_DEALS_TEXT,
    DealNumberError,
    Format,
    format_boards,
    parse_deal_spec,
)

_PROG: Final = "freecell"
_BATCH: Final = 512  # boards joined into one write
_FORMATS_TEXT: Final = ", ".join(FORMATS)

USAGE: Final = f"usage: {_PROG} [-h] [--version] [-f {{{','.join(FORMATS)}}}] DEAL [DEAL ...]"
HELP: Final = f"""{USAGE}
       {_PROG} replay DEAL [MOVE ...]
       {_PROG} solve [OPTIONS] DEAL ...

Print Microsoft FreeCell deals by number, boards separated by a blank line.

A DEAL is a deal number (617, #617, -1) or a range FIRST..LAST (1..1000); deal numbers
are {VALID_DEALS_TEXT}.

options:
  -h, --help     show this help and exit
  --version      show the version and exit
  -f, --format   fcs: fc-solve's board input, a line per column (default);
                 rows: the original task's 7 rows;
                 json: JSON Lines, one object a line (number, columns, rows) for each
                 deal, so that a range streams (`jq -s` makes one array of them);
                 unicode: fcs with suit symbols

`freecell replay N MOVE...` replays moves from deal N (see `freecell replay --help`);
`freecell solve DEAL...` solves deals (see `freecell solve --help`).

Exit status: 0 done; 1 when the output cannot be written (a full disk, a closed
descriptor), while a reader that stops early (`freecell 1..100000 | head`) ends it
quietly with 0; 2 for a bad command line.
"""

_LONG_OPTIONS: Final = ("--help", "--version", "--format")
_OPTIONS_TEXT: Final = "the options are -h/--help, --version and -f/--format"


class _UsageError(Exception):
    """A command line that names nothing valid; its message is one line for stderr."""


def _option_name(arg: str) -> str | None:
    """Return the long option an argument names (abbreviations allowed), or None for a deal.

    Raises :class:`_UsageError` for an unknown or ambiguous option. A ``-`` before a digit
    (``-1``, ``-2..5``) starts a deal, not an option.
    """
    if arg.startswith("--"):
        name = arg.partition("=")[0]
        matches = [option for option in _LONG_OPTIONS if option.startswith(name)]
        if len(matches) == 1:
            return matches[0]
        what = "ambiguous" if matches else "unknown"
        msg = f"{what} option {quoted(name)}: {_OPTIONS_TEXT}"
        raise _UsageError(msg)
    if len(arg) > 1 and arg[0] == "-" and arg[1].isalpha():
        if arg[1] in "hf":
            return {"h": "--help", "f": "--format"}[arg[1]]
        msg = f"unknown option {quoted(arg[:2])}: {_OPTIONS_TEXT}"
        raise _UsageError(msg)
    return None


def _format(text: str) -> Format:
    for fmt in FORMATS:
        if text == fmt:
            return fmt
    msg = f"invalid format {quoted(text)}: choose from {_FORMATS_TEXT}"
    raise _UsageError(msg)


def _attached_value(arg: str) -> str | None:
    """Return the value written into an option's argument (``--format=json``, ``-fjson``)."""
    if arg.startswith("--"):
        _, equals, value = arg.partition("=")
        return value if equals else None
    return arg[2:] or None


def _parse(argv: Sequence[str]) -> tuple[str | None, Format, list[str]]:
    """Read the command line: the action (``--help``, ``--version`` or None), format, deals."""
    action: str | None = None
    fmt: Format = "fcs"
    deals: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            deals.extend(args)
            break
        option = _option_name(arg)
        value = _attached_value(arg)
        if option is None:
            deals.append(arg)
        elif option == "--format":
            value = next(args, None) if value is None else value
            if value is None:
                msg = f"-f/--format needs a format: choose from {_FORMATS_TEXT}"
                raise _UsageError(msg)
            fmt = _format(value)
        elif value is not None:
            msg = f"{option} takes no value: {quoted(arg)}"
            raise _UsageError(msg)
        else:
            action = action or option
    if action is None and not deals:
        msg = f"name at least one deal: {VALID_DEALS_TEXT}"
        raise _UsageError(msg)
    return action, fmt, deals


def _numbers(specs: Sequence[Iterable[int]]) -> Iterator[int]:
    for spec in specs:
        yield from spec


def _write_boards(numbers: Iterator[int], fmt: Format, stdout: TextIO) -> None:
    boards = format_boards(numbers, fmt)
    separator = "" if fmt == "json" else "\n"
    first = next(boards, None)
    if first is None:
        return
    stdout.write(first)
    while batch := list(islice(boards, _BATCH)):
        stdout.write(separator + separator.join(batch))
        stdout.flush()


def deals_main(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:  # noqa: ARG001 - every command takes stdin
    """Run ``freecell DEAL...``: print the boards; return the exit status.

    Every argument is checked before the first board is printed.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> deals_main(["-f", "rows", "617"], io.StringIO(), out, err)
    0
    >>> out.getvalue().splitlines()[0]
    '7D AD 5C 3S 5S 8C 2D AH'
    >>> deals_main(["1.."], io.StringIO(), out, err)
    2
    """
    try:
        action, fmt, deal_texts = _parse(argv)
        if action == "--help":
            stdout.write(HELP)
            return EXIT_OK
        if action == "--version":
            stdout.write(f"{_PROG} {freecell.__version__}\n")
            return EXIT_OK
        specs = [parse_deal_spec(text) for text in deal_texts]
    except (_UsageError, DealNumberError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    _write_boards(_numbers(specs), fmt, stdout)
    return EXIT_OK


def _subcommand(name: str) -> Command | None:
    """Return the function of the subcommand ``name``, importing its module only now."""
    if name == "replay":
        from freecell._replay import replay_main  # noqa: PLC0415 - only this command needs it

        return replay_main
    if name == "solve":
        from freecell._solve_cli import solve_main  # noqa: PLC0415 - only this command needs it

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

    >>> import io
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
