"""The daily deal, the same for everyone on a UTC date, and a deal of a chosen grade from a seed.

Both come from one rule, with no server and no clock but the date asked for:

1. A *seed* (text) gives candidates, deals of Windows FreeCell's million
   (:data:`~freecell.MICROSOFT_DEALS`): candidate ``i`` (``i`` = 0, 1, 2, ...) is the first 8
   bytes of ``SHA-256(seed + ":" + str(i))`` (the text in UTF-8) read as a big-endian number,
   modulo 1,000,000, plus 1 (:func:`deal_candidates`).
2. The deal is the first candidate whose grade (:func:`freecell.difficulty` of
   :func:`freecell.solve` with the default budget) is the grade asked for
   (:func:`graded_deal`).

The daily deal of a date takes the date in ISO form (``"2026-11-30"``) as its seed and the
grade of its weekday, rising through the week (:data:`DAILY_GRADES`): Monday 1, Tuesday and
Wednesday 2, Thursday and Friday 3, Saturday 4, Sunday 5 (:func:`daily_deal`).

A candidate is tested for grade ``g`` by a search capped at ``T[g]`` states, where ``T`` is
:data:`~freecell.DIFFICULTY_THRESHOLDS` with :data:`~freecell.DEFAULT_MAX_STATES` after it: the
search's count does not depend on the budget, so the grade is ``g`` exactly when that search
solves the deal in more than ``T[g-1]`` states (``T[0]`` = 0). A candidate of another grade
costs at most ``T[g]`` states, and most far fewer. The search counts states, never time, so
the deal is the same on every machine; it changes only when the grades' thresholds or the
solver change (the grades belong to this solver).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import time
from collections.abc import Iterator
from typing import Final

from freecell._deal import MICROSOFT_DEALS
from freecell._errors import CodedError, shorten
from freecell._search.grades import DIFFICULTY_GRADES, DIFFICULTY_THRESHOLDS
from freecell._search.solver import DEFAULT_MAX_STATES, Solution, Solver

__all__ = [
    "DAILY_GRADES",
    "DateError",
    "GradeError",
    "GradedDealSearch",
    "daily_deal",
    "daily_grade",
    "deal_candidates",
    "graded_deal",
    "parse_date",
    "parse_grade",
]

DAILY_GRADES: Final = (1, 2, 2, 3, 3, 4, 5)
"""The daily deal's grade by weekday, Monday first (:meth:`datetime.date.weekday`)."""

_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_BOUNDS: Final = (0, *DIFFICULTY_THRESHOLDS, DEFAULT_MAX_STATES)
"""The states of each grade: grade g took more than ``_BOUNDS[g-1]``, at most ``_BOUNDS[g]``."""


class DateError(CodedError):
    """Raised for text that is no date: ``code`` ``"date-invalid"``, ``params`` ``{"text"}``."""


class GradeError(CodedError):
    """Raised for a grade out of 1..5.

    ``code`` is ``"grade-invalid"``; ``params``: ``text``, ``min`` and ``max``.
    """


def parse_date(text: str) -> dt.date:
    """Read a date written YYYY-MM-DD; raise :class:`DateError` for anything else.

    >>> parse_date("2026-11-30")
    datetime.date(2026, 11, 30)
    >>> parse_date("2026-02-30")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._search.daily.DateError: invalid date '2026-02-30': write a date YYYY-MM-DD, ...
    """
    text = str(text)
    if _DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            pass
    raise DateError("date-invalid", text=shorten(text))


def parse_grade(text: str | int) -> int:
    """Read a grade, a whole number from 1 to 5; raise :class:`GradeError` for anything else.

    >>> parse_grade("4")
    4
    >>> parse_grade("hard")
    Traceback (most recent call last):
    ...
    freecell._search.daily.GradeError: invalid grade 'hard': a grade is a whole number from 1 to 5
    """
    grades = DIFFICULTY_GRADES
    written = str(text).strip()
    if re.fullmatch(r"[0-9]{1,2}", written) and int(written) in grades:
        return int(written)
    raise GradeError("grade-invalid", text=shorten(str(text)), min=grades[0], max=grades[-1])


def daily_grade(day: dt.date) -> int:
    """Return the grade of the daily deal of ``day``: its weekday's (:data:`DAILY_GRADES`).

    >>> [daily_grade(dt.date(2026, 11, 30) + dt.timedelta(n)) for n in range(7)]
    [1, 2, 2, 3, 3, 4, 5]
    """
    return DAILY_GRADES[day.weekday()]


def deal_candidates(seed: str) -> Iterator[int]:
    """Yield the candidates of ``seed``, deals of 1..1,000,000, without end (see the module).

    >>> from itertools import islice
    >>> list(islice(deal_candidates("2026-11-30"), 3))
    [167575, 57936, 110669]
    """
    index = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
        yield int.from_bytes(digest[:8], "big") % len(MICROSOFT_DEALS) + MICROSOFT_DEALS[0]
        index += 1


class GradedDealSearch:
    """The search for the first candidate of a seed with a grade, in slices like a Solver's.

    :meth:`step` works for about ``max_seconds`` and returns the deal once found, else
    ``None``; the answer depends only on ``seed`` and ``grade``, never on the slices. Raises
    :class:`GradeError` for a grade out of 1..5.

    >>> search = GradedDealSearch("2026-11-30", 1)
    >>> while (number := search.step(0.005)) is None:
    ...     pass  # a page's worker answers other requests here
    >>> number == graded_deal("2026-11-30", 1), search.solution.result, search.tested >= 1
    (True, 'solved', True)
    """

    def __init__(self, seed: str, grade: int) -> None:
        self.seed = str(seed)
        self.grade = parse_grade(grade)
        self._candidates = deal_candidates(self.seed)
        self._search = self._next_search()
        self._found: int | None = None
        self.tested = 0
        """How many candidates were searched to the end so far."""
        self.solution: Solution | None = None
        """The found deal's solution (:func:`freecell.solve`'s, with the default budget's
        moves and states), once found."""

    def _next_search(self) -> tuple[int, Solver]:
        number = next(self._candidates)
        return number, Solver(number, max_states=_BOUNDS[self.grade])

    @property
    def found(self) -> int | None:
        """The deal, once found; else ``None``."""
        return self._found

    def step(self, max_seconds: float | None = 0.005) -> int | None:
        """Work for about ``max_seconds`` (``None``: until found); return the deal or None."""
        if self._found is not None:
            return self._found
        began = time.perf_counter()
        while True:
            left = (
                None if max_seconds is None else max(began + max_seconds - time.perf_counter(), 0.0)
            )
            number, search = self._search
            solution = search.step(left)
            if solution is not None:
                self.tested += 1
                if solution.result == "solved" and solution.states > _BOUNDS[self.grade - 1]:
                    self._found, self.solution = number, solution
                    return number
                self._search = self._next_search()
            if max_seconds is not None and time.perf_counter() - began >= max_seconds:
                return None


def graded_deal(seed: str, grade: int) -> int:
    """Return the first candidate of ``seed`` whose grade is ``grade`` (see the module).

    A random deal of a grade, given a random seed; the same seed always gives the same deal.

    >>> from freecell import difficulty, solve
    >>> difficulty(solve(graded_deal("any text", 3)))
    3
    """
    found = GradedDealSearch(seed, grade).step(None)
    assert found is not None  # step(None) returns only once found
    return found


def daily_deal(day: dt.date | str) -> int:
    """Return the daily deal of a UTC date (a ``date``, or text YYYY-MM-DD).

    The first candidate of the date's ISO text whose grade is its weekday's
    (:data:`DAILY_GRADES`). Raises :class:`DateError` for text that is no date.

    >>> daily_deal("2026-11-30") == graded_deal("2026-11-30", 1)  # a Monday: grade 1
    True
    """
    if not isinstance(day, dt.date):
        day = parse_date(day)
    day = dt.date(day.year, day.month, day.day)  # a datetime's date
    return graded_deal(day.isoformat(), daily_grade(day))
