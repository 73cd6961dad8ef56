"""``freecell DEAL...``: print deals by number, boards separated by a blank line.

Every argument is checked before the first board is printed; a range streams, a batch of boards
a write.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Final, TextIO

import freecell
from freecell._cli.guard import EXIT_BAD_INPUT, EXIT_OK, quoted
from freecell._cli.options import Option, OptionError, read_options
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


class _UsageError(Exception):
    """A command line that names nothing valid; its message is one line for stderr."""


_OPTIONS_TEXT: Final = "the options are -h/--help, --version and -f/--format"


def _format(text: str) -> Format:
    for fmt in FORMATS:
        if text == fmt:
            return fmt
    msg = f"invalid format {quoted(text)}: choose from {_FORMATS_TEXT}"
    raise ValueError(msg)


_HELP: Final[Option[bool]] = Option("--help", "-h")
_VERSION: Final[Option[bool]] = Option("--version")
_FORMAT: Final = Option("--format", "-f", _format)
_OPTIONS: Final = (_HELP, _VERSION, _FORMAT)


def _say(error: OptionError) -> str:
    """Return the message of a bad option."""
    if error.kind in ("unknown", "ambiguous"):
        return f"{error.kind} option {quoted(error.name)}: {_OPTIONS_TEXT}"
    if error.kind == "missing":
        return f"-f/--format needs a format: choose from {_FORMATS_TEXT}"
    if error.kind == "invalid":
        return error.reason
    assert error.option is not None
    return f"{error.option.long} takes no value: {quoted(error.arg)}"


def _parse(argv: Sequence[str]) -> tuple[Option[bool] | None, Format, list[str]]:
    """Read the command line: the first of ``--help`` and ``--version`` (or None), format, deals.

    Raises :class:`_UsageError` for a bad option and for a line with neither deals nor action.
    """
    try:
        line = read_options(argv, _OPTIONS)
    except OptionError as error:
        raise _UsageError(_say(error)) from None
    action = next((o for o, _ in line.options if o in (_HELP, _VERSION)), None)
    if action is None and not line.arguments:
        msg = f"name at least one deal: {VALID_DEALS_TEXT}"
        raise _UsageError(msg)
    return action, line.last(_FORMAT, "fcs"), line.arguments


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
        if action is _HELP:
            stdout.write(HELP)
            return EXIT_OK
        if action is _VERSION:
            stdout.write(f"{_PROG} {freecell.__version__}\n")
            return EXIT_OK
        specs = [parse_deal_spec(text) for text in deal_texts]
    except (_UsageError, DealNumberError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    _write_boards(_numbers(specs), fmt, stdout)
    return EXIT_OK
