"""The deals whose layout begins with some cards (identify), searched a slice at a time.

The page's Find dialog asks :meth:`freecell._web.Session.identify` with the cards typed; the
search (:func:`freecell._identify.search`) runs in the slices of
:meth:`~freecell._web.Session.think`, the latest asked for replaces it, and what each found is
remembered by its cards.
"""

import time
from typing import Final

from freecell._identify import search
from freecell._web.known import KNOWN_MOST

FIND_MOST: Final = 20
"""The most deal numbers :meth:`Session.identify <freecell._web.Session.identify>` lists; a
reply with more says ``"more"``."""


class IdentifySearch:
    """The search for the deals that begin with some cards, a slice at a time.

    >>> from freecell._identify import parse_layout
    >>> found = IdentifySearch(parse_layout("JD 2D 9H JC 5D 7H 7C 5H"))
    >>> while not found.step(0.005):
    ...     pass
    >>> found.numbers, found.more
    ([1], False)
    """

    def __init__(self, cards: tuple[int, ...]) -> None:
        self.cards = cards
        self.numbers: list[int] = []
        self.more = False
        self._steps = search(cards)

    def step(self, max_seconds: float) -> bool:
        """Search for about ``max_seconds``; return whether the search is over."""
        deadline = time.perf_counter() + max_seconds
        for value in self._steps:
            if value is None:
                if time.perf_counter() >= deadline:
                    return False
            elif len(self.numbers) == FIND_MOST:
                self.more = True
                return True
            else:
                self.numbers.append(value)
        return True


class LayoutDeals:
    """The deals found for each layout's cards, and the search for the latest asked for.

    >>> from freecell._identify import parse_layout
    >>> deals, cards = LayoutDeals(), parse_layout("JD 2D 9H JC 5D 7H 7C 5H")
    >>> print(deals.ask(cards))
    None
    >>> while deals.running() and deals.step(0.005) == "thinking":
    ...     pass
    >>> deals.ask(cards)
    ([1], False)
    """

    def __init__(self) -> None:
        self._search: IdentifySearch | None = None
        self._found: dict[tuple[int, ...], tuple[list[int], bool]] = {}

    def ask(self, cards: tuple[int, ...]) -> tuple[list[int], bool] | None:
        """Return the deals found for ``cards`` and whether there are more, or None: then search."""
        found = self._found.get(cards)
        if found is None and (self._search is None or self._search.cards != cards):
            self._search = IdentifySearch(cards)
        return found

    def stop(self) -> None:
        """End the search; what it found is dropped."""
        self._search = None

    def running(self, game: object = None) -> bool:  # noqa: ARG002 - a Search's signature
        """Tell whether a search runs; it runs whatever the game (``game`` is not read)."""
        return self._search is not None

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``: ``"done"`` once it is over, else ``"thinking"``."""
        search = self._search
        assert search is not None, "step() while no search runs"
        if not search.step(max_seconds):
            return "thinking"
        self._search = None
        if len(self._found) > KNOWN_MOST // 1000:
            self._found.clear()
        self._found[search.cards] = (search.numbers, search.more)
        return "done"
