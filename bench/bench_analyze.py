"""Time `freecell analyze 1..32000` against `freecell solve 1..32000 --jobs 2`, side by side.

Run with `python3 build.py bench` (or alone: `.venv/bin/python -m bench.bench_analyze`; a
shorter run: `--deals 4000` or `FREECELL_ANALYZE_DEALS=4000`); it prints a table and writes it
into docs/performance.md. The two commands run as a user runs them (the venv's `freecell`, a
new process each time), alternately, `--repeat` times each (the first of each pair alternates
too), so that a change in the machine's load falls on both; the table gives each one's median
wall time and their ratio (target: analyze within 1.10x of solve), and the fixed cost of
`freecell analyze` (one deal: start and stop a cluster). The analyze run also checks that its
results are solve's, and prints the percentiles of the solved deals' states that the difficulty
grades are cut at (freecell._search.grades).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from functools import partial
from pathlib import Path

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from bench.performance_doc import DOC, write_section

ROOT = Path(__file__).resolve().parent.parent

FREECELL = str(Path(sys.executable).with_name("freecell"))
TARGET = 1.10
GRADE_PERCENTILES = (0.40, 0.70, 0.90, 0.98)
"""Where the difficulty grades are cut: the share of solved deals at or below each grade 1..4."""


CPU: dict[str, list[float]] = {"analyze": [], "solve": []}
"""The CPU time of each run, its processes and theirs (user and system)."""


def timed(command: list[str], out: Path) -> float:
    """Run a command with its output into a file; return its wall time in seconds.

    Its CPU time, with its worker processes' (each process waits for its children), goes
    into CPU.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with out.open("w") as file:
        subprocess.run(command, stdout=file, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    CPU[command[1]].append(cpu)
    return wall


def analyze(deals: int, chunk: int | None, folder: Path) -> float:
    """Time `freecell analyze 1..N` into a new folder."""
    extra = [] if chunk is None else ["--chunk", str(chunk)]
    command = [FREECELL, "analyze", f"1..{deals}", "--out", str(folder), *extra]
    return timed(command, folder.with_suffix(".out"))


def solve(deals: int, out: Path) -> float:
    """Time `freecell solve 1..N --jobs 2`, its lines into a file."""
    return timed([FREECELL, "solve", f"1..{deals}", "--jobs", "2"], out)


def check_same(folder: Path, solved: Path) -> Counter[str]:
    """Check that analyze's results are solve's; return the count of each result."""
    rows = pq.read_table(sorted(folder.glob("deals-*.parquet")), columns=["deal", "result"])
    ours = dict(zip(rows["deal"].to_pylist(), rows["result"].to_pylist(), strict=True))
    theirs = {}
    for line in solved.read_text().splitlines():
        deal, _, answer = line.partition(": ")
        theirs[int(deal)] = answer if answer in {"impossible", "unknown"} else "solved"
    assert ours == theirs, "freecell analyze and freecell solve disagree"
    return Counter(ours.values())


def states_percentiles(folder: Path) -> list[int]:
    """Return the states of the solved deals at the grades' percentiles (nearest rank)."""
    rows = pq.read_table(sorted(folder.glob("deals-*.parquet")), columns=["result", "states"])
    solved = rows.filter(pc.equal(rows["result"].cast(pa.string()), "solved"))["states"]
    found = pc.quantile(solved, q=list(GRADE_PERCENTILES), interpolation="nearest")
    return [int(v) for v in found.to_pylist()]


def report(
    *,
    deals: int,
    chunk: int | None,
    times: dict[str, list[float]],
    fixed: float,
    counts: Counter[str],
    cuts: list[int],
    load: tuple[float, float],
) -> str:
    """Return the Markdown table and its heading."""
    ours, theirs = statistics.median(times["analyze"]), statistics.median(times["solve"])
    ratio = ours / theirs
    machine = (
        f"{platform.node()} ({os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
        f"CPython {platform.python_version()})"
    )
    runs = len(times["analyze"])
    chunked = "its default chunk" if chunk is None else f"--chunk {chunk}"
    lines = [
        (
            f"Measured {time.strftime('%Y-%m-%d')} on {machine}, deals 1..{deals:,}, {runs} runs "
            f"of each, alternating; load average {load[0]:.1f} before, {load[1]:.1f} after. "
            f"Command: `.venv/bin/python -m bench.bench_analyze --deals {deals}` ({chunked})."
        ),
        "",
        "| command | median wall time | runs, wall (CPU) in s | ratio | target |",
        "|---|---:|---|---:|---|",
        (
            f"| `freecell solve 1..{deals} --jobs 2` | {theirs:.1f} s | "
            f"{', '.join(f'{t:.1f}' for t in times['solve'])} (CPU "
            f"{', '.join(f'{t:.0f}' for t in CPU['solve'])}) | 1 | |"
        ),
        (
            f"| `freecell analyze 1..{deals} --out DIR` (a LocalCluster of 2 workers) | "
            f"{ours:.1f} s | {', '.join(f'{t:.1f}' for t in times['analyze'])} (CPU "
            f"{', '.join(f'{t:.0f}' for t in CPU['analyze'][1:])}) | {ratio:.3f}x | "
            f"≤ {TARGET:.2f}x: {'met' if ratio <= TARGET else '**not met**'} |"
        ),
        f"| `freecell analyze 1..1 --out DIR` (start and stop alone) | {fixed:.1f} s | | | |",
        "",
        (
            f"Results (the same from both): {', '.join(f'{k} {v:,}' for k, v in counts.items())}. "
            "States of the solved deals at the 40th, 70th, 90th and 98th percentiles (the "
            f"difficulty grades' cuts): {', '.join(f'{c:,}' for c in cuts)}."
        ),
    ]
    return "\n".join(lines)


def main() -> None:
    """Measure, print the table and write it into docs/performance.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = int(os.environ.get("FREECELL_ANALYZE_DEALS", "32000"))
    parser.add_argument("--deals", type=int, default=default, help=f"1..N (default {default})")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--chunk", type=int, help="analyze's --chunk (default: its own)")
    parser.add_argument("--no-doc", action="store_true", help="print only; leave the docs alone")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"analyze": [], "solve": []}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-analyze-") as temporary:
        work = Path(temporary)
        fixed = analyze(1, args.chunk, work / "one")
        for run in range(args.repeat):
            folder, solved = work / f"analyze-{run}", work / f"solve-{run}.txt"
            pair = [
                ("analyze", partial(analyze, args.deals, args.chunk, folder)),
                ("solve", partial(solve, args.deals, solved)),
            ]
            for name, measure in pair if run % 2 == 0 else pair[::-1]:
                times[name].append(measure())
                print(f"bench_analyze: run {run + 1}, {name}: {times[name][-1]:.1f} s", flush=True)
            counts = check_same(folder, solved)
        cuts = states_percentiles(folder)
    load = (load_before, os.getloadavg()[0])
    table = report(
        deals=args.deals,
        chunk=args.chunk,
        times=times,
        fixed=fixed,
        counts=counts,
        cuts=cuts,
        load=load,
    )
    print(table)
    if not args.no_doc:
        write_section("bench_analyze.py", table, "freecell analyze against freecell solve")
        print(f"\nwritten into {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
