"""The ``freecell`` command's entry point: Ctrl-C and SIGTERM are quiet from its first instant.

Importing the package takes 0.1 to 0.3 s (every module of the library), and a subcommand's
module more; Ctrl-C then would end the command with a traceback, SIGTERM by the signal itself
(a status of -15 where the promise is 143). This module lies outside the package so that it
runs before any of it: until the command takes the signals over
(:func:`freecell._cli.streams.run_command`, which unwinds and flushes what it wrote), either one
ends the process at once with 128 plus its number, as the command does (nothing is written and
no worker started yet), and so again once the command has returned (its output flushed), until
Python's last steps at exit, where both are held back. A signal that the process was started
with ignored (a shell's background job ignores SIGINT) stays ignored.

It imports only modules that Python has loaded before it runs (``_signal``, the C module under
``signal``, whose own import takes ``enum``: 5 to 20 ms in which a signal would still be
Python's). What comes before it is Python's own start (tens of ms; up to 0.2 s at a load of 17
on 2 cores, measured with ``python -X importtime``: every SIGTERM that ended a command by the
signal came before ``site`` was imported), which no program written in Python can reach.

``python -m freecell`` runs :func:`main` too, once Python has imported the package for it; the
package's first lines call :func:`take_signals` then (Python names the command ``-m`` while it
imports the package: ``sys.argv[0]``), so it is as quiet from there as the installed command.
"""

import _signal  # type: ignore[import-not-found]  # loaded with the interpreter, and stubless
import atexit
import os
import sys

_STOPS = (_signal.SIGINT, _signal.SIGTERM)
"""The signals that stop a command: 130 and 143, as ``freecell._cli.streams`` names them."""


def _exit_at_once(signum: int, frame: object) -> None:  # noqa: ARG001 - a handler
    """End the process with 128 plus the signal's number: nothing is under way to unwind."""
    os._exit(128 + signum)


def _take(first: dict[int, object]) -> None:
    """Make each signal that was not ignored at the start end the process at once."""
    for signum, handler in first.items():
        if handler != _signal.SIG_IGN:
            _signal.signal(signum, _exit_at_once)


def _hold() -> None:
    """Hold both signals back for the rest of the process: it ends with the command's status.

    Registered first, this runs last of the functions run at exit, just before Python gives
    the signals back to the system's default (which would end the process by the signal
    while it tears its modules down: -15 for a command that was done).
    """
    _signal.pthread_sigmask(_signal.SIG_BLOCK, _STOPS)


_first: dict[int, object] = {}
"""Each signal's handler as the process started with it, once :func:`take_signals` took them."""


def take_signals() -> dict[int, object]:
    """Take the signals for the command, once; return their handlers as the process had them."""
    if not _first:
        _first.update((signum, _signal.getsignal(signum)) for signum in _STOPS)
        _take(_first)
        if hasattr(_signal, "pthread_sigmask"):  # not on Windows
            atexit.register(_hold)
    return _first


def main() -> int:
    """Run the ``freecell`` command with ``sys.argv``; return its exit status."""
    first = take_signals()
    from freecell._cli import main as command  # noqa: PLC0415 - the package, signals taken

    # SIGINT raises KeyboardInterrupt again (the command unwinds on it); SIGTERM keeps ending
    # the process until the command sets its own handler, and after, when it puts this back.
    interrupt = first[_signal.SIGINT]
    if interrupt != _signal.SIG_IGN:
        _signal.signal(
            _signal.SIGINT, interrupt if callable(interrupt) else _signal.default_int_handler
        )
    try:
        status = command()
    except KeyboardInterrupt:  # before the command took it, or after it gave it back
        status = 128 + int(_signal.SIGINT)
    _take(first)
    return status


if __name__ == "__main__":
    sys.exit(main())
