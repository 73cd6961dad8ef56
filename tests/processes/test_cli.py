"""The freecell command: run as users run it, a separate process, and in-process through main."""

import array
import fcntl
import io
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import freecell
from freecell import deal, format_deal
from freecell._cli import main
from freecell._cli.solve import _result, _results, _Task
from freecell._deal import parse_deal_spec
from freecell._search.solver import Solution
from helpers import positions

FREECELL = [sys.executable, "-m", "freecell"]
UTF8_ENV = {**os.environ, "LC_ALL": "C.UTF-8"}
"""A UTF-8 locale every Linux has (and no PYTHONIOENCODING or UTF-8 mode to hide the locale)."""
for _name in ("PYTHONIOENCODING", "PYTHONUTF8"):
    UTF8_ENV.pop(_name, None)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m freecell ARGS` and capture its output."""
    command = [*FREECELL, *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


def first_line(command: list[str]) -> tuple[bytes, bytes, int]:
    """Run a command, read one line of its output, close the pipe: that line, stderr, status."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        line = process.stdout.readline()
        process.stdout.close()
        process.wait(timeout=30)
        return line, process.stderr.read(), process.returncode


def console_script() -> Path:
    """Return the installed `freecell` script."""
    script = Path(sys.executable).parent / "freecell"
    return script if script.exists() else Path(shutil.which("freecell") or "freecell")


def shell(
    script: str, *args: str | bytes, stdin: bytes = b"", entry: list[str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run `sh -c SCRIPT` with "$@" set to `python -m freecell ARGS` (or `entry ARGS`)."""
    command = ["sh", "-c", script, "sh", *(FREECELL if entry is None else entry), *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, check=False, timeout=60, env=UTF8_ENV
    )


def one_line(stderr: bytes, prog: str, ending: str) -> None:
    """Check that stderr is one line from `prog` that ends with `ending`: no traceback."""
    text = stderr.decode()
    assert text.count("\n") == 1, text
    assert text.startswith(f"{prog}: "), text
    assert text.endswith(f"{ending}\n"), text


def in_process(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run main in this process with in-memory streams; return status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


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
        result = subprocess.run(
            [console_script(), "617"], capture_output=True, text=True, check=True
        )
        assert result.stdout == format_deal(deal(617))

    def test_version(self) -> None:
        """--version prints the program's name and version."""
        result = run("--version")
        assert (result.returncode, result.stdout) == (0, f"freecell {freecell.__version__}\n")

    def test_help_tells_json_lines_and_exit_statuses(self) -> None:
        """--help says that json is JSON Lines and what each exit status means."""
        help_text = " ".join(run("--help").stdout.split())
        assert "JSON Lines, one object a line" in help_text
        assert "Exit status: 0 done; 1 when the output cannot be written" in help_text
        assert "2 for a bad command line" in help_text

    def test_a_range_from_a_hard_coded_deal_is_not_built_in_memory(self) -> None:
        """-2..8589934591 starts printing at once, under a 512 MB address-space limit."""
        command = ["sh", "-c", 'ulimit -v 524288 && exec "$@"', "sh", *FREECELL, "-2..8589934591"]
        assert first_line(command) == (b"AS KS QS JS TS 9S 8S\n", b"", 0)
        assert list(itertools.islice(parse_deal_spec("-2..8589934591"), 3)) == [-2, -1, 1]


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
        words = ("8589934591", "choose from", "first deal", "unrecognized arguments")
        assert any(word in result.stderr for word in words)

    def test_bad_argument_after_good_ones_prints_nothing(self) -> None:
        """All arguments are checked before the first board is printed."""
        assert run("1..100", "0").stdout == ""


class TestStreaming:
    def test_a_closed_pipe_ends_at_once_without_traceback(self) -> None:
        """`freecell 1..1000000 | head` ends as soon as head stops reading."""
        start = time.perf_counter()
        assert first_line([*FREECELL, "1..1000000"]) == (b"JD KD 2S 4C 3S 6D 6S\n", b"", 0)
        assert time.perf_counter() - start < 10

    def test_help(self) -> None:
        """--help names the formats and the valid deals."""
        result = run("--help")
        assert result.returncode == 0
        assert "8589934591" in result.stdout
        assert "unicode" in result.stdout


class TestWithFcSolve:
    def test_fc_solve_solution_of_deal_22_replays(self, fc_solve: str) -> None:
        """`freecell 22 | fc-solve -m -snx - | freecell replay 22` ends solved (82vc and all)."""
        script = '"$@" 22 | "$FC_SOLVE" -m -snx - | "$@" replay 22'
        result = subprocess.run(
            ["sh", "-c", script, "sh", *FREECELL],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            env={**os.environ, "FC_SOLVE": fc_solve, "FREECELL_SOLVER_QUIET": "1"},
        )
        assert (result.returncode, result.stderr) == (0, "")
        assert result.stdout.endswith("\n# solved\n")


class TestBadInputMessages:
    def test_an_open_range_names_the_range_syntax(self) -> None:
        """`1..` is a range with no end: the message shows how to write a range."""
        result = run("1..")
        assert result.returncode == 2
        assert result.stderr == (
            "freecell: invalid range '1..': write FIRST..LAST, each a whole number from 1 to "
            "8589934591, or -1 or -2\n"
        )

    @pytest.mark.parametrize(
        "argv",
        [["X"], ["1..X"], ["X..1"], ["1", "-f", "X"], ["--format=X", "1"], ["--X"], ["-hX"],
         ["replay", "X"], ["replay", "1", "X"], ["replay", "1", "5a,X"]],
    )  # fmt: skip
    def test_a_megabyte_of_bad_input_is_quoted_short(self, argv: list[str]) -> None:
        """A 1 MB bad argument shows as at most 40 of its characters, on one short line."""
        huge = "9" + "x" * 10**6
        status, out, err = in_process(*[arg.replace("X", huge) for arg in argv])
        assert (status, out) == ((1, "") if argv[:2] == ["replay", "1"] else (2, ""))
        first = err.splitlines()[0]
        assert len(first) < 250, first[:300]
        assert "x" * 30 + "…'" in first

    def test_a_megabyte_move_on_stdin_is_quoted_short(self) -> None:
        """A 1 MB malformed move on stdin is quoted short as well."""
        status, _, err = in_process("replay", "1", stdin=b"5a 5" + b"x" * 10**6 + b"\n")
        assert status == 1
        assert len(err.splitlines()[0]) < 250

    def test_a_huge_argument_in_a_real_process(self) -> None:
        """The same in a real process, with an argument as long as Linux allows (128 KiB)."""
        result = run("replay", "1", "5a", "y" * 100_000)
        assert result.returncode == 1
        assert result.stderr.startswith("freecell replay: move 2 'yyyyyyyyyy")
        assert max(len(line) for line in result.stderr.splitlines()) < 250


class TestUndecodableInput:
    @pytest.mark.parametrize(
        "data",
        [
            b"5a\xff 5b\n",
            b"\xff",
            b"5a 5b\n\xc3\n",
            b"5a \xe2\x99\n",
            b"\xed\xa0\x80\n",
            b"\xc0\xaf",
        ],
    )
    def test_stdin_that_is_not_utf8_is_status_2(self, data: bytes) -> None:
        """Moves on stdin that are not UTF-8 text: status 2, one line, nothing on stdout."""
        result = shell('"$@"', "replay", "1", stdin=data)
        assert (result.returncode, result.stdout) == (2, b"")
        assert b"standard input is not utf-8 text: byte 0x" in result.stderr
        one_line(result.stderr, "freecell replay", "")

    @pytest.mark.parametrize(
        "argv",
        [[b"\xff"], [b"1..\xff"], [b"-f", b"\xfe", b"1"], [b"replay", b"1", b"5a\xff"],
         [b"replay", b"\xff"]],
    )  # fmt: skip
    def test_arguments_that_are_not_utf8_are_status_2(self, argv: list[bytes]) -> None:
        """Arguments with bytes that are not text: status 2, one line showing the bytes."""
        result = shell('"$@"', *argv)
        assert (result.returncode, result.stdout) == (2, b"")
        prog = "freecell replay" if argv[0] == b"replay" else "freecell"
        one_line(result.stderr, prog, "")
        assert b"is not utf-8 text: b'" in result.stderr


class TestStreamFaults:
    @pytest.mark.parametrize(
        "argv",
        [["1"], ["1..3000"], ["replay", "1", "5a"], ["replay", "--help"], ["--help"],
         ["--version"]],
    )  # fmt: skip
    def test_a_full_disk_is_status_1_with_one_line(self, argv: list[str]) -> None:
        """Output to /dev/full: status 1 and one line on stderr, never a traceback."""
        result = shell('"$@" >/dev/full', *argv)
        prog = "freecell replay" if argv[0] == "replay" else "freecell"
        assert result.returncode == 1
        one_line(result.stderr, prog, "cannot write to standard output: No space left on device")

    @pytest.mark.parametrize("argv", [["1"], ["replay", "1", "5a"], ["--help"]])
    def test_a_closed_stdout_is_status_1_with_one_line(self, argv: list[str]) -> None:
        """Output to a closed descriptor (`>&-`): status 1 and one line on stderr."""
        result = shell('"$@" >&-', *argv)
        prog = "freecell replay" if argv[0] == "replay" else "freecell"
        assert result.returncode == 1
        one_line(result.stderr, prog, "cannot write to standard output: it is closed")

    def test_a_closed_stdin_is_status_1_when_read(self) -> None:
        """`replay 1 <&-` reads a closed stdin: status 1 and one line; `freecell 1` reads none."""
        result = shell('"$@" <&-', "replay", "1")
        assert (result.returncode, result.stdout) == (1, b"")
        one_line(result.stderr, "freecell replay", "cannot read standard input: it is closed")
        assert shell('"$@" <&-', "1").returncode == 0

    @pytest.mark.parametrize("redirect", ["2>/dev/full", "2>&-"])
    @pytest.mark.parametrize(
        ("argv", "status"), [(["0"], 2), (["replay", "1", "5h"], 1), (["1"], 0)]
    )
    def test_a_failing_stderr_keeps_the_status(
        self, redirect: str, argv: list[str], status: int
    ) -> None:
        """With stderr full or closed, the exit status is the command's own (never 120)."""
        result = shell(f'"$@" {redirect}', *argv)
        assert result.returncode == status
        assert result.stdout == (format_deal(deal(1)).encode() if status == 0 else b"")

    def test_head_closes_the_pipe_quietly(self) -> None:
        """`freecell 1..100000 | head -1`: freecell exits 0 with nothing on stderr."""
        with subprocess.Popen(
            [*FREECELL, "1..100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as freecell_process:
            assert freecell_process.stdout is not None
            assert freecell_process.stderr is not None
            head = subprocess.run(
                ["head", "-1"], stdin=freecell_process.stdout, capture_output=True, check=True
            )
            freecell_process.stdout.close()
            freecell_process.wait(timeout=30)
            stderr = freecell_process.stderr.read()
        assert head.stdout == b"JD KD 2S 4C 3S 6D 6S\n"
        assert (freecell_process.returncode, stderr) == (0, b"")

    @pytest.mark.slow
    @pytest.mark.parametrize("script", ['"$@" 1 >/dev/full', '"$@" 1 >&-', '"$@" replay 1 <&-'])
    def test_the_console_script_behaves_the_same(self, script: str) -> None:
        """The `freecell` script and `python -m freecell` meet a fault with the same result."""
        by_module = shell(script)
        by_script = shell(script, entry=[str(console_script())])
        assert by_module.returncode == by_script.returncode == 1
        assert by_module.stderr == by_script.stderr


class TestInProcess:
    def test_main_takes_its_streams(self) -> None:
        """main writes to the streams it is given, and reads stdin as bytes."""
        assert in_process("617") == (0, format_deal(deal(617)), "")
        status, out, _ = in_process("replay", "1", stdin=b"5a 5b\n")
        assert (status, out.splitlines()[1]) == (0, "Freecells:  6C  8H        ")

    def test_main_takes_stdout_by_keyword_only(self) -> None:
        """Streams are keywords, so an old positional call fails instead of misreading."""
        with pytest.raises(TypeError):
            main(["1"], io.StringIO())  # type: ignore[call-arg, arg-type]


# Arguments: the command's own words, any text (lone surrogates included), and arbitrary
# bytes decoded as Python decodes a real command line (surrogateescape).
_WORDS = [
    "1", "617", "-1", "-2", "0", "-3", "#617", "8589934591", "8589934592", "1..3", "-2..2",
    "5..3", "1..", "..", "replay", "-f", "--format", "json", "rows", "unicode", "fcs",
    "--format=json", "-fjson", "--form", "-h", "--help", "--version", "--", "-", "-x", "5a",
    "5b", "5h", "82vc", "36v3", "1a", "ah", "2x", "",
]  # fmt: skip
arguments = st.lists(
    st.one_of(
        st.sampled_from(_WORDS),
        st.text(st.characters(exclude_categories=())),
        st.binary().map(os.fsdecode),
    ),
    max_size=6,
)
_CHUNKS = [b"5a", b"5b", b"5c", b"1a", b"82vc", b" ", b",", b"\n", b"Move: ", b"\xff", b"\xc3",
           b"\xe2\x99\xa0", b"\r\n"]  # fmt: skip
stdin_data = st.one_of(st.binary(), st.lists(st.sampled_from(_CHUNKS)).map(b"".join))


class TestFuzz:
    @pytest.mark.slow
    @settings(max_examples=400, deadline=None)
    @given(arguments, stdin_data)
    def test_any_input_gets_a_status_never_a_traceback(self, argv: list[str], data: bytes) -> None:
        """Any arguments and stdin give status 0-3, no exception, and no stdout on error."""
        status, out, err = in_process(*argv, stdin=data)
        assert status in (0, 1, 2, 3)
        if status != 0:
            assert out == ""
        if status == 0:
            assert err == ""
        if status == 2:
            assert err.count("\n") == 1
            assert err.startswith("freecell")
        assert all(len(line) < 250 for line in err.splitlines())

    @pytest.mark.slow
    @settings(max_examples=200, deadline=None)
    @given(arguments, stdin_data)
    def test_replay_with_any_input(self, argv: list[str], data: bytes) -> None:
        """The same for `freecell replay` with any moves, as arguments or on stdin."""
        status, out, err = in_process("replay", *argv, stdin=data)
        assert status in (0, 1, 2)
        if status != 0:
            assert out == ""
        if status == 2:
            assert err.count("\n") == 1
        assert all(len(line) < 250 for line in err.splitlines())

    @settings(max_examples=200, deadline=None)
    @given(arguments, stdin_data)
    def test_solve_with_any_input(self, argv: list[str], data: bytes) -> None:
        """The same for `freecell solve` (a small budget; no range, which could be endless)."""
        assume(not any(".." in arg for arg in argv))
        status, out, err = in_process("solve", "--max-states", "300", *argv, stdin=data)
        assert status in (0, 1, 2, 3)
        if status in (1, 2):
            assert out == ""
        if status == 2:
            assert err.count("\n") == 1
            assert err.startswith("freecell solve: ")
        assert all(len(line) < 250 for line in err.splitlines())


def solved_moves(out: str) -> str:
    """Return the moves of `freecell solve`'s one line, without its label."""
    _, colon, moves = out.partition(":")
    assert colon, out
    return moves.strip()


class TestComposition:
    """What one command prints as a position, the others read; solutions replay directly."""

    SOLUTION = solved_moves(in_process("solve", "617")[1])

    @pytest.mark.parametrize("fmt", freecell.FORMATS)
    def test_every_format_of_a_deal_is_read_by_solve_and_replay(self, fmt: str) -> None:
        """`freecell 617 -f FORMAT` into `solve -` solves deal 617, into `replay -` is deal 617."""
        board = in_process("617", "-f", fmt)[1].encode()
        status, out, err = in_process("solve", "-", stdin=board)
        assert (status, err, solved_moves(out)) == (0, "", self.SOLUTION)
        start = f"{freecell.Position.from_deal(deal(617))}\n"
        assert in_process("replay", "-", stdin=board) == (0, start, "")

    def test_solve_into_replay_with_or_without_cut(self) -> None:
        """`freecell solve 617 | freecell replay 617` wins, as it does through `cut -d: -f2`."""
        line = in_process("solve", "617")[1].encode()
        cut = line.split(b":", 1)[1]
        for text in (line, cut):
            status, out, err = in_process("replay", "617", stdin=text)
            assert (status, err, out.splitlines()[-1]) == (0, "", "# solved")

    def test_a_won_replay_is_read_by_solve_and_replay(self) -> None:
        """The issue's pipeline `solve 617 | cut | replay 617 | solve -` exits 0: nothing to do."""
        won = shell('"$@" solve 617 | cut -d: -f2 | "$@" replay 617 | "$@" solve -')
        assert (won.returncode, won.stdout, won.stderr) == (0, b"-: \n", b"")
        position = in_process("replay", "617", self.SOLUTION)[1].encode()
        assert in_process("replay", "-", stdin=position)[1] == position.decode()

    @pytest.mark.slow
    def test_a_game_under_way_is_solved_and_replayed_from_its_position(self) -> None:
        """`replay 617 5a 5b` into `solve -`, and those moves into `replay -`, win the game."""
        position = in_process("replay", "617", "5a", "5b")[1].encode()
        status, out, _ = in_process("solve", "-", stdin=position)
        assert status == 0
        finished = in_process("replay", "-", *solved_moves(out).split(), stdin=position)
        assert (finished[0], finished[1].splitlines()[-1]) == (0, "# solved")

    def test_replay_dash_names_the_position_in_its_errors(self) -> None:
        """An illegal move from a position on stdin names it; a bad position is status 2."""
        position = in_process("617")[1].encode()
        status, _, err = in_process("replay", "-", "1h", stdin=position)
        assert status == 1
        assert "(the position on standard input, 0 moves played)" in err
        status, _, err = in_process("replay", "-", stdin=b"7D TD\n")
        assert (status, err.count("\n")) == (2, 1)
        assert err.startswith("freecell replay: invalid position on standard input: ")


def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait until condition() is true, looking every 20 ms; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still false after {seconds} s"
        time.sleep(0.02)


def unread(pipe: IO[bytes]) -> int:
    """Return how many bytes written to a pipe its reader has not read yet (FIONREAD)."""
    count = array.array("i", [0])
    fcntl.ioctl(pipe.fileno(), termios.FIONREAD, count)
    return count[0]


def group_left(pgid: int) -> bytes:
    """Return pgrep's list of the processes of a process group still there (b"" for none)."""
    return subprocess.run(["pgrep", "-g", str(pgid)], capture_output=True, check=False).stdout


def _default_sigint() -> None:
    """Let the child take Ctrl-C as a terminal's process group does (a runner may ignore it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


SIGNALLED = {
    "dealer": ["1..100000000", "-f", "json"],
    "solve": ["solve", "1..100000"],
    "solve-jobs": ["solve", "1..100000", "--jobs", "2"],
    "replay": ["replay", "617"],
    "find": ["find", "JD"],
}


class TestSignals:
    """Ctrl-C and SIGTERM end every command: no traceback, whole lines, no process left."""

    @pytest.mark.parametrize(
        ("command", "signum", "group", "status"),
        [
            ("dealer", signal.SIGINT, True, 130),
            ("dealer", signal.SIGTERM, False, 143),
            ("solve", signal.SIGINT, True, 130),
            ("solve", signal.SIGTERM, False, 143),
            ("solve-jobs", signal.SIGINT, True, 130),
            ("solve-jobs", signal.SIGTERM, False, 143),
            ("solve-jobs", signal.SIGTERM, True, 143),
            ("replay", signal.SIGINT, True, 130),
            ("replay", signal.SIGTERM, False, 143),
            ("find", signal.SIGINT, True, 130),
            ("find", signal.SIGTERM, False, 143),
        ],
    )
    def test_a_signal_ends_the_command_cleanly(
        self, command: str, signum: int, group: bool, status: int
    ) -> None:
        """The signal, to the process group (Ctrl-C) or the process, ends it with 128 + signal.

        The installed command, quiet from its start: `python -m freecell` has Python find the
        package (runpy) before any code of ours runs, and under a heavy load (24 on 2 cores) that
        outlasted the second that replay is given before its signal (a traceback and -2, 1 run
        in 20, before the package took the signals at its first line).
        """
        with subprocess.Popen(
            [str(console_script()), *SIGNALLED[command]],
            bufsize=0,  # readline reads no further than its line: communicate reads the rest
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_default_sigint,  # noqa: PLW1509 - no threads run at fork time that matter
        ) as process:
            assert process.stdin is not None
            assert process.stdout is not None
            if command == "replay":
                stdin = process.stdin
                stdin.write(b"5a 5b\n")  # and stdin stays open: replay waits for more
                stdin.flush()
                until(lambda: unread(stdin) == 0)  # replay's own code has read it
            else:
                first = process.stdout.readline()  # it is under way
                assert first.endswith(b"\n")
            if group:
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
            try:
                out, err = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the command and its workers
                pytest.fail(f"{command} still ran 30 s after the signal")
        assert (process.returncode, err) == (status, b"")
        assert out == b"" or out.endswith(b"\n")
        if command == "dealer":
            assert all(json.loads(line)["number"] for line in out.splitlines())
        elif command == "find":  # each line whole: a deal that begins with the card
            assert all(deal(int(n)).cards[0] == freecell.parse_card("JD") for n in out.split())
        elif command.startswith("solve"):
            for line in out.decode().splitlines():  # each line whole: a solution that wins
                number, moves = line.split(": ")
                game = freecell.Game(freecell.Position.from_deal(deal(int(number))))
                for move in moves.split():
                    game.push(move)
                assert game.is_won(), line
        # A worker watches its parent every 0.5 s: the group empties within a second or so.
        until(lambda: group_left(process.pid) == b"", seconds=5)

    @pytest.mark.parametrize(
        ("command", "signum", "status"),
        [
            (["617"], signal.SIGINT, 130),
            (["617"], signal.SIGTERM, 143),
            (["solve", "--short", "1..30"], signal.SIGINT, 130),
            (["solve", "--short", "1..30"], signal.SIGTERM, 143),
            (["solve", "1..3000", "--jobs", "2"], signal.SIGINT, 130),
            (["solve", "1..3000", "--jobs", "2"], signal.SIGTERM, 143),
        ],
    )
    @pytest.mark.parametrize("launcher", ["script", "-m"])
    def test_a_signal_while_the_package_imports(
        self, command: list[str], signum: int, status: int, launcher: str
    ) -> None:
        """`freecell` or `python -m freecell`, signalled while the package imports: 128 + signal.

        Importing the package takes 0.1 to 0.3 s; a signal then gave a KeyboardInterrupt
        traceback and status -2, or status -15 for SIGTERM (`python -m freecell` until the
        package took the signals from its first line). `python -X importtime` writes a line on
        stderr as each module is in: the signal goes at the package's first module, with the
        rest of it and the command's modules still to come.
        """
        start = [str(console_script())] if launcher == "script" else ["-m", "freecell"]
        with subprocess.Popen(
            [sys.executable, "-X", "importtime", *start, *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_default_sigint,  # noqa: PLW1509 - no threads run at fork time that matter
        ) as process:
            assert process.stderr is not None
            seen = []
            for line in process.stderr:
                seen.append(line)
                if line.rsplit(b"|", 1)[-1].strip().startswith(b"freecell."):
                    break
            if signum == signal.SIGINT:
                os.killpg(process.pid, signum)  # Ctrl-C: the whole group
            else:
                process.send_signal(signum)
            try:
                rest = process.communicate(timeout=30)[1]
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                pytest.fail(f"{command} still ran 30 s after the signal")
        said = [
            line for line in [*seen, *rest.splitlines(keepends=True)] if b"import time" not in line
        ]
        assert (process.returncode, b"".join(said)) == (status, b"")
        assert any(b"freecell." in line for line in seen)  # it was under way
        left = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, check=False)
        assert left.stdout == b""

    def test_a_signal_while_a_solution_is_awaited_is_taken_between_waits(self) -> None:
        """Ctrl-C while `--jobs` waits for a worker: noted during the wait, raised after it.

        Raised inside concurrent.futures' wait, a KeyboardInterrupt could leave its condition's
        lock released twice ("cannot release un-acquired lock", status 1). The signal is sent
        once the wait has put its own handler in; the wait then ends, well before the solution
        would come, with the handler that was there (KeyboardInterrupt), which is back.
        """
        future: Future[Solution] = Future()
        during: list[object] = []

        def stop_while_waiting() -> None:
            deadline = time.monotonic() + 10
            while signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                if time.monotonic() > deadline:  # never replaced: the wait ends, the test fails
                    future.set_exception(RuntimeError("the wait kept the raising handler"))
                    return
                time.sleep(0.005)
            during.append(signal.getsignal(signal.SIGINT))
            os.kill(os.getpid(), signal.SIGINT)

        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            sender = threading.Thread(target=stop_while_waiting, daemon=True)
            started = time.monotonic()
            sender.start()  # it waits for the wait's handler
            with pytest.raises(KeyboardInterrupt):
                _result(future)
            sender.join()
            assert during
            assert during[0] is not signal.default_int_handler
            assert time.monotonic() - started < 5
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
            assert not future.done()
        finally:
            signal.signal(signal.SIGINT, previous)

    def test_stopping_several_jobs_leaves_no_thread_running(self) -> None:
        """However `--jobs` ends, the executor's thread has ended when the command goes on.

        One left running races the interpreter's exit, which shuts the pool down again: after
        a Ctrl-C, "Exception ignored in threading._shutdown ... Bad file descriptor" on stderr.
        """
        tasks = iter(
            [_Task(n, "", max_states=200_000, timeout=None, cells=4) for n in (1, 2, 3, 4, 5, 6)]
        )
        results = _results(tasks, 2)
        task, _ = next(results)
        results.close()  # as a closed pipe or a Ctrl-C ends the generator
        assert task.number == 1
        left = [thread for thread in threading.enumerate() if "ExecutorManager" in repr(thread)]
        assert left == []

    def test_a_killed_worker_is_one_line_and_status_1(self) -> None:
        """SIGKILL to one worker of `--jobs 2` ends the command with a message, not a hang."""
        with subprocess.Popen(
            [*FREECELL, "solve", "1..100000", "--jobs", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            assert process.stdout is not None
            process.stdout.readline()
            workers = subprocess.run(
                ["pgrep", "-P", str(process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
            os.kill(int(workers[0]), signal.SIGKILL)
            _, err = process.communicate(timeout=30)
        assert process.returncode == 1
        one_line(err, "freecell solve", "ended unexpectedly (killed, or out of memory?)")


class TestResources:
    """Every count and every input has a ceiling (issue 41): processes, states, stdin."""

    @pytest.mark.parametrize(
        ("argv", "deals"),
        [(["-2..3"], 5), (["-1..2000"], 2001), (["1..2000"], 2000), (["1", "2"], 2), (["7"], 1)],
    )
    def test_jobs_never_exceed_the_cores_nor_the_deals(
        self, monkeypatch: pytest.MonkeyPatch, argv: list[str], deals: int
    ) -> None:
        """`--jobs 300` starts one process a core at most, and no more than the deals, -2.. too."""
        import concurrent.futures  # noqa: PLC0415 - the pool solve imports when it runs

        started: list[int] = []
        real = concurrent.futures.ProcessPoolExecutor

        def recorded(max_workers: int, **kwargs: Any) -> concurrent.futures.Executor:
            started.append(max_workers)
            return real(max_workers, **kwargs)

        class FirstLine(io.StringIO):
            """Standard output whose reader goes away after the first line (`| head -1`)."""

            def write(self, text: str) -> int:
                if self.getvalue():
                    raise BrokenPipeError
                return super().write(text)

        monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", recorded)
        out = FirstLine()
        argv = ["solve", "--max-states", "50", "--jobs", "300", *argv]
        assert main(argv, stdin=io.BytesIO(), stdout=out, stderr=io.StringIO()) in (0, 3)
        assert out.getvalue().endswith("\n")
        expected = min(len(os.sched_getaffinity(0)), deals)
        assert started == ([] if expected == 1 else [expected])

    def test_a_real_process_starts_no_more_workers_than_cores(self) -> None:
        """`solve -1..2000 --jobs 300` in a real process has one worker a core, no more."""
        command = [*FREECELL, "solve", "-1..2000", "--jobs", "300", "--max-states", "20000"]
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            assert process.stdout is not None
            assert process.stdout.readline().startswith(b"-1: ")
            workers = subprocess.run(
                ["pgrep", "-P", str(process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
            process.terminate()
            process.communicate(timeout=30)
        assert 1 <= len(workers) <= len(os.sched_getaffinity(0))

    def test_processes_the_system_refuses_are_one_line_and_status_1(self) -> None:
        """A fork the system refuses (EAGAIN, as under `ulimit -u`) is one line, status 1."""
        script = (
            "import multiprocessing.process, sys\n"
            "from freecell._cli import main\n"
            "def refuse(self):\n"
            "    raise BlockingIOError(11, 'Resource temporarily unavailable')\n"
            "multiprocessing.process.BaseProcess.start = refuse\n"
            "sys.exit(main(sys.argv[1:]))\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", script, "solve", "1..20", "--jobs", "2", "--max-states", "50"],
            capture_output=True,
            check=False,
            timeout=60,
        )
        assert (result.returncode, result.stdout) == (1, b"")
        one_line(result.stderr, "freecell solve", "try fewer --jobs)")
        assert b"cannot start 2 worker processes: Resource temporarily unavailable" in result.stderr

    def test_under_a_real_process_limit(self) -> None:
        """With RLIMIT_NPROC at 1 (`ulimit -u 1`; as root, for the user nobody) it is the same."""
        import resource  # noqa: PLC0415 - POSIX only

        root = os.geteuid() == 0
        python = shutil.which("python3", path="/usr/bin:/bin") if root else sys.executable
        package = Path(freecell.__file__).parent.parent

        def limited() -> None:
            if root:
                os.setgid(65534)
                os.setuid(65534)
            resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))

        if python is None:  # never a skip (conftest): say what is missing
            pytest.fail("needs a Python that the user nobody can run: /usr/bin/python3")
        result = subprocess.run(
            [python, "-m", "freecell", "solve", "1..20", "--jobs", "2", "--max-states", "50"],
            capture_output=True,
            check=False,
            timeout=60,
            preexec_fn=limited,
            env={**UTF8_ENV, "PYTHONPATH": str(package)},
            cwd="/",
        )
        assert (result.returncode, result.stdout) == (1, b""), result.stderr[-500:]
        one_line(result.stderr, "freecell solve", "try fewer --jobs)")

    def test_max_states_has_a_ceiling(self) -> None:
        """--max-states past MAX_STATES_CEILING is refused in one line; the ceiling itself runs."""
        from freecell._search.solver import MAX_STATES_CEILING  # noqa: PLC0415

        for huge in (str(MAX_STATES_CEILING + 1), "9" * 30, "1" + "0" * 5000):
            status, out, err = in_process("solve", "1", "--max-states", huge)
            assert (status, out, err.count("\n")) == (2, "", 1)
            assert f"from 1 to {MAX_STATES_CEILING:,}, not " in err
            assert len(err) < 250
        status, out, _ = in_process("solve", "1", "--max-states", str(MAX_STATES_CEILING))
        assert (status, out[:3]) == (0, "1: ")

    @pytest.mark.parametrize(
        ("command", "stdin"),
        [("solve -", "yes AS"), ("solve -", "yes ''"), ("replay -", "yes AS"),
         ("replay - 1a", "head -c 200000000 /dev/zero | tr '\\0' '\\n'")],
    )  # fmt: skip
    def test_endless_stdin_is_refused_at_once(self, command: str, stdin: str) -> None:
        """`yes AS | freecell solve -` stops reading past 65,536 characters: status 2 at once."""
        start = time.monotonic()
        result = shell(f'{stdin} | "$@" {command}')
        assert time.monotonic() - start < 20
        assert result.returncode == 2
        prog = "freecell " + command.split(maxsplit=1)[0]
        ending = "standard input is longer than 65,536 characters: too long for a position"
        one_line(result.stderr, prog, ending)

    @pytest.mark.parametrize(
        "text",
        ['{"columns": [[1]]}', '{"columns": [[true]]}', '{"columns": [[["AS"]]]}',
         '{"columns": NaN}', '[[["AS"]]]', "NaN", "true", '{"columns": ' + "[" * 60_000],
    )  # fmt: skip
    @pytest.mark.parametrize("command", ["solve", "replay"])
    def test_json_of_wrong_types_is_one_line_and_status_2(self, command: str, text: str) -> None:
        """JSON that is no board, of any type or depth, is status 2 with one line, no traceback."""
        status, out, err = in_process(command, "-", stdin=text.encode())
        assert (status, out, err.count("\n")) == (2, "", 1), err[-300:]
        assert err.startswith(f"freecell {command}: invalid position on standard input: ")
        assert len(err) < 250

    @pytest.mark.parametrize(
        "line",
        ["Foundations: H-" + "9" * 5000, "Freecells: " + "x" * 5000, ": " + "AS " * 3000 + "Q",
         "\x01\x02\x03" * 2000],
    )  # fmt: skip
    def test_a_long_bad_line_is_quoted_short(self, line: str) -> None:
        """A 5,000-character bad line gives a message of a few hundred characters at most."""
        board = in_process("617")[1]
        for command in ("solve", "replay"):
            status, _, err = in_process(command, "-", stdin=(board + line + "\n").encode())
            assert (status, err.count("\n")) == (2, 1)
            assert len(err) < (250 if line.isprintable() else 400), err[:400]


class TestPositionFuzz:
    @pytest.mark.slow
    @settings(max_examples=150, deadline=2000)
    @given(positions)
    def test_any_position_on_stdin_is_read_or_refused_in_one_line(self, text: str) -> None:
        """`solve -` and `replay -` read any text as a position, or refuse it in one short line."""
        data = text.encode("utf-8", "surrogateescape")
        for argv in (["solve", "--max-states", "200", "-"], ["replay", "-"]):
            status, out, err = in_process(*argv, stdin=data)
            assert status in (0, 2, 3)  # 3: solve's budget ran out
            if status == 2:
                assert (out, err.count("\n")) == ("", 1)
                assert err.startswith(f"freecell {argv[0]}: ")
                assert len(err) < 600
            else:
                assert err == ""

    @pytest.mark.slow
    @pytest.mark.parametrize(
        "text",
        ['{"columns": [[1]]}', "[" * 100_000, "Foundations: H-" + "9" * 5000, "\x00" * 5000,
         "AS\n" * 40_000],
    )  # fmt: skip
    def test_a_real_process_too(self, text: str) -> None:
        """A few of those in a real `python -m freecell` process: one line, status 2, small."""
        for command in ("solve", "replay"):
            result = shell(f'"$@" {command} -', stdin=text.encode())
            assert (result.returncode, result.stdout) == (2, b"")
            one_line(result.stderr, f"freecell {command}", result.stderr.decode()[-20:-1])
            assert len(result.stderr) < 600


class TestFind:
    """`freecell find`: a deal's number from its layout, or the first cards of it."""

    def test_the_task_s_first_row(self) -> None:
        """The first row of deal 1, one card an argument, prints 1 and exits 0."""
        assert in_process("find", *["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]) == (
            0,
            "1\n",
            "",
        )

    def test_cards_in_one_argument_and_any_case(self) -> None:
        """Cards may come in one argument, in lower case, with 10 and suit symbols."""
        assert in_process("find", "7d ad 5♣ 3s 5s 8c 2d ah 10♦") == (0, "617\n", "")

    @pytest.mark.parametrize("fmt", freecell.FORMATS)
    def test_a_layout_on_stdin_in_every_format(self, fmt: str) -> None:
        """`find -` reads each format the dealer prints."""
        board = format_deal(deal(2**32 + 4321), fmt)  # type: ignore[arg-type]
        assert in_process("find", "-", stdin=board.encode()) == (0, f"{2**32 + 4321}\n", "")

    def test_fc_solve_position_on_stdin(self) -> None:
        """`find -` reads fc-solve's position text, headers and ':' included."""
        position = str(freecell.Position.from_deal(deal(-2))).encode()
        assert in_process("find", "-", stdin=position) == (0, "-2\n", "")

    def test_several_deals_a_line_each_and_a_limit(self) -> None:
        """Five cards begin a few dozen deals, a line each, ascending; --limit cuts them."""
        cards = [freecell.card_code(c) for c in deal(617).cards[:5]]
        status, out, _ = in_process("find", *cards)
        numbers = [int(line) for line in out.splitlines()]
        assert status == 0
        assert 617 in numbers
        assert len(numbers) > 10
        assert numbers == sorted(numbers)
        assert in_process("find", "--limit", "3", *cards)[1].splitlines() == out.splitlines()[:3]

    def test_no_deal_is_status_1_with_one_line(self) -> None:
        """A layout with two cards swapped is no deal's: status 1, one line, nothing printed."""
        cards = [freecell.card_code(c) for c in deal(617).cards]
        cards[1], cards[6] = cards[6], cards[1]
        status, out, err = in_process("find", *cards)
        assert (status, out) == (1, "")
        one_line(err.encode(), "freecell find", "were searched")
        assert "no deal begins with these 52 cards" in err

    @pytest.mark.parametrize(
        ("args", "stdin", "says"),
        [
            ([], "", "give the layout's cards"),
            (["JD", "XX"], "", "invalid card 'XX': write a rank"),
            (["JD", "2D", "jd"], "", "JD is there twice"),
            ([*freecell.CARD_CODES, "AC"], "", "53 cards; a layout holds at most 52"),
            (["-"], "Foundations: H-A C-0 D-0 S-0\n: JD 2D", "not a deal's start"),
            (["-"], '{"rows": 3}', "invalid layout in JSON"),
            (["-"], str(freecell.Position.from_deal(deal(617)).apply("82")), "not a deal's start"),
            (["-"], "", "no cards: write a layout's first cards"),
            (["-", "JD"], "", "not both"),
            (["--limit", "0", "JD"], "", "write a whole number from 1 to 8,589,934,593 (the"),
            (["--limit", "9" * 26, "JD"], "", "from 1 to 8,589,934,593 (the number of deals), not"),
            (["--limit", "8589934594", "JD", "2D", "9H", "JC", "5D", "7H"], "", "from 1 to 8,58"),
            (["-"], '{"rows":' + "[" * 5000, "invalid layout in JSON"),
            (["-"], "AS\n" * 40_000, "standard input is longer than 65,536 characters"),
        ],
    )
    def test_bad_input_is_status_2_with_what_is_valid(
        self, args: list[str], stdin: str, says: str
    ) -> None:
        """Bad input: status 2, one line on stderr that says what is valid, nothing printed."""
        status, out, err = in_process("find", *args, stdin=stdin.encode())
        assert (status, out) == (2, "")
        assert says in err
        assert err.startswith("freecell find: ")
        assert err.count("\n") == 1

    def test_a_byte_order_mark_is_no_card(self) -> None:
        """A layout saved by a Windows editor (a byte order mark first) is read as any other."""
        text = "\ufeff" + " ".join(freecell.CARD_CODES[c] for c in deal(617).cards[:8])
        assert in_process("find", "-", stdin=text.encode()) == (0, "617\n", "")

    def test_help(self) -> None:
        """`find -h` tells the formats and the exit statuses."""
        status, out, _ = in_process("find", "-h")
        assert status == 0
        assert "fcs, rows, unicode, json" in out
        assert "1 no deal begins with the cards" in out
