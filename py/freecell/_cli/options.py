"""The one reader of every ``freecell`` command line: :mod:`argparse`, told not to print or exit.

A command builds a :class:`Parser` (an :class:`argparse.ArgumentParser`), adds its arguments
and calls :meth:`Parser.parse`. Where argparse would print a message and exit, the parser
raises instead, so the command says it on its own stderr, as one line, under the guard of
:func:`freecell._cli.guard.run_command`:

* a bad command line raises :class:`UsageError`, whose text is argparse's message (what a
  command checks after parsing, such as a deal number, it raises the same way), and the command
  exits with status 2;
* ``-h``/``--help`` and ``--version`` raise :class:`Answered` with argparse's help, or the
  version, for the command to write on its stdout and exit with status 0.

Argparse quotes an argument it refuses whole; each message here is one line and quotes at most
:data:`~freecell._errors.QUOTE_LIMIT` characters of it, as every message of the commands does.

Until every command has moved to :class:`Parser`, the hand-written reader it replaces
(:func:`read_options`, with its :class:`Option` table and :class:`Syntax`) stays below.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, NoReturn, TypeVar, cast

from freecell._cli.guard import quoted
from freecell._errors import QUOTE_LIMIT

_LONG_WORD: Final = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+""")
"""A word of a message, where a text argparse quotes (``'-hxyz'``) counts as one word."""

_SHOWN_EXTRAS: Final = 3
"""The most unrecognized arguments a message names."""


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


_NUMBER: Final = re.compile(r"-[0-9]+|-[0-9]*\.[0-9]+")  # argparse's negative numbers

_T = TypeVar("_T")
_D = TypeVar("_D")

Kind = Literal["unknown", "ambiguous", "missing", "invalid", "no-value"]


@dataclass(frozen=True, slots=True)
class Option(Generic[_T]):
    """An option of a command: its long name, maybe a short one, and how it reads a value.

    ``read`` turns the value's text into the option's value, raising ``ValueError`` with the
    reason for text it refuses; an option without ``read`` is a flag and takes no value.

    >>> Option("--format", "-f", str).label
    '-f/--format'
    """

    long: str
    short: str | None = None
    read: Callable[[str], _T] | None = None

    @property
    def label(self) -> str:
        """The option's names as messages show them: ``-f/--format`` or ``--version``."""
        return self.long if self.short is None else f"{self.short}/{self.long}"


class OptionError(Exception):
    """The first bad option of a command line, as data for the command to say.

    ``kind`` is ``"unknown"`` or ``"ambiguous"`` (``name`` names no option, or several:
    ``matches``), ``"missing"`` (``option`` needs a value), ``"invalid"`` (``option``'s
    ``value`` was refused; ``reason`` says why) or ``"no-value"`` (a flag given ``value``);
    ``arg`` is the whole argument as the user wrote it.
    """

    def __init__(
        self,
        kind: Kind,
        arg: str,
        *,
        name: str = "",
        option: Option[Any] | None = None,
        value: str = "",
        reason: str = "",
        matches: Sequence[Option[Any]] = (),
    ) -> None:
        super().__init__(kind, arg)
        self.kind: Kind = kind
        self.arg = arg
        self.name = name
        self.option = option
        self.value = value
        self.reason = reason
        self.matches = tuple(matches)


@dataclass(frozen=True, slots=True)
class Syntax:
    """Where a command's line differs from the default's (see the module)."""

    double_dash: Literal["ends options", "ignored", "argument"] = "ends options"
    argparse: bool = False
    whole_words: bool = False


@dataclass(frozen=True, slots=True)
class CommandLine:
    """A command line read: the options given, in order, with their values, and the rest."""

    options: list[tuple[Option[Any], object]]
    arguments: list[str]

    def given(self, option: Option[Any]) -> bool:
        """Tell whether the option was given."""
        return any(given is option for given, _ in self.options)

    def last(self, option: Option[_T], default: _D) -> _T | _D:
        """Return the option's last value, or ``default`` when it was not given."""
        values = [value for given, value in self.options if given is option]
        return cast(_T, values[-1]) if values else default


def _looks_like_option(arg: str, syntax: Syntax) -> bool:
    if len(arg) < 2 or arg[0] != "-":
        return False
    if syntax.argparse:
        return not _NUMBER.fullmatch(arg) and " " not in arg
    return arg[1] == "-" or arg[1].isalpha()


def _long_option(arg: str, options: Sequence[Option[Any]]) -> tuple[Option[Any], str | None]:
    name, equals, value = arg.partition("=")
    matches = [option for option in options if option.long.startswith(name)]
    exact = [option for option in matches if option.long == name]
    if len(exact) == 1 or len(matches) == 1:
        return (exact or matches)[0], value if equals else None
    raise OptionError("ambiguous" if matches else "unknown", arg, name=name, matches=matches)


def _short_option(
    arg: str, options: Sequence[Option[Any]], syntax: Syntax
) -> tuple[Option[Any], str | None]:
    name = arg[:2]
    found = next((option for option in options if option.short == name), None)
    if found is None:
        raise OptionError("unknown", arg, name=name)
    head, equals, tail = arg.partition("=")
    if syntax.argparse and equals and head == name:
        return found, tail
    return found, arg[2:] or None


def _read_value(option: Option[Any], arg: str, value: str) -> object:
    assert option.read is not None
    try:
        return option.read(value)
    except ValueError as error:
        raise OptionError("invalid", arg, option=option, value=value, reason=str(error)) from None


def read_options(
    argv: Sequence[str], options: Sequence[Option[Any]], syntax: Syntax = Syntax()
) -> CommandLine:
    """Read a command line: every option, in order, with its value, and the other arguments.

    Raises :class:`OptionError` for the first bad option.

    >>> fmt = Option("--format", "-f", str)
    >>> line = read_options(["-fjson", "617", "--form", "rows", "--", "-1"], [fmt])
    >>> line.last(fmt, "fcs"), line.arguments
    ('rows', ['617', '-1'])
    >>> read_options(["--fmt"], [fmt]).arguments
    Traceback (most recent call last):
    ...
    freecell._cli.options.OptionError: ('unknown', '--fmt')
    """
    given: list[tuple[Option[Any], object]] = []
    arguments: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--" and syntax.double_dash != "argument":
            if syntax.double_dash == "ends options":
                arguments.extend(args)
                break
            continue
        if syntax.whole_words:
            found = next((o for o in options if arg in (o.long, o.short)), None)
            if found is None:
                arguments.append(arg)
            else:
                given.append((found, True))
            continue
        if not _looks_like_option(arg, syntax):
            arguments.append(arg)
            continue
        try:
            if arg.startswith("--"):
                option, value = _long_option(arg, options)
            else:
                option, value = _short_option(arg, options, syntax)
        except OptionError as error:
            if syntax.argparse and error.kind == "unknown":
                arguments.append(arg)
                continue
            raise
        given += _take(option, value, arg, args, options=options, syntax=syntax)
    return CommandLine(given, arguments)


def _take(
    option: Option[Any],
    value: str | None,
    arg: str,
    args: Iterator[str],
    *,
    options: Sequence[Option[Any]],
    syntax: Syntax,
) -> list[tuple[Option[Any], object]]:
    """Return an option with its value, reading the next argument if the value is not in ``arg``.

    With argparse's conventions, letters after a flag are more flags (``-hj2``).
    """
    if option.read is None:
        if value is None:
            return [(option, True)]
        if syntax.argparse and not arg.startswith("--"):
            following = next((o for o in options if o.short == "-" + value[0]), None)
            if following is not None:
                rest = value[1:] or None
                return [
                    (option, True),
                    *_take(following, rest, arg, args, options=options, syntax=syntax),
                ]
        raise OptionError("no-value", arg, option=option, value=value)
    if value is None:
        value = next(args, None)
        if value is None or (syntax.argparse and _looks_like_option(value, syntax)):
            raise OptionError("missing", arg, option=option)
    return [(option, _read_value(option, arg, value))]
