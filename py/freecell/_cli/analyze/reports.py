"""What ``freecell analyze`` prints from its datasets: the summary and the fewest free cells.

:func:`summary` is ``--summary DIR``: the count of each result, the impossible deals, the
solution lengths' and states' quantiles and the histogram of today's grades, all computed by
``pyarrow.compute`` over the files that count (no loop over rows). :func:`min_cells` is
``--min-cells DIR...``: one dataset a number of free cells, put together into the site's
table (:mod:`freecell._min_cells` holds the rule and the format). Both read what
:func:`freecell._cli.analyze.dataset.scan` found; this module imports pyarrow, as the dataset does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from freecell._cli.analyze.dataset import RESULTS, SPECIAL_CHUNK, Folder, FolderError, read_all
from freecell._cli.analyze.intervals import Interval
from freecell._cli.streams import quoted
from freecell._min_cells import MinCells, fewest_cells, format_min_cells
from freecell._notation import FREECELLS
from freecell._search import DIFFICULTY_GRADES, DIFFICULTY_THRESHOLDS

SUMMARY_COLUMNS: Final = ["deal", "result", "moves", "states"]
"""The columns that :func:`summary` reads."""
MIN_CELLS_COLUMNS: Final = ["deal", "result"]
"""The columns that :func:`min_cells` reads."""


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


def summary(found: Folder, folder: Path) -> list[str]:
    """Return the summary of a folder's files that count as lines, computed with pyarrow.compute.

    ``found`` is what :func:`scan` found in ``folder``, the columns ``deal``, ``result``,
    ``moves`` and ``states`` kept (:data:`SUMMARY_COLUMNS`). Counts per result, the impossible
    deals (and any in error), solution lengths (median, 90th percentile) and states (median,
    99th percentile) of the solved deals, and the histogram of the difficulty grades (unless
    every file is of fewer cells, which have none), graded from the states with today's
    thresholds: a file's ``difficulty`` column keeps those of the day it was written. Raises
    FolderError for a folder without files that count.
    """
    files = found.files
    if not files:
        but = f" that counts ({len(found.bad):,} that do not)" if found.bad else ""
        msg = f"{quoted(str(folder))} holds no file of freecell analyze{but}"
        raise FolderError(msg)
    rows = read_all(files).sort_by("deal")
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


def _results(found: Folder, folder: Path) -> tuple[int, dict[int, str]]:
    """Return the number of free cells a folder was analysed with, and each deal's result."""
    files = found.files
    cells = {f.stamp.cells for f in files.values()}
    if len(cells) != 1:
        what = "no file of freecell analyze" if not cells else "files of several --cells"
        but = " that counts" if found.bad and not cells else ""
        msg = f"{quoted(str(folder))} holds {what}{but}"
        raise FolderError(msg)
    rows = read_all(files)
    deals = rows["deal"].to_pylist()
    return cells.pop(), dict(zip(deals, rows["result"].cast(pa.string()).to_pylist(), strict=True))


def min_cells(folders: list[tuple[Path, Folder]], deals: list[Interval]) -> str:
    """Return the table of the fewest free cells (see freecell._min_cells) of some datasets.

    Each folder holds one analysis of the same deals with another ``--cells`` (what
    :func:`scan` found in it, the columns ``deal`` and ``result`` kept); the table
    covers ``deals`` (one interval of deals numbered from 1, within those the folders hold),
    or if none, the deals from the lowest to the highest that any holds. A deal that no folder
    holds, or whose results do not decide, is unknown. Raises FolderError for folders or deals
    that do not fit, and for results that contradict each other.
    """
    by_cells: dict[int, dict[int, str]] = {}
    for folder, found in folders:
        cells, results = _results(found, folder)
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
        known = {cells: results[number] for cells, results in by_cells.items() if number in results}
        try:
            values.append(fewest_cells(known))
        except ValueError as error:
            msg = f"deal {number}: {error}"
            raise FolderError(msg) from None
    return format_min_cells(first, values)
