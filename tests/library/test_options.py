"""The one reader of the command lines: argparse, raising where it would print and exit."""

import argparse
import io
import signal
import threading
import traceback
from collections.abc import Callable
from typing import TextIO

import pytest

from freecell._cli.analyze import _parser as analyze_parser
from freecell._cli.analyze import analyze_main
from freecell._cli.dealer import _parser as deals_parser
from freecell._cli.dealer import deals_main
from freecell._cli.options import Answered, Parser, UsageError
from freecell._cli.replay import _parser as replay_parser
from freecell._cli.replay import replay_main
from freecell._cli.solve import _parser as solve_parser
from freecell._cli.solve import solve_main
from freecell._errors import QUOTE_LIMIT


def _jobs(text: str) -> int:
    """Read a whole number of at least 1, in the words of the commands' own readers."""
    if not text.isdigit() or int(text) < 1:
        msg = f"write a whole number of at least 1, not {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return int(text)


def parser() -> Parser:
    """Return a parser with the kinds of option the commands have, and deals."""
    made = Parser("prog", description="Do things.", epilog="Exit status: 0.", version="1.0")
    made.add_argument("-f", "--format", default="fcs")
    made.add_argument("--fast", action="store_true")
    made.add_argument("-j", "--jobs", type=_jobs, default=1)
    made.add_argument("deals", nargs="*", metavar="DEAL")
    return made


def refused(argv: list[str]) -> str:
    """Return the message of the UsageError that reading argv raises."""
    with pytest.raises(UsageError) as error:
        parser().parse(argv)
    return str(error.value)


class TestErrors:
    @pytest.mark.parametrize(
        ("argv", "message"),
        [(["--bogus", "1"], "unrecognized arguments: '--bogus'"),
         (["-x"], "unrecognized arguments: '-x'"),
         (["-f"], "argument -f/--format: expected one argument"),
         (["-f", "--fast"], "argument -f/--format: expected one argument"),
         (["--help=x"], "argument -h/--help: ignored explicit argument 'x'"),
         (["-j", "0"], "argument -j/--jobs: write a whole number of at least 1, not '0'")],
    )  # fmt: skip
    def test_a_bad_line_raises_argparse_message(self, argv: list[str], message: str) -> None:
        """A bad option raises UsageError with argparse's message, one line, no usage."""
        assert refused(argv) == message

    def test_an_ambiguous_abbreviation_names_the_options(self) -> None:
        """An abbreviation of several options is refused, naming them (argparse's wording)."""
        message = refused(["--f", "json"])
        assert message.startswith("ambiguous option: --f")
        assert "--format" in message
        assert "--fast" in message

    def test_nothing_is_written_and_nothing_exits(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A refused line raises UsageError, not SystemExit, and writes nothing anywhere."""
        for argv in (["--bogus"], ["-f"], ["-j", "x"], ["--help=x"], ["--f"]):
            with pytest.raises(UsageError):
                parser().parse(argv)
        assert capsys.readouterr() == ("", "")

    @pytest.mark.parametrize(("status", "raised"), [(0, Answered), (2, UsageError)])
    def test_exit_raises(self, status: int, raised: type[Exception]) -> None:
        """argparse's exit raises too: Answered for status 0, UsageError for any other."""
        with pytest.raises(raised, match="bye"):
            parser().exit(status, "bye\n")

    def test_many_unrecognized_arguments_are_named_short(self) -> None:
        """The message names the first three unrecognized arguments, then an ellipsis."""
        message = refused(["--a", "--b", "--c", "--d", "--e"])
        assert message == "unrecognized arguments: '--a' '--b' '--c' …"

    @pytest.mark.parametrize(
        ("argv", "tail"),
        [(["--bogus" + "x" * 99], "x…'"), (["--help=" + "x" * 99], "x…'"),
         (["-h" + "y" * 99], "y…'"), (["--=" + "z" * 99], "z… could match --help")],
    )  # fmt: skip
    def test_long_arguments_are_quoted_short(self, argv: list[str], tail: str) -> None:
        """Each argument argparse quotes in a message shows at most QUOTE_LIMIT characters."""
        message = refused(argv)
        assert len(message) < 3 * QUOTE_LIMIT + 40
        assert tail in message

    def test_a_line_break_in_an_argument_stays_out_of_the_message(self) -> None:
        """A message is one line even where argparse shows an argument as it is."""
        assert refused(["--=a\nb"]).startswith("ambiguous option: --=a b could match")


class TestAnswers:
    @pytest.mark.parametrize("argv", [["-h"], ["--help"], ["1", "--he"], ["--bogus", "-h"]])
    def test_help_is_argparse_help(self, argv: list[str]) -> None:
        """-h or --help, anywhere and abbreviated, answers with argparse's own help."""
        made = parser()
        with pytest.raises(Answered) as answer:
            made.parse(argv)
        assert answer.value.text == made.format_help()
        assert answer.value.text.startswith("usage: prog [-h] [--version] [-f FORMAT]")
        assert "  -h, --help " in answer.value.text

    def test_version(self) -> None:
        """--version answers with the program's name and version; only given a version."""
        with pytest.raises(Answered) as answer:
            parser().parse(["--version"])
        assert answer.value.text == "prog 1.0\n"
        with pytest.raises(UsageError):
            Parser("prog").parse(["--version"])

    def test_description_and_epilog_keep_their_lines(self) -> None:
        """The description and the epilog are shown as written, paragraphs and all."""
        text = Parser("prog", description="One.\n\nTwo\nlines.").format_help()
        assert "One.\n\nTwo\nlines.\n" in text


class TestArguments:
    def test_deals_that_look_like_options_are_arguments(self) -> None:
        """A dash before a digit starts an argument: deal -1, range -2..5, -.5 (then refused)."""
        assert parser().parse(["-1", "-2..5", "-.5", "-"]).deals == ["-1", "-2..5", "-.5", "-"]

    def test_options_and_arguments_in_any_order(self) -> None:
        """Options may come between arguments, which keep their order; the last value counts."""
        args = parser().parse(["1", "-fjson", "-2..-1", "--format=rows", "3", "-j2", "--fa"])
        assert (args.deals, args.format, args.jobs, args.fast) == (
            ["1", "-2..-1", "3"],
            "rows",
            2,
            True,
        )

    def test_double_dash_ends_options(self) -> None:
        """After `--` every argument is an argument, even one that looks like an option."""
        assert parser().parse(["1", "--", "-f", "json"]).deals == ["1", "-f", "json"]

    def test_short_values_and_clusters(self) -> None:
        """`-f=json` reads json, and a flag shares a dash with what follows (argparse's)."""
        args = parser().parse(["-f=json", "-j", "3"])
        assert (args.format, args.jobs) == ("json", 3)


Main = Callable[[list[str], TextIO, TextIO, TextIO], int]


class TestCommands:
    @pytest.mark.parametrize(
        ("main", "make"),
        [
            (deals_main, deals_parser),
            (replay_main, replay_parser),
            (solve_main, solve_parser),
            (analyze_main, analyze_parser),
        ],
    )
    def test_each_command_prints_argparse_help(
        self, main: Main, make: Callable[[], Parser], capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`--help` of every command is its parser's argparse help, on the command's stdout."""
        out, err = io.StringIO(), io.StringIO()
        assert main(["--help"], io.StringIO(), out, err) == 0
        assert (out.getvalue(), err.getvalue()) == (make().format_help(), "")
        assert capsys.readouterr() == ("", "")

    @pytest.mark.parametrize(
        ("main", "prog"),
        [(deals_main, "freecell"), (replay_main, "freecell replay"),
         (solve_main, "freecell solve"), (analyze_main, "freecell analyze")],
    )  # fmt: skip
    def test_each_command_says_a_bad_option_in_one_line(
        self, main: Main, prog: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A bad option is one line on the command's stderr, with its name, and status 2."""
        out, err = io.StringIO(), io.StringIO()
        assert main(["1", "--bogus"], io.StringIO(), out, err) == 2
        assert (out.getvalue(), err.getvalue()) == (
            "",
            f"{prog}: unrecognized arguments: '--bogus'\n",
        )
        assert capsys.readouterr() == ("", "")


class Stop(BaseException):
    """What the test's SIGTERM handler raises, as the commands' does (streams.Terminated)."""


class TestSignals:
    def test_a_signal_while_the_line_is_read_comes_after(self) -> None:
        """SIGTERM while argparse reads the line is taken once it is read, not inside argparse.

        parse_intermixed_args restores its actions in a `finally` that fails when a handler
        raised half-way through (seen: AttributeError 'save_nargs' and a traceback, status 1,
        for a SIGTERM as `freecell 617` started).
        """
        sent: list[str] = []

        def stopped(text: str) -> int:
            if not sent:
                sent.append(text)
                # at the main thread, which holds it while argparse is at work: sent to the
                # process, another thread (pytest-xdist's) would take it and run the handler at once
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)
            return int(text)

        def stop(signum: int, frame: object) -> None:
            raise Stop

        made = Parser("prog")
        made.add_argument("-j", "--jobs", type=stopped, default=1)
        made.add_argument("deals", nargs="*", metavar="DEAL")
        previous = signal.signal(signal.SIGTERM, stop)
        try:
            with pytest.raises(Stop) as raised:
                made.parse(["1", "-j", "2", "3"])
        finally:
            signal.signal(signal.SIGTERM, previous)
        files = {frame.filename for frame in traceback.extract_tb(raised.value.__traceback__)}
        assert not [name for name in files if name.endswith("argparse.py")]
        assert made.parse(["1", "-j", "3"]).deals == ["1"]  # the parser is whole
