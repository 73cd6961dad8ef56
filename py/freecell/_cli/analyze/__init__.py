"""The ``freecell analyze`` command: solve ranges of deals on a Dask cluster, into Parquet files.

``freecell analyze 1..1000000 --out DIR`` cuts the deals into chunks aligned to their numbers
(``--chunk``), hands each chunk to a Dask ``distributed`` cluster as one task of plain values
(a few intervals of deal numbers and the budget, back: plain lists), and writes each chunk's
rows into its own Parquet file as soon as they are back. The cluster is a ``LocalCluster``
that the command starts and stops (one worker process per core, ``--workers``), or an existing
one (``--scheduler``).

The files are the record: a run submits only what no file holds, so running the same command
again resumes it; a file that does not hold exactly what its metadata says is moved aside into
``rejected/`` and its deals solved again (:func:`freecell._cli.analyze.dataset.check`). A folder
written by another version, or with another budget or chunk size, is refused. Dask runs a
chunk again elsewhere when its worker dies; a chunk that ends its worker every time (Dask's
``KilledWorker``) is split into one task a deal, and a deal that ends its worker every time
gets an ``error`` row. Ctrl-C and SIGTERM unwind through context managers:
the cluster and its processes are stopped, a file being written is removed, and
:func:`freecell._cli.streams.run_command` exits with 130 or 143.

This module reads the command line and runs the parts, a module each:
:mod:`~freecell._cli.analyze.task` (the task the workers run, ``solve_chunk``),
:mod:`~freecell._cli.analyze.plan` (the folder and what is left to do),
:mod:`~freecell._cli.analyze.cluster` (the cluster, started or reached),
:mod:`~freecell._cli.analyze.driver` (the tasks handed out, the files written) and
:mod:`~freecell._cli.analyze.errors` (their failures); the deals as intervals are
:mod:`~freecell._cli.analyze.intervals`, the files :mod:`~freecell._cli.analyze.dataset`.

The command needs the ``analyze`` extra (``distributed``, ``pyarrow``, ``tqdm``); it imports
them only when it runs, so ``import freecell`` and the page never do. See docs/analyze.md.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import chain
from pathlib import Path
from typing import Any, Final, TextIO

from freecell._cli.analyze.cluster import cluster, worker_count
from freecell._cli.analyze.driver import Driver, Progress
from freecell._cli.analyze.errors import ClusterError, RefusedError
from freecell._cli.analyze.intervals import (
    DEFAULT_CHUNK,
    MAX_CHUNK,
    Interval,
    deal_intervals,
    merged,
)
from freecell._cli.analyze.plan import locked_folder, plan_run
from freecell._cli.analyze.task import PACKAGE
from freecell._cli.options import (
    Answered,
    Parser,
    UsageError,
    add_budget_arguments,
    add_cells_argument,
    answered_or_refused,
    bounded_int,
    positive_int,
)
from freecell._cli.streams import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, quoted
from freecell._deal import VALID_DEALS_TEXT, DealNumberError

_PROG: Final = "freecell analyze"
_EXTRA_MODULES: Final = ("distributed", "pyarrow", "tqdm")


_DESCRIPTION: Final = """\
Solve every deal of some ranges on a Dask cluster (every core of this machine,
or --scheduler) and write a Parquet dataset: one file per chunk of consecutive
deals, a row per deal (deal, result, moves, solution, states, seconds,
difficulty). Running it again resumes: only chunks without a file are solved.
"""
_EPILOG: Final = f"""\
A DEAL is a deal number (617, -1) or a range FIRST..LAST (1..1000000); deal
numbers are {VALID_DEALS_TEXT}.

  freecell analyze 1..1000000 --out runs/1m        every core of this machine
  freecell analyze 1..1000000 --out runs/1m --scheduler tcp://HOST:8786
  freecell analyze --retry-unknown --max-states 5000000 --out runs/1m
  freecell analyze --summary runs/1m
  freecell analyze 1..32000 --min-cells runs/4 runs/3 runs/2 runs/1 runs/0

Exit status: 0 done (a deal may be unknown or an error: see --summary), 1 when
the cluster failed, 2 for a bad command line or folder, 130 on Ctrl-C. See
docs/analyze.md.
"""


def chunk_size(text: str) -> int:
    """Read ``--chunk``: a whole number from 1 to MAX_CHUNK (an argparse ``type``).

    >>> chunk_size("500")
    500
    >>> chunk_size("99999999999999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a whole number from 1 to 100000, not '99999999999999'
    """
    return bounded_int(text, 1, MAX_CHUNK, f"a whole number from 1 to {MAX_CHUNK}")


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument("--out", metavar="DIR", help="the folder of the dataset (made if missing)")
    parser.add_argument(
        "--chunk",
        type=chunk_size,
        metavar="N",
        help=f"deals a chunk, a task and a file, at most {MAX_CHUNK:,} "
        f"(default {DEFAULT_CHUNK}, or the folder's)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="worker processes of the embedded cluster (default and most: one per core, "
        "and never more than the chunks to solve)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="use a running Dask cluster (tcp://HOST:PORT) instead of starting one",
    )
    add_budget_arguments(
        parser, "seconds a search may take, per deal: a safety valve (default: no limit)"
    )
    add_cells_argument(parser, retry=True)
    parser.add_argument(
        "--retry-unknown",
        action="store_true",
        help="solve again only the unknown deals of --out, with a --max-states at least its own",
    )
    parser.add_argument(
        "--summary", metavar="DIR", help="print what the dataset in DIR holds, and exit"
    )
    parser.add_argument(
        "--min-cells",
        nargs="+",
        metavar="DIR",
        help="print the fewest free cells of the deals in these datasets (one for each --cells "
        "they were analysed with) as the site's table (of one range, if named), and exit",
    )
    parser.add_argument("deals", nargs="*", metavar="DEAL", help="a deal number or a range")
    return parser


_DEALS_LIKE: Final = re.compile(r"-?[0-9]+(\.\.-?[0-9]*)?")


def _check_reading(args: Any) -> None:
    """Check a command line that reads datasets (--summary, --min-cells). Raises UsageError."""
    if args.summary is not None and args.min_cells is not None:
        msg = "--summary or --min-cells: one at a time"
        raise UsageError(msg)
    if args.summary is not None and args.deals:
        msg = "--summary DIR reads a dataset: name no deals"
        raise UsageError(msg)
    if args.out is not None or args.retry_unknown:
        option = "--summary" if args.summary is not None else "--min-cells"
        msg = f"{option} reads datasets: name no --out, no --retry-unknown"
        raise UsageError(msg)
    for folder in args.min_cells or []:
        if _DEALS_LIKE.fullmatch(folder) and not _exists(Path(folder)):
            msg = f"{quoted(folder)} is no folder: name the deals before --min-cells"
            raise UsageError(msg)


def _exists(path: Path) -> bool:
    """Tell whether a path exists; one that cannot be looked at (no permission) does too."""
    try:
        path.stat()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def _check_folder_names(args: Any) -> None:
    """Refuse an empty folder name: it is no folder (Python would take the current one)."""
    for option, value in (("--out", args.out), ("--summary", args.summary)):
        if value == "":
            msg = f"{option} '': name a folder (. for this one)"
            raise UsageError(msg)
    if "" in (args.min_cells or []):
        msg = "--min-cells '': name a folder (. for this one)"
        raise UsageError(msg)


def _deals(texts: list[str]) -> list[Interval]:
    """Return the deals of the command line's numbers and ranges. Raises UsageError."""
    if not texts:
        msg = f"name at least one deal or range ({VALID_DEALS_TEXT})"
        raise UsageError(msg)
    intervals: list[Interval] = []
    for text in texts:
        try:
            intervals += deal_intervals(text)
        except DealNumberError as error:
            raise UsageError(str(error)) from None
    return merged(intervals)


def _request(args: Any) -> list[Interval]:
    """Check the command line as a whole; return the deals asked for. Raises UsageError."""
    _check_folder_names(args)
    if args.summary is not None or args.min_cells is not None:
        _check_reading(args)
        if args.min_cells is None or not args.deals:
            return []
    elif args.scheduler is not None and args.workers is not None:
        msg = "--workers sets the embedded cluster's size; a --scheduler's cluster has its own"
        raise UsageError(msg)
    elif args.out is None:
        msg = "say where the dataset goes: --out DIR"
        raise UsageError(msg)
    elif args.retry_unknown:
        if args.deals:
            msg = "--retry-unknown solves again the unknown deals of --out: name no deals"
            raise UsageError(msg)
        return []
    request = _deals(args.deals)
    if args.min_cells is not None and (len(request) > 1 or request[0][0] < 1):
        msg = "--min-cells makes a table of one range of deals numbered from 1: name one, or none"
        raise UsageError(msg)
    return request


def _missing_extra() -> str | None:
    """Import what the command needs beyond the package; return the first one missing, or None."""
    # pyarrow's allocator, jemalloc, starts threads of its own and says so on stderr when the
    # system refuses them (a tight `ulimit -u`): the system's allocator serves the command's
    # small tables as well, and jemalloc, loaded all the same, starts no thread; the workers
    # inherit both.
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    os.environ.setdefault("JE_ARROW_MALLOC_CONF", "background_thread:false")
    for name in _EXTRA_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def _analyze(args: Any, request: list[Interval], stdout: TextIO, stderr: TextIO) -> None:
    """Run the analysis into --out; raise RefusedError or ClusterError."""
    from freecell._cli.analyze.dataset import REJECTED  # noqa: PLC0415 - needs the extra

    folder = Path(args.out)
    with locked_folder(folder, args.out):
        plan = plan_run(folder, args, request)
        stderr.writelines(f"{_PROG}: {file}: moved into {REJECTED}/\n" for file in plan.moved)
        progress = Progress(stderr, plan.todo, plan.done)
        try:
            if plan.todo == 0:  # no cluster needed
                Driver(None, folder, plan, progress).run()
                if args.retry_unknown:
                    stdout.write(f"no unknown deal left to retry in {quoted(args.out)}\n")
                else:
                    stdout.write(f"all {plan.done:,} deals are already in {quoted(args.out)}\n")
                return
            workers = 0  # a --scheduler's cluster has its own
            if args.scheduler is None:  # a worker a task at most: see how many there are
                wanted, first, tasks = worker_count(args.workers, plan.todo), [], 0
                while tasks < wanted and (job := next(plan.jobs, None)) is not None:
                    first.append(job)
                    tasks += bool(job.parts)  # a job without deals only stamps its file
                plan = replace(plan, jobs=chain(first, plan.jobs))
                workers = worker_count(args.workers, tasks)
            with cluster(args.scheduler, workers) as client:
                if not client.nthreads():
                    stderr.write(f"{_PROG}: the cluster has no worker yet: waiting for one\n")
                Driver(client, folder, plan, progress).run()
        finally:
            progress.close()
    stdout.write(
        f"{sum(progress.counts.values()):,} deals analysed into {quoted(args.out)} "
        f"({progress.text()}); {plan.done:,} were there before\n"
    )


def _read(args: Any, request: list[Interval], stdout: TextIO, stderr: TextIO) -> None:
    """Print --summary or --min-cells; say which files do not count, a line each, on stderr."""
    from freecell._cli.analyze.dataset import scan  # noqa: PLC0415 - needs the extra
    from freecell._cli.analyze.reports import (  # noqa: PLC0415 - needs the extra
        MIN_CELLS_COLUMNS,
        SUMMARY_COLUMNS,
        min_cells,
        summary,
    )

    if args.summary is not None:
        folder = Path(args.summary)
        found = scan(folder, SUMMARY_COLUMNS)
        stderr.writelines(f"{_PROG}: not counted: {file}\n" for file in found.bad)
        stdout.writelines(f"{line}\n" for line in summary(found, folder))
        return
    folders = []
    for text in args.min_cells:
        found = scan(Path(text), MIN_CELLS_COLUMNS)
        stderr.writelines(f"{_PROG}: not counted: {file}\n" for file in found.bad)
        folders.append((Path(text), found))
    stdout.write(min_cells(folders, request))


def analyze_main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:  # noqa: ARG001 - no input
    r"""Run ``freecell analyze`` with the arguments that follow ``analyze``; return the status.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> analyze_main(["1..1000"], io.StringIO(), out, err), err.getvalue()
    (2, 'freecell analyze: say where the dataset goes: --out DIR\n')
    """
    try:
        args = _parser().parse(argv)
        request = _request(args)
    except (Answered, UsageError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    missing = _missing_extra()
    if missing is not None:
        stderr.write(
            f"{_PROG}: needs the analyze extra ({missing} is missing): pip install {PACKAGE}\n"
        )
        return EXIT_BAD_INPUT
    from freecell._cli.analyze.dataset import (  # noqa: PLC0415 - needs the extra
        FolderError,
    )

    try:
        if args.summary is not None or args.min_cells is not None:
            _read(args, request, stdout, stderr)
        else:
            _analyze(args, request, stdout, stderr)
    except (RefusedError, FolderError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    except ClusterError as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_FAILURE
    return EXIT_OK
