"""What every ``freecell`` command shares: its streams and signals, its exit statuses, quoting.

A command is a function ``NAME_main(argv, stdin, stdout, stderr) -> int`` over text streams
(``replay_main`` in ``replay.py``; the deals themselves are ``deals_main`` in ``dealer.py``).
:func:`run_command` runs any of them so that no fault of the streams or of the
arguments ends in a traceback:

* An argument holding bytes that are not text (Python passes them on as ``surrogateescape``
  characters) is bad input: one line on stderr, exit status 2.
* Standard input is read as bytes and decoded strictly: input that is not text in the locale's
  encoding (UTF-8 when the streams are given), or a line longer than 1 MiB, is bad input too,
  status 2. Input that cannot be read at all (a closed descriptor, an I/O error) is status 1.
  A command that reads the whole input as one text (a position) reads it through
  :func:`read_limited`, which stops reading past its limit: status 2 again.
* Standard output that the reader closed (``freecell 1..100000 | head -1``) ends the command
  quietly with status 0, as other Unix tools do. Any other failure to write it (a full disk,
  a closed descriptor, a character its encoding lacks) is one line on stderr and status 1.
* A failing stderr is ignored: the exit status still tells.
* Ctrl-C (SIGINT) and SIGTERM end the command as it unwinds, without a traceback: what it
  already wrote is flushed, so lines stay whole, and the status is 130 or 143 (128 plus the
  signal's number, as shells report a command a signal ended).

Exit statuses, for every command, are named here once (``EXIT_*``): 0 done; 1 the command
failed (replay: an illegal or malformed move) or a stream failed; 2 bad input (the command
line, or standard input that is not text); 3 is kept for ``freecell solve``'s "unknown";
130 interrupted; 143 terminated.

Every message quotes at most :data:`QUOTE_LIMIT` characters of what the user gave.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, BinaryIO, Final, TextIO, cast

from freecell._errors import QUOTE_LIMIT, shorten

Command = Callable[[list[str], TextIO, TextIO, TextIO], int]
"""A command: its arguments, then stdin, stdout and stderr; it returns its exit status."""


EXIT_OK: Final = 0
"""Done."""
EXIT_FAILURE: Final = 1
"""The command failed (replay: an illegal move), or a stream could not be read or written."""
EXIT_BAD_INPUT: Final = 2
"""The command line, or standard input, is not something the command reads."""
EXIT_UNKNOWN: Final = 3
"""``freecell solve`` found no answer within its limits for a deal."""
EXIT_INTERRUPTED: Final = 128 + signal.SIGINT
"""Ctrl-C (SIGINT) ended the command: 130."""
EXIT_TERMINATED: Final = 128 + signal.SIGTERM
"""SIGTERM ended the command: 143."""


class Terminated(BaseException):
    """SIGTERM arrived: raised where the command is, so it unwinds as it does on Ctrl-C."""


def _raise_terminated(signum: int, frame: object) -> None:  # noqa: ARG001 - a signal handler
    raise Terminated


@contextmanager
def _terminate_by_unwinding() -> Iterator[None]:
    """Make SIGTERM raise :class:`Terminated` for the duration, in the main thread only.

    Only the main thread can set a handler; a command run elsewhere (a test's thread) keeps
    the process's own.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stopped_status(stop: BaseException) -> int:
    return EXIT_INTERRUPTED if isinstance(stop, KeyboardInterrupt) else EXIT_TERMINATED


def quiet_worker() -> None:
    """Let a worker process of a command end by its parent's word alone, without a traceback.

    A worker forked from a command inherits its SIGTERM handler, and Ctrl-C reaches the whole
    process group: the worker ignores SIGINT (its parent unwinds and ends it) and dies on
    SIGTERM as processes do by default.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


MAX_LINE: Final = 1 << 20
"""The longest line of standard input, in bytes: 1 MiB, far more than any list of moves."""


def quoted(value: str | bytes) -> str:
    r"""Return ``repr(value)`` for a message, cut to :data:`QUOTE_LIMIT` characters with ``…``.

    >>> quoted("5x")
    "'5x'"
    >>> quoted("9" * 50)
    "'9999999999999999999999999999999999999999…'"
    >>> quoted(b"5a\xff")
    "b'5a\\xff'"
    """
    if isinstance(value, str):
        return repr(shorten(value))
    if len(value) <= QUOTE_LIMIT:
        return repr(value)
    return repr(value[:QUOTE_LIMIT]) + "…"


class _Fault(Exception):  # noqa: N818 - not an error of the program: how a stream let it down
    """A stream or an argument let the command down; ``message`` is None for a quiet exit."""

    def __init__(self, status: int, message: str | None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _reason(error: Exception) -> str:
    """Return what went wrong in words: ``No space left on device`` rather than ``[Errno 28]``."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _discard(stream: IO[Any] | None) -> None:
    """Point a failed standard stream's descriptor at /dev/null.

    Python flushes ``sys.stdout`` and ``sys.stderr`` once more at exit; what they still hold
    then goes nowhere instead of failing again (which would print a traceback and exit 120).
    """
    try:
        fd = stream.fileno() if stream is not None else -1
        if fd < 0:
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        if devnull != fd:
            os.close(devnull)


def read_limited(stdin: TextIO, limit: int, what: str) -> str:
    r"""Return the rest of standard input, if it holds at most ``limit`` characters.

    Past that it stops reading (``yes | freecell solve -`` ends at once) and the command ends
    with status 2 and one line saying the input is too long for ``what``.

    >>> import io
    >>> read_limited(io.StringIO("5a\n5b\n"), 6, "two moves")
    '5a\n5b\n'
    >>> read_limited(io.StringIO("5a\n5b\n5c\n"), 6, "two moves")
    Traceback (most recent call last):
    ...
    freecell._cli.streams._Fault: standard input is longer than 6 characters: too long for two moves
    """
    parts: list[str] = []
    total = 0
    for line in stdin:
        total += len(line)
        if total > limit:
            msg = f"standard input is longer than {limit:,} characters: too long for {what}"
            raise _Fault(EXIT_BAD_INPUT, msg)
        parts.append(line)
    return "".join(parts)


class _Input:
    """Standard input for a command: read line by line as bytes, decoded strictly.

    Reading raises :class:`_Fault` for input that is not text (status 2) and for a stream that
    cannot be read (status 1). A source that already gives text (a replaced ``sys.stdin``) is
    read as it is.
    """

    def __init__(self, source: IO[Any] | None, encoding: str) -> None:
        self._source = source
        self._encoding = encoding
        self._line = 0

    def readline(self) -> str:
        """Return the next line, ``""`` at the end."""
        if self._source is None:
            raise _Fault(EXIT_FAILURE, "cannot read standard input: it is closed")
        try:
            raw = self._source.readline(MAX_LINE + 1)
        except (OSError, ValueError) as error:
            raise _Fault(EXIT_FAILURE, f"cannot read standard input: {_reason(error)}") from None
        if not raw:
            return ""
        self._line += 1
        if len(raw) > MAX_LINE:
            msg = f"line {self._line} of standard input is longer than {MAX_LINE} bytes"
            raise _Fault(EXIT_BAD_INPUT, msg)
        if isinstance(raw, str):
            return raw
        try:
            return cast(bytes, raw).decode(self._encoding)
        except UnicodeDecodeError as error:
            msg = (
                f"standard input is not {self._encoding} text: byte {raw[error.start]:#04x} "
                f"at line {self._line}, column {error.start + 1}"
            )
            raise _Fault(EXIT_BAD_INPUT, msg) from None

    def read(self) -> str:
        """Return the rest of the input."""
        return "".join(self)

    def readlines(self) -> list[str]:
        """Return the remaining lines."""
        return list(self)

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def isatty(self) -> bool:
        """Tell whether standard input is a terminal."""
        try:
            return self._source is not None and self._source.isatty()
        except (OSError, ValueError):
            return False


_STOP_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back until the block ends (main thread only).

    A signal that interrupts a write can leave half a line out: Python drops the rest of a
    large write when a signal handler raises. Held back, the signal comes right after. So for
    code that a raising handler would leave broken (argparse's ``parse_intermixed_args``
    restores its actions in a ``finally`` that fails if it stopped half-way: an
    ``AttributeError`` and a traceback instead of status 143).
    """
    mask = getattr(signal, "pthread_sigmask", None)  # Pyodide and Windows have none
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = mask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


@contextmanager
def signals_noted() -> Iterator[list[int]]:
    """Only note SIGINT and SIGTERM until the block ends, then take them (main thread only).

    Python runs a signal's handler wherever the main thread is: one that raises inside a
    condition's wait (concurrent.futures waits on one) can leave its lock released twice, and
    the command then ends with "cannot release un-acquired lock" instead of its stop status.
    Within the block the signals are only appended to the list it gets, which it polls between
    short waits; at its end the handlers that were there come back, and each signal noted is
    raised again for them.
    """
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(signum: int, frame: object) -> None:  # noqa: ARG001 - a signal handler
        noted.append(signum)

    previous = {stop: signal.signal(stop, note) for stop in sorted(_STOP_SIGNALS)}
    try:
        yield noted
    finally:
        for stop, handler in previous.items():
            signal.signal(stop, signal.SIG_DFL if handler is None else handler)
        for signum in noted:
            signal.raise_signal(signum)


class _Output:
    """Standard output for a command: a write that fails raises :class:`_Fault`.

    A reader that went away is a quiet exit (status 0); any other failure is status 1. A write
    goes out whole before Ctrl-C or SIGTERM is handled (a reader that stops reading holds the
    command until it reads again or exits).
    """

    def __init__(self, target: TextIO | None, discard: bool) -> None:
        self._target = target
        self._discard = discard  # the process's own stdout: silence it after a failure

    def _fail(self, error: Exception | None) -> _Fault:
        if self._discard:
            _discard(self._target)
        if isinstance(error, BrokenPipeError):
            return _Fault(EXIT_OK, None)
        reason = "it is closed" if error is None else _reason(error)
        return _Fault(EXIT_FAILURE, f"cannot write to standard output: {reason}")

    def write(self, text: str) -> int:
        """Write text; raise :class:`_Fault` if it cannot be written."""
        if self._target is None:
            raise self._fail(None)
        try:
            with signals_held():
                return self._target.write(text)
        except (OSError, ValueError) as error:
            raise self._fail(error) from None

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush what was written; raise :class:`_Fault` if it cannot be written."""
        if self._target is None:
            return
        try:
            with signals_held():
                self._target.flush()
        except (OSError, ValueError) as error:
            raise self._fail(error) from None

    def isatty(self) -> bool:
        """Tell whether standard output is a terminal."""
        try:
            return self._target is not None and self._target.isatty()
        except (OSError, ValueError):
            return False


class _Errors:
    """Standard error for a command: writes that fail are dropped, and so are later ones."""

    def __init__(self, target: TextIO | None, discard: bool) -> None:
        self._target = target
        self._discard = discard

    def write(self, text: str) -> int:
        """Write text and flush it, if standard error still works."""
        if self._target is not None:
            try:
                self._target.write(text)
                self._target.flush()
            except (OSError, ValueError):
                if self._discard:
                    _discard(self._target)
                self._target = None
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Do nothing: every write is flushed."""

    def isatty(self) -> bool:
        """Tell whether standard error is a terminal."""
        try:
            return self._target is not None and self._target.isatty()
        except (OSError, ValueError):
            return False


def _argument_fault(argv: Sequence[str]) -> _Fault | None:
    """Return the fault of the first argument that holds bytes that are not text, if any."""
    for index, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            try:
                raw = os.fsencode(arg)
            except UnicodeError:
                raw = arg.encode("utf-8", "backslashreplace")
            encoding = sys.getfilesystemencoding()
            return _Fault(EXIT_BAD_INPUT, f"argument {index} is not {encoding} text: {quoted(raw)}")
    return None


def run_command(
    prog: str,
    command: Command,
    argv: Sequence[str],
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    r"""Run a command over guarded streams and return its exit status; ``prog`` starts messages.

    Streams left out are the process's own (``sys.stdin``'s bytes, decoded in its encoding;
    ``sys.stdout``; ``sys.stderr``), any of which may be closed.

    >>> import io
    >>> def echo(argv, stdin, stdout, stderr):
    ...     stdout.write(stdin.read())
    ...     return 0
    >>> out, err = io.StringIO(), io.StringIO()
    >>> run_command("echo", echo, [], stdin=io.BytesIO(b"5a\xff"), stdout=out, stderr=err)
    2
    >>> print(err.getvalue(), end="")
    echo: standard input is not utf-8 text: byte 0xff at line 1, column 3
    """
    if stdin is None:
        source: IO[Any] | None = getattr(sys.stdin, "buffer", sys.stdin)
        encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    else:
        source, encoding = stdin, "utf-8"
    errors = _Errors(sys.stderr if stderr is None else stderr, discard=stderr is None)
    output = _Output(sys.stdout if stdout is None else stdout, discard=stdout is None)
    try:
        with _terminate_by_unwinding():
            try:
                fault = _argument_fault(argv)
                if fault is not None:
                    raise fault
                status = command(
                    list(argv),
                    cast(TextIO, _Input(source, encoding)),
                    cast(TextIO, output),
                    cast(TextIO, errors),
                )
            except (KeyboardInterrupt, Terminated) as stop:
                status = _stopped_status(stop)
            output.flush()  # on a signal too: the lines written so far stay whole
    except _Fault as error:
        if error.message is not None:
            errors.write(f"{prog}: {error.message}\n")
        return error.status
    except (KeyboardInterrupt, Terminated) as stop:  # a second signal, during the flush
        return _stopped_status(stop)
    return status
