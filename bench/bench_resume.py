"""Time what reading a folder of `freecell analyze` costs on resume: every file read whole.

Run alone: `.venv/bin/python -m bench.bench_resume` (deals 1..1,000,000 in chunks of 250: 4,000
files; `--deals N`, `--chunk N`, `--repeat N`). It writes a folder as `freecell analyze` does
(dataset.write: the same schema, compression, checksums and metadata), each file with real
solutions of deals 1..chunk (solved once, the default budget) under its own deal numbers, then
times the check a run makes of the folder before it plans (dataset.scan: every column of every
file read, each page's checksum verified) against the check before issue 53 (the `deal` column
only), alternately, `--repeat` times each, on the same files (in the page cache: a first read
from the disk adds the disk's time to both). It prints a Markdown table of the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

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


def whole(folder: Path) -> int:
    """Check every file as a run does now (dataset.scan); return how many count."""
    found = dataset.scan(folder)
    assert not found.bad, found.bad
    return len(found.files)


def main() -> None:
    """Write the folder, time both checks alternately, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=DEFAULT_CHUNK)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"deal": [], "whole": []}
    cpu: dict[str, list[float]] = {"deal": [], "whole": []}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        start = time.perf_counter()
        size = write_folder(folder, args.deals, args.chunk)
        written = time.perf_counter() - start
        load_before = os.getloadavg()[0]
        for run in range(args.repeat):
            order = [("deal", deal_column_only), ("whole", whole)]
            for name, check in order if run % 2 == 0 else order[::-1]:
                start, used = time.perf_counter(), time.process_time()
                files = check(folder)
                times[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - used)
        load_after = os.getloadavg()[0]
    deal, full = statistics.median(times["deal"]), statistics.median(times["whole"])
    print(
        f"{time.strftime('%Y-%m-%d')}, deals 1..{args.deals:,} in {files:,} files of "
        f"{args.chunk} ({size / 1e6:.0f} MB, written in {written:.0f} s), {args.repeat} runs of "
        f"each, alternating; load average {load_before:.1f} before, {load_after:.1f} after.\n"
    )
    print("| check on resume | median wall (CPU) | runs, wall s | a file, wall (CPU) |")
    print("|---|---:|---|---:|")
    for name, label, median in (
        ("deal", "`deal` column only (before issue 53)", deal),
        ("whole", "every column, checksums verified (dataset.scan)", full),
    ):
        runs = ", ".join(f"{t:.2f}" for t in times[name])
        used = statistics.median(cpu[name])
        print(
            f"| {label} | {median:.2f} s ({used:.2f} s) | {runs} | "
            f"{median / files * 1000:.2f} ms ({used / files * 1000:.2f} ms) |"
        )
    ratio = statistics.median(cpu["whole"]) / statistics.median(cpu["deal"])
    print(f"\nThe whole check: {full / deal:.2f}x the `deal` column's wall, {ratio:.2f}x its CPU.")


if __name__ == "__main__":
    main()
