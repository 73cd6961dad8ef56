"""What the page's searches found: answers, short solutions and grades, by position.

A :class:`freecell._web.Session` remembers each search's answer for the position it searched
and for every position on a solution's way, so that a hint after following the last one, the
live guard and Solve's next moves cost nothing. Short solutions (Solve's) are kept apart from
today's search's answers, so that those never replace a short one. A position is also looked
up through the position its cards that can go home have all gone home from (:func:`looked_up`).
"""

from typing import Final

from freecell._notation import Move
from freecell._rules import Position
from freecell._search import Solution, difficulty, home_all

KNOWN_MOST: Final = 20_000
"""The positions whose answer a session remembers before it forgets them all."""


def looked_up(
    table: dict[Position, tuple[Move, ...]], position: Position
) -> tuple[Move, ...] | None:
    """Return the moves a table of positions holds for ``position``, or None.

    Held for the position itself, or for the position every card that can go home has gone
    home from: that one is the same whichever of them went home first, and in any order (a
    move home never prevents another), so the moves home come first.

    >>> from freecell._deal import deal
    >>> start = Position.from_deal(deal(1))
    >>> looked_up({start: (Move.parse("5a"),)}, start)
    (Move.parse('5a'),)
    >>> print(looked_up({}, start))
    None
    """
    known = table.get(position)
    if known is None:
        home: list[Move] = []
        settled = home_all(position, home)
        after = table.get(settled) if home else None
        if after is not None:
            known = (*home, *after)
    return known


class Known:
    """The answers the searches found, and the grades of the positions they searched from.

    >>> from freecell._deal import deal
    >>> from freecell._search import solve
    >>> known, start = Known(), Position.from_deal(deal(1))
    >>> known.learn(start, solve(1))
    >>> known.verdict(start), known.grade(start), known.solution(start.apply(Move.parse("5a")))
    ('yes', 4, None)
    """

    def __init__(self) -> None:
        # A position, the result of a search and the moves that win from it.
        self._answers: dict[Position, tuple[str, tuple[Move, ...]]] = {}
        # The grade of each position searched from the start (not met on another's way).
        self._grades: dict[Position, int | None] = {}
        # The moves that win from each position on a short solution's way, and the positions
        # where a short search found nothing in its time.
        self._short: dict[Position, tuple[Move, ...]] = {}
        self.short_unknown: set[Position] = set()

    def learn(self, position: Position, solution: Solution) -> None:
        """Remember a search's answer and grade, and for a solution every position on its way."""
        if len(self._answers) > KNOWN_MOST:
            self._answers.clear()
            self._grades.clear()
        self._grades[position] = difficulty(solution)
        moves = solution.moves
        self._answers[position] = (solution.result, moves)
        for index, move in enumerate(moves):
            position = position.apply(move)
            self._answers[position] = ("solved", moves[index + 1 :])

    def learn_short(self, position: Position, solution: Solution) -> None:
        """Remember a short search's answer: a solution for every position on its way.

        A proof of impossibility is today's search's, remembered as its answers are.
        """
        if solution.result == "impossible":
            self.learn(position, solution)
            return
        if solution.result != "solved":
            self.short_unknown.add(position)
            return
        self.keep_short(position, solution.moves)

    def keep_short(self, position: Position, moves: tuple[Move, ...]) -> None:
        """Remember a short solution from ``position``: for every position on its way."""
        if len(self._short) > KNOWN_MOST:
            self._short.clear()
            self.short_unknown.clear()
        self._short[position] = moves
        for index, move in enumerate(moves):
            position = position.apply(move)
            self._short[position] = moves[index + 1 :]

    def short(self, position: Position) -> tuple[Move, ...] | None:
        """Return the short solution known from ``position``, or None."""
        return looked_up(self._short, position)

    def solution(self, position: Position) -> tuple[str, tuple[Move, ...]] | None:
        """Return the result and moves known from ``position``, a short solution first, or None."""
        short = self.short(position)
        return ("solved", short) if short is not None else self._answers.get(position)

    def verdict(self, position: Position) -> str | None:
        """Return whether ``position`` can be won, as ``yes``/``no``/``unknown``, or None."""
        if self.short(position) is not None:
            return "yes"
        known = self._answers.get(position)
        if known is None:
            return None
        return {"solved": "yes", "impossible": "no"}.get(known[0], "unknown")

    def graded(self, position: Position) -> bool:
        """Tell whether ``position`` was searched from, so that its grade is known."""
        return position in self._grades

    def grade(self, position: Position) -> int | None:
        """Return the grade of a position :meth:`graded` says was searched from."""
        return self._grades[position]
