"""The plan of a ``freecell analyze`` run: its folder, locked, read and checked; the jobs left.

The files are the record (:mod:`freecell._cli.analyze.dataset`): :func:`plan_run` reads what the
folder holds, moves aside the files that do not count, refuses a folder written by another
version or with another budget, chunk size or number of cells, and yields a :class:`Job` for
each chunk whose file lacks deals asked for (``--retry-unknown``: for each file, its unknown
deals). :func:`locked_folder` keeps a second run out of the folder. Nothing here touches the
cluster; pyarrow (the ``analyze`` extra) is imported in the functions.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from freecell._cli.analyze.errors import RefusedError, short_reason
from freecell._cli.analyze.intervals import DEFAULT_CHUNK, Interval, chunks, count, merged, subtract
from freecell._cli.streams import quoted
from freecell._notation import FREECELLS
from freecell._version import __version__

if TYPE_CHECKING:
    from freecell._cli.analyze.dataset import BadFile, ChunkFile, Stamp


@contextmanager
def locked_folder(path: Path, text: str) -> Iterator[None]:
    """Make the folder if missing and hold its lock for the block; raise RefusedError."""
    import fcntl  # noqa: PLC0415 - a Unix module; the page (Pyodide) never gets here

    from freecell._cli.analyze.dataset import LOCK_NAME  # noqa: PLC0415 - needs the extra

    try:
        if path.exists() and not path.is_dir():
            msg = f"--out {quoted(text)} is a file, not a folder"
            raise RefusedError(msg)
        path.mkdir(parents=True, exist_ok=True)
        lock = (path / LOCK_NAME).open("a")
    except OSError as error:
        msg = f"cannot write into {quoted(text)}: {short_reason(error)}"
        raise RefusedError(msg) from None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            msg = f"{quoted(text)} is in use by another freecell analyze"
            raise RefusedError(msg) from None
        try:
            tempfile.TemporaryFile(dir=path).close()
        except OSError as error:
            msg = f"cannot write into {quoted(text)}: {short_reason(error)}"
            raise RefusedError(msg) from None
        yield


@dataclass(frozen=True, slots=True)
class Job:
    """A chunk's work: the deals to solve in it (none: only restamp its file)."""

    chunk: Interval
    parts: tuple[Interval, ...]
    replace: bool = False  # --retry-unknown: the new rows replace the file's rows of their deals


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run does: its jobs (lazily), how many deals they solve, and the folder's stamp."""

    jobs: Iterator[Job]
    todo: int
    done: int
    stamp: Stamp
    moved: list[BadFile] = field(default_factory=list)  # files that do not count, moved aside


def _policy(files: dict[Interval, ChunkFile], args: Any, text: str) -> tuple[int, int]:
    """Check that the folder was written as this run would; return the chunk size and cells.

    Without ``--cells``, a run is of the ordinary game (4 cells), and a retry of the folder's.
    """
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
            raise RefusedError(msg)
        if not args.retry_unknown and stamp.max_states != args.max_states:
            msg = (
                f"{quoted(text)} was analysed with --max-states {stamp.max_states}, not "
                f"{args.max_states}: use that budget, --retry-unknown, or another folder"
            )
            raise RefusedError(msg)
        if stamp.cells != cells:
            msg = (
                f"{quoted(text)} was analysed with --cells {stamp.cells}, not {cells}: "
                "use that, or another folder"
            )
            raise RefusedError(msg)
        if args.retry_unknown and stamp.max_states > args.max_states:
            msg = (
                f"{quoted(text)} was analysed with --max-states {stamp.max_states}: "
                f"--retry-unknown needs at least that, not {args.max_states}"
            )
            raise RefusedError(msg)
    sizes = {s.chunk_size for s in stamps}
    if len(sizes) > 1 or (args.chunk is not None and sizes and args.chunk not in sizes):
        msg = (
            f"{quoted(text)} holds chunks of {' and '.join(map(str, sorted(sizes)))} deals: "
            "leave out --chunk, or use another folder"
        )
        raise RefusedError(msg)
    return args.chunk or (sizes.pop() if sizes else DEFAULT_CHUNK), cells


def plan_run(folder: Path, args: Any, request: list[Interval]) -> Plan:
    """Read the folder and plan the run; raise RefusedError if the folder is refused."""
    from freecell._cli.analyze.dataset import (  # noqa: PLC0415 - needs the extra
        Stamp,
        move_aside,
        remove_leftovers,
        scan,
    )

    remove_leftovers(folder)
    found = scan(folder)  # every file read whole: one that does not count is solved again
    files, bad = found.files, list(found.bad)
    size, cells = _policy(files, args, args.out)
    for each in bad:  # the files are the record: one that does not count is moved aside
        try:
            move_aside(each)
        except OSError as error:
            msg = f"{each}, and cannot be moved aside: {short_reason(error)}"
            raise RefusedError(msg) from None
    stamp = Stamp(__version__, args.max_states, args.timeout, size, cells)
    if args.retry_unknown:
        return replace(_retry_plan(files, stamp, args.out), moved=bad)
    done = sum(count(subtract(request, subtract(request, f.deals))) for f in files.values())

    def jobs() -> Iterator[Job]:
        for chunk, wanted in chunks(request, size):
            existing = files.get(chunk)
            missing = subtract(wanted, existing.deals) if existing else wanted
            if missing:
                yield Job(chunk, tuple(missing))

    return Plan(jobs(), count(request) - done, done, stamp, bad)


def _retry_plan(files: dict[Interval, ChunkFile], stamp: Stamp, text: str) -> Plan:
    """Plan --retry-unknown: the unknown deals of every file not yet stamped with this budget."""
    from freecell._cli.analyze.dataset import unknown_deals  # noqa: PLC0415 - needs the extra

    if not files:
        msg = f"{quoted(text)} holds no file of freecell analyze to retry"
        raise RefusedError(msg)
    jobs, todo, done = [], 0, 0
    for chunk, file in files.items():
        unknown, rows = unknown_deals(file.path)
        done += rows - len(unknown)
        if file.stamp == stamp:
            done += len(unknown)
            continue
        parts = tuple(merged((n, n) for n in unknown))  # the unknown deals only
        jobs.append(Job(chunk, parts, replace=True))
        todo += len(unknown)
    return Plan(iter(jobs), todo, done, stamp)
