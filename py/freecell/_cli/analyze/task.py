"""The task of ``freecell analyze``, run by the workers of a Dask cluster: deals in, plain rows out.

:func:`solve_chunk` takes a few intervals of deal numbers and the budget (plain values) and
returns this package's version and the rows as plain lists, one per column of the dataset
(:data:`COLUMNS`); a worker needs only this package installed. The module is also the
embedded cluster's preload (:func:`dask_setup`, which keeps Ctrl-C for the command), so it
imports nothing of the ``analyze`` extra, and nothing of the command.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any, Final

from freecell._cli.analyze.intervals import Interval
from freecell._cli.streams import quiet_worker
from freecell._deal import deals
from freecell._notation import FREECELLS
from freecell._search import Solver, difficulty
from freecell._version import __version__

Columns = dict[str, list[Any]]
"""A table as plain lists, one per column of :data:`COLUMNS` (what a worker sends back; the
dataset's ``table`` makes them its schema's)."""

PACKAGE: Final = "'freecell-deals[analyze]'"
"""What every machine of a cluster needs installed, the driver's as well as the workers'."""

TEST_HOOK: Final = "FREECELL_ANALYZE_TEST_KILL_AT_DEAL"
"""A test hook, read only by :func:`solve_chunk` in a worker: a process whose environment has
``FREECELL_ANALYZE_TEST_KILL_AT_DEAL=N`` kills itself (SIGKILL) when it comes to deal N, as a
deal that crashes its worker would. The tests set it on the worker processes they start; no
one else has a reason to."""

COLUMNS: Final = ("deal", "result", "moves", "solution", "states", "seconds", "difficulty")
"""The columns that :func:`solve_chunk` returns, those of ``dataset.SCHEMA``."""


def _kill_at() -> int | None:
    """Return the deal at which the test hook kills this worker, if the hook is set."""
    value = os.environ.get(TEST_HOOK)
    return int(value) if value else None


def solve_chunk(
    parts: Sequence[Interval], max_states: int, timeout: float | None, cells: int = 4
) -> tuple[str, Columns]:
    """Solve the deals of some intervals; return this package's version and the rows as lists.

    Runs in a worker of the cluster, which needs only this package installed. ``cells`` is the
    game's number of free cells; with fewer than 4 the rows have no difficulty (the grade is
    the ordinary game's).

    >>> version, rows = solve_chunk([(617, 618)], 100_000, None)
    >>> rows["deal"], rows["result"], rows["moves"][0] == len(rows["solution"][0].split())
    ([617, 618], ['solved', 'solved'], True)
    """
    kill_at = _kill_at()
    rows: Columns = {name: [] for name in COLUMNS}
    for dealt in deals(chain.from_iterable(range(a, b + 1) for a, b in parts)):
        if dealt.number == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        solution = Solver(dealt, max_states=max_states, max_seconds=timeout, cells=cells).run()
        solved = solution.result == "solved"
        rows["deal"].append(dealt.number)
        rows["result"].append(solution.result)
        rows["moves"].append(len(solution.moves) if solved else None)
        rows["solution"].append(str(solution) if solved else None)
        rows["states"].append(solution.states)
        rows["seconds"].append(solution.seconds)
        rows["difficulty"].append(difficulty(solution) if cells == len(FREECELLS) else None)
    return __version__, rows


def error_rows(numbers: Iterable[int]) -> Columns:
    """Return ``error`` rows for deals that ended their worker every time."""
    numbers = list(numbers)
    rows: Columns = {name: [None] * len(numbers) for name in COLUMNS}
    rows["deal"] = numbers
    rows["result"] = ["error"] * len(numbers)
    return rows


def dask_setup(worker: object) -> None:  # noqa: ARG001 - Dask's preload hook
    """Let a worker process of the embedded cluster ignore Ctrl-C: the command stops it."""
    quiet_worker()


def ready() -> bool:
    """Return True: a task that tells a worker can run tasks (see analyze_cluster)."""
    return True
