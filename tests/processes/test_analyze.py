"""`freecell analyze`: on a real Dask cluster, into Parquet files, resumable, nothing lost.

No mocks: the command starts its own `LocalCluster`, or uses a cluster of `dask scheduler` and
`dask worker` processes that this module starts once (two worker processes). That cluster's
scheduler gives up on a task at its first lost worker (Dask's `allowed-failures`, 3 by default,
so that a deal that kills its worker costs 2 restarts instead of 8), and its workers carry the
command's test hook: they kill themselves at deal CRASH_DEAL, which no other test here asks for.

Every dataset is checked whole: one row a deal asked for (count == count distinct == N), no
temporary file left, every solution replayed through `freecell.Game` from pysol-cards' board,
every `impossible` confirmed by fc-solve's complete scan.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import importlib
import io
import json
import os
import pty
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import dask
import psutil  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from distributed import Client
from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped]
from pysol_cards.deal_game import Game as PysolGame  # type: ignore[import-untyped]
from pysol_cards.random import RandomBase  # type: ignore[import-untyped]

import freecell
from freecell import Game, Position, deal, parse_position, solve
from freecell._cli.analyze import analyze_main, dataset, driver, intervals, reports, task
from freecell._cli.analyze.task import TEST_HOOK
from freecell._cli.streams import quoted

ROOT = Path(__file__).resolve().parents[2]
FREECELL = [sys.executable, "-m", "freecell", "analyze"]
INTERRUPTIBLE = [
    sys.executable,
    "-c",
    (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
        "os.execv(sys.executable, [sys.executable, '-m', 'freecell', *sys.argv[1:]])"
    ),
    "analyze",
]
"""FREECELL with Ctrl-C at its default, as a terminal gives it: a test run in the background
of a shell (`python3 build.py test &`) inherits SIGINT ignored, and Python then never raises
KeyboardInterrupt."""
DASK = str(Path(sys.executable).with_name("dask"))
CRASH_DEAL = 7777
"""The deal at which the module cluster's workers kill themselves (the command's test hook)."""
BUDGET = ["--max-states", "20000"]
"""A small budget: deals -2 and 36 are unknown within it, the others of 1..40 solved."""
WAIT = 60.0
"""The longest wait for a process or a file, in seconds."""


# --- helpers ----------------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    """Run analyze_main in this process; return its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = analyze_main(list(argv), io.StringIO(), out, err)
    return status, out.getvalue(), err.getvalue()


def rows(folder: Path) -> Any:
    """Return every row of a folder's files as one table, by deal."""
    files = sorted(folder.glob("deals-*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files]).sort_by("deal")


def metadata(path: Path) -> dict[str, Any]:
    """Return the freecell metadata of a file."""
    record: dict[str, Any] = json.loads(pq.read_schema(path).metadata[b"freecell.analyze"])
    return record


def leftovers(folder: Path) -> list[str]:
    """Return the names of temporary files in a folder."""
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def pysol_board(number: int) -> str:
    """Return pysol-cards' fc-solve board of a Microsoft deal (an independent dealer)."""
    game = PysolGame("freecell", 1, RandomBase.DEALS_MS, 13)
    return str(game.calc_deal_string(number, CardRenderer(True)))


def fc_solve_proves_impossible(number: int) -> bool:
    """Tell whether fc-solve's complete scan over single-card moves finds no solution."""
    program = shutil.which("fc-solve")
    if program is None:
        pytest.fail("fc-solve is missing: install Debian's freecell-solver-bin")
    result = subprocess.run(
        [program, "-to", "01ABCDE", "-m", "-snx", "-"],
        input=str(Position.from_deal(deal(number))) + "\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=WAIT,
        env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"},
    )
    return "I could not solve this game." in result.stdout


def check_dataset(folder: Path, deals: list[int]) -> Any:
    """Check a folder holds one valid row per deal and nothing else; return its rows."""
    table = rows(folder)
    assert table.num_rows == pc.count_distinct(table["deal"]).as_py() == len(deals)
    assert table["deal"].to_pylist() == sorted(deals)
    assert leftovers(folder) == []
    cells = set()
    for path in folder.glob("deals-*.parquet"):
        record = metadata(path)
        cells.add(record["cells"])
        held = pq.read_table(path, columns=["deal"])["deal"].to_pylist()
        intervals = dataset.parse_intervals(record["deals"])
        assert held == [n for a, b in intervals for n in range(a, b + 1)]
        assert path.name == dataset.chunk_name(dataset.parse_intervals(record["chunk"])[0])
        assert record["version"] == freecell.__version__
    (cells,) = cells  # one game per folder
    for row in table.to_pylist():
        if row["result"] == "solved":
            moves = row["solution"].split()
            assert row["moves"] == len(moves)
            start = Position.from_deal(deal(row["deal"]))
            if row["deal"] > 0:
                start = parse_position(pysol_board(row["deal"]))
            game = Game(start)
            for move in moves:
                game.push(move)
            assert game.is_won(), row["deal"]
            assert row["difficulty"] in (range(1, 6) if cells == 4 else [None])
        else:
            assert row["moves"] is row["solution"] is row["difficulty"] is None
        if row["result"] == "impossible":
            assert fc_solve_proves_impossible(row["deal"])
    return table


def wait_for(condition: Any, process: subprocess.Popen[str] | None = None) -> None:
    """Wait until condition() is true; fail if the process ends first, or after WAIT."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert process is None or process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def scheduler_file(file: Path) -> dict[str, Any]:
    """Return the scheduler's file as JSON, or {} while it is missing or half written."""
    try:
        return dict(json.loads(file.read_text()))
    except (OSError, ValueError):
        return {}


def group_ends(pgid: int) -> bool:
    """Wait until no process of a process group runs; tell whether that happened in time.

    A process that has ended but is not yet reaped (a zombie) no longer runs: Python's
    resource tracker ends after the command, its parent, and waits a moment for init.
    """
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        running = []
        for process in psutil.process_iter(["status"]):
            with contextlib.suppress(psutil.Error, ProcessLookupError):
                if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                    running.append(process)
        if not running:
            return True
        time.sleep(0.05)
    return False


def files_of(folder: Path) -> dict[str, int]:
    """Return each data file of a folder with its inode and modification time, to see rewrites."""
    return {p.name: p.stat().st_mtime_ns ^ p.stat().st_ino for p in folder.glob("deals-*.parquet")}


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `dask scheduler` and `dask worker` (two processes); yield the scheduler's address."""
    folder = tmp_path_factory.mktemp("cluster")
    file = folder / "scheduler.json"
    env = {
        **os.environ,
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
        "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0",
        "DASK_LOGGING__DISTRIBUTED": "critical",
    }
    common = ["--no-dashboard", "--scheduler-file", str(file)]
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", *common],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers = subprocess.Popen(
        [
            DASK,
            "worker",
            "--nworkers",
            "2",
            "--nthreads",
            "1",
            "--local-directory",
            str(folder),
            *common,
        ],
        env={**env, TEST_HOOK: str(CRASH_DEAL)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: "address" in scheduler_file(file))  # written whole, not atomically
        address = str(scheduler_file(file)["address"])
        with Client(address, timeout=WAIT) as client:
            client.wait_for_workers(2, timeout=WAIT)
        yield address
    finally:
        for process in (workers, scheduler):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str, str]:
    """Run `freecell analyze -2..30` on its own LocalCluster, stderr on a terminal.

    Returns the folder, the exit status, stdout and what the terminal showed.
    """
    folder = tmp_path_factory.mktemp("embedded") / "out"
    command = [*FREECELL, "-2..30", "--chunk", "8", "--workers", "2", *BUDGET, "--out", str(folder)]
    primary, secondary = pty.openpty()
    shown: list[bytes] = []

    def read() -> None:
        while True:
            try:
                data = os.read(primary, 4096)
            except OSError:  # the terminal closed
                return
            if not data:
                return
            shown.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        result = subprocess.run(
            command, stderr=secondary, capture_output=False, stdout=subprocess.PIPE,
            text=True, check=False, timeout=WAIT,
        )  # fmt: skip
    finally:
        os.close(secondary)
        reader.join(timeout=WAIT)
        os.close(primary)
    return folder, result.returncode, result.stdout, b"".join(shown).decode(errors="replace")


# --- the tests --------------------------------------------------------------------------------


class TestEmbeddedCluster:
    """The default: a LocalCluster that the command starts and stops."""

    @pytest.mark.slow
    def test_every_deal_once_in_valid_rows(self, embedded: tuple[Path, int, str, str]) -> None:
        """Deals -2..30 get one row each, solutions that win, -1 impossible and -2 unknown."""
        folder, status, out, _ = embedded
        assert status == 0
        assert out == (
            f"32 deals analysed into {quoted(str(folder))} (solved 30, impossible 1, unknown 1, "
            "error 0); 0 were there before\n"
        )
        table = check_dataset(folder, [-2, -1, *range(1, 31)])
        results = dict(zip(table["deal"].to_pylist(), table["result"].to_pylist(), strict=True))
        assert (results[-2], results[-1]) == ("unknown", "impossible")
        assert table.schema.equals(dataset.SCHEMA, check_metadata=False)

    def test_files_are_chunks_aligned_to_deal_numbers(
        self, embedded: tuple[Path, int, str, str]
    ) -> None:
        """One file a chunk of 8 (and one for -2 and -1), its metadata naming what it holds."""
        folder = embedded[0]
        names = sorted(p.name for p in folder.glob("deals-*.parquet"))
        assert names == [
            "deals--2..-1.parquet",
            "deals-0000000001..0000000008.parquet",
            "deals-0000000009..0000000016.parquet",
            "deals-0000000017..0000000024.parquet",
            "deals-0000000025..0000000032.parquet",
        ]
        record = metadata(folder / names[-1])
        assert record == {
            "version": freecell.__version__,
            "max_states": 20000,
            "timeout": None,
            "chunk_size": 8,
            "cells": 4,
            "chunk": "25..32",
            "deals": "25..30",
        }

    def test_progress_on_a_terminal(self, embedded: tuple[Path, int, str, str]) -> None:
        """On a terminal, a tqdm bar shows deals done, the rate and the count of each result."""
        shown = embedded[3]
        assert "32/32" in shown
        assert "deal/s" in shown
        assert "solved 30, impossible 1, unknown 1, error 0" in shown
        assert "Traceback" not in shown

    @pytest.mark.slow
    def test_interrupted_then_resumed(self, tmp_path: Path, cluster: str) -> None:
        """Ctrl-C (130), then SIGTERM (143): whole files kept, no process left; a rerun ends it."""
        folder = tmp_path / "out"
        command = [*INTERRUPTIBLE, "1..200", "--chunk", "10", *BUDGET, "--out", str(folder)]
        before: dict[str, int] = {}
        for stop, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            with subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                start_new_session=True,
            ) as process:  # fmt: skip
                had = len(before)
                wait_for(lambda had=had: len(files_of(folder)) > had, process)
                if stop == signal.SIGINT:  # Ctrl-C reaches the whole process group
                    os.killpg(process.pid, stop)
                else:
                    process.send_signal(stop)
                out, err = process.communicate(timeout=WAIT)
            assert (process.returncode, out, err) == (status, "", "")
            assert group_ends(process.pid), "a process of the command was left behind"
            assert leftovers(folder) == []
            now = files_of(folder)
            assert {name: now[name] for name in before} == before  # finished files kept
            assert len(now) < 20  # it was stopped before the end
            before = now
        status, out, _ = run("1..200", "--chunk", "10", *BUDGET, "--out", str(folder),
                             "--scheduler", cluster)  # fmt: skip
        assert status == 0
        assert out.endswith(f"; {10 * len(before)} were there before\n")
        check_dataset(folder, list(range(1, 201)))
        assert {name: files_of(folder)[name] for name in before} == before


class TestExistingCluster:
    """`--scheduler`: a cluster of `dask scheduler` and `dask worker` processes."""

    def test_a_running_event_loop_does_not_hide_the_scheduler(self, cluster: str) -> None:
        """The scheduler is asked who it is in a thread of its own, whatever loop runs here.

        A running event loop (a notebook's, or Playwright's in this test process) made
        asyncio.run refuse, and the refusal read as "no Dask scheduler".
        """

        async def inside_a_loop() -> None:
            # the module (the package's name `cluster` is the function of that module)
            importlib.import_module("freecell._cli.analyze.cluster")._probe(cluster, 30)

        with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs in this one
            thread.submit(asyncio.run, inside_a_loop()).result()

    def test_same_rows_as_the_embedded_cluster(
        self, tmp_path: Path, cluster: str, embedded: tuple[Path, int, str, str]
    ) -> None:
        """The rows are the embedded cluster's, all but the seconds (the search is exact)."""
        folder = tmp_path / "out"
        args = ["-2..30", "--chunk", "8", *BUDGET, "--out", str(folder), "--scheduler", cluster]
        status, out, err = run(*args)
        assert (status, err) == (0, "")
        assert "32 deals analysed" in out
        ours = check_dataset(folder, [-2, -1, *range(1, 31)]).drop_columns(["seconds"])
        assert ours.equals(rows(embedded[0]).drop_columns(["seconds"]))

    @pytest.mark.slow
    def test_a_killed_worker_loses_nothing(self, tmp_path: Path, cluster: str) -> None:
        """A worker SIGKILLed mid-run: its chunk runs again, every deal is there once."""
        folder = tmp_path / "out"
        command = [*FREECELL, "1..240", "--chunk", "10", *BUDGET, "--out", str(folder),
                   "--scheduler", cluster]  # fmt: skip
        with Client(cluster, timeout=WAIT) as client:
            pids = client.run(os.getpid)
            with subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            ) as process:
                wait_for(lambda: files_of(folder), process)
                os.kill(next(iter(pids.values())), signal.SIGKILL)
                assert process.poll() is None  # mid-run
                out, err = process.communicate(timeout=WAIT)
            client.wait_for_workers(2, timeout=WAIT)  # the nanny started another
        assert (process.returncode, err) == (0, "")
        assert out.startswith("240 deals analysed")
        table = check_dataset(folder, list(range(1, 241)))
        assert "error" not in table["result"].to_pylist()

    @pytest.mark.slow
    def test_a_deal_that_kills_its_worker_every_time(self, tmp_path: Path, cluster: str) -> None:
        """The deal becomes an `error` row, its chunk's other deals are solved, nothing hangs."""
        folder = tmp_path / "out"
        status, out, err = run(f"{CRASH_DEAL - 4}..{CRASH_DEAL + 3}", "--chunk", "5", *BUDGET,
                             "--out", str(folder), "--scheduler", cluster)  # fmt: skip
        assert (status, err) == (0, "")
        assert "error 1" in out
        table = check_dataset(folder, list(range(CRASH_DEAL - 4, CRASH_DEAL + 4)))
        errors = table.filter(pc.equal(table["result"].cast(pa.string()), "error"))
        assert errors.to_pylist() == [
            {"deal": CRASH_DEAL, "result": "error", "moves": None, "solution": None,
             "states": None, "seconds": None, "difficulty": None}
        ]  # fmt: skip

    def test_timeout_is_a_safety_valve(self, tmp_path: Path, cluster: str) -> None:
        """--timeout stops a search that the budget in states would let run: it is unknown."""
        folder = tmp_path / "out"
        status, _, _ = run("-2", "--timeout", "0.2", "--max-states", "5000000",
                           "--out", str(folder), "--scheduler", cluster)  # fmt: skip
        assert status == 0
        (row,) = rows(folder).to_pylist()
        assert row["result"] == "unknown"
        assert row["states"] < 5_000_000
        assert metadata(folder / "deals--2..-1.parquet")["timeout"] == 0.2

    @pytest.mark.slow
    def test_retry_unknown(self, tmp_path: Path, cluster: str) -> None:
        """--retry-unknown solves only the unknown deals again, and stamps every file anew."""
        folder = tmp_path / "out"
        args = ["--out", str(folder), "--scheduler", cluster]
        assert run("1..30", "--chunk", "10", "--max-states", "450", *args)[0] == 0
        first = rows(folder)
        unknown = pc.equal(first["result"].cast(pa.string()), "unknown")
        assert 0 < pc.sum(unknown).as_py() < 30
        assert run("--retry-unknown", *BUDGET, *args)[0] == 0
        second = check_dataset(folder, list(range(1, 31)))
        assert "unknown" not in second["result"].to_pylist()
        kept = first.filter(pc.invert(unknown))  # solved at 450 states: the same rows, untouched
        assert second.filter(pc.is_in(second["deal"], value_set=kept["deal"])).equals(kept)
        assert {metadata(p)["max_states"] for p in folder.glob("*.parquet")} == {20000}
        assert run("--retry-unknown", *BUDGET, *args)[:2] == (
            0,
            f"no unknown deal left to retry in {quoted(str(folder))}\n",
        )

    def test_retry_unknown_past_files_with_none(
        self, tmp_path: Path, cluster: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Files with no unknown deal (only stamped anew) never end the retry early.

        With a window of one task, the first file (deals 5 and 6, solved at 450 states) runs
        nothing: the retry must go on to the others (7, 9, 10, 11 and 12 are unknown at 450).
        """
        folder = tmp_path / "out"
        args = ["--out", str(folder), "--scheduler", cluster]
        assert run("5..12", "--chunk", "2", "--max-states", "450", *args)[0] == 0
        unknown = pc.equal(rows(folder)["result"].cast(pa.string()), "unknown")
        assert pc.sum(unknown).as_py() == 5
        monkeypatch.setattr(driver, "_MIN_WINDOW", 1)
        monkeypatch.setattr(driver, "_WINDOW_PER_THREAD", 0)
        assert run("--retry-unknown", *BUDGET, *args)[0] == 0
        assert "unknown" not in check_dataset(folder, list(range(5, 13)))["result"].to_pylist()
        assert {metadata(p)["max_states"] for p in folder.glob("*.parquet")} == {20000}

    @pytest.mark.slow
    def test_fewer_cells(self, tmp_path: Path, cluster: str) -> None:
        """--cells K solves the game with K free cells, as solve(cells=K); no grade; stamped."""
        folder = tmp_path / "out"
        status, _, _ = run("1..8", "--cells", "3", "--out", str(folder), "--scheduler", cluster)
        assert status == 0
        table = check_dataset(folder, list(range(1, 9)))
        expected = [solve(number, cells=3) for number in range(1, 9)]
        assert table["result"].cast(pa.string()).to_pylist() == [s.result for s in expected]
        assert table["states"].to_pylist() == [s.states for s in expected]
        assert set(table["difficulty"].to_pylist()) == {None}
        assert {metadata(path)["cells"] for path in folder.glob("*.parquet")} == {3}
        found = dataset.scan(folder, reports.SUMMARY_COLUMNS)
        lines = reports.summary(found, folder)
        assert "--cells 3" in lines[0]
        assert not [line for line in lines if line.startswith("difficulty")]  # no grades

    @pytest.mark.slow
    def test_a_retry_keeps_the_folders_cells(self, tmp_path: Path, cluster: str) -> None:
        """--retry-unknown without --cells retries the folder's game; another one is refused."""
        folder = tmp_path / "out"
        args = ["--out", str(folder), "--scheduler", cluster]
        assert run("1..8", "--cells", "3", "--max-states", "300", *args)[0] == 0
        first = rows(folder)["result"].cast(pa.string()).to_pylist()
        assert "unknown" in first
        status, out, err = run("--retry-unknown", "--cells", "4", *BUDGET, *args)
        assert (status, out) == (2, "")
        assert "was analysed with --cells 3, not 4" in err
        assert run("--retry-unknown", *BUDGET, *args)[0] == 0
        table = check_dataset(folder, list(range(1, 9)))
        expected = [solve(number, cells=3, max_states=20000) for number in range(1, 9)]
        assert table["result"].cast(pa.string()).to_pylist() == [s.result for s in expected]
        assert {metadata(path)["cells"] for path in folder.glob("*.parquet")} == {3}


class TestFolder:
    """The files are the record: resuming, merging, and what the command refuses."""

    @pytest.fixture
    def done(self, tmp_path: Path, embedded: tuple[Path, int, str, str]) -> Path:
        """Return a copy of the embedded run's folder."""
        folder = tmp_path / "out"
        shutil.copytree(embedded[0], folder)
        return folder

    def test_a_rerun_solves_only_what_no_file_holds(self, done: Path, cluster: str) -> None:
        """A missing file is made again, a leftover temporary file goes, other files stay."""
        (done / "deals-0000000009..0000000016.parquet").unlink()
        (done / ".deals-0000000017..0000000024.parquet.12345.tmp").write_bytes(b"partial")
        before = files_of(done)
        status, out, _ = run("-2..30", *BUDGET, "--out", str(done), "--scheduler", cluster)
        counts = "(solved 8, impossible 0, unknown 0, error 0)"
        assert (status, out.split(";")[0]) == (
            0,
            f"8 deals analysed into {quoted(str(done))} {counts}",
        )
        assert {name: files_of(done)[name] for name in before} == before
        check_dataset(done, [-2, -1, *range(1, 31)])

    def test_nothing_to_do_needs_no_cluster(self, done: Path) -> None:
        """When every deal has a row, no scheduler is contacted (this one answers nothing)."""
        status, out, err = run(
            "1..30", *BUDGET, "--out", str(done), "--scheduler", "tcp://127.0.0.1:9"
        )
        assert (status, out, err) == (0, f"all 30 deals are already in {quoted(str(done))}\n", "")

    @pytest.mark.slow
    def test_new_deals_join_their_chunk_file(self, done: Path, cluster: str) -> None:
        """Deals added to a chunk that has a file are merged into it; its rows stay as they were."""
        old = rows(done)
        status, _, _ = run("31..40", *BUDGET, "--out", str(done), "--scheduler", cluster)
        assert status == 0
        table = check_dataset(done, [-2, -1, *range(1, 41)])
        assert metadata(done / "deals-0000000025..0000000032.parquet")["deals"] == "25..32"
        assert table.filter(pc.is_in(table["deal"], value_set=old["deal"])).equals(old)

    def test_rows_of_deals_a_file_holds_are_dropped(self, done: Path) -> None:
        """A chunk's result that arrives for deals its file already holds adds nothing."""
        path = done / "deals-0000000001..0000000008.parquet"
        old = pq.read_table(path)
        late = dataset.table(task.error_rows(range(1, 10)))
        assert dataset.merge(old, late, replace=False).to_pylist() == [
            *old.to_pylist(), *late.slice(8).to_pylist()
        ]  # fmt: skip
        assert dataset.merge(old, late, replace=True).equals(late)

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["--max-states", "999"], "was analysed with --max-states 20000, not 999: use that"),
            ([*BUDGET, "--chunk", "10"], "holds chunks of 8 deals: leave out --chunk"),
            (["--retry-unknown", "--max-states", "999"], "--retry-unknown needs at least that"),
            ([*BUDGET, "--cells", "3"], "was analysed with --cells 4, not 3: use that"),
        ],
    )
    def test_another_budget_or_chunk_is_refused(
        self, done: Path, args: list[str], message: str
    ) -> None:
        """A folder written with another budget or chunk size is refused, and left as it was."""
        deals = [] if "--retry-unknown" in args else ["1..40"]
        before = files_of(done)
        status, out, err = run(*deals, *args, "--out", str(done))
        assert (status, out) == (2, "")
        assert message in err
        assert len(err.splitlines()) == 1
        assert files_of(done) == before

    def test_files_from_before_cells_are_of_the_ordinary_game(self, done: Path) -> None:
        """A file whose metadata names no cells (written before --cells) counts as 4 cells."""
        path = done / "deals--2..-1.parquet"
        table = pq.read_table(path)
        record = metadata(path)
        del record["cells"]
        schema = table.schema.with_metadata({b"freecell.analyze": json.dumps(record).encode()})
        pq.write_table(table.cast(schema), path)
        assert dataset.read_chunk_file(path, (-2, -1)).stamp.cells == 4
        assert run("1..30", *BUDGET, "--out", str(done))[0] == 0

    def test_another_version_is_refused(self, done: Path) -> None:
        """A folder written by another version of the package is refused."""
        path = done / "deals--2..-1.parquet"
        stamp = dataset.Stamp("0.0.1", 20000, None, 8)
        dataset.write(done, (-2, -1), pq.read_table(path), [(-2, -1)], stamp)
        status, _, err = run("1", *BUDGET, "--out", str(done))
        assert status == 2
        assert err == (
            f"freecell analyze: {quoted(str(done))} was analysed by freecell 0.0.1, not "
            f"{freecell.__version__}: use another folder\n"
        )

    def test_a_folder_in_use_is_refused(self, done: Path) -> None:
        """Two runs never write one folder: the second is refused while the first holds it."""
        with (done / dataset.LOCK_NAME).open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            status, _, err = run("31", *BUDGET, "--out", str(done))
        message = f"freecell analyze: {quoted(str(done))} is in use by another freecell analyze\n"
        assert (status, err) == (2, message)


class TestSummary:
    """`freecell analyze --summary DIR`: computed over the files with pyarrow.compute."""

    def test_summary(self, embedded: tuple[Path, int, str, str]) -> None:
        """Counts per result, the impossible deals, lengths, states and the grades."""
        folder = embedded[0]
        table = rows(folder).to_pylist()
        grades = Counter(row["difficulty"] for row in table if row["difficulty"])
        status, out, _ = run("--summary", str(folder))
        assert status == 0
        lines = out.splitlines()
        assert lines[:3] == [
            f"32 deals in 5 files (freecell {freecell.__version__}, --max-states 20000)",
            "results: solved 30, impossible 1, unknown 1, error 0",
            "impossible: -1",
        ]
        assert lines[3].startswith("solution length in moves: median ")
        assert lines[4].startswith("states of the solved deals: median ")
        assert lines[5] == "difficulty: " + ", ".join(f"{g}: {grades[g]}" for g in range(1, 6))

    def test_summary_grades_with_todays_thresholds(
        self, embedded: tuple[Path, int, str, str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The histogram grades the states anew: a folder's old grades are not today's."""
        table = rows(embedded[0]).to_pylist()
        thresholds = (100, 200, 300, 400)
        monkeypatch.setattr(reports, "DIFFICULTY_THRESHOLDS", thresholds)
        grades = Counter(
            bisect_left(thresholds, row["states"]) + 1 for row in table if row["result"] == "solved"
        )
        status, out, _ = run("--summary", str(embedded[0]))
        assert status == 0
        assert out.splitlines()[5] == "difficulty: " + ", ".join(
            f"{g}: {grades[g]}" for g in range(1, 6)
        )
        assert grades != Counter(row["difficulty"] for row in table if row["difficulty"])

    def test_a_folder_without_files(self, tmp_path: Path) -> None:
        """A folder that holds no file of the command is one line and status 2."""
        assert run("--summary", str(tmp_path)) == (
            2,
            "",
            f"freecell analyze: {quoted(str(tmp_path))} holds no file of freecell analyze\n",
        )


class TestBadInput:
    """Bad input: one line on stderr, nothing on stdout, status 2, no traceback."""

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["0", "--out", "x"], "invalid deal number '0'"),
            (["5..3", "--out", "x"], "invalid range '5..3'"),
            (["1..", "--out", "x"], "invalid range '1..'"),
            (["--out", "x"], "name at least one deal or range"),
            (["1..10"], "say where the dataset goes: --out DIR"),
            (["1", "--out", "x", "--chunk", "0"], "write a whole number from 1 to 100000, not '0'"),
            (["1", "--out", "x", "--cells", "5"], "free cells from 0 to 4, not '5'"),
            (["1", "--out", "x", "--workers", "2", "--scheduler", "tcp://h:1"], "--workers"),
            (["1", "--summary", "x"], "--summary DIR reads a dataset"),
            (["1", "--retry-unknown", "--out", "x"], "name no deals"),
            (["1", "--out", "/sys/kernel"], "cannot write into '/sys/kernel': "),
            (["1", "--out", "/proc/analysis"], "cannot write into '/proc/analysis': "),
        ],
    )
    def test_bad_input(self, args: list[str], message: str) -> None:
        """Each bad command line or folder is refused before any work."""
        status, out, err = run(*args)
        assert (status, out) == (2, "")
        assert err.startswith("freecell analyze: ")
        assert message in err
        assert len(err.splitlines()) == 1

    def test_out_is_a_file(self, tmp_path: Path) -> None:
        """--out naming a file is refused."""
        file = tmp_path / "file"
        file.write_text("")
        assert run("1", "--out", str(file)) == (
            2, "", f"freecell analyze: --out {quoted(str(file))} is a file, not a folder\n"
        )  # fmt: skip

    def test_a_scheduler_that_never_answers(self, tmp_path: Path) -> None:
        """A scheduler that accepts the connection and says nothing: refused at the timeout."""
        with socket.create_server(("127.0.0.1", 0)) as silent:
            address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
            with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
                start = time.monotonic()
                status, out, err = run("1", "--out", str(tmp_path), "--scheduler", address)
        assert time.monotonic() - start < 10
        assert (status, out) == (2, "")
        assert err == f"freecell analyze: no Dask scheduler answered at {address!r} within 1 s\n"

    def test_without_the_extra(self, tmp_path: Path) -> None:
        """Without distributed installed, the command says what to install (status 2)."""
        code = (
            "import sys; sys.modules['distributed'] = None; from freecell._cli import main; "
            f"sys.exit(main(['analyze', '1', '--out', {str(tmp_path)!r}]))"
        )
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=WAIT
        )
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == (
            "freecell analyze: needs the analyze extra (distributed is missing): "
            "pip install 'freecell-deals[analyze]'\n"
        )

    def test_help(self) -> None:
        """--help prints the usage and exits 0."""
        status, out, _ = run("--help")
        assert status == 0
        assert out.startswith("usage: freecell analyze")
        assert "--scheduler" in out


class TestPackaging:
    """The extra is optional: nothing of it is imported by the package, and its pins are tested."""

    def test_import_freecell_imports_no_extra(self) -> None:
        """`import freecell` (and the analyze command's module) imports no Dask or pyarrow."""
        code = (
            "import sys, freecell, freecell._cli, freecell._cli.analyze; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'dask', 'distributed', 'pyarrow', 'tqdm'}))"
        )
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=WAIT
        )
        assert result.stdout == "[]\n"

    def test_the_extra_is_pinned_in_the_test_group(self) -> None:
        """Every pin of the analyze extra is in the test dependency group, the same."""
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())
        extra = project["project"]["optional-dependencies"]["analyze"]
        assert extra
        assert all("==" in pin for pin in extra)
        group = project["dependency-groups"]["test"]
        assert set(extra) <= {pin for pin in group if isinstance(pin, str)}


class TestPlanning:
    """Deals become chunks aligned to their numbers, whatever the ranges asked for."""

    def test_overlapping_ranges_are_one(self) -> None:
        """Ranges that overlap or touch are merged: every deal is asked for once."""
        asked = [i for text in ("1..10", "5..20", "21", "-1", "-2..3") for i in
                 intervals.deal_intervals(text)]  # fmt: skip
        assert intervals.merged(asked) == [(-2, -1), (1, 21)]

    def test_the_whole_range_stays_lazy(self) -> None:
        """The whole range of deals is planned without a list of its numbers."""
        (whole,) = intervals.merged(intervals.deal_intervals("-2..8589934591"))[1:]
        assert whole == (1, 2**33 - 1)
        chunks = intervals.chunks([whole], 1000)
        assert next(chunks) == ((1, 1000), [(1, 1000)])
        assert intervals.chunk_of(2**33 - 1, 1000) == (8589934001, 2**33 - 1)

    @pytest.mark.parametrize("size", [1, 3, 7, 10])
    def test_chunks_cover_each_deal_once(self, size: int) -> None:
        """Chunks are aligned to the size and hold every deal asked for, once."""
        wanted = [(-2, -1), (4, 9), (13, 13), (15, 31)]
        planned = list(intervals.chunks(wanted, size))
        deals = [n for _, parts in planned for a, b in parts for n in range(a, b + 1)]
        assert deals == [n for a, b in wanted for n in range(a, b + 1)]
        for (first, last), parts in planned:
            assert first < 0 or ((first - 1) % size == 0 and last - first + 1 == size)
            assert all(first <= a <= b <= last for a, b in parts)

    def test_intervals_read_back(self) -> None:
        """The metadata's deals read back as written."""
        intervals = ((-2, -1), (1, 1), (3, 1000), (2**33 - 1, 2**33 - 1))
        assert dataset.parse_intervals(dataset.format_intervals(intervals)) == intervals

    def test_the_worker_columns_are_the_schema(self) -> None:
        """What a worker sends back has the dataset's columns, in order."""
        assert list(task.COLUMNS) == dataset.SCHEMA.names


# --- integrity: bounded resources, strict input, a folder that checks itself (issue 41) -------


NOBODY = 65534
"""The user that runs the command where a test needs one that root's rights do not cover."""


def spawned_workers() -> set[int]:
    """Return the Dask worker processes that this process has started (multiprocessing's spawn).

    Its own children only: the command runs here, and its `LocalCluster`'s nannies (threads of
    this process) start the workers. The module cluster's workers run in a session of their
    own, and a command that another test ran as a process has its workers under it.
    """
    found = set()
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if "spawn_main" in " ".join(child.cmdline()):
                found.add(child.pid)
    return found


def run_unprivileged(*argv: str, limit: int | None = None) -> tuple[int, str, str]:
    """Run the command as a user without root's rights (nobody, if this is root); return its ends.

    ``limit`` caps that user's processes and threads (``ulimit -u``).
    """

    def restrict() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))

    root = os.geteuid() == 0
    result = subprocess.run(
        [*FREECELL, *argv], capture_output=True, text=True, check=False, timeout=WAIT,
        preexec_fn=restrict, cwd="/", env={**os.environ, "HOME": "/nonexistent"},
        user=NOBODY if root else None, group=NOBODY if root else None,
        extra_groups=[] if root else None,
    )  # fmt: skip
    return result.returncode, result.stdout, result.stderr


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """Return a new folder that any user may write in, as /tmp (pytest's own is its user's)."""
    folder = Path(tempfile.mkdtemp(prefix="freecell-analyze-"))
    folder.chmod(0o1777)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            with contextlib.suppress(OSError):
                path.chmod(0o755)
        shutil.rmtree(folder)


def one_line(err: str) -> str:
    """Check that a message is one line of the command's, with no traceback; return it."""
    assert err.startswith("freecell analyze: "), err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


class TestResources:
    """Every count the user gives has a ceiling: workers, chunk size."""

    @pytest.mark.slow
    @pytest.mark.parametrize(
        ("deals", "chunk", "expected"),
        [("1..2", "250", 1), ("1..3", "1", min(2, len(os.sched_getaffinity(0))))],
    )
    def test_no_more_workers_than_cores_or_chunks(
        self, tmp_path: Path, deals: str, chunk: str, expected: int
    ) -> None:
        """--workers 30 starts no more workers than the cores, nor than the chunks to run."""
        most = 0
        running = threading.Event()
        running.set()
        before = spawned_workers()  # any left from another test

        def watch() -> None:
            nonlocal most
            while running.is_set():
                most = max(most, len(spawned_workers() - before))
                time.sleep(0.02)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            status, out, err = run(deals, "--chunk", chunk, "--workers", "30", *BUDGET,
                                   "--out", str(tmp_path / "out"))  # fmt: skip
        finally:
            running.clear()
            watcher.join()
        assert (status, err) == (0, "")
        assert "analysed" in out
        assert most == expected

    @pytest.mark.slow
    @pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run as a user of no processes")
    def test_a_cluster_that_cannot_start_is_one_line(self, shared_tmp: Path) -> None:
        """Under a tight `ulimit -u`, the cluster that cannot start is one line, status 1."""
        status, out, err = run_unprivileged("1..5", "--chunk", "1", "--out",
                                            str(shared_tmp / "out"), limit=8)  # fmt: skip
        assert (status, out) == (1, ""), err
        assert "could not start" in one_line(err)

    def test_a_huge_chunk_is_refused(self, tmp_path: Path) -> None:
        """--chunk has a ceiling: one line naming it, before any work."""
        status, out, err = run("1..5", "--chunk", "99999999999999", "--out", str(tmp_path))
        assert (status, out) == (2, "")
        assert "a whole number from 1 to 100000, not '99999999999999'" in one_line(err)
        assert run("1", "--chunk", "100001", "--out", str(tmp_path))[0] == 2
        assert list(tmp_path.iterdir()) == []


class TestFolderAccess:
    """A folder the command cannot use: one line and status 2, never a traceback."""

    @pytest.mark.parametrize(
        "args",
        [["1..5", "--out", ""], ["--summary", ""], ["1", "--min-cells", "", "x"]],
    )
    def test_an_empty_folder_name_is_refused(
        self, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An empty folder name is no folder (it is not the current one): refused."""
        monkeypatch.chdir(tmp_path)
        status, out, err = run(*args)
        assert (status, out) == (2, "")
        assert "'': name a folder" in one_line(err)
        assert list(tmp_path.iterdir()) == []

    @pytest.mark.slow
    def test_under_a_folder_that_cannot_be_read(self, shared_tmp: Path) -> None:
        """--out, --summary and --min-cells under a folder the user cannot enter: one line."""
        closed = shared_tmp / "closed"
        closed.mkdir(mode=0o700)
        for args in (["1..5", "--out"], ["--summary"], ["1", "--min-cells"]):
            status, out, err = run_unprivileged(*args, str(closed / "out"))
            assert (status, out) == (2, ""), err
            assert "Permission denied" in one_line(err)

    @pytest.mark.slow
    def test_a_folder_that_cannot_be_listed(
        self, shared_tmp: Path, embedded: tuple[Path, int, str, str]
    ) -> None:
        """A folder that can be entered but not read is refused, never said to hold no file."""
        folder = shared_tmp / "out"
        shutil.copytree(embedded[0], folder)
        (folder / dataset.LOCK_NAME).unlink()  # root's: the user makes its own
        folder.chmod(0o333)
        for args in (["1..5", *BUDGET, "--out"], ["--summary"], ["1", "--min-cells"]):
            status, out, err = run_unprivileged(*args, str(folder))
            assert (status, out) == (2, ""), err
            assert f"cannot read {quoted(str(folder))}: Permission denied" in one_line(err)


class TestScheduler:
    """Every --scheduler address works, or is refused in one line within seconds."""

    @pytest.mark.parametrize(
        "address",
        ["tls://127.0.0.1:1", "ucx://127.0.0.1:1", "ws://127.0.0.1:1", "inproc://x",
         "a" * 100, "tcp://127.0.0.1:99999", "tcp://127.0.0.1", "tcp://:8786"],
    )  # fmt: skip
    def test_an_address_we_cannot_use(self, tmp_path: Path, address: str) -> None:
        """Another scheme, no port, a port out of range: one line quoting 40 characters at most."""
        start = time.monotonic()
        status, out, err = run("1", "--out", str(tmp_path), "--scheduler", address)
        assert time.monotonic() - start < 5
        assert (status, out) == (2, "")
        assert "tcp://HOST:PORT" in one_line(err)
        assert address[:41] not in err or len(address) <= 40

    def test_a_refused_connection_is_refused_at_once(self, tmp_path: Path) -> None:
        """A port where nothing listens is refused at once, not after the connect timeout."""
        with socket.create_server(("127.0.0.1", 0)) as server:
            port = server.getsockname()[1]  # free, and closed below: nothing listens there
        address = f"tcp://127.0.0.1:{port}"
        start = time.monotonic()
        status, out, err = run("1", "--out", str(tmp_path), "--scheduler", address)
        assert time.monotonic() - start < 5
        assert (status, out) == (2, "")
        assert one_line(err) == (
            f"freecell analyze: nothing listens at {address!r} (connection refused)\n"
        )

    @pytest.mark.parametrize(
        "answer",
        [b"\xff" * 8 + bytes(range(256)), (2**31).to_bytes(8, "little") + b"x" * 64, b"HTTP/1.1"],
    )
    def test_a_port_that_answers_something_else(self, tmp_path: Path, answer: bytes) -> None:
        """A server that answers bytes that are no Dask handshake: one line, within seconds."""
        with socket.create_server(("127.0.0.1", 0)) as server:
            address = f"tcp://127.0.0.1:{server.getsockname()[1]}"

            def serve() -> None:
                with contextlib.suppress(OSError):
                    connection, _ = server.accept()
                    with connection:
                        connection.sendall(answer)
                        time.sleep(0.5)  # the connection stays open while the command reads

            thread = threading.Thread(target=serve)
            thread.start()
            start = time.monotonic()
            status, out, err = run("1", "--out", str(tmp_path), "--scheduler", address)
            elapsed = time.monotonic() - start
            thread.join()
        assert elapsed < 5
        assert (status, out) == (2, "")
        assert one_line(err) == f"freecell analyze: {address!r} is no Dask scheduler\n"


FIRST = "deals-0000000001..0000000008.parquet"
"""The embedded run's file of deals 1..8."""


def flip_deal_bytes(path: Path) -> None:
    """Flip some bytes in the middle of a file's `deal` column (its data, not its footer)."""
    flip(path, 0)


def flip(path: Path, column: int) -> None:
    """Flip a few bytes in the middle of one column's pages in a file."""
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(column)
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    middle = start + chunk.total_compressed_size // 2
    data = bytearray(path.read_bytes())
    for at in range(middle - 2, middle + 2):
        data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def overwrite(path: Path, column: str, fill: bytes) -> None:
    """Overwrite 64 bytes in the middle of one column's pages with ``fill``, repeated.

    The column's pages are where its metadata says: from its first page (the dictionary's, if
    it has one) for ``total_compressed_size`` bytes.
    """
    index = dataset.SCHEMA.names.index(column)
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(index)
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    middle = start + chunk.total_compressed_size // 2
    data = bytearray(path.read_bytes())
    data[middle - 32 : middle + 32] = (fill * 64)[:64]
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    """Cut a file in half, as a full disk or a copy stopped midway would."""
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def other_deals(path: Path) -> None:
    """Write the rows of deals 9..16 under the name and metadata of the file of 1..8."""
    rows = pq.read_table(path.with_name("deals-0000000009..0000000016.parquet"))
    pq.write_table(rows.replace_schema_metadata(pq.read_schema(path).metadata), path)


def doubled(path: Path) -> None:
    """Write a file's rows twice over, under its own metadata."""
    rows = pq.read_table(path)
    pq.write_table(pa.concat_tables([rows, rows]), path)


DAMAGED = "is damaged (a page's checksum does not match its data)"
DAMAGES = {
    flip_deal_bytes: "cannot be read",  # its page header, which no checksum covers
    truncate: "cannot be read",
    other_deals: "holds deals 9..16, not 1..8",
    doubled: "holds 16 rows for its 8 deals",
}
"""What can happen to a chunk's file, and what the command says of it."""
FILLS = {"zeros": b"\0", "noise": random.Random(53).randbytes(64), "letters": b"A"}
"""What 64 bytes in the middle of a column's pages are overwritten with (always the same)."""


class TestChunkCheck:
    """A file counts only if its rows are exactly its deals, each once, readable."""

    @pytest.fixture
    def done(self, tmp_path: Path, embedded: tuple[Path, int, str, str]) -> Path:
        """Return a copy of the embedded run's folder."""
        folder = tmp_path / "out"
        shutil.copytree(embedded[0], folder)
        return folder

    @pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
    def test_summary_leaves_out_a_damaged_file(self, done: Path, damage: Any) -> None:
        """--summary counts the other files and says in one line which one it left out."""
        damage(done / FIRST)
        status, out, err = run("--summary", str(done))
        assert status == 0
        assert out.splitlines()[0].startswith("24 deals in 4 files ")
        assert one_line(err).startswith(f"freecell analyze: not counted: {FIRST} {DAMAGES[damage]}")

    @pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
    def test_min_cells_leaves_out_a_damaged_file(self, done: Path, damage: Any) -> None:
        """--min-cells leaves a damaged file's deals unknown and says so in one line."""
        damage(done / FIRST)
        status, out, err = run("1..30", "--min-cells", str(done))
        assert status == 0
        assert one_line(err).startswith(f"freecell analyze: not counted: {FIRST} {DAMAGES[damage]}")
        (done / FIRST).unlink()
        assert run("1..30", "--min-cells", str(done)) == (0, out, "")

    @pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
    def test_resume_moves_a_damaged_file_aside(self, done: Path, damage: Any, cluster: str) -> None:
        """A resumed run moves the damaged file into rejected/ and solves its deals again."""
        damage(done / FIRST)
        damaged = (done / FIRST).read_bytes()
        status, out, err = run("-2..30", *BUDGET, "--out", str(done), "--scheduler", cluster)
        assert status == 0
        assert one_line(err).startswith(f"freecell analyze: {FIRST} {DAMAGES[damage]}")
        assert err.endswith(": moved into rejected/\n")
        assert out.startswith("8 deals analysed")
        assert (done / "rejected" / FIRST).read_bytes() == damaged
        check_dataset(done, [-2, -1, *range(1, 31)])

    @pytest.mark.parametrize("fill", FILLS)
    @pytest.mark.parametrize("column", ["solution", "states"])
    def test_a_chunk_counts_only_if_all_of_it_reads(
        self, tmp_path: Path, done: Path, column: str, fill: str, cluster: str
    ) -> None:
        """64 bytes overwritten in the middle of one column's pages (issue 53, item 1).

        --summary and --min-cells leave the chunk out, a resume moves it aside and solves its
        8 deals again (and only those), each saying why in the same words; the folder is then
        the undamaged run's, and the next run finds every deal in.
        """
        undamaged, summary = rows(done).drop_columns(["seconds"]), run("--summary", str(done))
        without = tmp_path / "without"
        shutil.copytree(done, without)
        (without / FIRST).unlink()
        others = {name: stamp for name, stamp in files_of(done).items() if name != FIRST}
        overwrite(done / FIRST, column, FILLS[fill])
        damaged = (done / FIRST).read_bytes()

        status, out, err = run("--summary", str(done))
        assert (status, out) == (0, run("--summary", str(without))[1])
        assert one_line(err) == f"freecell analyze: not counted: {FIRST} {DAMAGED}\n"
        reason = f"{FIRST} {DAMAGED}"
        status, out, err = run("1..30", "--min-cells", str(done))
        assert (status, out) == (0, run("1..30", "--min-cells", str(without))[1])
        assert err == f"freecell analyze: not counted: {reason}\n"

        status, out, err = run("-2..30", *BUDGET, "--out", str(done), "--scheduler", cluster)
        assert (status, err) == (0, f"freecell analyze: {reason}: moved into rejected/\n")
        assert out.startswith(f"8 deals analysed into {quoted(str(done))} ")
        assert (done / "rejected" / FIRST).read_bytes() == damaged
        assert {name: files_of(done)[name] for name in others} == others
        assert rows(done).drop_columns(["seconds"]).equals(undamaged)
        assert run("--summary", str(done)) == summary
        status, out, err = run("-2..30", *BUDGET, "--out", str(done))
        assert (status, out, err) == (0, f"all 32 deals are already in {quoted(str(done))}\n", "")

    def test_every_read_verifies_the_checksums(self, done: Path) -> None:
        """dataset.read_table verifies the checksums, as merging and --retry-unknown read with it.

        Without them, a bit flipped in a solution's bytes may read back as another solution.
        """
        path = done / FIRST
        original, rows = path.read_bytes(), pq.read_table(path)
        index = dataset.SCHEMA.names.index("solution")
        column = pq.ParquetFile(path).metadata.row_group(0).column(index)
        first = (
            column.dictionary_page_offset if column.has_dictionary_page else column.data_page_offset
        )
        for at in range(first, first + column.total_compressed_size):
            data = bytearray(original)
            data[at] ^= 1
            path.write_bytes(bytes(data))
            with contextlib.suppress(OSError, pa.ArrowException):
                if not pq.read_table(path).equals(rows):
                    break
        else:
            pytest.fail("no flipped bit read back as other rows")
        with pytest.raises(OSError, match="CRC checksum verification failed"):
            dataset.read_table(path)

    def test_a_file_to_merge_is_read_whole(self, done: Path, cluster: str) -> None:
        """A file that new deals join is checked whole: a damaged solution column is caught."""
        path = done / "deals-0000000025..0000000032.parquet"
        flip(path, task.COLUMNS.index("solution"))
        status, out, err = run("25..32", *BUDGET, "--out", str(done), "--scheduler", cluster)
        assert status == 0
        assert f"{path.name} {DAMAGED}" in one_line(err)
        assert out.startswith("8 deals analysed")
        check_dataset(done, [-2, -1, *range(1, 33)])

    def test_a_refused_folder_is_left_as_it_is(self, done: Path) -> None:
        """A folder refused (another version) keeps even its damaged files where they are."""
        truncate(done / FIRST)
        path = done / "deals--2..-1.parquet"
        stamp = dataset.Stamp("0.0.1", 20000, None, 8)
        dataset.write(done, (-2, -1), pq.read_table(path), [(-2, -1)], stamp)
        before = files_of(done)
        status, out, err = run("1..30", *BUDGET, "--out", str(done))
        assert (status, out) == (2, "")
        assert "was analysed by freecell 0.0.1" in one_line(err)
        assert files_of(done) == before
        assert not (done / "rejected").exists()

    def test_rejected_files_keep_their_names_apart(self, done: Path) -> None:
        """A second damaged file of one chunk goes beside the first, not over it."""
        other_deals(done / FIRST)
        for _ in range(2):
            if not (done / FIRST).exists():  # damaged again, the same way
                shutil.copy(done / "rejected" / FIRST, done / FIRST)
            status, out, err = run("9..16", *BUDGET, "--out", str(done))
            assert (status, out) == (0, f"all 8 deals are already in {quoted(str(done))}\n")
            assert "holds deals 9..16, not 1..8: moved into" in one_line(err)
        assert sorted(p.name for p in (done / "rejected").iterdir()) == sorted(
            [FIRST, FIRST.replace(".parquet", ".1.parquet")]
        )

    @pytest.mark.parametrize(
        ("held", "named", "reason"),
        [
            ([1, 2, 3, 7, 8], "1..3 7..8", None),
            ([1, 2, 3, 7, 8], "1..3 6..7", "holds deals 1..3 7..8, not 1..3 6..7"),
            ([1, 2, 4, 7, 8], "1..3 7..8", "holds deals 1..2 4 7..8, not 1..3 7..8"),
            ([1, 2, 3, 8, 7], "1..3 7..8", "holds its rows out of order"),
            ([1, 2, 2, 3], "1..3", "holds 4 rows for its 3 deals"),
            ([1, 2], "1..3", "holds deals 1..2, not 1..3"),
            ([5, 6], "5..6 1", "names deals 5..6 1 outside its chunk, or out of order"),
            ([9, 10], "9..10", "names deals 9..10 outside its chunk, or out of order"),
            ([], "", None),
        ],
    )
    def test_what_a_file_must_hold(
        self, tmp_path: Path, held: list[int], named: str, reason: str | None
    ) -> None:
        """A file counts when its deal column is exactly the deals its metadata names."""
        columns = task.error_rows(held)  # as they are, not sorted as dataset.table does
        result = pa.array(columns["result"], pa.string()).dictionary_encode()
        result = result.cast(dataset.SCHEMA.field("result").type)
        rows = pa.table({**columns, "result": result}, schema=dataset.SCHEMA)
        stamp = dataset.Stamp(freecell.__version__, 20000, None, 8)
        metadata = stamp.metadata((1, 8), dataset.parse_intervals(named))
        path = tmp_path / dataset.chunk_name((1, 8))
        pq.write_table(rows.replace_schema_metadata(metadata), path)
        if reason is None:
            assert dataset.check(path, (1, 8)).deals == dataset.parse_intervals(named)
        else:
            with pytest.raises(dataset.BadFileError, match=f"^{re.escape(reason)}$"):
                dataset.check(path, (1, 8))

    def test_a_file_of_another_chunk_or_columns(self, tmp_path: Path) -> None:
        """A file named for one chunk with another's metadata, or other columns, does not count."""
        stamp = dataset.Stamp(freecell.__version__, 20000, None, 8)
        dataset.write(tmp_path, (9, 16), dataset.table(task.error_rows(range(9, 17))),
                      [(9, 16)], stamp)  # fmt: skip
        source = tmp_path / dataset.chunk_name((9, 16))
        path = tmp_path / dataset.chunk_name((1, 8))
        source.rename(path)
        with pytest.raises(
            dataset.BadFileError, match="^" + re.escape("is named for chunk 1..8, its metadata")
        ):
            dataset.check(path, (1, 8))
        rows = pq.read_table(path)
        plain = rows.set_column(1, "result", rows["result"].cast(pa.string()))
        pq.write_table(plain.replace_schema_metadata(stamp.metadata((1, 8), [(9, 16)])), path)
        with pytest.raises(
            dataset.BadFileError, match="^" + re.escape("names deals 9..16 outside its chunk")
        ):
            dataset.check(path, (1, 8))
        dataset.write(tmp_path, (1, 8), plain, [(1, 8)], stamp)
        with pytest.raises(
            dataset.BadFileError, match="^" + re.escape("has not the columns of freecell")
        ):
            dataset.check(path, (1, 8), None)
