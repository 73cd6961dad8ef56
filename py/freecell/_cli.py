"""The ``freecell`` command: print deals by number."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import NoReturn, TextIO, cast

from freecell._deal import (
    FORMATS,
    SPECIAL_DEALS,
    VALID_DEALS_TEXT,
    DealNumberError,
    Format,
    format_boards,
    parse_deal_number,
)

_BATCH = 512  # boards joined into one write


class _UsageError(Exception):
    """A command line that names nothing valid; its message is one line for stderr."""


def parse_deal_spec(text: str) -> range | tuple[int, ...]:
    """Parse one argument: a deal number or an inclusive range ``FIRST..LAST``.

    A range holds every deal number from FIRST to LAST, skipping the numbers that name no deal.

    >>> list(parse_deal_spec("-2..2"))
    [-2, -1, 1, 2]
    >>> parse_deal_spec("617")
    (617,)
    """
    first_text, dots, last_text = text.partition("..")
    if not dots:
        return (parse_deal_number(text),)
    first, last = parse_deal_number(first_text), parse_deal_number(last_text)
    if first > last:
        msg = f"invalid range {text!r}: the first deal must not come after the last"
        raise DealNumberError(msg)
    if first > 0:
        return range(first, last + 1)
    return tuple(n for n in SPECIAL_DEALS[::-1] if n >= first and n <= last) + tuple(
        range(1, last + 1)
    )


def _numbers(specs: Sequence[range | tuple[int, ...]]) -> Iterator[int]:
    for spec in specs:
        yield from spec


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Exit with status 2 and one line on stderr, as for a bad deal."""
        self.exit(2, f"{self.prog}: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="freecell",
        usage="%(prog)s [-h] [-f {fcs,rows,json,unicode}] DEAL [DEAL ...]",
        description="Print Microsoft FreeCell deals by number, boards separated by a blank line.",
        epilog=(
            f"A DEAL is a deal number (617, #617, -1) or a range FIRST..LAST (1..1000); deal "
            f"numbers are {VALID_DEALS_TEXT}. `freecell replay N MOVE...` replays moves from "
            "deal N (see `freecell replay --help`); `freecell solve DEAL...` solves deals (see "
            "`freecell solve --help`)."
        ),
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        default="fcs",
        help="fcs: fc-solve's board input, a line per column (default); rows: the original "
        "task's 7 rows; json: a line of number, columns and rows; unicode: fcs with suit symbols",
    )
    return parser


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
    stdout.flush()


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Run the command with ``argv`` (default: ``sys.argv[1:]``) and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if stdout is None else stdout
    if args[:1] == ["replay"]:
        from freecell._replay import replay_main  # noqa: PLC0415 - only this command needs it

        return replay_main(args[1:], sys.stdin, out, sys.stderr)
    if args[:1] == ["solve"]:
        from freecell._solve_cli import solve_main  # noqa: PLC0415 - only this command needs it

        return solve_main(args[1:], sys.stdin, out, sys.stderr)
    parser = _parser()
    # Deals are whatever is not an option: argparse would read `-2..5` as an unknown option.
    namespace, deal_texts = parser.parse_known_args(args)
    if not deal_texts:
        parser.error(f"name at least one deal: {VALID_DEALS_TEXT}")
    try:
        specs = [parse_deal_spec(text) for text in deal_texts if text != "--"]
    except DealNumberError as error:
        print(f"freecell: {error}", file=sys.stderr)
        return 2
    try:
        _write_boards(_numbers(specs), cast(Format, namespace.format), out)
    except BrokenPipeError:
        # The reader went away (`freecell 1..1000000 | head`): stop quietly, as `yes | head` does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 0
