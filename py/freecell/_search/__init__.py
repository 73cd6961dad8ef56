"""The searches: what the engine's rules let a program find out about a position.

- :mod:`~freecell._search.scan`: canonical packed states (:func:`canonical_key`), their moves,
  one best-first scan, and trimming a winning path; its inner loop inline for speed;
- :mod:`~freecell._search.solver`: :class:`Solver`, the scans as a portfolio in budgets and
  slices, and a complete scan that proves a deal impossible;
- :mod:`~freecell._search.short`: :class:`ShortSolver` and :func:`solve`, short solutions;
- :mod:`~freecell._search.grades`: a solved deal's grade; :mod:`~freecell._search.daily`:
  the daily deal and deals of a grade.

Other units import these names from this package only; the modules share private names among
themselves (docs/architecture.md).
"""

from __future__ import annotations

from freecell._search.daily import (
    DAILY_GRADES,
    DateError,
    GradedDealSearch,
    GradeError,
    daily_deal,
    daily_grade,
    deal_candidates,
    graded_deal,
    parse_date,
    parse_grade,
)
from freecell._search.grades import DIFFICULTY_GRADES, DIFFICULTY_THRESHOLDS, difficulty
from freecell._search.scan import canonical_key
from freecell._search.short import ShortSolver, home_all, solve
from freecell._search.solver import (
    DEFAULT_MAX_STATES,
    MAX_STATES_CEILING,
    Solution,
    Solver,
    SolverError,
    SolveResult,
)

__all__ = [
    "DAILY_GRADES",
    "DEFAULT_MAX_STATES",
    "DIFFICULTY_GRADES",
    "DIFFICULTY_THRESHOLDS",
    "MAX_STATES_CEILING",
    "DateError",
    "GradeError",
    "GradedDealSearch",
    "ShortSolver",
    "Solution",
    "SolveResult",
    "Solver",
    "SolverError",
    "canonical_key",
    "daily_deal",
    "daily_grade",
    "deal_candidates",
    "difficulty",
    "graded_deal",
    "home_all",
    "parse_date",
    "parse_grade",
    "solve",
]
