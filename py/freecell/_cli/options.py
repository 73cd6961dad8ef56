"""The one reader of every ``freecell`` command line: :mod:`argparse`, told not to print or exit.

A command builds a :class:`Parser` (an :class:`argparse.ArgumentParser`), adds its arguments
and calls :meth:`Parser.parse`. Where argparse would print a message and exit, the parser
raises instead, so the command says it on its own stderr, as one line, through
:func:`freecell._cli.streams.run_command`:

* a bad command line raises :class:`UsageError`, whose text is argparse's message (what a
  command checks after parsing, such as a deal number, it raises the same way), and the command
  exits with status 2;
* ``-h``/``--help`` and ``--version`` raise :class:`Answered` with argparse's help, or the
  version, for the command to write on its stdout and exit with status 0.

Every command hands either to :func:`answered_or_refused`, which says it and gives the status.

Argparse quotes an argument it refuses whole; each message here is one line and quotes at most
:data:`~freecell._errors.QUOTE_LIMIT` characters of it, as every message of the commands does.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Sequence
from typing import Final, NoReturn, TextIO

from freecell._cli.streams import EXIT_BAD_INPUT, EXIT_OK, quoted, signals_held
from freecell._errors import QUOTE_LIMIT

_LONG_WORD: Final = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+""")
"""A word of a message, where a text argparse quotes (``'-hxyz'``) counts as one word."""

_SHOWN_EXTRAS: Final = 3
"""The most unrecognized arguments a message names."""


def bounded_int(text: str, low: int, high: float, wanted: str) -> int:
    """Read a whole number from ``low`` to ``high``; else raise saying ``write {wanted}``.

    The core of every counting option's argparse ``type``; more than 20 digits is no count.

    >>> bounded_int("7", 1, 10, "a whole number from 1 to 10")
    7
    >>> bounded_int("1" * 5000, 1, float("inf"), "a whole number of at least 1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a whole number of at least 1, not '1111111111111111111111111111111111111111…'
    """  # noqa: E501 - a doctest's output is one line
    try:
        value = int(text) if len(text) <= 20 else low - 1
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        msg = f"write {wanted}, not {quoted(text)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def positive_int(text: str) -> int:
    """Read an option's whole number of at least 1 (an argparse ``type``).

    >>> positive_int("8")
    8
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a whole number of at least 1, not '0'
    """
    return bounded_int(text, 1, float("inf"), "a whole number of at least 1")


def positive_float(text: str) -> float:
    """Read an option's number of seconds above 0 (an argparse ``type``).

    >>> positive_float("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not 0 < value < float("inf"):
        msg = f"write a number of seconds above 0, not {quoted(text)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def usable_cores() -> int:
    """Return how many cores this process may run on (its CPU affinity where there is one).

    The ceiling of every count of worker processes: more than one a core only adds memory.

    >>> usable_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # macOS and Windows have no affinity
        return os.cpu_count() or 1


def states_count(text: str) -> int:
    """Read ``--max-states``: a whole number from 1 to the ceiling (an argparse ``type``).

    >>> states_count("600000")
    600000
    >>> states_count("10000001")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a number of states from 1 to 10,000,000, not '10000001'
    """
    from freecell._search import MAX_STATES_CEILING  # noqa: PLC0415 - only solving commands need it

    wanted = f"a number of states from 1 to {MAX_STATES_CEILING:,}"
    return bounded_int(text, 1, MAX_STATES_CEILING, wanted)


class UsageError(Exception):
    """A command line that the command cannot read; ``str()`` is the message, one line."""


class Answered(Exception):  # noqa: N818 - not an error: the command line asked a question
    """An option such as ``--help`` answered the command line; ``text`` goes to stdout."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _one_line(message: str) -> str:
    r"""Return argparse's message on one line, every word or quoted text cut to QUOTE_LIMIT.

    Argparse shows some arguments as they are (``ambiguous option: --=x``), line breaks and all.

    >>> _one_line("argument -h/--help: ignored explicit argument '" + "x" * 50 + "'")[-12:]
    "xxxxxxxxxx…'"
    >>> _one_line("ambiguous option: --=a\nb could match --help, --format")
    'ambiguous option: --=a b could match --help, --format'
    """

    def cut(match: re.Match[str]) -> str:
        word = match.group()
        quote = word[0] if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"" else ""
        inner = word[1:-1] if quote else word
        return word if len(inner) <= QUOTE_LIMIT else f"{quote}{inner[:QUOTE_LIMIT]}…{quote}"

    return _LONG_WORD.sub(cut, " ".join(message.splitlines()))


def answered_or_refused(prog: str, stop: Exception, stdout: TextIO, stderr: TextIO) -> int:
    r"""Say how a command line ended the command before it ran; return the exit status.

    Every command reads its line inside ``try`` and hands what stopped it here: an
    :class:`Answered` (``--help``, ``--version``) is written to stdout, status 0; anything
    else (a :class:`UsageError`, or a deal number's or a date's own error) is one line on
    stderr after the command's name, status 2.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> answered_or_refused("freecell", Answered("freecell 1.0\n"), out, err), out.getvalue()
    (0, 'freecell 1.0\n')
    >>> answered_or_refused("freecell", UsageError("no deal"), out, err), err.getvalue()
    (2, 'freecell: no deal\n')
    """
    if isinstance(stop, Answered):
        stdout.write(stop.text)
        return EXIT_OK
    stderr.write(f"{prog}: {stop}\n")
    return EXIT_BAD_INPUT


class _Answer(argparse.Action):
    """An option that answers the command line at once, as ``--help`` does: it raises."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        answer: Callable[[], str],
        help: str,  # noqa: A002 - argparse's name
    ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)
        self.answer = answer

    def __call__(
        self,
        parser: argparse.ArgumentParser,  # noqa: ARG002 - argparse's signature
        namespace: argparse.Namespace,  # noqa: ARG002
        values: object,  # noqa: ARG002
        option_string: str | None = None,  # noqa: ARG002
    ) -> NoReturn:
        raise Answered(self.answer())


class Parser(argparse.ArgumentParser):
    """An argument parser that raises (:class:`UsageError`, :class:`Answered`) and never exits.

    It has ``-h``/``--help``, and ``--version`` when given a ``version``. Its description and
    epilog are shown as written (line breaks kept).

    >>> parser = Parser("freecell", version="1.0")
    >>> _ = parser.add_argument("deals", nargs="*", metavar="DEAL")
    >>> parser.parse(["-1", "-2..5"]).deals
    ['-1', '-2..5']
    >>> parser.parse(["--bogus"])
    Traceback (most recent call last):
    ...
    freecell._cli.options.UsageError: unrecognized arguments: '--bogus'
    >>> parser.parse(["--version"])
    Traceback (most recent call last):
    ...
    freecell._cli.options.Answered: freecell 1.0
    <BLANKLINE>
    """

    def __init__(
        self,
        prog: str,
        *,
        description: str | None = None,
        epilog: str | None = None,
        version: str | None = None,
    ) -> None:
        super().__init__(
            prog=prog,
            description=description,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            add_help=False,
        )
        # A deal such as -1 or -2..5 is an argument, not an option: Python 3.12.8 and 3.13.1
        # read anything after a dash and a digit so (CPython gh-123945), 3.11 only plain
        # numbers, then calls -2..5 an unknown option. Every Python reads it the new way here.
        self._negative_number_matcher = re.compile(r"-\.?\d")
        self.add_argument(
            "-h", "--help", action=_Answer, answer=self.format_help, help="show this help and exit"
        )
        if version is not None:
            text = f"{prog} {version}\n"
            self.add_argument(
                "--version", action=_Answer, answer=lambda: text, help="show the version and exit"
            )

    def parse(self, argv: Sequence[str]) -> argparse.Namespace:
        """Read a command line, options and arguments in any order.

        Raises :class:`UsageError` for a bad line and :class:`Answered` for ``--help``.
        """
        with signals_held():  # a signal half-way through would leave argparse broken
            namespace, extras = self.parse_known_intermixed_args(argv)
        if extras:
            shown = " ".join(quoted(extra) for extra in extras[:_SHOWN_EXTRAS])
            more = " …" if len(extras) > _SHOWN_EXTRAS else ""
            self.error(f"unrecognized arguments: {shown}{more}")
        return namespace

    def error(self, message: str) -> NoReturn:
        """Raise :class:`UsageError` with the message, its quotes cut short; print nothing."""
        raise UsageError(_one_line(message))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Raise instead of exiting: :class:`Answered` for status 0, else :class:`UsageError`."""
        if status == 0:
            raise Answered(message or "")
        raise UsageError(_one_line((message or f"exit status {status}").strip()))


def cells_count(text: str) -> int:
    """Read ``--cells``: a number of free cells from 0 to 4 (an argparse ``type``).

    >>> cells_count("3")
    3
    >>> cells_count("5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a number of free cells from 0 to 4, not '5'
    """
    from freecell._notation import FREECELLS  # noqa: PLC0415 - only solving commands need it

    if text not in {str(count) for count in range(len(FREECELLS) + 1)}:
        msg = f"write a number of free cells from 0 to {len(FREECELLS)}, not {quoted(text)}"
        raise argparse.ArgumentTypeError(msg)
    return int(text)


def add_cells_argument(parser: argparse.ArgumentParser, *, retry: bool = False) -> None:
    """Add ``--cells K``: the free cells of the game searched (4 unless fewer are asked for).

    With ``retry`` (freecell analyze) the option is None when not given, for a retry to take
    the folder's own.
    """
    from freecell._notation import FREECELLS  # noqa: PLC0415 - only solving commands need it

    default = f"default {len(FREECELLS)}" + ("; --retry-unknown: the folder's" if retry else "")
    parser.add_argument(
        "--cells",
        type=cells_count,
        default=None if retry else len(FREECELLS),
        metavar="K",
        help=f"free cells the game has, 0 to {len(FREECELLS)}: fewer make it harder, and a deal "
        f"impossible with them is `impossible` ({default})",
    )


def add_budget_arguments(parser: argparse.ArgumentParser, timeout_help: str) -> None:
    """Add a search's budget per deal: ``--max-states``, and ``--timeout`` with ``timeout_help``."""
    from freecell._search import (  # noqa: PLC0415 - only solving commands need it
        DEFAULT_MAX_STATES,
        MAX_STATES_CEILING,
    )

    parser.add_argument(
        "--max-states",
        type=states_count,
        default=DEFAULT_MAX_STATES,
        metavar="N",
        help=f"positions a search may store, per deal, at most {MAX_STATES_CEILING:,} "
        f"(about 2.4 GB) (default {DEFAULT_MAX_STATES:,})",
    )
    parser.add_argument("--timeout", type=positive_float, metavar="SECONDS", help=timeout_help)
