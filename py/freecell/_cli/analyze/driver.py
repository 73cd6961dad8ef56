"""The driver of a ``freecell analyze`` run: the plan's jobs to the cluster, their rows to files.

:class:`Driver` keeps a window of tasks on the cluster (a few a worker thread, so that none
waits), and writes each chunk's file as soon as its rows are back, with the rows its file held
(:func:`freecell._cli.analyze.dataset.write`: a temporary name, then renamed). A task whose worker
died is waited for again (Dask runs it elsewhere); a chunk that ends its worker every time
(``KilledWorker``) is split into a task a deal, and a deal that does gets an ``error`` row.
:class:`Progress` counts the results, as a tqdm bar on a terminal. The ``analyze`` extra is
imported in the functions.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from freecell._cli.analyze.errors import ClusterError, RefusedError, short_reason
from freecell._cli.analyze.intervals import Interval, merged
from freecell._cli.analyze.plan import Job, Plan
from freecell._cli.analyze.task import COLUMNS, PACKAGE, Columns, error_rows, solve_chunk
from freecell._version import __version__

if TYPE_CHECKING:
    from distributed import Client, Future

_WINDOW_PER_THREAD: Final = 4  # chunks handed to the cluster ahead, per worker thread
_MIN_WINDOW: Final = 32


@dataclass(slots=True)
class _Chunk:
    """A chunk on the cluster: its tasks not back yet and the rows that are."""

    job: Job
    left: int
    rows: list[Columns] = field(default_factory=list)


class Progress:
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
        from freecell._cli.analyze.dataset import RESULTS  # noqa: PLC0415 - needs the extra

        return ", ".join(f"{name} {self.counts[name]:,}" for name in RESULTS)

    def close(self) -> None:
        """Leave the bar as it is on the terminal."""
        if self._bar is not None:
            self._bar.close()


class Driver:
    """Hands the jobs to the cluster a window at a time and writes each chunk as it is done."""

    def __init__(self, client: Client | None, folder: Path, plan: Plan, progress: Progress) -> None:
        self.client = client
        self.folder = folder
        self.plan = plan
        self.progress = progress
        self.running: dict[Future[Any], tuple[_Chunk, tuple[Interval, ...]]] = {}

    def run(self) -> None:
        """Do every job; raise ClusterError if the cluster cannot."""
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

    def _start(self, job: Job, done: Any) -> None:
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

        chunk, parts = self.running[future]
        if future.status in {"lost", "pending"}:  # its rows went with a dead worker: Dask runs
            done.add(future)  # the task again, so wait for it again
            return
        del self.running[future]
        if future.status not in {"finished", "error"}:  # cancelled: the scheduler forgot it
            msg = f"the cluster dropped deals {parts[0][0]}..{parts[-1][1]} ({future.status})"
            raise ClusterError(msg)
        if future.status == "error":
            error = future.exception()
            if isinstance(error, ImportError):
                msg = (
                    f"a worker cannot run the task ({short_reason(error)}): "
                    f"install {PACKAGE} on every one"
                )
                raise ClusterError(msg)
            if not isinstance(error, KilledWorker):
                msg = (
                    f"deals {parts[0][0]}..{parts[-1][1]} failed on the cluster: "
                    f"{type(error).__name__}: {short_reason(error)}"
                )
                raise ClusterError(msg)
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
                raise ClusterError(msg)
        future.release()
        self.progress.add(rows["result"])
        chunk.rows.append(rows)
        chunk.left -= 1
        if chunk.left == 0:
            self._write(chunk)

    def _write(self, chunk: _Chunk) -> None:
        """Write a chunk's file, with the rows of its file if it has one (see dataset.write)."""
        from pyarrow import ArrowException  # type: ignore[import-untyped]  # noqa: PLC0415

        from freecell._cli.analyze.dataset import (  # noqa: PLC0415 - needs the extra
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
                msg = f"{path.name} changed during the run: {short_reason(error)}"
                raise RefusedError(msg) from None
            rows = merge(old, rows, replace=job.replace)
            deals = tuple(merged([*current.deals, *job.parts]))
        write(self.folder, job.chunk, rows, deals, self.plan.stamp)
