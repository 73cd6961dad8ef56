"""The one reader of every ``freecell`` command line: options from a table, then arguments.

A command lists its :class:`Option` s and calls :func:`read_options`, which returns the options
given, in order, and the other arguments; it raises :class:`OptionError` for the first bad
option, and the command says it in its own words (:attr:`OptionError.kind` says what is wrong).
It writes nothing and exits nothing, unlike :mod:`argparse`, so the guard around the command
(:func:`freecell._cli.guard.run_command`) sees every message.

The three commands read their lines as they always have, and a :class:`Syntax` names where they
differ, so that no message or exit status changed when they came to share this reader:

* ``freecell DEAL...`` (the default): ``--`` ends the options; an unknown option is an error; an
  option's value is the rest of its argument (``-fjson``, ``--format=json``) or the next one,
  whatever it looks like.
* ``freecell solve``, written with :mod:`argparse` first, keeps its conventions
  (``argparse=True``): an unknown option is an argument (a deal that is then refused); a value
  never looks like an option (``-1`` and ``-.5`` are numbers, not options); ``-f=json`` reads
  ``json``; flags may share one dash (``-hj2``); and every ``--`` is dropped.
* ``freecell replay`` takes only whole words (``whole_words=True``): ``-h`` or ``--help``
  anywhere asks for help, and every other argument, ``--`` included, is a deal or a move.

Long options may be abbreviated (``--fo`` for ``--format``) except in whole words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar, cast

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
