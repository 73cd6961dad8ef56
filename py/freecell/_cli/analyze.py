"""The ``freecell analyze`` command: solve ranges of deals on a Dask cluster, into Parquet files.

``freecell analyze 1..1000000 --out DIR`` cuts the deals into chunks aligned to their numbers
(``--chunk``), hands each chunk to a Dask ``distributed`` cluster as one task of plain values
(:func:`solve_chunk`: a few intervals of deal numbers and the budget, back: plain lists), and
writes each chunk's rows into its own Parquet file as soon as they are back
(:mod:`freecell._cli.dataset`). The cluster is a ``LocalCluster`` that the command starts and
stops (one worker process per core, ``--workers``), or an existing one (``--scheduler``).

The files are the record: a run submits only what no file holds, so running the same command
again resumes it; a file that does not hold exactly what its metadata says is moved aside into
``rejected/`` and its deals solved again (:func:`freecell._cli.dataset.check`). A folder
written by another version, or with another budget or chunk size, is refused. Dask runs a
chunk again elsewhere when its worker dies; a chunk that ends its worker every time (Dask's
``KilledWorker``) is split into one task a deal, and a deal that ends its worker every time
gets an ``error`` row. Ctrl-C and SIGTERM unwind through context managers:
the cluster and its processes are stopped, a file being written is removed, and
:func:`freecell._cli.streams.run_command` exits with 130 or 143.

The command needs the ``analyze`` extra (``distributed``, ``pyarrow``, ``tqdm``); it imports
them only when it runs, so ``import freecell`` and the page never do. See docs/analyze.md.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import signal
import socket
import struct
import tempfile
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from freecell._cli.intervals import (
    DEFAULT_CHUNK,
    MAX_CHUNK,
    Interval,
    chunks,
    count,
    deal_intervals,
    merged,
    subtract,
)
from freecell._cli.options import (
    Answered,
    Parser,
    UsageError,
    add_budget_arguments,
    add_cells_argument,
    bounded_int,
    positive_int,
    usable_cores,
)
from freecell._cli.streams import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, quiet_worker, quoted
from freecell._deal import (
    VALID_DEALS_TEXT,
    DealNumberError,
    deals,
)
from freecell._difficulty import difficulty
from freecell._errors import shorten
from freecell._notation import FREECELLS
from freecell._solver import Solver

if TYPE_CHECKING:
    from distributed import Client, Future

    from freecell._cli.dataset import BadFile, ChunkFile, Columns, Stamp
else:
    Columns = dict[str, list[Any]]

_PROG: Final = "freecell analyze"
_WINDOW_PER_THREAD: Final = 4  # chunks handed to the cluster ahead, per worker thread
_MIN_WINDOW: Final = 32
_WORKER_START_TIMEOUT: Final = 20.0
"""Seconds a worker process of the embedded cluster may take to start (Dask's nanny waits for
ever for one that hangs, as under a tight ``ulimit -u``; it starts in 1 to 3 s)."""
_HANDSHAKE_LIMIT: Final = 1 << 20
"""The most bytes a scheduler's first message may announce (Dask's handshake: about 200);
anything larger is no Dask scheduler, and reading it could take all the memory."""
_PACKAGE: Final = "'freecell-deals[analyze]'"
"""What every machine of a cluster needs installed, the driver's as well as the workers'."""
_EXTRA_MODULES: Final = ("distributed", "pyarrow", "tqdm")
_LOCAL_CONFIG: Final = {
    # Each worker holds only the chunk it runs, so a worker that dies takes no other with it.
    "distributed.scheduler.worker-saturation": 1.0,
    # Worker processes ignore Ctrl-C (see dask_setup); this command stops them.
    "distributed.worker.preload": [__name__],
    # And they keep their log lines to themselves, from the start (the nanny's environment).
    "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "critical",
}

TEST_HOOK: Final = "FREECELL_ANALYZE_TEST_KILL_AT_DEAL"
"""A test hook, read only by :func:`solve_chunk` in a worker: a process whose environment has
``FREECELL_ANALYZE_TEST_KILL_AT_DEAL=N`` kills itself (SIGKILL) when it comes to deal N, as a
deal that crashes its worker would. The tests set it on the worker processes they start; no
one else has a reason to."""

COLUMNS: Final = ("deal", "result", "moves", "solution", "states", "seconds", "difficulty")
"""The columns that :func:`solve_chunk` returns, those of ``dataset.SCHEMA``."""


# --- the task, run by the workers -------------------------------------------------------------


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
    from freecell import __version__  # noqa: PLC0415 - the package imports its commands' parts

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


# --- the command line -------------------------------------------------------------------------


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


# --- the run ----------------------------------------------------------------------------------


class _RefusedError(Exception):
    """The folder or the scheduler cannot be used; ``str()`` is the message (exit status 2)."""


class _ClusterError(Exception):
    """The cluster could not do the work; ``str()`` is the message (exit status 1)."""


def _reason(error: BaseException) -> str:
    r"""Return why an error happened, as a short line.

    That is the system's words, or the first 40 characters of a library's message (which may
    quote whole inputs, over several lines).

    >>> _reason(PermissionError(13, "Permission denied")), _reason(ValueError("a\nb" * 30))[-4:]
    ('Permission denied', ' ba…')
    """
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return shorten(" ".join(text.split()))


@contextmanager
def _folder(path: Path, text: str) -> Iterator[None]:
    """Make the folder if missing and hold its lock for the block; raise _RefusedError."""
    import fcntl  # noqa: PLC0415 - a Unix module; the page (Pyodide) never gets here

    from freecell._cli.dataset import LOCK_NAME  # noqa: PLC0415 - needs the extra

    try:
        if path.exists() and not path.is_dir():
            msg = f"--out {quoted(text)} is a file, not a folder"
            raise _RefusedError(msg)
        path.mkdir(parents=True, exist_ok=True)
        lock = (path / LOCK_NAME).open("a")
    except OSError as error:
        msg = f"cannot write into {quoted(text)}: {_reason(error)}"
        raise _RefusedError(msg) from None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            msg = f"{quoted(text)} is in use by another freecell analyze"
            raise _RefusedError(msg) from None
        try:
            tempfile.TemporaryFile(dir=path).close()
        except OSError as error:
            msg = f"cannot write into {quoted(text)}: {_reason(error)}"
            raise _RefusedError(msg) from None
        yield


@dataclass(frozen=True, slots=True)
class _Job:
    """A chunk's work: the deals to solve in it (none: only restamp its file)."""

    chunk: Interval
    parts: tuple[Interval, ...]
    replace: bool = False  # --retry-unknown: the new rows replace the file's rows of their deals


@dataclass(slots=True)
class _Chunk:
    """A chunk on the cluster: its tasks not back yet and the rows that are."""

    job: _Job
    left: int
    rows: list[Columns] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a run does: its jobs (lazily), how many deals they solve, and the folder's stamp."""

    jobs: Iterator[_Job]
    todo: int
    done: int
    stamp: Stamp
    moved: list[BadFile] = field(default_factory=list)  # files that do not count, moved aside


def _policy(files: dict[Interval, ChunkFile], args: Any, text: str) -> tuple[int, int]:
    """Check that the folder was written as this run would; return the chunk size and cells.

    Without ``--cells``, a run is of the ordinary game (4 cells), and a retry of the folder's.
    """
    from freecell import __version__  # noqa: PLC0415 - the package imports its commands' parts

    stamps = {f.stamp for f in files.values()}
    cells = args.cells
    if cells is None:
        found = {s.cells for s in stamps}
        cells = found.pop() if args.retry_unknown and len(found) == 1 else len(FREECELLS)
    for stamp in sorted(stamps, key=lambda s: (s.version, s.max_states, s.chunk_size)):
        if stamp.version != __version__:
            msg = (
                f"{quoted(text)} was analysed by freecell {stamp.version}, not "
                f"{__version__}: use another folder"
            )
            raise _RefusedError(msg)
        if not args.retry_unknown and stamp.max_states != args.max_states:
            msg = (
                f"{quoted(text)} was analysed with --max-states {stamp.max_states}, not "
                f"{args.max_states}: use that budget, --retry-unknown, or another folder"
            )
            raise _RefusedError(msg)
        if stamp.cells != cells:
            msg = (
                f"{quoted(text)} was analysed with --cells {stamp.cells}, not {cells}: "
                "use that, or another folder"
            )
            raise _RefusedError(msg)
        if args.retry_unknown and stamp.max_states > args.max_states:
            msg = (
                f"{quoted(text)} was analysed with --max-states {stamp.max_states}: "
                f"--retry-unknown needs at least that, not {args.max_states}"
            )
            raise _RefusedError(msg)
    sizes = {s.chunk_size for s in stamps}
    if len(sizes) > 1 or (args.chunk is not None and sizes and args.chunk not in sizes):
        msg = (
            f"{quoted(text)} holds chunks of {' and '.join(map(str, sorted(sizes)))} deals: "
            "leave out --chunk, or use another folder"
        )
        raise _RefusedError(msg)
    return args.chunk or (sizes.pop() if sizes else DEFAULT_CHUNK), cells


def _plan(folder: Path, args: Any, request: list[Interval]) -> _Plan:
    """Read the folder and plan the run; raise _RefusedError if the folder is refused."""
    from freecell import __version__  # noqa: PLC0415 - the package imports its commands' parts
    from freecell._cli.dataset import (  # noqa: PLC0415 - needs the extra
        BadFile,
        BadFileError,
        Stamp,
        check,
        move_aside,
        remove_leftovers,
        scan,
    )

    remove_leftovers(folder)
    # A retry rewrites every file: each is read whole (deal column only, otherwise).
    found = scan(folder, None if args.retry_unknown else ["deal"])
    files, bad = found.files, list(found.bad)
    for chunk, file in list(files.items()):  # a file that new deals join is read whole too
        joined = subtract(request, subtract(request, [chunk]))
        if subtract(joined, file.deals):
            try:
                check(file.path, chunk, None)
            except BadFileError as error:
                bad.append(BadFile(file.path, str(error)))
                del files[chunk]
    size, cells = _policy(files, args, args.out)
    for each in bad:  # the files are the record: one that does not count is moved aside
        try:
            move_aside(each)
        except OSError as error:
            msg = f"{each}, and cannot be moved aside: {_reason(error)}"
            raise _RefusedError(msg) from None
    stamp = Stamp(__version__, args.max_states, args.timeout, size, cells)
    if args.retry_unknown:
        return replace(_retry_plan(files, stamp, args.out), moved=bad)
    done = sum(count(subtract(request, subtract(request, f.deals))) for f in files.values())

    def jobs() -> Iterator[_Job]:
        for chunk, wanted in chunks(request, size):
            existing = files.get(chunk)
            missing = subtract(wanted, existing.deals) if existing else wanted
            if missing:
                yield _Job(chunk, tuple(missing))

    return _Plan(jobs(), count(request) - done, done, stamp, bad)


def _retry_plan(files: dict[Interval, ChunkFile], stamp: Stamp, text: str) -> _Plan:
    """Plan --retry-unknown: the unknown deals of every file not yet stamped with this budget."""
    from freecell._cli.dataset import unknown_deals  # noqa: PLC0415 - needs the extra

    if not files:
        msg = f"{quoted(text)} holds no file of freecell analyze to retry"
        raise _RefusedError(msg)
    jobs, todo, done = [], 0, 0
    for chunk, file in files.items():
        unknown, rows = unknown_deals(file.path)
        done += rows - len(unknown)
        if file.stamp == stamp:
            done += len(unknown)
            continue
        parts = tuple(merged((n, n) for n in unknown))  # the unknown deals only
        jobs.append(_Job(chunk, parts, replace=True))
        todo += len(unknown)
    return _Plan(iter(jobs), todo, done, stamp)


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Keep Dask's log lines (a worker lost, a result fetched again) off stderr for the block."""
    from distributed.utils import silence_logging_cmgr  # noqa: PLC0415 - the extra

    with silence_logging_cmgr(logging.CRITICAL):
        yield


def _host_port(address: str) -> tuple[str, int]:
    """Return the host and port of a ``tcp://HOST:PORT`` address; raise _RefusedError if none.

    Dask's other protocols (``tls://``, ``ucx://``, ``ws://``, ``inproc://``) need settings or
    libraries that this command does not set up: they are refused.
    """
    from distributed.comm.addressing import parse_address, parse_host_port  # noqa: PLC0415

    scheme, location = parse_address(address)
    try:
        host, port = parse_host_port(location)
    except ValueError:
        host, port = "", 0
    if scheme != "tcp" or not host or not 0 < port < 1 << 16:
        msg = (
            f"--scheduler {quoted(address)} is no address this command uses: write tcp://HOST:PORT"
        )
        raise _RefusedError(msg)
    return host, port


def _first_bytes(host: str, port: int, size: int, timeout: float) -> bytes:
    """Connect to a server and return the first ``size`` bytes it sends (fewer if it stops).

    Raises OSError: ConnectionRefusedError at once where nothing listens, TimeoutError when
    the server sends nothing within the timeout.
    """
    with socket.create_connection((host, port), timeout=timeout) as connection:
        data = b""
        while len(data) < size and (part := connection.recv(size - len(data))):
            data += part
    return data


def _probe(address: str, timeout: float) -> None:
    """Check that a Dask scheduler answers at an address within the timeout; raise if not.

    A Dask server speaks first: its handshake, a message of a few hundred bytes announced by
    its length (8 bytes). The probe reads those 8 bytes itself, so that a port where nothing
    listens is refused at once, and a server that sends other bytes (which Dask's client
    would take for a length of gigabytes) is refused without reading further; then it asks
    the scheduler who it is, as Dask's client does, within the timeout. Dask's own client
    waits for ever on a server that takes the connection and says nothing.
    """
    import asyncio  # noqa: PLC0415 - only --scheduler needs it

    from distributed.core import rpc  # noqa: PLC0415 - the extra

    host, port = _host_port(address)
    silent = f"no Dask scheduler answered at {quoted(address)} within {timeout:g} s"
    stranger = f"{quoted(address)} is no Dask scheduler"
    try:
        first = _first_bytes(host, port, 8, timeout)
    except ConnectionRefusedError:
        msg = f"nothing listens at {quoted(address)} (connection refused)"
        raise _RefusedError(msg) from None
    except socket.gaierror:
        msg = f"--scheduler {quoted(address)}: no host {quoted(host)} is known"
        raise _RefusedError(msg) from None
    except OSError:  # TimeoutError among them
        raise _RefusedError(silent) from None
    if len(first) < 8:
        raise _RefusedError(silent if not first else stranger)
    if struct.unpack("<Q", first)[0] > _HANDSHAKE_LIMIT:
        raise _RefusedError(stranger)

    async def identity() -> Any:
        async with rpc(address, timeout=timeout) as scheduler:
            return await scheduler.identity()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), timeout))
    except (OSError, TimeoutError):
        raise _RefusedError(silent) from None
    except Exception:  # noqa: BLE001 - whatever the bytes were, they were no scheduler's
        raise _RefusedError(stranger) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise _RefusedError(stranger)


@contextmanager
def _cluster(args: Any, workers: int) -> Iterator[Client]:
    """Connect to the --scheduler, or start an embedded cluster of ``workers``; close it all."""
    import dask  # noqa: PLC0415 - the extra
    from distributed import Client, LocalCluster  # noqa: PLC0415 - the extra

    with _quiet_logs():
        if args.scheduler is not None:
            timeout = dask.utils.parse_timedelta(
                dask.config.get("distributed.comm.timeouts.connect")
            )
            _probe(args.scheduler, timeout)
            with Client(args.scheduler, timeout=timeout, set_as_default=False) as client:
                yield client
            return
        with dask.config.set(_LOCAL_CONFIG):
            try:
                with _children_quiet():
                    cluster = LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address="127.0.0.1:0",  # its web server, on loopback
                        silence_logs=logging.CRITICAL,
                        death_timeout=_WORKER_START_TIMEOUT,
                    )
            except Exception as error:  # noqa: BLE001 - Dask's, of any kind (an AssertionError)
                # Its processes that did start are reaped at exit: not a line about them.
                logging.getLogger("distributed").setLevel(logging.CRITICAL)
                msg = (
                    f"could not start {workers} worker process{'es' if workers > 1 else ''} "
                    f"({_reason(error)}): the system's limit of processes (ulimit -u) or "
                    "memory is too low"
                )
                raise _ClusterError(msg) from None
            with cluster, Client(cluster, set_as_default=False) as client:
                _check_workers(client, workers)
                yield client


def ready() -> bool:
    """Return True: a task that tells a worker can run tasks (see _check_workers)."""
    return True


def _check_workers(client: Client, workers: int) -> None:
    """Check that each worker of the embedded cluster runs a task; raise _ClusterError if not.

    A worker process can start and still be unable to run a task: under a tight
    ``ulimit -u``, the thread that would run it cannot start, and the task would wait for ever.
    """
    import time  # noqa: PLC0415 - only the embedded cluster needs it

    addresses = list(client.scheduler_info()["workers"])
    futures = [client.submit(ready, pure=False, workers=[a]) for a in addresses]
    deadline = time.monotonic() + _WORKER_START_TIMEOUT
    try:
        for future in futures:
            future.result(timeout=max(0.1, deadline - time.monotonic()))
    except (TimeoutError, RuntimeError) as error:  # RuntimeError: can't start new thread
        why = _reason(error)
        if isinstance(error, TimeoutError):
            why = f"none within {_WORKER_START_TIMEOUT:g} s"
        msg = (
            f"the {workers} worker process{'es' if workers > 1 else ''} cannot run a task "
            f"({why}): the system's limit of processes (ulimit -u) or memory is too low"
        )
        raise _ClusterError(msg) from None


@contextmanager
def _children_quiet() -> Iterator[None]:
    """Give the processes started in the block a standard error that goes nowhere.

    A worker process that cannot start (too many processes, ``ulimit -u``) prints its
    traceback before Dask's logging is set up in it: the command says it in one line instead.
    """
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all: nothing to keep quiet
        yield
        return
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, 2)
        os.close(nowhere)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def worker_count(wanted: int | None, tasks: int) -> int:
    """Return the embedded cluster's size: ``wanted``, at most a worker a core and one a task.

    The default is a worker a core. The solver is pure Python, one core a process: more
    workers than cores only share them (each costing memory and processes), and more than the
    tasks wait for nothing.

    >>> cores = usable_cores()
    >>> worker_count(None, 1000) == cores, worker_count(1000, 1000) == cores, worker_count(30, 1)
    (True, True, 1)
    """
    cores = usable_cores()
    return max(1, min(wanted or cores, cores, tasks))


class _Progress:
    """Deals done, rate, time left and the count of each result: a tqdm bar on a terminal."""

    def __init__(self, stderr: TextIO, total: int, done: int) -> None:
        self.counts: Counter[str] = Counter()
        self._bar: Any = None
        if stderr.isatty():
            from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 - the extra

            self._bar = tqdm(
                total=total + done, initial=done, unit="deal", file=stderr, smoothing=0.05
            )

    def add(self, results: list[str]) -> None:
        """Count the results of some deals just done."""
        self.counts.update(results)
        if self._bar is not None:
            self._bar.set_postfix_str(self.text(), refresh=False)
            self._bar.update(len(results))

    def text(self) -> str:
        """Return the counts of each result: ``solved 998, impossible 1, ...``."""
        from freecell._cli.dataset import RESULTS  # noqa: PLC0415 - needs the extra

        return ", ".join(f"{name} {self.counts[name]:,}" for name in RESULTS)

    def close(self) -> None:
        """Leave the bar as it is on the terminal."""
        if self._bar is not None:
            self._bar.close()


class _Driver:
    """Hands the jobs to the cluster a window at a time and writes each chunk as it is done."""

    def __init__(
        self, client: Client | None, folder: Path, plan: _Plan, progress: _Progress
    ) -> None:
        self.client = client
        self.folder = folder
        self.plan = plan
        self.progress = progress
        self.running: dict[Future[Any], tuple[_Chunk, tuple[Interval, ...]]] = {}

    def run(self) -> None:
        """Do every job; raise _ClusterError if the cluster cannot."""
        from distributed import as_completed  # noqa: PLC0415 - the extra

        if self.client is None:  # nothing to solve: files to stamp anew at most
            for job in self.plan.jobs:
                self._start(job, None)
            return
        threads = sum(self.client.nthreads().values())
        window = max(_MIN_WINDOW, _WINDOW_PER_THREAD * threads)
        done = as_completed(loop=self.client.loop)
        self._fill(window, done)
        for future in done:
            self._finish(future, done)
            self._fill(window, done)

    def _fill(self, window: int, done: Any) -> None:
        """Start jobs until ``window`` tasks run on the cluster, or no job is left.

        A job that only stamps its file anew (--retry-unknown, a file with no unknown deal) is
        done at once and runs nothing, so it does not count: without this, a run of such jobs
        emptied the window and ended the run with jobs left.
        """
        while len(self.running) < window and (job := next(self.plan.jobs, None)) is not None:
            self._start(job, done)

    def _start(self, job: _Job, done: Any) -> None:
        chunk = _Chunk(job, 1)
        if not job.parts:  # only a new stamp for the file
            chunk.left = 0
            self._write(chunk)
            return
        self._submit(chunk, job.parts, done)

    def _submit(self, chunk: _Chunk, parts: tuple[Interval, ...], done: Any) -> None:
        assert self.client is not None
        stamp = self.plan.stamp
        key = f"analyze-{parts[0][0]}..{parts[-1][1]}-{uuid.uuid4().hex[:12]}"
        future = self.client.submit(
            solve_chunk,
            parts,
            stamp.max_states,
            stamp.timeout,
            stamp.cells,
            key=key,
            retries=1,
        )
        self.running[future] = (chunk, parts)
        done.add(future)

    def _finish(self, future: Future[Any], done: Any) -> None:
        from distributed import KilledWorker  # noqa: PLC0415 - the extra

        from freecell import __version__  # noqa: PLC0415 - the package imports its commands' parts

        chunk, parts = self.running[future]
        if future.status in {"lost", "pending"}:  # its rows went with a dead worker: Dask runs
            done.add(future)  # the task again, so wait for it again
            return
        del self.running[future]
        if future.status not in {"finished", "error"}:  # cancelled: the scheduler forgot it
            msg = f"the cluster dropped deals {parts[0][0]}..{parts[-1][1]} ({future.status})"
            raise _ClusterError(msg)
        if future.status == "error":
            error = future.exception()
            if isinstance(error, ImportError):
                msg = (
                    f"a worker cannot run the task ({_reason(error)}): "
                    f"install {_PACKAGE} on every one"
                )
                raise _ClusterError(msg)
            if not isinstance(error, KilledWorker):
                msg = (
                    f"deals {parts[0][0]}..{parts[-1][1]} failed on the cluster: "
                    f"{type(error).__name__}: {_reason(error)}"
                )
                raise _ClusterError(msg)
            numbers = [n for a, b in parts for n in range(a, b + 1)]
            if len(numbers) > 1:  # which deal ends its worker? each alone will tell
                chunk.left += len(numbers) - 1
                for number in numbers:
                    self._submit(chunk, ((number, number),), done)
                return
            rows = error_rows(numbers)
        else:
            version, rows = future.result()
            if version != __version__:
                msg = f"a worker runs freecell {version}, not {__version__}: install the same"
                raise _ClusterError(msg)
        future.release()
        self.progress.add(rows["result"])
        chunk.rows.append(rows)
        chunk.left -= 1
        if chunk.left == 0:
            self._write(chunk)

    def _write(self, chunk: _Chunk) -> None:
        """Write a chunk's file, with the rows of its file if it has one (see dataset.write)."""
        from pyarrow import ArrowException  # type: ignore[import-untyped]  # noqa: PLC0415

        from freecell._cli.dataset import (  # noqa: PLC0415 - needs the extra
            BadFileError,
            chunk_name,
            merge,
            read_chunk_file,
            read_table,
            table,
            write,
        )

        job = chunk.job
        columns = {name: [v for rows in chunk.rows for v in rows[name]] for name in COLUMNS}
        rows = table(columns)
        path = self.folder / chunk_name(job.chunk)
        deals = job.parts
        if path.exists():  # read it again: the file, not our memory, is the record
            try:
                current = read_chunk_file(path, job.chunk)
                old = read_table(path)
            except (BadFileError, OSError, ArrowException) as error:
                msg = f"{path.name} changed during the run: {_reason(error)}"
                raise _RefusedError(msg) from None
            rows = merge(old, rows, replace=job.replace)
            deals = tuple(merged([*current.deals, *job.parts]))
        write(self.folder, job.chunk, rows, deals, self.plan.stamp)


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
    """Run the analysis into --out; raise _RefusedError or _ClusterError."""
    from freecell._cli.dataset import REJECTED  # noqa: PLC0415 - needs the extra

    folder = Path(args.out)
    with _folder(folder, args.out):
        plan = _plan(folder, args, request)
        stderr.writelines(f"{_PROG}: {file}: moved into {REJECTED}/\n" for file in plan.moved)
        progress = _Progress(stderr, plan.todo, plan.done)
        try:
            if plan.todo == 0:  # no cluster needed
                _Driver(None, folder, plan, progress).run()
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
            with _cluster(args, workers) as client:
                if not client.nthreads():
                    stderr.write(f"{_PROG}: the cluster has no worker yet: waiting for one\n")
                _Driver(client, folder, plan, progress).run()
        finally:
            progress.close()
    stdout.write(
        f"{sum(progress.counts.values()):,} deals analysed into {quoted(args.out)} "
        f"({progress.text()}); {plan.done:,} were there before\n"
    )


def _read(args: Any, request: list[Interval], stdout: TextIO, stderr: TextIO) -> None:
    """Print --summary or --min-cells; say which files do not count, a line each, on stderr."""
    from freecell._cli.dataset import (  # noqa: PLC0415 - needs the extra
        MIN_CELLS_COLUMNS,
        SUMMARY_COLUMNS,
        min_cells,
        scan,
        summary,
    )

    if args.summary is not None:
        folder = Path(args.summary)
        found = scan(folder, SUMMARY_COLUMNS, keep=True)
        stderr.writelines(f"{_PROG}: not counted: {file}\n" for file in found.bad)
        stdout.writelines(f"{line}\n" for line in summary(found, folder))
        return
    folders = []
    for text in args.min_cells:
        found = scan(Path(text), MIN_CELLS_COLUMNS, keep=True)
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
    except Answered as answer:
        stdout.write(answer.text)
        return EXIT_OK
    except UsageError as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    missing = _missing_extra()
    if missing is not None:
        stderr.write(
            f"{_PROG}: needs the analyze extra ({missing} is missing): pip install {_PACKAGE}\n"
        )
        return EXIT_BAD_INPUT
    from freecell._cli.dataset import (  # noqa: PLC0415 - needs the extra
        FolderError,
    )

    try:
        if args.summary is not None or args.min_cells is not None:
            _read(args, request, stdout, stderr)
        else:
            _analyze(args, request, stdout, stderr)
    except (_RefusedError, FolderError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    except _ClusterError as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_FAILURE
    return EXIT_OK
