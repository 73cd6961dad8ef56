"""The ``freecell solve`` command: solve deals, or a position read from standard input.

``freecell solve DEAL...`` prints a line per deal, in order, as soon as it is known:
``617: 83 2a 21 ...`` (every move in standard notation, moves to the foundations included, so
that ``freecell replay 617`` plays them to a win), ``11982: impossible`` or ``N: unknown``
when the budget ran out. ``-`` reads a position in fc-solve's format from standard input (what
the page's "Copy text" copies; at most :data:`~freecell._fcs.MAX_POSITION_TEXT` characters) and
is labelled ``-``. ``--format json`` prints a JSON object a line instead. ``--cells K`` plays
with K free cells, 0 to 4. ``--jobs N`` runs up to N processes, never more than the cores
(:func:`~freecell._cli.options.usable_cores`) nor the deals; ``--max-states`` is at most
:data:`~freecell._search.solver.MAX_STATES_CEILING`. Exit status: 0 when every deal got an answer, 3
when one is unknown, 2 for a bad command line (one line on stderr, nothing on stdout; every
argument is checked first), 1 when a worker process cannot start or dies.

``--short`` searches on for fewer player moves, the moves not to the foundations
(:class:`~freecell.ShortSolver`: seconds a deal, not milliseconds); ``--format json`` gives
``player_moves`` either way.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, TextIO

from freecell._cli.options import (
    Answered,
    Parser,
    UsageError,
    add_budget_arguments,
    add_cells_argument,
    answered_or_refused,
    positive_int,
    usable_cores,
)
from freecell._cli.streams import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_UNKNOWN,
    quiet_worker,
    quoted,
    read_limited,
    signals_noted,
)
from freecell._deal import VALID_DEALS_TEXT, DealNumberError, deal, parse_deal_spec
from freecell._fcs import MAX_POSITION_TEXT, parse_position
from freecell._notation import FREECELLS
from freecell._rules import PositionError
from freecell._search import ShortSolver, Solution, Solver, difficulty

if TYPE_CHECKING:
    from concurrent.futures import Future

_PROG: Final = "freecell solve"
_FORMATS: Final = ("text", "json")
_STDIN: Final = "-"
_AHEAD: Final = 8  # deals handed out ahead of the one printed next, per process
_WATCH_SECONDS: Final = 0.5  # how often a worker checks that its parent is alive
_WAIT_SECONDS: Final = 0.1  # the longest a stop signal waits while a solution is awaited


def _format(text: str) -> str:
    if text not in _FORMATS:
        msg = f"choose from {', '.join(_FORMATS)}, not {quoted(text)}"
        raise argparse.ArgumentTypeError(msg)
    return text


_DESCRIPTION: Final = """\
Solve FreeCell deals: a line per deal, in order, with every move in standard
notation (moves to the foundations included), `impossible` when no solution
exists (proved by a complete search) or `unknown` when the budget ran out.
"""
_EPILOG: Final = f"""\
A DEAL is a deal number (617, #617, -1), a range FIRST..LAST (1..1000), or - for
a position in fc-solve's format on standard input. Deal numbers are
{VALID_DEALS_TEXT}.

Exit status: 0 when every deal was solved or proved impossible, 3 when one is
unknown, 2 for a bad command line or a position on stdin longer than {MAX_POSITION_TEXT:,}
characters, 1 when a worker process cannot start or dies. `freecell solve 617 |
cut -d: -f2 | freecell replay 617` replays a solution.
"""


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument(
        "-f",
        "--format",
        type=_format,
        default="text",
        metavar="FORMAT",
        help="text: `DEAL: MOVES` or `DEAL: impossible|unknown` (default); json: an object a "
        "line with deal, result, moves, player_moves, states, seconds, cells and difficulty",
    )
    add_budget_arguments(parser, "seconds a search may take, per deal (default: no limit)")
    add_cells_argument(parser)
    parser.add_argument(
        "--short",
        action="store_true",
        help="search on for fewer player moves (moves not to the foundations): seconds a "
        "deal instead of milliseconds",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="processes that solve deals side by side, at most one a core (here "
        f"{usable_cores()}) and one a deal; the output keeps its order (default 1)",
    )
    parser.add_argument(
        "deals", nargs="*", metavar="DEAL", help="a deal number, a range, or - for stdin"
    )
    return parser


class WorkerDiedError(Exception):
    """A worker process ended in the middle of its work: killed from outside, or out of memory."""

    def __str__(self) -> str:
        return "a worker process ended unexpectedly (killed, or out of memory?)"


class WorkerStartError(Exception):
    """A worker process (or the thread that feeds them) could not start: too many processes."""

    def __init__(self, jobs: int, error: Exception) -> None:
        super().__init__(jobs, error)
        self.jobs = jobs
        self.error = error

    def __str__(self) -> str:
        reason = self.error.strerror if isinstance(self.error, OSError) else None
        return (
            f"cannot start {self.jobs} worker processes: {reason or self.error} "
            "(the system's limit on processes? try fewer --jobs)"
        )


@dataclass(frozen=True, slots=True)
class _Task:
    """One deal to solve: a deal number or a position's text, the budget and the free cells."""

    number: int | None
    text: str
    max_states: int
    timeout: float | None
    cells: int
    short: bool = False


def _solve(task: _Task) -> Solution:
    """Solve one task (in this process or a worker)."""
    start = deal(task.number) if task.number is not None else parse_position(task.text)
    search = ShortSolver if task.short else Solver
    return search(
        start, max_states=task.max_states, max_seconds=task.timeout, cells=task.cells
    ).run()


def _start_worker() -> None:
    """Set up a worker process: signals end it quietly, and so does its parent's death."""
    quiet_worker()
    _watch_parent()


def _watch_parent() -> None:
    """End this worker process soon after its parent is gone (killed, not just finished)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _result(future: Future[Solution]) -> Solution:
    """Wait for a worker's solution; Ctrl-C or SIGTERM meanwhile is taken between two waits.

    Not inside one: see :func:`signals_noted`.
    """
    with signals_noted() as noted:
        while not noted:
            try:
                return future.result(timeout=_WAIT_SECONDS)
            except TimeoutError:
                continue
    return future.result()  # the handlers let the noted signals pass: wait on


def _results(tasks: Iterator[_Task], jobs: int) -> Generator[tuple[_Task, Solution]]:
    """Yield each task with its solution, in order, solving up to ``jobs`` at once.

    Several jobs run in worker processes, with a few deals handed out ahead of the one printed
    next. However the generator ends (done, a closed pipe, Ctrl-C), the workers end at once.
    Raises :class:`WorkerDiedError` if a worker process is killed from outside, and
    :class:`WorkerStartError` if one cannot start (the system's limit on processes).
    """
    if jobs == 1:
        for task in tasks:
            yield task, _solve(task)
        return
    # Only several jobs need these (and Pyodide has no processes).
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    executor = ProcessPoolExecutor(jobs, initializer=_start_worker)
    try:
        pending: deque[tuple[_Task, Future[Solution]]] = deque()
        while True:
            # A killed worker breaks the pool: the next submit raises, as the next result does.
            # The pool starts its processes and its thread in submit: a fork the system refuses
            # raises an OSError (BlockingIOError) there, a thread a RuntimeError.
            try:
                while len(pending) < jobs * _AHEAD and (queued := next(tasks, None)) is not None:
                    try:
                        # A signal's handler that raised inside submit could leave a lock of
                        # the executor's queues taken: its thread, and the shutdown below,
                        # would then wait for ever. So a signal there is only noted.
                        with signals_noted():
                            future = executor.submit(_solve, queued)
                    except BrokenProcessPool:
                        raise
                    except (OSError, RuntimeError) as error:
                        raise WorkerStartError(jobs, error) from None
                    pending.append((queued, future))
                if not pending:
                    return
                task, future = pending.popleft()
                solution = _result(future)
            except BrokenProcessPool:
                raise WorkerDiedError from None
            yield task, solution
    finally:
        # Killed, not asked: a worker in the middle of a deal would finish it first, and the
        # executor's queues survive a killed worker (multiprocessing.Pool's do not). Then one
        # shutdown that waits for the executor's own thread: a first shutdown(wait=False) lets
        # go of it, and a thread left running at exit races the interpreter's own shutdown of
        # the pool ("Exception ignored ... Bad file descriptor" after a Ctrl-C).
        for worker in multiprocessing.active_children():
            worker.kill()
        executor.shutdown(wait=True, cancel_futures=True)


def _line(task: _Task, solution: Solution, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(
            {
                "deal": task.number,
                "result": solution.result,
                "moves": [str(move) for move in solution.moves],
                "player_moves": solution.player_moves,
                "states": solution.states,
                "seconds": round(solution.seconds, 4),
                "cells": task.cells,
                # The grade is the ordinary game's: with fewer cells the count means another thing.
                "difficulty": difficulty(solution)
                if task.cells == len(FREECELLS) and not task.short
                else None,
            }
        )
    label = _STDIN if task.number is None else str(task.number)
    return f"{label}: {solution}"


def _specs(deal_texts: list[str], stdin: TextIO, cells: int) -> list[Iterable[int] | str]:
    """Check every deal argument and read stdin for ``-``; raise UsageError if one is bad.

    A position on stdin must fit ``cells`` free cells.

    Returns the deal numbers of each argument, or the position's text for ``-``.
    """
    if not deal_texts:
        msg = f"name at least one deal ({VALID_DEALS_TEXT}) or - for a position on stdin"
        raise UsageError(msg)
    specs: list[Iterable[int] | str] = []
    text: str | None = None
    for arg in deal_texts:
        if arg == _STDIN:
            if text is None:
                text = read_limited(stdin, MAX_POSITION_TEXT, "a position")
                try:
                    position = parse_position(text)
                except PositionError as error:
                    msg = f"invalid position on standard input: {error}"
                    raise UsageError(msg) from None
                held = sum(card is not None for card in position.freecells)
                if held > cells:
                    msg = (
                        f"the position on standard input holds {held} cards in its free cells: "
                        f"more than --cells {cells}"
                    )
                    raise UsageError(msg)
            specs.append(text)
            continue
        try:
            specs.append(parse_deal_spec(arg))
        except DealNumberError as error:
            raise UsageError(str(error)) from None
    return specs


def _tasks(
    specs: list[Iterable[int] | str], max_states: int, timeout: float | None, cells: int
) -> Iterator[_Task]:
    for spec in specs:
        if isinstance(spec, str):
            yield _Task(None, spec, max_states, timeout, cells)
        else:
            yield from (_Task(number, "", max_states, timeout, cells) for number in spec)


def solve_main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    r"""Run ``freecell solve`` with the arguments that follow ``solve``; return the exit status.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> solve_main(["11982", "--max-states", "50"], io.StringIO(), out, err)
    3
    >>> out.getvalue()
    '11982: unknown\n'
    >>> solve_main(["0"], io.StringIO(), out, err), err.getvalue()  # doctest: +ELLIPSIS
    (2, "freecell solve: invalid deal number '0': enter a whole number from 1 to ...\n")
    """
    try:
        args = _parser().parse(argv)
        specs = _specs(args.deals, stdin, args.cells)
    except (Answered, UsageError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    tasks = _tasks(specs, args.max_states, args.timeout, args.cells)
    if args.short:
        tasks = (replace(task, short=True) for task in tasks)
    # No more processes than cores, nor than deals (every range is sized, from -2 or -1 too).
    deals = sum(1 if isinstance(s, str) else len(s) if isinstance(s, Sized) else 1 for s in specs)
    jobs = min(args.jobs, usable_cores(), deals)
    # A reader that goes away (`freecell solve 1..1000 | head`) ends the command quietly, in
    # freecell._cli.streams.run_command around it.
    status = EXIT_OK
    try:
        for task, solution in _results(tasks, jobs):
            stdout.write(_line(task, solution, args.format) + "\n")
            stdout.flush()
            if solution.result == "unknown":
                status = EXIT_UNKNOWN
    except (WorkerDiedError, WorkerStartError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_FAILURE
    return status
