"""Short solutions (`solve(n, short=True)`) against macroxue/freecell's stored solutions.

Run alone: `.venv/bin/python -m bench.bench_short --macroxue DIR`, where DIR is a clone of
https://github.com/macroxue/freecell (a bare one will do): its `solutions/block.K` files hold a
solution for each deal of 1..1,000,000 (1,000 deals a file). They are this bench's oracle only:
nothing of them is shipped or looked up by the library. Player moves are counted the same way on
both sides: moves whose target is not a foundation, a run moved as one counting one (macroxue's
solutions play with every card sent home as soon as it can go and write no move home).

Deals: a fixed random sample of `--deals` (200) of 1..1,000,000, compared deal by deal, and
`--beyond` (200) of 1,000,001..8,589,934,591, compared with macroxue's published mean of 25.5.
Every deal is solved in this one process, one after the other, timed in wall and CPU seconds
(other work on the machine shows as the gap between the two; the load average is printed).
Every solution is replayed through `Game.push` to a win. Prints a table and, with `--write`,
writes it into docs/performance.md.

Before and after: `--before DIR` (DIR an older checkout, its `py/` folder read as the library)
solves the sample's deals of 1..1,000,000 with both, in two child processes taking turns deal by
deal (the first to go changes every deal), and prints each side's CPU seconds and player moves
and the median of the per-deal CPU ratios with its 95 % bootstrap interval (over the deals):
the machine's speed, which swings, cancels out of the ratio. `--macroxue` is not needed then.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.performance_doc import write_section
from freecell import MAX_DEAL, Game, solve

CHILD = """
import sys, time
from freecell import solve
for line in sys.stdin:
    n = int(line)
    cpu = time.process_time()
    solution = solve(n, short=True)
    cpu = time.process_time() - cpu
    print(solution.result, solution.player_moves, cpu, flush=True)
"""
"""A side of --before: solves the deals it is given, one a line, and answers each on a line."""
DRAWS = 2000
"""Bootstrap resamples of the ratio's interval."""

MACROXUE_MEAN = 25.5
"""macroxue's mean over deals 1..1,000,000, from its README (the beyond sample's yardstick)."""
TARGET_RATIO = 1.10
TARGET_SHARE = 0.40
TARGET_MEDIAN_SECONDS = 2.0
TARGET_MAX_SECONDS = 30.0


def macroxue_moves(repo: Path, numbers: list[int]) -> dict[int, int | None]:
    """Return macroxue's player moves for each deal (None where it stores no solution)."""
    blocks = sorted({(n - 1) // 1000 + 1 for n in numbers})
    lines: dict[int, str] = {}
    for block in blocks:
        text = subprocess.run(
            ["git", "-C", str(repo), "show", f"HEAD:solutions/block.{block}"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        for line in text.splitlines():
            number, _, moves = line.partition(":")
            lines[int(number)] = moves
    out: dict[int, int | None] = {}
    for n in numbers:
        moves = lines[n]
        pairs = [moves[i : i + 2] for i in range(0, len(moves), 2)]
        out[n] = sum(pair[1] != "h" for pair in pairs) if pairs else None
    return out


Row = tuple[int, str, int, int, float, float]
"""A deal's figures: number, result, short and fast player moves, wall and CPU seconds."""


STOPPED: list[int] = []
"""Set once SIGTERM has stopped a run: the later samples are not run."""


class Stopped(Exception):  # noqa: N818 - a signal, not an error
    """SIGTERM arrived: the bench sums up the deals done so far."""


def stop(_signum: int, _frame: object) -> None:
    """Turn SIGTERM into :class:`Stopped`."""
    raise Stopped


def run(numbers: list[int]) -> list[Row]:
    """Solve each deal short and fast; return a row for each (fewer, if SIGTERM stops it)."""
    rows: list[Row] = []
    try:
        for n in numbers:
            rows.append(run_one(n))  # noqa: PERF401 - each row kept as it comes
    except Stopped:
        STOPPED.append(len(rows))
        print(f"stopped after {len(rows)} of {len(numbers)} deals", flush=True)
    return rows


def run_one(n: int) -> Row:
    """Solve one deal short and fast; return its row."""
    wall, cpu = time.perf_counter(), time.process_time()
    short = solve(n, short=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if short.result == "solved":
        game = Game.from_deal_number(n)
        for move in short.moves:
            game.push(move)
        assert game.is_won(), n
    fast = solve(n).player_moves
    print(
        f"{n}: {short.result} {short.player_moves} (fast {fast}) {wall:.2f}s CPU {cpu:.2f}s",
        flush=True,
    )
    return (n, short.result, short.player_moves, fast, wall, cpu)


def quantile(values: list[float], q: float) -> float:
    """Return the q-quantile of the values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def seconds_line(rows: list[Row]) -> str:
    """Return the timing figures of the rows, wall and CPU."""
    wall = [row[4] for row in rows]
    cpu = [row[5] for row in rows]
    return (
        f"wall s median {statistics.median(wall):.2f}, p90 {quantile(wall, 0.9):.2f}, "
        f"max {max(wall):.2f} (deal {rows[wall.index(max(wall))][0]}); "
        f"CPU s median {statistics.median(cpu):.2f}, p90 {quantile(cpu, 0.9):.2f}, "
        f"max {max(cpu):.2f}"
    )


def side_by_side(before: Path, numbers: list[int]) -> str:
    """Solve each deal with the library of `before` and today's, in turns; return the figures."""
    library = before / "py" if (before / "py" / "freecell").is_dir() else before
    if not (library / "freecell").is_dir():
        sys.exit(f"bench_short: no freecell package in {before} or {before}/py")
    old_env = {**os.environ, "PYTHONPATH": str(library)}
    now_env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    command = [sys.executable, "-c", CHILD]
    pipe = subprocess.PIPE
    sides = {
        name: subprocess.Popen(command, env=env, stdin=pipe, stdout=pipe, text=True)
        for name, env in (("before", old_env), ("now", now_env))
    }
    figures: dict[str, list[tuple[int, float]]] = {"before": [], "now": []}
    for index, n in enumerate(numbers):
        for name in ("before", "now") if index % 2 == 0 else ("now", "before"):
            child = sides[name]
            assert child.stdin is not None
            assert child.stdout is not None
            child.stdin.write(f"{n}\n")
            child.stdin.flush()
            result, moves, cpu = child.stdout.readline().split()
            figures[name].append((int(moves) if result == "solved" else 0, float(cpu)))
        (old_moves, old_cpu), (new_moves, new_cpu) = figures["before"][-1], figures["now"][-1]
        print(f"{n}: before {old_moves} {old_cpu:.2f}s, now {new_moves} {new_cpu:.2f}s", flush=True)
    for child in sides.values():
        child.communicate("")
    ratios = [new[1] / old[1] for old, new in zip(figures["before"], figures["now"], strict=True)]
    rng = random.Random(0)  # noqa: S311 - no secret: the same figures, the same interval
    draws = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(DRAWS))
    low, high = draws[int(DRAWS * 0.025)], draws[int(DRAWS * 0.975) - 1]

    def summary(name: str) -> str:
        moves = [m for m, _ in figures[name] if m]
        cpu = statistics.median(c for _, c in figures[name])
        return f"CPU s median {cpu:.2f}, player moves mean {statistics.mean(moves):.2f}"

    commit = subprocess.run(
        ["git", "-C", str(before), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    return (
        f"- Side by side, {len(numbers)} deals of the sample, in turns: before "
        f"({commit or before}) "
        f"{summary('before')}; now {summary('now')}. Now over before, the median of the "
        f"per-deal CPU ratios: **{statistics.median(ratios):.2f}x** ({low:.2f}-{high:.2f})."
    )


def main() -> None:
    """Run the bench and print (and, with --write, record) its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--macroxue", type=Path, help="a clone of the repository")
    parser.add_argument("--before", type=Path, help="an older checkout, side by side")
    parser.add_argument("--deals", type=int, default=200, help="deals of 1..1,000,000")
    parser.add_argument("--beyond", type=int, default=200, help="deals past 1,000,000")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--write", action="store_true", help="write docs/performance.md")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)
    rng = random.Random(args.seed)  # noqa: S311 - a fixed sample, not a secret
    numbers = sorted(rng.sample(range(1, 1_000_001), args.deals))
    far_rng = random.Random(args.seed + 1)  # noqa: S311 - the same sample, whatever --deals
    beyond = sorted(far_rng.randint(1_000_001, MAX_DEAL) for _ in range(args.beyond))
    load = os.getloadavg()[0]
    if args.before:
        text = side_by_side(args.before, numbers)
        text = (
            f"Measured {dt.datetime.now(dt.UTC).date().isoformat()} with CPython "
            f"{sys.version.split()[0]}, `python -m bench.bench_short --before DIR --deals "
            f"{args.deals} --seed {args.seed}`; load average {load:.1f} at the start, "
            f"{os.getloadavg()[0]:.1f} at the end.\n\n{text}"
        )
        print(text)
        if args.write:
            write_section("bench_short.py before", text, "Short solutions before and after")
        return
    if args.macroxue is None:
        parser.error("--macroxue DIR is needed (or --before DIR)")
    theirs = macroxue_moves(args.macroxue, numbers)
    began = time.perf_counter()
    rows = run(numbers)
    lines = [
        (
            f"Measured {dt.datetime.now(dt.UTC).date().isoformat()} with CPython "
            f"{sys.version.split()[0]}, one process, `python -m bench.bench_short "
            f"--deals {args.deals} --beyond {args.beyond} --seed {args.seed}`; "
            f"load average {load:.1f} at the start "
            "(2 cores shared with other work: wall seconds run above CPU seconds)."
        ),
        "",
    ]
    pairs = [(row[2], theirs[row[0]]) for row in rows if row[1] == "solved"]
    compared = [(ours, mx) for ours, mx in pairs if mx is not None]
    if compared:
        ours_mean = statistics.mean(o for o, _ in compared)
        mx_mean = statistics.mean(m for _, m in compared)
        fast_mean = statistics.mean(row[3] for row in rows if theirs[row[0]] is not None)
        share = sum(o <= m for o, m in compared) / len(compared)
        lines += [
            (
                f"- {len(numbers)} random deals of 1..1,000,000 ({len(rows)} done, "
                f"{len(compared)} compared; "
                f"{sum(row[1] != 'solved' for row in rows)} not solved): player moves mean "
                f"{ours_mean:.2f} (median {statistics.median(o for o, _ in compared)}), "
                f"macroxue {mx_mean:.2f} (median {statistics.median(m for _, m in compared)}): "
                f"**{ours_mean / mx_mean:.3f}x** (target {TARGET_RATIO}x; today's search "
                f"{fast_mean:.2f}, {fast_mean / mx_mean:.2f}x); as short or shorter on "
                f"**{share:.0%}** (target {TARGET_SHARE:.0%})."
            ),
            (
                f"- Time a deal: {seconds_line(rows)} (targets: median "
                f"{TARGET_MEDIAN_SECONDS} s, max {TARGET_MAX_SECONDS} s)."
            ),
        ]
    far = run(beyond) if beyond and not STOPPED else []
    if far:
        solved = [row[2] for row in far if row[1] == "solved"]
        far_mean = statistics.mean(solved)
        lines += [
            (
                f"- {len(beyond)} random deals of 1,000,001..{MAX_DEAL:,} ({len(far)} done, "
                f"{sum(row[1] != 'solved' for row in far)} not solved): player moves mean "
                f"{far_mean:.2f} (median {statistics.median(solved)}), against macroxue's "
                f"{MACROXUE_MEAN} over 1..1,000,000: **{far_mean / MACROXUE_MEAN:.3f}x**; today's "
                f"search {statistics.mean(row[3] for row in far):.2f}."
            ),
            f"- Time a deal: {seconds_line(far)}.",
        ]
    lines.append(
        f"- Whole run {time.perf_counter() - began:.0f} s; load average "
        f"{os.getloadavg()[0]:.1f} at the end."
    )
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_section("bench_short.py", text, "Short solutions (issue 38)")


if __name__ == "__main__":
    main()
