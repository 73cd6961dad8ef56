"""Time what reading a folder of `freecell analyze` costs on resume: every file read whole.

Run alone: `.venv/bin/python -m bench.bench_resume` (deals 1..1,000,000 in chunks of 250: 4,000
files; `--deals N`, `--chunk N`, `--repeat N`). It writes a folder as `freecell analyze` does
(dataset.write: the same schema, compression, checksums and metadata), each file with real
solutions of deals 1..chunk (solved once, the default budget) under its own deal numbers, then
times the check a run makes of the folder before it plans (dataset.scan: every column of every
file read, each page's checksum verified) against the check before issue 53 (the `deal` column
only) and the whole read without the checksums (what verifying them adds), in turn, `--repeat`
times each, on the same files (in the page cache: a first read from the disk adds the disk's
time to all). It prints a Markdown table of the medians.

`--sweep N` then overwrites 64 bytes (zeros, `A`s, random bytes) at every Nth offset of one
file's column chunks, one offset at a time, and counts the damaged files that dataset.check
lets through: those whose rows differ from the file's are damage that counts as done.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq  # type: ignore[import-untyped]

import freecell
from freecell._cli.analyze import dataset
from freecell._cli.analyze.intervals import DEFAULT_CHUNK, chunks
from freecell._cli.analyze.task import solve_chunk
from freecell._search import DEFAULT_MAX_STATES


def solved_rows(size: int) -> dict[str, list[Any]]:
    """Return the rows of deals 1..size as a worker solves them (the default budget)."""
    return solve_chunk([(1, size)], DEFAULT_MAX_STATES, None)[1]


def write_folder(folder: Path, deals: int, size: int) -> int:
    """Write the files of deals 1..deals in chunks of size; return their bytes in all."""
    columns = solved_rows(size)
    stamp = dataset.Stamp(freecell.__version__, DEFAULT_MAX_STATES, None, size)
    total = 0
    for chunk, wanted in chunks([(1, deals)], size):
        first = chunk[0]
        rows = {**columns, "deal": [first + n - 1 for n in columns["deal"]]}
        count = wanted[0][1] - wanted[0][0] + 1
        rows = {name: values[:count] for name, values in rows.items()}
        path = dataset.write(folder, chunk, dataset.table(rows), wanted, stamp)
        total += path.stat().st_size
    return total


def deal_column_only(folder: Path) -> int:
    """Check every file as a run did before issue 53: its `deal` column alone; return the count."""
    found = 0
    for path in sorted(folder.glob("deals-*.parquet")):
        first, last = path.name.removeprefix("deals-").removesuffix(".parquet").split("..")
        chunk = (int(first), int(last))
        parquet = dataset._open(path)  # noqa: SLF001 - the old check, step by step
        file = dataset.read_chunk_file(path, chunk, parquet)
        dataset._check_deals(parquet.read(columns=["deal"])["deal"], file.deals)  # noqa: SLF001
        found += 1
    return found


def whole_without_checksums(folder: Path) -> int:
    """Check every file as a run does now, but without verifying the pages' checksums."""
    found = 0
    for path in sorted(folder.glob("deals-*.parquet")):
        first, last = path.name.removeprefix("deals-").removesuffix(".parquet").split("..")
        chunk = (int(first), int(last))
        parquet = pq.ParquetFile(path)
        file = dataset.read_chunk_file(path, chunk, parquet)
        dataset._check_deals(parquet.read()["deal"], file.deals)  # noqa: SLF001
        found += 1
    return found


def whole(folder: Path) -> int:
    """Check every file as a run does now (dataset.scan); return how many count."""
    found = dataset.scan(folder)
    assert not found.bad, found.bad
    return len(found.files)


def sweep(path: Path, chunk: tuple[int, int], step: int) -> tuple[int, int, int]:
    """Overwrite 64 bytes at every step-th offset of a file's column chunks, each fill in turn.

    Return how many damaged files were tried, how many dataset.check let through, and how many
    of those read back other rows than the file's. The file is left as it was.
    """
    original, rows = path.read_bytes(), pq.read_table(path)
    noise = random.Random(53).randbytes(64)  # noqa: S311 - damage, always the same, no secret
    fills = (b"\0" * 64, b"A" * 64, noise)
    metadata = pq.ParquetFile(path).metadata.row_group(0)
    tried = passed = wrong = 0
    try:
        for index in range(metadata.num_columns):
            column = metadata.column(index)
            dictionary = column.has_dictionary_page
            first = column.dictionary_page_offset if dictionary else column.data_page_offset
            for at in range(first, first + column.total_compressed_size, step):
                for fill in fills:
                    data = bytearray(original)
                    data[at : at + 64] = fill[: len(data[at : at + 64])]
                    if data == original:
                        continue
                    path.write_bytes(bytes(data))
                    tried += 1
                    try:
                        dataset.check(path, chunk)
                    except dataset.BadFileError:
                        continue
                    passed += 1
                    wrong += not pq.read_table(path).equals(rows)
    finally:
        path.write_bytes(original)
    return tried, passed, wrong


def main() -> None:
    """Write the folder, time the checks in turn, print the table; sweep one file if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=DEFAULT_CHUNK)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sweep", type=int, default=0, metavar="N")
    args = parser.parse_args()
    checks = {
        "deal": ("`deal` column only (before issue 53)", deal_column_only),
        "plain": ("every column, checksums not verified", whole_without_checksums),
        "whole": ("every column, checksums verified (dataset.scan)", whole),
    }
    times: dict[str, list[float]] = {name: [] for name in checks}
    cpu: dict[str, list[float]] = {name: [] for name in checks}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        start = time.perf_counter()
        size = write_folder(folder, args.deals, args.chunk)
        written = time.perf_counter() - start
        load_before = os.getloadavg()[0]
        for run in range(args.repeat):
            order = list(checks)[run % 3 :] + list(checks)[: run % 3]  # each first in turn
            for name in order:
                start, used = time.perf_counter(), time.process_time()
                files = checks[name][1](folder)
                times[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - used)
        load_after = os.getloadavg()[0]
        first = (1, args.chunk)
        swept = sweep(folder / dataset.chunk_name(first), first, args.sweep) if args.sweep else None
    print(
        f"{time.strftime('%Y-%m-%d')}, deals 1..{args.deals:,} in {files:,} files of "
        f"{args.chunk} ({size / 1e6:.0f} MB, written in {written:.0f} s), {args.repeat} runs of "
        f"each, in turn; load average {load_before:.1f} before, {load_after:.1f} after.\n"
    )
    print("| check on resume | median wall (CPU) | runs, wall s | a file, wall (CPU) | CPU ratio |")
    print("|---|---:|---|---:|---:|")
    base = statistics.median(cpu["deal"])
    for name, (label, _) in checks.items():
        median, used = statistics.median(times[name]), statistics.median(cpu[name])
        runs = ", ".join(f"{t:.2f}" for t in times[name])
        print(
            f"| {label} | {median:.2f} s ({used:.2f} s) | {runs} | "
            f"{median / files * 1000:.2f} ms ({used / files * 1000:.2f} ms) | "
            f"{used / base:.2f}x |"
        )
    if swept:
        tried, passed, wrong = swept
        print(
            f"\n64 bytes overwritten at every {args.sweep}th offset of the pages of "
            f"{dataset.chunk_name((1, args.chunk))}: {tried:,} damaged files, {passed:,} counted "
            f"by dataset.check, {wrong:,} of them with other rows."
        )


if __name__ == "__main__":
    main()
