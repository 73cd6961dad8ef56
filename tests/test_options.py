"""The one reader of the command lines: options from a table, each command's conventions."""

import pytest

from freecell._cli.options import Option, OptionError, Syntax, read_options

HELP: Option[bool] = Option("--help", "-h")
FORMAT = Option("--format", "-f", str)
JOBS = Option("--jobs", "-j", int)
OPTIONS = (HELP, FORMAT, JOBS)
ARGPARSE = Syntax(double_dash="ignored", argparse=True)
WHOLE_WORDS = Syntax(double_dash="argument", whole_words=True)
DEFAULT = Syntax()


def kind(argv: list[str], syntax: Syntax = DEFAULT) -> str:
    """Return the kind of error reading argv raises."""
    with pytest.raises(OptionError) as error:
        read_options(argv, OPTIONS, syntax)
    return error.value.kind


class TestDefault:
    def test_values_attached_or_next(self) -> None:
        """A value is the rest of its argument or the next one; the last one counts."""
        line = read_options(["-fjson", "1", "--format=rows", "--fo", "fcs", "2"], OPTIONS)
        assert (line.last(FORMAT, "x"), line.arguments) == ("fcs", ["1", "2"])

    def test_double_dash_ends_options(self) -> None:
        """After `--` every argument is an argument, even one that looks like an option."""
        assert read_options(["--", "-h", "--"], OPTIONS).arguments == ["-h", "--"]

    def test_numbers_are_arguments(self) -> None:
        """A dash before a digit starts an argument (deal -1, range -2..5)."""
        assert read_options(["-1", "-2..5"], OPTIONS).arguments == ["-1", "-2..5"]

    @pytest.mark.parametrize(
        ("argv", "expected"),
        [(["--bogus"], "unknown"), (["-x"], "unknown"), (["--=x"], "ambiguous"),
         (["-f"], "missing"), (["-hx"], "no-value"), (["--help=x"], "no-value")],
    )  # fmt: skip
    def test_bad_options(self, argv: list[str], expected: str) -> None:
        """Unknown, ambiguous, missing values and values for flags are errors of their kind."""
        assert kind(argv) == expected

    def test_a_value_may_look_like_an_option(self) -> None:
        """The value after an option is the next argument, whatever it looks like."""
        assert read_options(["-f", "--help"], OPTIONS).last(FORMAT, "") == "--help"

    def test_a_refused_value_says_why(self) -> None:
        """A value the option's reader refuses is an "invalid" error with the reader's reason."""
        with pytest.raises(OptionError) as error:
            read_options(["-j", "x"], OPTIONS)
        assert (error.value.kind, error.value.value) == ("invalid", "x")
        assert "invalid literal" in error.value.reason


class TestArgparseConventions:
    def test_unknown_options_are_arguments(self) -> None:
        """An option the command lacks is an argument, in its place."""
        assert read_options(["1", "--bogus", "-x"], OPTIONS, ARGPARSE).arguments == [
            "1",
            "--bogus",
            "-x",
        ]

    def test_every_double_dash_is_dropped(self) -> None:
        """`--` is dropped wherever it is, and options after it are still options."""
        line = read_options(["--", "-h", "1", "--"], OPTIONS, ARGPARSE)
        assert (line.given(HELP), line.arguments) == (True, ["1"])

    def test_a_value_never_looks_like_an_option(self) -> None:
        """A value that looks like an option is missing; a negative number is a value."""
        assert kind(["-f", "--help"], ARGPARSE) == "missing"
        assert read_options(["-j", "-1"], OPTIONS, ARGPARSE).last(JOBS, 0) == -1

    def test_short_values_and_clusters(self) -> None:
        """`-f=json` reads json, and flags share a dash with what follows (`-hj2`)."""
        line = read_options(["-f=json", "-hj2"], OPTIONS, ARGPARSE)
        assert (line.last(FORMAT, ""), line.given(HELP), line.last(JOBS, 0)) == ("json", True, 2)
        assert kind(["-hx"], ARGPARSE) == "no-value"


class TestWholeWords:
    def test_only_whole_option_names(self) -> None:
        """Only `-h` and `--help` themselves are options; anything else is an argument."""
        line = read_options(["1", "--he", "--help=x", "--", "-h"], [HELP], WHOLE_WORDS)
        assert (line.given(HELP), line.arguments) == (True, ["1", "--he", "--help=x", "--"])
