"""What run_command does around every command: failing streams, input that is not text, quoting."""

import errno
import io
import os
from typing import TextIO

import pytest

from freecell._cli.streams import (
    EXIT_BAD_INPUT,
    EXIT_FAILURE,
    EXIT_OK,
    MAX_LINE,
    quoted,
    run_command,
)
from freecell._errors import QUOTE_LIMIT


def cat(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Copy stdin to stdout line by line, then write the arguments: a command to run."""
    stdout.writelines(stdin)
    stdout.write(" ".join(argv))
    stderr.write("done\n")
    return 0


class BrokenText(io.StringIO):
    """A text stream whose writes (or only its flushes) raise an error."""

    def __init__(self, error: Exception, on_flush: bool = False) -> None:
        super().__init__()
        self.error = error
        self.on_flush = on_flush

    def write(self, text: str) -> int:
        """Raise the error, unless only flushes fail."""
        if not self.on_flush:
            raise self.error
        return super().write(text)

    def flush(self) -> None:
        """Raise the error if flushes fail."""
        if self.on_flush:
            raise self.error


class BrokenBytes(io.BytesIO):
    """A byte stream whose reads raise an error."""

    def readline(self, size: int | None = -1) -> bytes:  # noqa: ARG002 - the base's signature
        """Raise an I/O error."""
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def run(
    argv: list[str],
    stdin: bytes | io.BytesIO = b"",
    stdout: io.StringIO | None = None,
    stderr: io.StringIO | None = None,
) -> tuple[int, str, str]:
    """Run `cat` through run_command; return its status, its stdout and its stderr."""
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO() if stderr is None else stderr
    source = io.BytesIO(stdin) if isinstance(stdin, bytes) else stdin
    status = run_command("cat", cat, argv, stdin=source, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


class TestStdin:
    def test_text_passes(self) -> None:
        """UTF-8 input reaches the command as text, line by line."""
        assert run([], "5a ♠\n5b".encode()) == (0, "5a ♠\n5b", "done\n")

    def test_bytes_that_are_not_text_are_bad_input(self) -> None:
        """Input that is not UTF-8 is status 2 with one line saying where, and no output."""
        status, out, err = run([], b"5a 5b\n5a\xff 5b\n")
        assert (status, out) == (EXIT_BAD_INPUT, "5a 5b\n")
        assert err == "cat: standard input is not utf-8 text: byte 0xff at line 2, column 3\n"

    def test_a_line_past_the_limit_is_bad_input(self) -> None:
        """A line longer than MAX_LINE bytes (say /dev/zero) is status 2, not a memory hog."""
        status, _, err = run([], b"5a" * (MAX_LINE // 2 + 1))
        assert status == EXIT_BAD_INPUT
        assert err == f"cat: line 1 of standard input is longer than {MAX_LINE} bytes\n"

    def test_a_read_failure_is_status_1(self) -> None:
        """Input that cannot be read is status 1 with one line naming the reason."""
        status, _, err = run([], BrokenBytes())
        reason = os.strerror(errno.EIO)
        assert (status, err) == (EXIT_FAILURE, f"cat: cannot read standard input: {reason}\n")

    def test_a_closed_stdin_is_status_1(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With file descriptor 0 closed, Python's sys.stdin is None: status 1, one line."""
        monkeypatch.setattr("sys.stdin", None)
        err = io.StringIO()
        status = run_command("cat", cat, [], stdout=io.StringIO(), stderr=err)
        assert (status, err.getvalue()) == (1, "cat: cannot read standard input: it is closed\n")


class TestStdout:
    @pytest.mark.parametrize(
        ("error", "reason"),
        [
            (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), "No space left on device"),
            (OSError(errno.EBADF, os.strerror(errno.EBADF)), "Bad file descriptor"),
            (UnicodeEncodeError("ascii", "♠", 0, 1, "ordinal not in range(128)"), "'ascii' codec"),
        ],
    )
    @pytest.mark.parametrize("on_flush", [False, True])
    def test_a_write_failure_is_status_1(
        self, error: Exception, reason: str, on_flush: bool
    ) -> None:
        """Output that cannot be written, or flushed, is status 1 with one line on stderr."""
        status, _, err = run(["x"], stdout=BrokenText(error, on_flush))
        assert status == EXIT_FAILURE
        lines = err.splitlines()
        assert lines[-1].startswith(f"cat: cannot write to standard output: {reason}")
        assert lines[:-1] == (["done"] if on_flush else [])  # only the final flush failed

    def test_a_closed_pipe_is_a_quiet_exit(self) -> None:
        """A reader that went away ends the command with status 0 and nothing on stderr."""
        assert run(["x"], stdout=BrokenText(BrokenPipeError())) == (EXIT_OK, "", "")

    def test_a_closed_stdout_is_status_1(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With file descriptor 1 closed, Python's sys.stdout is None: status 1, one line."""
        monkeypatch.setattr("sys.stdout", None)
        err = io.StringIO()
        status = run_command("cat", cat, ["x"], stdin=io.BytesIO(), stderr=err)
        assert (status, err.getvalue()) == (
            1,
            "cat: cannot write to standard output: it is closed\n",
        )


class TestStderr:
    def test_a_failing_stderr_changes_nothing_else(self) -> None:
        """Messages that cannot be written are dropped; the status and the output stay."""
        broken = BrokenText(OSError(errno.ENOSPC, "full"))
        assert run(["x"], b"1\n", stderr=broken) == (0, "1\nx", "")
        assert run([], b"\xff", stderr=broken)[0] == EXIT_BAD_INPUT


class TestArguments:
    def test_undecodable_bytes_are_bad_input(self) -> None:
        """An argument with bytes that are not text (surrogateescape'd) is status 2, shown."""
        argument = os.fsdecode(b"5a\xff")
        status, out, err = run(["1", argument])
        assert (status, out) == (EXIT_BAD_INPUT, "")
        assert err == "cat: argument 2 is not utf-8 text: b'5a\\xff'\n"

    def test_a_lone_surrogate_is_bad_input_too(self) -> None:
        """A surrogate that no bytes decode to is bad input as well, never a traceback."""
        status, _, err = run(["\ud800"])
        assert status == EXIT_BAD_INPUT
        assert err.startswith("cat: argument 1 is not utf-8 text: ")


class TestQuoted:
    @pytest.mark.parametrize("text", ["", "5a", "x" * QUOTE_LIMIT, "a\nb", "\udcff"])
    def test_short_text_is_its_repr(self, text: str) -> None:
        """Text up to the limit is shown whole, as repr shows it: on one line, escaped."""
        assert quoted(text) == repr(text)

    def test_long_text_is_cut(self) -> None:
        """A megabyte of input shows as its first QUOTE_LIMIT characters and an ellipsis."""
        assert quoted("y" * 10**6) == repr("y" * QUOTE_LIMIT + "…")
        assert quoted(b"\xff" * 10**6) == repr(b"\xff" * QUOTE_LIMIT) + "…"
