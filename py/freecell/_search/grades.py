"""How hard a deal is for the solver: a measure that is the same on every machine, and a grade.

The measure is the number of positions the solver stored before it found a solution
(:attr:`Solution.states`). The search counts its work in positions, never in time, so the
count is the same on every machine, in CPython and in Pyodide alike, and it does not depend on
the budget either: a bigger ``max_states`` finds the same solution after the same count (it
only lets harder deals finish). It measures the solver's effort, not a person's.

The grade cuts that count into five bands, 1 (easiest) to 5 (hardest), at
:data:`DIFFICULTY_THRESHOLDS`. A deal that is not solved (impossible, or beyond the budget) has
no grade. The thresholds are the 40th, 70th, 90th and 98th percentiles (nearest rank) of the
counts of the 999,992 solved deals among 1..1,000,000 (``freecell analyze 1..1000000``,
2026-11-27; docs/analyze.md), so the grades hold 40, 30, 20, 8 and 2 % of those deals (the
provisional ones from 1..32000 were 472, 637, 1303, 10667). A grade belongs to this solver: a
change to its search changes the counts, and so the thresholds.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from freecell._search.solver import Solution

DIFFICULTY_THRESHOLDS: Final = (471, 637, 1315, 10935)
"""The most states of grades 1 to 4; a solution that took more is grade 5."""

DIFFICULTY_GRADES: Final = range(1, len(DIFFICULTY_THRESHOLDS) + 2)
"""The grades, 1 (easiest for the solver) to 5 (hardest)."""


def difficulty(solution: Solution) -> int | None:
    """Return the grade of a solved deal, 1 (easy) to 5 (hard), from its states; None if unsolved.

    >>> from freecell import solve
    >>> difficulty(solve(1)), difficulty(solve(11982, max_states=100))
    (4, None)
    >>> [difficulty(Solution("solved", states=n)) for n in (1, 471, 472, 10935, 10936)]
    [1, 1, 2, 4, 5]
    """
    if solution.result != "solved":
        return None
    return bisect_left(DIFFICULTY_THRESHOLDS, solution.states) + 1
