"""``freecell DEAL...``: print deals by number, boards separated by a blank line.

Every argument is checked before the first board is printed; a range streams, a batch of boards
a write.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Final, TextIO

from freecell._cli.options import Answered, Parser, UsageError, answered_or_refused
from freecell._cli.streams import EXIT_OK, quoted
from freecell._deal import (
    FORMATS,
    VALID_DEALS_TEXT,
    DealNumberError,
    Format,
    format_boards,
    parse_deal_spec,
)
from freecell._version import __version__

_PROG: Final = "freecell"
_BATCH: Final = 512  # boards joined into one write
_FORMATS_TEXT: Final = ", ".join(FORMATS)

_DESCRIPTION: Final = f"""\
Print Microsoft FreeCell deals by number, boards separated by a blank line.

A DEAL is a deal number (617, #617, -1) or a range FIRST..LAST (1..1000); deal
numbers are {VALID_DEALS_TEXT}.
"""
_FORMAT_HELP: Final = (
    "fcs: fc-solve's board input, a line per column (default); rows: the original task's 7 "
    "rows; json: JSON Lines, one object a line (number, columns, rows) for each deal, so that "
    "a range streams (`jq -s` makes one array of them); unicode: fcs with suit symbols"
)
_EPILOG: Final = f"""\
`{_PROG} replay N MOVE...` replays moves from deal N, `{_PROG} solve DEAL...`
solves deals, `{_PROG} analyze DEAL... --out DIR` solves ranges on a Dask cluster
into Parquet files, `{_PROG} daily [DATE]` prints the daily deal, `{_PROG} find
CARD...` finds a deal's number from its layout: see `{_PROG} replay -h`,
`{_PROG} solve -h`, `{_PROG} analyze -h`, `{_PROG} daily -h`, `{_PROG} find -h`.

Exit status: 0 done; 1 when the output cannot be written (a full disk, a closed
descriptor), while a reader that stops early (`{_PROG} 1..100000 | head`) ends
it quietly with 0; 2 for a bad command line.
"""


def _format(text: str) -> Format:
    for fmt in FORMATS:
        if text == fmt:
            return fmt
    msg = f"invalid format {quoted(text)}: choose from {_FORMATS_TEXT}"
    raise argparse.ArgumentTypeError(msg)


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG, version=__version__)
    parser.add_argument(
        "-f", "--format", type=_format, default="fcs", metavar="FORMAT", help=_FORMAT_HELP
    )
    parser.add_argument("deals", nargs="*", metavar="DEAL", help="a deal number or a range")
    return parser


def _specs(deal_texts: Sequence[str]) -> list[Iterable[int]]:
    """Return the deal numbers of each argument; raise UsageError or DealNumberError if bad."""
    if not deal_texts:
        msg = f"name at least one deal: {VALID_DEALS_TEXT}"
        raise UsageError(msg)
    return [parse_deal_spec(text) for text in deal_texts]


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
        args = _parser().parse(argv)
        specs = _specs(args.deals)
    except (Answered, UsageError, DealNumberError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    _write_boards(_numbers(specs), args.format, stdout)
    return EXIT_OK
