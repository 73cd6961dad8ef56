"""The folder that ``freecell analyze`` writes: one Parquet file a chunk of deals, and its summary.

A chunk is a block of consecutive deal numbers aligned to its size (with 1000:
1..1000, 1001..2000, ...; -2 and -1 are a chunk of their own), and its file,
``deals-0000001001..0000002000.parquet``, holds a row for each deal analysed in that block,
sorted by deal. Only the command's own process writes, each file whole: to a hidden temporary
name (``.deals-....parquet.PID.tmp``), flushed to the disk, then renamed, so a file that exists
is complete and the files are the record of what is done. The file's metadata (key
``freecell.analyze``, JSON) says which package version wrote it, with which budget and chunk
size, and which deals it holds (``"1..1000"``, in the command's own syntax).

This module imports pyarrow: only ``freecell analyze`` imports it, after checking the extra.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from freecell._cli.guard import quoted
from freecell._difficulty import DIFFICULTY_GRADES, DIFFICULTY_THRESHOLDS
from freecell._min_cells import MinCells, fewest_cells, format_min_cells
from freecell._notation import FREECELLS

Interval = tuple[int, int]
"""Deals ``first`` to ``last``, both included."""
Columns = dict[str, list[Any]]
"""A table as plain lists, one per column of :data:`SCHEMA` (what a worker sends back)."""

SPECIAL_CHUNK: Final = (-2, -1)
"""The chunk of Windows FreeCell's two hard-coded deals, whatever the chunk size."""
METADATA_KEY: Final = b"freecell.analyze"
RESULTS: Final = ("solved", "impossible", "unknown", "error")
"""What a row's ``result`` can be; ``error``: the deal ended its worker process every time."""

SCHEMA: Final = pa.schema(
    [
        pa.field("deal", pa.int64(), nullable=False),
        pa.field("result", pa.dictionary(pa.int8(), pa.string()), nullable=False),
        pa.field("moves", pa.int32()),
        pa.field("solution", pa.string()),
        pa.field("states", pa.int64()),
        pa.field("seconds", pa.float64()),
        pa.field("difficulty", pa.int8()),
    ]
)
"""The columns of every file; ``moves``, ``solution`` and ``difficulty`` are null unless solved,
``states`` and ``seconds`` for an ``error``."""

_NAME: Final = re.compile(r"deals-(-?\d+)\.\.(-?\d+)\.parquet")
_TEMPORARY: Final = re.compile(r"\.deals-.*\.parquet\.\d+\.tmp")
LOCK_NAME: Final = ".freecell-analyze.lock"


class FolderError(Exception):
    """The folder cannot be used as it is; ``str()`` is the message, one line."""


def chunk_name(chunk: Interval) -> str:
    """Return the file name of a chunk: zero-padded, so that the names sort as the deals do.

    >>> chunk_name((1001, 2000)), chunk_name(SPECIAL_CHUNK)
    ('deals-0000001001..0000002000.parquet', 'deals--2..-1.parquet')
    """
    first, last = chunk
    if first < 0:
        return f"deals-{first}..{last}.parquet"
    return f"deals-{first:010d}..{last:010d}.parquet"


def format_intervals(intervals: Iterable[Interval]) -> str:
    """Return intervals as the command line writes deals: ``"5..10 12"``.

    >>> format_intervals([(5, 10), (12, 12)])
    '5..10 12'
    """
    return " ".join(str(a) if a == b else f"{a}..{b}" for a, b in intervals)


def parse_intervals(text: str) -> tuple[Interval, ...]:
    """Read what :func:`format_intervals` wrote; raise ValueError for anything else.

    >>> parse_intervals("-2..-1 5..10 12")
    ((-2, -1), (5, 10), (12, 12))
    """
    intervals = []
    for word in text.split():
        first, dots, last = word.partition("..")
        intervals.append((int(first), int(last if dots else first)))
    return tuple(intervals)


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a file's metadata says of the run that wrote it."""

    version: str
    max_states: int
    timeout: float | None
    chunk_size: int
    cells: int = len(FREECELLS)  # files from before --cells existed: all the ordinary game

    def metadata(self, chunk: Interval, deals: Iterable[Interval]) -> dict[bytes, bytes]:
        """Return a file's metadata: this stamp, its chunk and the deals it holds."""
        record = {
            "version": self.version,
            "max_states": self.max_states,
            "timeout": self.timeout,
            "chunk_size": self.chunk_size,
            "cells": self.cells,
            "chunk": format_intervals([chunk]),
            "deals": format_intervals(deals),
        }
        return {METADATA_KEY: json.dumps(record).encode()}


@dataclass(frozen=True, slots=True)
class ChunkFile:
    """A complete file of the folder: its chunk, the deals it holds and its stamp."""

    path: Path
    chunk: Interval
    deals: tuple[Interval, ...]
    stamp: Stamp


def read_chunk_file(path: Path, chunk: Interval) -> ChunkFile:
    """Read a file's metadata; raise FolderError if it is not one of ours."""
    try:
        raw = pq.read_schema(path).metadata or {}
        record = json.loads(raw[METADATA_KEY])
        stamp = Stamp(
            str(record["version"]),
            int(record["max_states"]),
            None if record["timeout"] is None else float(record["timeout"]),
            int(record["chunk_size"]),
            int(record.get("cells", len(FREECELLS))),
        )
        deals = parse_intervals(record["deals"])
    except (OSError, KeyError, ValueError, TypeError, pa.ArrowException) as error:
        msg = f"{quoted(str(path))} is not a file of freecell analyze ({error}): move it away"
        raise FolderError(msg) from None
    return ChunkFile(path, chunk, deals, stamp)


def scan(folder: Path) -> dict[Interval, ChunkFile]:
    """Return the complete files of a folder by chunk; raise FolderError for one we cannot read."""
    files = {}
    for path in sorted(folder.glob("deals-*.parquet")):
        match = _NAME.fullmatch(path.name)
        if match is None:
            continue
        chunk = (int(match[1]), int(match[2]))
        files[chunk] = read_chunk_file(path, chunk)
    return files


def remove_leftovers(folder: Path) -> int:
    """Remove the temporary files a stopped run left behind; return how many there were."""
    removed = 0
    for path in folder.iterdir():
        if _TEMPORARY.fullmatch(path.name):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def table(columns: Columns) -> Any:
    """Return an Arrow table of :data:`SCHEMA` from plain columns, rows sorted by deal."""
    result = pa.array(columns["result"], pa.string()).dictionary_encode()
    arrays = {**columns, "result": result.cast(SCHEMA.field("result").type)}
    return pa.table(arrays, schema=SCHEMA).sort_by("deal")


def read_table(path: Path, columns: list[str] | None = None) -> Any:
    """Return the rows of a file (or some of its columns)."""
    return pq.read_table(path, columns=columns, schema=SCHEMA)


def read_all(files: dict[Interval, ChunkFile], columns: list[str]) -> Any:
    """Return some columns of the rows of every file, as one table."""
    parts = [read_table(f.path, columns) for f in files.values()]
    return pa.concat_tables(parts).unify_dictionaries()


def merge(old: Any, new: Any, *, replace: bool) -> Any:
    """Return the rows of two tables by deal, one a deal: ``new``'s if ``replace``, else ``old``'s.

    Rows of ``new`` for deals that ``old`` holds are dropped, unless ``replace`` (as
    ``--retry-unknown`` does), where they take the place of ``old``'s.
    """
    if replace:
        old = old.filter(pc.invert(pc.is_in(old["deal"], value_set=new["deal"])))
    else:
        new = new.filter(pc.invert(pc.is_in(new["deal"], value_set=old["deal"])))
    both = pa.concat_tables([old, new]).unify_dictionaries()
    return both.sort_by("deal")


def unknown_deals(path: Path) -> tuple[list[int], int]:
    """Return the deals of a file whose result is unknown, and how many rows it has."""
    rows = read_table(path, ["deal", "result"])
    unknown = pc.filter(rows["deal"], pc.equal(rows["result"].cast(pa.string()), "unknown"))
    return unknown.to_pylist(), rows.num_rows


def write(
    folder: Path, chunk: Interval, rows: Any, deals: Iterable[Interval], stamp: Stamp
) -> Path:
    """Write a chunk's file whole: to a temporary name, flushed to the disk, then renamed.

    The file replaces one of the same chunk. If anything stops the write (an error, Ctrl-C),
    the temporary file is removed.
    """
    path = folder / chunk_name(chunk)
    temporary = folder / f".{path.name}.{os.getpid()}.tmp"
    rows = rows.replace_schema_metadata(stamp.metadata(chunk, deals))
    try:
        with temporary.open("xb") as file:
            pq.write_table(rows, file, compression="zstd")
            file.flush()
            os.fsync(file.fileno())
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)
    _sync_folder(folder)
    return path


def _sync_folder(folder: Path) -> None:
    """Make a rename in the folder durable (where the system allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# --- the summary ------------------------------------------------------------------------------


def _quantiles(values: Any, qs: list[float]) -> list[str]:
    """Return quantiles of some values (the nearest ones, so they are values), as text."""
    if values.null_count == len(values):
        return ["-" for _ in qs]
    found = pc.quantile(values, q=qs, interpolation="nearest").to_pylist()
    return [f"{value:,}" for value in found]


def _counts(values: Any) -> dict[Any, int]:
    """Return how many times each value occurs (nulls left out)."""
    found, counts = pc.value_counts(values).flatten()
    return dict(zip(found.to_pylist(), counts.to_pylist(), strict=True))


def _grades(states: pa.ChunkedArray) -> pa.ChunkedArray:
    """Return the difficulty grade of each solved deal's states, as freecell.difficulty does."""
    grade = pa.scalar(1, pa.int8())
    for threshold in DIFFICULTY_THRESHOLDS:
        grade = pc.add(grade, pc.cast(pc.greater(states, threshold), pa.int8()))
    return grade


def summary(folder: Path) -> list[str]:
    """Return the summary of a folder's files as lines, computed with pyarrow.compute.

    Counts per result, the impossible deals (and any in error), solution lengths (median,
    90th percentile) and states (median, 99th percentile) of the solved deals, and the
    histogram of the difficulty grades (unless every file is of fewer cells, which have none),
    graded from the states with today's thresholds: a file's ``difficulty`` column keeps those
    of the day it was written. Raises FolderError for a folder without files.
    """
    files = scan(folder)
    if not files:
        msg = f"{quoted(str(folder))} holds no file of freecell analyze"
        raise FolderError(msg)
    rows = read_all(files, ["deal", "result", "moves", "states"]).sort_by("deal")
    result = rows["result"].cast(pa.string())
    solved = rows.filter(pc.equal(result, "solved"))
    counts = _counts(result)
    stamps = sorted({f.stamp for f in files.values()}, key=lambda s: s.max_states)
    runs = "; ".join(
        f"freecell {s.version}, --max-states {s.max_states}"
        + ("" if s.timeout is None else f", --timeout {s.timeout:g}")
        + ("" if s.cells == len(FREECELLS) else f", --cells {s.cells}")
        for s in stamps
    )
    lines = [
        f"{rows.num_rows:,} deals in {len(files):,} files ({runs})",
        "results: " + ", ".join(f"{name} {counts.get(name, 0):,}" for name in RESULTS),
    ]
    for name in ("impossible", "error"):
        deals = pc.filter(rows["deal"], pc.equal(result, name)).to_pylist()
        if name == "impossible" or deals:
            lines.append(f"{name}: {' '.join(map(str, deals)) or 'none'}")
    moves = _quantiles(solved["moves"], [0.5, 0.9])
    states = _quantiles(solved["states"], [0.5, 0.99])
    grades = _counts(_grades(solved["states"]))
    lines += [
        f"solution length in moves: median {moves[0]}, p90 {moves[1]}",
        f"states of the solved deals: median {states[0]}, p99 {states[1]}",
    ]
    if any(s.cells == len(FREECELLS) for s in stamps):  # fewer cells have no grade
        grading = ", ".join(f"{g}: {grades.get(g, 0):,}" for g in DIFFICULTY_GRADES)
        lines.append(f"difficulty: {grading}")
    return lines


# --- the fewest free cells --------------------------------------------------------------------


def _results(folder: Path) -> tuple[int, dict[int, str]]:
    """Return the number of free cells a folder was analysed with, and each deal's result."""
    files = scan(folder)
    cells = {f.stamp.cells for f in files.values()}
    if len(cells) != 1:
        what = "no file of freecell analyze" if not cells else "files of several --cells"
        msg = f"{quoted(str(folder))} holds {what}"
        raise FolderError(msg)
    rows = read_all(files, ["deal", "result"])
    deals = rows["deal"].to_pylist()
    return cells.pop(), dict(zip(deals, rows["result"].cast(pa.string()).to_pylist(), strict=True))


def min_cells(folders: list[Path], deals: list[Interval]) -> str:
    """Return the table of the fewest free cells (see freecell._min_cells) of some datasets.

    Each folder holds one analysis of the same deals with another ``--cells``; the table
    covers ``deals`` (one interval of deals numbered from 1, within those the folders hold),
    or if none, the deals from the lowest to the highest that any holds. A deal that no folder
    holds, or whose results do not decide, is unknown. Raises FolderError for folders or deals
    that do not fit, and for results that contradict each other.
    """
    by_cells: dict[int, dict[int, str]] = {}
    for folder in folders:
        cells, results = _results(folder)
        if cells in by_cells:
            msg = f"two of the folders were analysed with --cells {cells}: give one"
            raise FolderError(msg)
        by_cells[cells] = results
    numbers = {number for results in by_cells.values() for number in results} - set(SPECIAL_CHUNK)
    if not numbers:
        msg = "the folders hold no deal numbered from 1"
        raise FolderError(msg)
    first, last = deals[0] if deals else (min(numbers), max(numbers))
    if last > max(numbers):
        msg = f"the folders hold no deal past {max(numbers):,}: name a range within them"
        raise FolderError(msg)
    values: list[MinCells] = []
    for number in range(first, last + 1):
        found = {cells: results[number] for cells, results in by_cells.items() if number in results}
        try:
            values.append(fewest_cells(found))
        except ValueError as error:
            msg = f"deal {number}: {error}"
            raise FolderError(msg) from None
    return format_min_cells(first, values)
