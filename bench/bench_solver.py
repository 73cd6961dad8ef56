"""Solve deals 1..32000 with freecell's solver and with fc-solve `-l lg`, side by side.

Run with `python3 build.py bench` (or alone: `.venv/bin/python -m bench.bench_solver`; a
shorter run: `FREECELL_SOLVER_DEALS=2000` or `--deals 2000`); it prints a table and writes it
into docs/performance.md. Both sides run two at a time (the machine's
cores): ours in two worker processes, each deal timed inside its worker (wall and CPU time);
fc-solve as one process a deal (`fc-solve -l lg -m -snx`, board from our dealer, timed with the
process start, which is how a caller meets it) and also in-process over the whole range with
fc-solve's own `freecell-solver-range-parallel-solve`, timed per board from its progress lines.
Solution lengths count moves in standard notation (`36v3` is one), every move home included.
Then the 8 impossible deals of 1..1,000,000, each timed alone; the peak memory of one search
that uses the whole default budget (deal -2, which the budget cannot settle), measured as the
growth of a fresh process's maximum resident set; and, when the site has been built (Node.js,
web/node_modules and the wheel), deals 1..200 solved in Pyodide under Node.js, as the page's
worker would.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from multiprocessing import Pool
from pathlib import Path

from bench.performance_doc import DOC, write_section
from freecell import deal, format_deal, solve
from freecell._cli.replay import move_words

ROOT = Path(__file__).resolve().parent.parent

IMPOSSIBLE = (11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948)
TARGETS = {"median": 0.020, "p99": 0.5, "length": 0.80, "impossible": 10.0, "memory": 200.0}
FC_ENV = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
PYODIDE_DEALS = 200
PYODIDE_SCRIPT = f"""
import json, time
from freecell import solve
times = []
for number in range(1, {PYODIDE_DEALS + 1}):
    start = time.perf_counter()
    assert solve(number).result == "solved"
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""
MEMORY_SCRIPT = """
import resource, sys
from freecell import solve
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
solution = solve(int(sys.argv[1]))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(solution.result, solution.states, (after - before) / 1024)
"""

Ours = tuple[int, str, int, int, float, float]  # deal, result, moves, states, wall, cpu
Theirs = tuple[int, bool, int, float]  # deal, solved, moves, wall


def ours_one(number: int) -> Ours:
    """Solve one deal with the default budget; time it in this (worker) process."""
    wall, cpu = time.perf_counter(), time.process_time()
    solution = solve(number)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return number, solution.result, len(solution.moves), solution.states, wall, cpu


def ours_all(numbers: range, jobs: int) -> list[Ours]:
    """Solve every deal in ``jobs`` worker processes."""
    with Pool(jobs) as pool:
        return list(pool.imap(ours_one, numbers, chunksize=8))


def fc_solve_one(number: int) -> Theirs:
    """Solve one deal with `fc-solve -l lg -m -snx`, as one process, and count its moves."""
    start = time.perf_counter()
    result = subprocess.run(
        ["fc-solve", "-l", "lg", "-m", "-snx", "-"],
        input=format_deal(deal(number)),
        capture_output=True,
        text=True,
        check=False,
        env=FC_ENV,
    )
    wall = time.perf_counter() - start
    solved = "This game is solveable." in result.stdout
    moves = len(list(move_words(result.stdout.splitlines()))) if solved else 0
    return number, solved, moves, wall


def fc_solve_all(numbers: range, jobs: int) -> list[Theirs]:
    """Run fc-solve on every deal, ``jobs`` processes at a time."""
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(fc_solve_one, numbers))


def fc_solve_in_process(numbers: range) -> list[float]:
    """Return fc-solve's time per board from its own range solver (one process, no output)."""
    first, last = str(numbers[0]), str(numbers[-1])
    command = ["freecell-solver-range-parallel-solve", first, last, "1", "-l", "lg"]
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=FC_ENV)
    lines = result.stdout.splitlines()
    stamps = [float(line.split()[2]) for line in lines if line.startswith("Started at")]
    stamps += [
        float(line.split(" at ")[1].split()[0])
        for line in lines
        if line.startswith("Reached Board")
    ]
    return [b - a for a, b in pairwise(stamps)]


def impossible_one(number: int) -> tuple[int, str, int, float, float]:
    """Solve one impossible deal alone; return its result, states, our time and fc-solve's."""
    wall = time.perf_counter()
    solution = solve(number)
    wall = time.perf_counter() - wall
    theirs = fc_solve_one(number)[3]
    return number, solution.result, solution.states, wall, theirs


def peak_memory(number: int) -> tuple[str, int, float]:
    """Return the result, states and resident-set growth (MB) of one search in a new process."""
    result = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, str(number)],
        capture_output=True,
        text=True,
        check=True,
    )
    outcome, states, megabytes = result.stdout.split()
    return outcome, int(states), float(megabytes)


def pyodide_times() -> list[float] | None:
    """Return the seconds each of deals 1..200 takes in Pyodide, or None without a built site."""
    runtime = ROOT / "web" / "node_modules" / "pyodide"
    wheels = sorted((ROOT / "build" / "wheel").glob("freecell_deals-*.whl"))
    node = shutil.which("node")
    if node is None or not (runtime / "pyodide.mjs").exists() or len(wheels) != 1:
        return None
    result = subprocess.run(
        [node, ROOT / "tests" / "processes" / "pyodide_run.mjs", runtime, wheels[0]],
        input=PYODIDE_SCRIPT,
        capture_output=True,
        text=True,
        check=True,
    )
    times: list[float] = json.loads(result.stdout.splitlines()[-1])
    return times


def quantile(values: list[float], q: float) -> float:
    """Return the value at quantile ``q`` (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def verdict(met: bool) -> str:
    """Say whether a target is met."""
    return "met" if met else "**not met**"


@dataclass(frozen=True)
class Run:
    """Everything one run measured."""

    numbers: range
    jobs: int
    ours: list[Ours]
    theirs: list[Theirs]
    inside: list[float]
    impossible: list[tuple[int, str, int, float, float]]
    memory: tuple[str, int, float]
    pyodide: list[float] | None
    load: tuple[float, float]


def row(*cells: str) -> str:
    """Return a Markdown table row."""
    return "| " + " | ".join(cells) + " |"


def report(run: Run) -> str:
    """Return the Markdown table and its heading line."""
    ours = run.ours
    solved = [r for r in ours if r[1] == "solved"]
    proved = [r[0] for r in ours if r[1] == "impossible"]
    unknown = [r[0] for r in ours if r[1] == "unknown"]
    their_solved = [r for r in run.theirs if r[1]]
    walls, cpus = [r[4] for r in ours], [r[5] for r in ours]
    their_walls, inside = [r[3] for r in run.theirs], run.inside
    median, p99 = statistics.median(walls), quantile(walls, 0.99)
    length = statistics.median(r[2] for r in solved)
    their_length = statistics.median(r[2] for r in their_solved)
    ratio = length / their_length
    hardest = max(ours, key=lambda r: r[4])
    machine = (
        f"{platform.node()} ({os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
        f"CPython {platform.python_version()})"
    )
    heading = (
        f"Measured {time.strftime('%Y-%m-%d')} on {machine}, deals {run.numbers[0]:,}.."
        f"{run.numbers[-1]:,}, {run.jobs} processes a side; load average {run.load[0]:.1f} "
        f"before, {run.load[1]:.1f} after."
    )
    lines = [
        heading,
        "",
        row("measure", "freecell", "fc-solve `-l lg`", "ratio", "target"),
        "|---|---:|---:|---:|---|",
        row(
            "solved",
            f"{len(solved):,} (impossible: {', '.join(map(str, proved)) or 'none'}; unknown: "
            f"{', '.join(map(str, unknown)) or 'none'})",
            f"{len(their_solved):,}",
            "",
            f"all but 11982, proved impossible: {verdict(not unknown and proved == [11982])}",
        ),
        row(
            "time per deal, median",
            f"{median * 1000:.1f} ms (CPU {statistics.median(cpus) * 1000:.1f} ms)",
            f"{statistics.median(their_walls) * 1000:.1f} ms a process, "
            f"{statistics.median(inside) * 1000:.2f} ms in-process",
            f"{median / statistics.median(their_walls):.1f}x",
            f"≤ 20 ms: {verdict(median <= TARGETS['median'])}",
        ),
        row(
            "time per deal, p99",
            f"{p99:.3f} s (CPU {quantile(cpus, 0.99):.3f} s)",
            f"{quantile(their_walls, 0.99) * 1000:.1f} ms a process, "
            f"{quantile(inside, 0.99) * 1000:.2f} ms in-process",
            "",
            f"≤ 0.5 s: {verdict(p99 <= TARGETS['p99'])}",
        ),
        row(
            "time per deal, max",
            f"{hardest[4]:.2f} s (deal {hardest[0]}, {hardest[3]:,} states)",
            f"{max(their_walls) * 1000:.0f} ms a process",
            "",
            "",
        ),
        row(
            "solution length, median",
            f"{length:g} moves",
            f"{their_length:g} moves",
            f"{ratio:.2f}x",
            f"≤ 0.80x: {verdict(ratio <= TARGETS['length'])}",
        ),
        row("states per deal, median", f"{statistics.median(r[3] for r in ours):,.0f}", "", "", ""),
    ]
    if run.impossible:  # one row, so that the table stays short in docs/performance.md
        met = all(r[1] == "impossible" and r[3] <= TARGETS["impossible"] for r in run.impossible)
        lines.append(
            row(
                f"the {len(run.impossible)} impossible deals of 1..1,000,000, each alone",
                "; ".join(
                    f"{number} {result} in {wall:.2f} s ({states:,} states)"
                    for number, result, states, wall, _ in run.impossible
                ),
                "; ".join(f"{r[0]} {r[4]:.2f} s" for r in run.impossible) + " (a process each)",
                "",
                f"each ≤ 10 s: {verdict(met)}",
            )
        )
    outcome, states, megabytes = run.memory
    lines.append(
        row(
            "peak memory of one search",
            f"{megabytes:.0f} MB (deal -2: {outcome} after {states:,} states, the whole default "
            "budget)",
            "",
            "",
            f"≤ 200 MB: {verdict(megabytes <= TARGETS['memory'])}",
        )
    )
    if run.pyodide:
        times = run.pyodide
        lines.append(
            row(
                f"Pyodide (Node.js), deals 1..{len(times)}",
                f"median {statistics.median(times) * 1000:.0f} ms, p90 "
                f"{quantile(times, 0.9) * 1000:.0f} ms, max {max(times):.2f} s",
                "",
                "",
                "",
            )
        )
    return "\n".join(lines)


@contextmanager
def progress(label: str) -> Iterator[None]:
    """Print a line when a part starts and its time when it ends."""
    start = time.perf_counter()
    print(f"bench_solver: {label}...", flush=True)
    yield
    print(f"bench_solver: {label}: {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    """Measure, print the table and write it into docs/performance.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    deals = int(os.environ.get("FREECELL_SOLVER_DEALS", "32000"))
    parser.add_argument(
        "--deals",
        type=int,
        default=deals,
        help=f"solve 1..N (default {deals}: $FREECELL_SOLVER_DEALS, else 32000)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes a side (default 2)")
    parser.add_argument("--no-doc", action="store_true", help="print only; leave the docs alone")
    parser.add_argument("--save", type=Path, help="also write every deal's figures here (JSON)")
    args = parser.parse_args()
    for program in ("fc-solve", "freecell-solver-range-parallel-solve"):
        if shutil.which(program) is None:
            sys.exit(f"{program} is missing: install Debian's freecell-solver-bin")
    numbers = range(1, args.deals + 1)
    load_before = os.getloadavg()[0]
    with progress(f"freecell on deals 1..{args.deals}"):
        ours = ours_all(numbers, args.jobs)
    with progress(f"fc-solve -l lg on deals 1..{args.deals}"):
        theirs = fc_solve_all(numbers, args.jobs)
        inside = fc_solve_in_process(numbers)
    with progress("the impossible deals"):
        impossible = [impossible_one(number) for number in IMPOSSIBLE]
    with progress("peak memory"):
        memory = peak_memory(-2)
    with progress(f"Pyodide, deals 1..{PYODIDE_DEALS}"):
        pyodide = pyodide_times()
    load = (load_before, os.getloadavg()[0])
    if args.save:
        args.save.write_text(json.dumps({"ours": ours, "theirs": theirs, "inside": inside}))
    table = report(Run(numbers, args.jobs, ours, theirs, inside, impossible, memory, pyodide, load))
    print(table)
    if not args.no_doc:
        write_section("bench_solver.py", table, "The solver")
        print(f"\nwritten into {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
