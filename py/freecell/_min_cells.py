"""The fewest free cells a deal can be won with, and the compact table of them the site ships.

A deal needs ``K`` free cells when the solver wins it with ``K`` (``solve(number, cells=K)``)
and proves, with a complete search, that it cannot be won with ``K - 1``. That proof covers
every smaller number too: a game with fewer cells is a game with more that leaves some empty,
so a win with fewer would be a win with ``K - 1``. A deal that cannot be won with all four
cells is ``"impossible"``; one whose searches ran out of budget stays ``"unknown"`` (never
guessed). :func:`fewest_cells` is that rule; ``freecell analyze --min-cells`` applies it to
folders analysed with ``--cells 0`` to ``--cells 4`` and prints the table.

The table is text: a header line naming its deals (``# freecell min-cells 1..32000``), comment
lines, then one character a deal, in order, in lines of :data:`_LINE` characters: ``0``-``4``
the fewest free cells, ``x`` impossible, ``?`` unknown. The site ships it as
:data:`MIN_CELLS_FILE` for the deals :data:`MIN_CELLS_DEALS` (``tests/library/test_min_cells.py``
checks that the two agree) and the page fetches it the first time it opens one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final, Literal

from freecell._notation import FREECELLS

MinCells = int | Literal["impossible", "unknown"]
"""The fewest free cells of a deal: 0-4, ``"impossible"`` (not with 4) or ``"unknown"``."""

MIN_CELLS_DEALS: Final = range(1, 32001)
"""The deals the site's table covers: the classic 32,000 (docs/analyze.md)."""
MIN_CELLS_FILE: Final = "data/min-cells.txt"
"""Where the site's table is, from the site's root."""

_SYMBOLS: Final[dict[MinCells, str]] = {
    **{cells: str(cells) for cells in range(len(FREECELLS) + 1)},
    "impossible": "x",
    "unknown": "?",
}
_VALUES: Final = {symbol: value for value, symbol in _SYMBOLS.items()}
MIN_CELLS_VALUES: Final[tuple[MinCells, ...]] = tuple(_SYMBOLS)
"""What a deal's fewest free cells can be, in the table's order: 0 to 4, impossible, unknown."""
_HEADER: Final = re.compile(r"# freecell min-cells (-?[0-9]+)\.\.(-?[0-9]+)")
_LINE: Final = 100
_LEGEND: Final = (
    "# a character a deal: 0-4 the fewest free cells it can be won with, x not even with 4, "
    "? unknown"
)


def fewest_cells(results: Mapping[int, str]) -> MinCells:
    """Return a deal's fewest free cells from its results (``solved``, ``impossible``, ...).

    ``results`` maps a number of free cells to the search's result with that many; any of
    0-4 may be missing. Raises ValueError when they contradict each other (won with some
    cells, impossible with more), which only a wrong search could give.

    >>> fewest_cells({4: "solved", 3: "solved", 2: "impossible"})
    3
    >>> fewest_cells({3: "solved", 2: "impossible"})
    3
    >>> fewest_cells({4: "solved", 3: "unknown", 2: "impossible"})
    'unknown'
    >>> fewest_cells({4: "impossible", 3: "impossible"}), fewest_cells({0: "solved"})
    ('impossible', 0)
    """
    solved = [cells for cells, result in results.items() if result == "solved"]
    impossible = [cells for cells, result in results.items() if result == "impossible"]
    fewest = min(solved, default=None)
    most = max(impossible, default=None)
    if fewest is not None and most is not None and most >= fewest:
        msg = f"won with {fewest} free cells but impossible with {most}"
        raise ValueError(msg)
    if fewest is not None:
        return fewest if fewest == 0 or most == fewest - 1 else "unknown"
    return "impossible" if most == len(FREECELLS) else "unknown"


def format_min_cells(first: int, values: Iterable[MinCells]) -> str:
    """Return the table of consecutive deals from ``first``, as the site ships it.

    >>> print(format_min_cells(1, [3, 2, 4, "unknown", "impossible"]), end="")
    # freecell min-cells 1..5
    # a character a deal: 0-4 the fewest free cells it can be won with, x not even with 4, ? unknown
    324?x
    """
    text = "".join(_SYMBOLS[value] for value in values)
    lines = [text[start : start + _LINE] for start in range(0, len(text), _LINE)]
    return "".join(
        f"{line}\n"
        for line in [
            f"# freecell min-cells {first}..{first + len(text) - 1}",
            _LEGEND,
            *lines,
        ]
    )


def parse_min_cells(text: str) -> dict[int, MinCells]:
    r"""Read a table that :func:`format_min_cells` wrote: each deal's fewest free cells.

    Raises ValueError, saying what is wrong, for anything else.

    >>> parse_min_cells("# freecell min-cells 31999..32000\n# a comment\n4x\n")
    {31999: 4, 32000: 'impossible'}
    """
    header, _, rest = text.replace("\r\n", "\n").partition("\n")  # a checkout's line ends
    match = _HEADER.fullmatch(header)
    if match is None:
        msg = "a min-cells table starts with '# freecell min-cells FIRST..LAST'"
        raise ValueError(msg)
    first, last = int(match[1]), int(match[2])
    symbols = "".join(line for line in rest.split("\n") if not line.startswith("#"))
    if len(symbols) != last - first + 1:
        msg = f"the table names deals {first}..{last} but holds {len(symbols):,} values"
        raise ValueError(msg)
    if unknown := set(symbols) - _VALUES.keys():
        msg = f"the table holds {''.join(sorted(unknown))!r}: only 0-4, x and ? are values"
        raise ValueError(msg)
    return {number: _VALUES[symbol] for number, symbol in enumerate(symbols, start=first)}
