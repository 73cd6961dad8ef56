"""The folder that ``freecell analyze`` writes: one Parquet file a chunk of deals.

A chunk is a block of consecutive deal numbers aligned to its size (with 1000:
1..1000, 1001..2000, ...; -2 and -1 are a chunk of their own), and its file,
``deals-0000001001..0000002000.parquet``, holds a row for each deal analysed in that block,
sorted by deal. Only the command's own process writes, each file whole: to a hidden temporary
name (``.deals-....parquet.PID.tmp``), flushed to the disk, then renamed, so a file that exists
is complete and the files are the record of what is done. The file's metadata (key
``freecell.analyze``, JSON) says which package version wrote it, with which budget and chunk
size, and which deals it holds (``"1..1000"``, in the command's own syntax).

A file counts only if it checks (:func:`check`): its metadata names its chunk, its ``deal``
column is exactly the deals the metadata names, each once, in order, and every column of every
row reads back, each page's checksum verified. The summary and a run use that one test. One
that does not is left out by the summary and moved into ``rejected/`` by a run
(:func:`move_aside`), which solves its deals again: whatever happened to the folder, every deal
is there once.

What the command prints from a folder is :mod:`freecell._cli.analyze.reports`. This module
imports pyarrow: only ``freecell analyze`` imports it, after checking the extra.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from freecell._cli.analyze.intervals import MAX_CHUNK, Interval, chunk_of, count
from freecell._cli.analyze.task import Columns
from freecell._cli.streams import quoted
from freecell._errors import shorten
from freecell._notation import FREECELLS

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

_WITH_STATISTICS: Final = [name for name in SCHEMA.names if name != "solution"]
"""The columns whose pages carry their least and greatest value: not ``solution``, whose two
values (about 600 bytes a page) no query uses, and which no checksum covers (a page's checksum
covers its data, not its header), so that damage there would go unseen."""
_NAME: Final = re.compile(r"deals-(-?\d+)\.\.(-?\d+)\.parquet")
_TEMPORARY: Final = re.compile(r"\.deals-.*\.parquet\.\d+\.tmp")
LOCK_NAME: Final = ".freecell-analyze.lock"
REJECTED: Final = "rejected"
"""The subfolder where a run moves the files that do not count (see :func:`check`)."""


class FolderError(Exception):
    """The folder cannot be used as it is; ``str()`` is the message, one line."""


class BadFileError(Exception):
    """A file of the folder that does not count; ``str()`` says why, after its name."""


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
    rows: Any = field(default=None, compare=False, repr=False)
    """The columns :func:`check` was asked to keep, if any (a pyarrow table)."""


@dataclass(frozen=True, slots=True)
class BadFile:
    """A file of the folder that does not count, and why (``str()``: one line)."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path.name} {self.reason}"


@dataclass(frozen=True, slots=True)
class Folder:
    """What a folder holds: the files that count, by chunk, and those that do not."""

    files: dict[Interval, ChunkFile]
    bad: list[BadFile]


def _arrow_reason(error: BaseException) -> str:
    """Return a library's error as a short line (its messages may run over several lines)."""
    return shorten(" ".join(str(error).split()) or type(error).__name__)


def _unreadable(error: BaseException) -> str:
    """Return why a file's pages cannot be read, after its name: damage, if a checksum says so.

    Arrow says "could not verify page integrity, CRC checksum verification failed for
    page_ordinal 0" (cut to "CRC che…" in a message); its other errors, for a file without
    checksums, say where the damage broke its structure or its compression.
    """
    if "CRC checksum verification failed" in str(error):
        return "is damaged (a page's checksum does not match its data)"
    return f"cannot be read ({_arrow_reason(error)})"


def _open(path: Path) -> Any:
    """Open a Parquet file (its footer read), page checksums to be checked; raise BadFileError."""
    try:
        return pq.ParquetFile(path, page_checksum_verification=True)
    except (OSError, pa.ArrowException) as error:
        msg = f"cannot be read ({_arrow_reason(error)})"
        raise BadFileError(msg) from None


def read_chunk_file(path: Path, chunk: Interval, parquet: Any = None) -> ChunkFile:
    """Read a file's metadata and check it against its name; raise BadFileError if it is bad.

    ``parquet`` is the file already open (:func:`_open`), if it is.
    """
    raw = (parquet or _open(path)).schema_arrow.metadata or {}
    try:
        record = json.loads(raw[METADATA_KEY])
        stamp = Stamp(
            str(record["version"]),
            int(record["max_states"]),
            None if record["timeout"] is None else float(record["timeout"]),
            int(record["chunk_size"]),
            int(record.get("cells", len(FREECELLS))),
        )
        deals = parse_intervals(record["deals"])
        named = parse_intervals(record.get("chunk", format_intervals([chunk])))
    except (KeyError, ValueError, TypeError) as error:
        msg = f"has no metadata of freecell analyze ({_arrow_reason(error)})"
        raise BadFileError(msg) from None
    size = stamp.chunk_size
    if not 1 <= size <= MAX_CHUNK or named != (chunk,) or chunk_of(chunk[0], size) != chunk:
        msg = f"is named for chunk {format_intervals([chunk])} of {size} deals, which none is"
        if named != (chunk,):
            msg = f"is named for chunk {format_intervals([chunk])}, its metadata another"
        raise BadFileError(msg)
    ends = [n for interval in deals for n in interval]  # first, last, first, last, ...
    apart = all(last < first for last, first in zip(ends[1::2], ends[2::2], strict=False))
    inside = not ends or chunk[0] <= ends[0] <= ends[-1] <= chunk[1]
    if ends != sorted(ends) or not apart or not inside:
        msg = f"names deals {shorten(format_intervals(deals))} outside its chunk, or out of order"
        raise BadFileError(msg)
    return ChunkFile(path, chunk, deals, stamp)


def _check_deals(deals: Any, claimed: tuple[Interval, ...]) -> None:
    """Check that a file's ``deal`` column holds its deals, each once, in order; raise if not.

    The deals are checked with pyarrow.compute, not a loop over rows: strictly increasing, as
    many as claimed, and each interval's slice starting and ending with its first and last
    deal (strictly increasing whole numbers from ``a`` to ``b`` in ``b - a + 1`` places are
    ``a..b``, each once).
    """
    deals = deals.combine_chunks() if isinstance(deals, pa.ChunkedArray) else deals
    rows, expected = len(deals), count(claimed)
    if deals.null_count:
        msg = "holds rows without a deal number"
        raise BadFileError(msg)
    if rows > 1 and not pc.all(pc.greater(deals[1:], deals[:-1])).as_py():
        if pc.count_distinct(deals).as_py() < rows:
            msg = f"holds {rows:,} rows for its {expected:,} deals"
            raise BadFileError(msg)
        msg = "holds its rows out of order"
        raise BadFileError(msg)
    offset, right = 0, rows == expected
    for first, last in claimed if right else ():
        right = deals[offset].as_py() == first and deals[offset + last - first].as_py() == last
        if not right:
            break
        offset += last - first + 1
    if not right:
        found = format_intervals(_intervals(deals.to_pylist()))
        msg = f"holds deals {shorten(found)}, not {shorten(format_intervals(claimed))}"
        raise BadFileError(msg)


def _intervals(numbers: list[int]) -> list[Interval]:
    """Return sorted distinct numbers as intervals (for a message)."""
    result: list[Interval] = []
    for number in numbers:
        if result and number == result[-1][1] + 1:
            result[-1] = (result[-1][0], number)
        else:
            result.append((number, number))
    return result


def check(path: Path, chunk: Interval, keep: list[str] | None = None) -> ChunkFile:
    """Return a file of the folder if it counts; raise BadFileError if it does not.

    A file counts when its metadata is ours and names its chunk (the file's name), and its
    rows are exactly the deals its metadata names, each once, in order, and every column of
    every row reads back: the whole file is read, every page's checksum verified, whatever
    the caller needs of it. ``keep`` names the columns to keep in ``rows`` (None: none).
    """
    parquet = _open(path)  # once: opening a file costs more than reading its deal column
    file = read_chunk_file(path, chunk, parquet)
    try:
        rows = parquet.read()
    except (OSError, pa.ArrowException) as error:
        raise BadFileError(_unreadable(error)) from None
    if not rows.schema.equals(SCHEMA):
        msg = "has not the columns of freecell analyze"
        raise BadFileError(msg)
    _check_deals(rows["deal"], file.deals)
    return file if keep is None else replace(file, rows=rows.select(keep))


def _names(folder: Path) -> list[str]:
    """Return the names in a folder; raise FolderError if it cannot be read."""
    try:
        return sorted(entry.name for entry in os.scandir(folder))
    except OSError as error:
        msg = f"cannot read {quoted(str(folder))}: {error.strerror or error}"
        raise FolderError(msg) from None


def scan(folder: Path, keep: list[str] | None = None) -> Folder:
    """Return the files of a folder that count, by chunk, and those that do not (see check).

    ``keep`` names the columns to keep of each file that counts. Raises FolderError for a
    folder that cannot be read.
    """
    files, bad = {}, []
    for name in _names(folder):
        match = _NAME.fullmatch(name)
        if match is None:
            continue
        chunk = (int(match[1]), int(match[2]))
        try:
            files[chunk] = check(folder / name, chunk, keep)
        except BadFileError as error:
            bad.append(BadFile(folder / name, str(error)))
    return Folder(files, bad)


def move_aside(file: BadFile) -> Path:
    """Move a file that does not count into the folder's ``rejected`` subfolder; return where.

    A name already taken there gets a number: ``deals-....1.parquet``, ``.2``, and so on.
    """
    aside = file.path.parent / REJECTED
    aside.mkdir(exist_ok=True)
    target, number = aside / file.path.name, 0
    while target.exists():
        number += 1
        target = aside / f"{file.path.stem}.{number}{file.path.suffix}"
    file.path.rename(target)
    return target


def remove_leftovers(folder: Path) -> int:
    """Remove the temporary files a stopped run left behind; return how many there were."""
    removed = 0
    for name in _names(folder):
        if _TEMPORARY.fullmatch(name):
            (folder / name).unlink(missing_ok=True)
            removed += 1
    return removed


def table(columns: Columns) -> Any:
    """Return an Arrow table of :data:`SCHEMA` from plain columns, rows sorted by deal."""
    result = pa.array(columns["result"], pa.string()).dictionary_encode()
    arrays = {**columns, "result": result.cast(SCHEMA.field("result").type)}
    return pa.table(arrays, schema=SCHEMA).sort_by("deal")


def read_table(path: Path, columns: list[str] | None = None) -> Any:
    """Return the rows of a file (or some of its columns), each page's checksum verified."""
    return pq.read_table(path, columns=columns, schema=SCHEMA, page_checksum_verification=True)


def read_all(files: dict[Interval, ChunkFile]) -> Any:
    """Return the rows that :func:`scan` kept of every file, as one table."""
    return pa.concat_tables([f.rows for f in files.values()]).unify_dictionaries()


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
            pq.write_table(
                rows,
                file,
                compression="zstd",
                write_page_checksum=True,
                write_statistics=_WITH_STATISTICS,
            )
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
