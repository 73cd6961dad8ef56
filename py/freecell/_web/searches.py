"""The page's searches of the game, and the turns :meth:`Session.think` gives all searches.

Two searches follow the game: the search of one of its positions (:class:`GameSearch`: a
hint, the live guard, a grade), dropped once the game has moved on, and the short search
(:class:`ShortSearch`: Solve), dropped once the game leaves the moves it answered. With the
searches for deals (:class:`freecell._web.graded.GradedDeals`,
:class:`freecell._web.identify.LayoutDeals`), they share the worker's slices: :class:`Turns`
gives each running search a slice in turn. A third follows the deal: the search of its par
(:class:`ParSearch`), which thinks only in slices no other search wants. What they find goes
to :class:`freecell._web.known.Known`.
"""

from collections.abc import Sequence
from typing import Final, Protocol

from freecell._history import Game
from freecell._notation import Move, player_moves
from freecell._rules import Position
from freecell._search import ShortSolver, Solver
from freecell._web.known import KNOWN_MOST, Known, looked_up

SEARCH_SECONDS: Final = 60.0
"""How long the page's solver may work on one position before it says it found nothing."""
SHORT_SECONDS: Final = 30.0
"""How long the page's short search (Solve) may work on one position: then the shortest
solution found so far is the answer, or, with none, today's search's answer."""


class Search(Protocol):
    """A search that works in slices: whether it runs for the game, and one slice of it."""

    def running(self, game: Game | None) -> bool:
        """Tell whether the search runs (dropping it if ``game`` has left it)."""

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``: return ``"thinking"`` or ``"done"``."""


class GameSearch:
    """The search of a position of the game, for as long as the game stays where it began.

    It may search an earlier position of the game (the guard's search back) and ends when the
    game moves on.

    >>> known, game = Known(), Game.from_deal_number(617)
    >>> search = GameSearch(known)
    >>> search.start(game, game.position)
    >>> while search.running(game) and search.step(0.005) == "thinking":
    ...     pass
    >>> known.verdict(game.position), known.grade(game.position)
    ('yes', 4)
    """

    def __init__(self, known: Known) -> None:
        self._known = known
        self._solver: Solver | None = None
        self._at: Position | None = None  # the game's position when the search began

    def start(self, game: Game, position: Position) -> None:
        """Make the search the one of ``position`` of ``game`` (kept if it is already)."""
        if self._solver is None or self._solver.position != position:
            self._solver = Solver(position, max_seconds=SEARCH_SECONDS)
        self._at = game.position

    def running(self, game: Game | None) -> bool:
        """Tell whether the search runs; it is dropped if the game has moved on since it began."""
        if game is None or self._at != game.position:
            self._solver = None
        return self._solver is not None

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``; at the end its answer is known: ``"done"``."""
        solver = self._solver
        assert solver is not None, "step() while no search runs"
        solution = solver.step(max_seconds)
        if solution is None:
            return "thinking"
        self._solver = None
        self._known.learn(solver.position, solution)
        return "done"


class ShortSearch:
    """The search for a short solution (Solve), for as long as the game follows its moves.

    While it shortens a solution, the first moves it no longer changes
    (:attr:`freecell.ShortSolver.final`) are its way: each position along them, with the moves
    from there (:meth:`partial`).

    >>> known, game = Known(), Game.from_deal_number(1)
    >>> short = ShortSearch(known)
    >>> print(short.start(game.position))
    None
    >>> short.partial(game.position), short.running(game)
    ((), True)
    >>> short.drop(); short.running(game)
    False
    """

    def __init__(self, known: Known) -> None:
        self._known = known
        self._solver: ShortSolver | None = None
        self._at: Position | None = None  # the game's position it last followed
        # The search's way: each position along the moves it no longer changes, with those
        # moves from there; and their number.
        self._way: dict[Position, tuple[Move, ...]] = {}
        self._way_moves = -1
        self._final_said = 0  # the final moves step() has said "done" for

    def start(self, position: Position) -> tuple[Move, ...] | None:
        """Search from the game's ``position``, unless the search's way goes through it.

        Returns the moves the running search keeps from there (:meth:`partial`), or None: a
        new search began.
        """
        partial = self.partial(position)
        if partial is None:
            self.drop()
            self._solver = ShortSolver(position, max_seconds=SHORT_SECONDS)
            self._final_said = 0
        self._at = position
        return partial

    def drop(self) -> None:
        """End the search; remember the solution it was shortening, if any, as it is.

        Its first moves (:attr:`freecell.ShortSolver.final`) are those of the search's answer
        had it gone on; the rest is shorter than today's search's, if not yet as short as the
        search would have made it.
        """
        solver = self._solver
        if solver is not None and solver.final:
            self._known.keep_short(solver.position, solver.best)
        self._solver = None
        self._way, self._way_moves = {}, -1

    def partial(self, position: Position) -> tuple[Move, ...] | None:
        """Return the moves the running search keeps from ``position``, or None.

        None when no short search runs or ``position`` is not on its way; the moves may be
        none (the search has not settled any from there yet).
        """
        solver = self._solver
        if solver is None:
            return None
        final = solver.final
        if len(final) != self._way_moves:  # it grew: the way again
            position_on = solver.position
            self._way = {position_on: final}
            for index, move in enumerate(final):
                position_on = position_on.apply(move)
                self._way[position_on] = final[index + 1 :]
            self._way_moves = len(final)
        return looked_up(self._way, position)

    def running(self, game: Game | None) -> bool:
        """Tell whether the search runs; it is dropped if the game has left its way."""
        if game is None:
            self.drop()
        elif self._at != game.position:
            on_its_way = self.partial(game.position) is not None
            self._at = game.position
            if not on_its_way:
                self.drop()
        return self._solver is not None

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``; ``"done"`` at the end, or with more moves final."""
        solver = self._solver
        assert solver is not None, "step() while no search runs"
        solution = solver.step(max_seconds)
        if solution is None:
            # More moves final: "done" for the requests waiting (a solve answers them), though
            # the search goes on.
            final = len(solver.final)
            if final == self._final_said:
                return "thinking"
            self._final_said = final
            return "done"
        self._solver = None
        self._way, self._way_moves = {}, -1
        self._known.learn_short(solver.position, solution)
        return "done"


class ParSearch:
    """The search of a deal's par, for as long as the game is of that deal.

    A deal's par is the player moves (:func:`~freecell._notation.player_moves`) of
    ``freecell.solve(number, short=True)``: the same search from the deal's start, with the
    same budget, run in slices. ``None`` for a deal that cannot be won (or that the search
    does not solve). The pars found are remembered by deal, and the solution goes to
    :class:`~freecell._web.known.Known` as a short search's does, so that Solve and hints from
    the deal's start answer at once.

    >>> known, game = Known(), Game.from_deal_number(46)
    >>> par = ParSearch(known)
    >>> par.known(46), par.start(game), par.running(game)
    (False, None, True)
    >>> while par.step(0.05) == "thinking":
    ...     pass
    >>> par.known(46), par.par(46), par.running(game)  # freecell.solve(46, short=True)'s 16
    (True, 16, False)
    """

    def __init__(self, known: Known) -> None:
        self._known = known
        self._pars: dict[int, int | None] = {}
        self._solver: ShortSolver | None = None
        self._deal: int | None = None  # the deal the running search is of

    def known(self, number: int) -> bool:
        """Tell whether deal ``number``'s par is known (found, or none: :meth:`par`)."""
        return number in self._pars

    def par(self, number: int) -> int | None:
        """Return the par :meth:`known` says is known: None for a deal with none."""
        return self._pars[number]

    def start(self, game: Game) -> None:
        """Search the par of the game's deal, unless that search runs already."""
        number = game.deal_number
        if number is None or number in self._pars or self._deal == number:
            return
        self._solver = ShortSolver(game.start)
        self._deal = number

    def running(self, game: Game | None) -> bool:
        """Tell whether the search runs; it is dropped once the game is of another deal."""
        if game is None or game.deal_number != self._deal:
            self._solver, self._deal = None, None
        return self._solver is not None

    def step(self, max_seconds: float) -> str:
        """Search for about ``max_seconds``; ``"done"`` once the par is known."""
        solver, number = self._solver, self._deal
        assert solver is not None, "step() while no search runs"
        assert number is not None, "a search runs for a deal"
        solution = solver.step(max_seconds)
        if solution is None:
            return "thinking"
        self._solver, self._deal = None, None
        if len(self._pars) > KNOWN_MOST:
            self._pars.clear()
        solved = solution.result == "solved"
        self._pars[number] = player_moves(solution.moves) if solved else None
        self._known.learn_short(solver.position, solution)
        return "done"


class Turns:
    """The searches of a session, each given a slice in turn while several run.

    A ``background`` search (the par's) is given a slice only while no other search runs, so
    that it never slows a hint, the guard or Solve.

    >>> known = Known()
    >>> Turns([GameSearch(known), ShortSearch(known)], [ParSearch(known)]).think(None, 0.005)
    'idle'
    """

    def __init__(self, searches: Sequence[Search], background: Sequence[Search] = ()) -> None:
        self._searches = searches
        self._background = background
        self._turn = 0  # whose slice think() gives next when several run

    def think(self, game: Game | None, max_seconds: float) -> str:
        """Give the next running search a slice of about ``max_seconds``.

        Returns the search's ``"thinking"`` or ``"done"``, or ``"idle"``: none runs.
        """
        running = [search for search in self._searches if search.running(game)]
        if not running:
            running = [search for search in self._background if search.running(game)]
        if not running:
            return "idle"
        search = running[self._turn % len(running)]
        self._turn += 1
        return search.step(max_seconds)
