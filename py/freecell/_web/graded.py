"""The deals of a grade the page asked for (daily, random_deal): found, or being searched for.

A search for a deal of a grade (:class:`freecell.GradedDealSearch`) is not the game's: it goes
on, a slice at a time, while the game changes; the latest asked for replaces it, and a deal
opened ends it. The deal it finds comes graded: its own search's answer goes to what the
searches found (:class:`freecell._web.known.Known`), for that deal's grade, hints and guard.
"""

from freecell._deal import deal
from freecell._rules import Position
from freecell._search import GradedDealSearch
from freecell._web.known import Known


class GradedDeals:
    """The deals found for a seed and a grade, and the search for the latest asked for.

    >>> deals = GradedDeals(Known())
    >>> print(deals.ask("any", 1))
    None
    >>> while deals.running() and deals.step(0.005) == "thinking":
    ...     pass
    >>> from freecell import graded_deal
    >>> deals.ask("any", 1) == graded_deal("any", 1)
    True
    """

    def __init__(self, known: Known) -> None:
        self._known = known
        self._search: GradedDealSearch | None = None
        self._found: dict[tuple[str, int], int] = {}  # (seed, grade) -> the deal found

    def ask(self, seed: str, grade: int) -> int | None:
        """Return the deal found for ``seed`` and ``grade``, or None: then search for it."""
        number = self._found.get((seed, grade))
        if number is not None:
            return number
        search = self._search
        if search is None or (search.seed, search.grade) != (seed, grade):
            self._search = GradedDealSearch(seed, grade)
        return None

    def stop(self) -> None:
        """End the search (the player chose a deal: a search for another one is over)."""
        self._search = None

    def running(self, game: object = None) -> bool:  # noqa: ARG002 - a Search's signature
        """Tell whether a search runs; it runs whatever the game (``game`` is not read)."""
        return self._search is not None

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``: ``"done"`` once a deal is found, or ``"thinking"``."""
        search = self._search
        assert search is not None, "step() while no search runs"
        number = search.step(max_seconds)
        if number is None:
            return "thinking"
        self._search = None
        self._found[search.seed, search.grade] = number
        if search.solution is not None:  # the deal's own search: its grade, hints, guard
            self._known.learn(Position.from_deal(deal(number)), search.solution)
        return "done"
