"""The freecell command, run as users run it: a separate process."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from freecell import deal, format_deal

FREECELL = [sys.executable, "-m", "freecell"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m freecell ARGS` and capture its output."""
    command = [*FREECELL, *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


class TestOutput:
    def test_one_deal(self) -> None:
        """`freecell 617` prints deal 617 in fc-solve's format."""
        result = run("617")
        assert (result.returncode, result.stdout, result.stderr) == (0, format_deal(deal(617)), "")

    def test_minus_one_is_a_deal_not_an_option(self) -> None:
        """`freecell -1` prints the first hard-coded deal."""
        assert run("-1").stdout == format_deal(deal(-1))

    def test_ranges_and_several_arguments(self) -> None:
        """Ranges with `..` and several arguments print every board, separated by a blank line."""
        result = run("1..3", "#617", "-2..-1", "--format", "fcs")
        boards = [format_deal(deal(n)) for n in (1, 2, 3, 617, -2, -1)]
        assert result.stdout == "\n".join(boards)

    @pytest.mark.parametrize("fmt", ["rows", "unicode", "json"])
    def test_formats(self, fmt: str) -> None:
        """--format picks the text format, before or after the deals."""
        assert run("-f", fmt, "1", "2").stdout == run("1", "2", f"--format={fmt}").stdout
        expected = (format_deal(deal(1), fmt), format_deal(deal(2), fmt))  # type: ignore[arg-type]
        separator = "" if fmt == "json" else "\n"
        assert run("1", "2", "-f", fmt).stdout == separator.join(expected)

    def test_json_lines(self) -> None:
        """--format json prints one JSON object a line."""
        lines = run("1..5", "-f", "json").stdout.splitlines()
        assert [json.loads(line)["number"] for line in lines] == [1, 2, 3, 4, 5]

    def test_console_script(self) -> None:
        """The installed `freecell` script does what `python -m freecell` does."""
        script = Path(sys.executable).parent / "freecell"
        if not script.exists():
            script = Path(shutil.which("freecell") or "freecell")
        result = subprocess.run([script, "617"], capture_output=True, text=True, check=True)
        assert result.stdout == format_deal(deal(617))


class TestBadInput:
    @pytest.mark.parametrize(
        "args",
        [["0"], ["-3"], ["8589934592"], ["1.5"], ["abc"], ["1..abc"], ["5..3"], ["1", "x"],
         ["--format", "xml", "1"], [], ["--bogus", "1"], ["1..0"]],
    )  # fmt: skip
    def test_exit_2_one_line_nothing_on_stdout(self, args: list[str]) -> None:
        """Bad input exits 2 with one stderr line naming what is valid, and prints no board."""
        result = run(*args)
        assert result.returncode == 2
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("freecell: ")
        assert any(word in result.stderr for word in ("8589934591", "choose from", "first deal"))

    def test_bad_argument_after_good_ones_prints_nothing(self) -> None:
        """All arguments are checked before the first board is printed."""
        assert run("1..100", "0").stdout == ""


class TestStreaming:
    def test_a_closed_pipe_ends_at_once_without_traceback(self) -> None:
        """`freecell 1..1000000 | head` ends as soon as head stops reading."""
        start = time.perf_counter()
        with subprocess.Popen(
            [*FREECELL, "1..1000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as process:
            assert process.stdout is not None
            assert process.stderr is not None
            first = process.stdout.readline()
            process.stdout.close()
            process.wait(timeout=30)
            stderr = process.stderr.read()
        assert first == b"JD KD 2S 4C 3S 6D 6S\n"
        assert stderr == b""
        assert process.returncode == 0
        assert time.perf_counter() - start < 10

    def test_help(self) -> None:
        """--help names the formats and the valid deals."""
        result = run("--help")
        assert result.returncode == 0
        assert "8589934591" in result.stdout
        assert "unicode" in result.stdout
