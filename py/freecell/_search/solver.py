"""A FreeCell solver: best-first searches over canonical positions, run as a portfolio.

The search works on its own compact state, a ``bytes`` key: the four foundation counts, the free
cells' cards sorted, then the eight cascades sorted and joined by a separator. Sorting makes the
key canonical: positions that differ only in the order of their cascades or of their free cells
share a key and are searched once. Safe moves to the foundations (:meth:`Position.is_safe_home`)
are applied as soon as they appear; they never lose a game, so a search that applies them
remains complete.

Three scans run as a portfolio, in turns counted in expansions, never in time:

* two best-first scans over *meta moves*: a run of cards moves as one move when it fits the
  free cells and empty cascades, as the rules of :class:`~freecell.Position` allow; they differ
  in their estimates, and the first one runs alone for a while, since it solves most deals;
* one best-first scan over *atomic moves*, single cards only. A supermove is only a sequence of
  single-card moves, so this scan reaches every reachable position: when it has expanded all of
  them without meeting a win, the position is proved impossible.

The first scan to win wins. Its moves, recorded as cards ("the run headed by 7H onto 8S"), are
trimmed (moves whose removal still wins go; a path of atomic moves first jumps ahead by meta
moves) and translated on a real :class:`~freecell.Position` into standard notation, every move
to the foundations written out, automatic ones included; that replay checks each move with the
rules.

The search itself, on compact states, is :mod:`freecell._search.scan`; this module runs its scans
as a portfolio in budgets and slices (:class:`Solver`; :func:`freecell.solve` runs one) and
translates the winner.

Measured on the 2-core development machine with CPython 3.11 (``bench/bench_solver.py``, two
processes, two runs): deals 1..32000 take a median of 7 to 11 ms of CPU (fc-solve ``-l lg``:
0.13 to 0.22 ms in its own process) and 0.16 to 0.25 s at the 99th percentile; every one is
solved but 11982, proved impossible in 2 to 5 s; solutions have a median of 91 moves (fc-solve
``-l lg``: 117).

>>> solution = Solver(617).run()
>>> solution.result, len(solution.moves) > 52
('solved', True)
>>> game = Game.from_deal_number(617)
>>> for move in solution.moves:
...     _ = game.push(move)
>>> game.is_won()
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final, Literal

from freecell._deal import Deal, deal
from freecell._history import Game
from freecell._notation import CASCADES, FOUNDATION, FREECELLS, Move, player_moves
from freecell._rules import Position
from freecell._search.scan import (
    _CACHE_LIMIT,
    _CELL,
    _EMPTY,
    _HOME,
    _PLANS,
    _SORTED,
    _pack,
    _Scan,
    _settle,
    _shortcut,
    _trim,
    _unpack,
    canonical_key,
)

SolveResult = Literal["solved", "impossible", "unknown"]
"""What a search found: a solution, a proof that none exists, or nothing within its budget."""

DEFAULT_MAX_STATES: Final = 600_000
"""The default budget: positions stored over all scans.

A stored position costs 140 to 240 bytes (its key, its parent link, a heap entry): spending
the whole budget grew a process by 81 to 142 MB in the runs measured. The hardest of deals
1..32000 stores 206,167.
"""

MAX_STATES_CEILING: Final = 10_000_000
"""The largest budget the command line takes (``--max-states``): at 140 to 240 bytes a
position, up to 2.4 GB and a few minutes a deal, per process. Larger asks are refused."""

# --- translating a solution ----------------------------------------------------------------


def _auto_moves(position: Position, count: int, moves: list[Move]) -> Position:
    """Make ``count`` safe automatic moves, appending them to ``moves``; return the position.

    The path's keys say how many there are, which spares the call that would find none (a
    quarter of the translation's time).
    """
    for _ in range(count):
        move = position.next_auto_move()
        if move is None:
            msg = "internal error: an automatic move is missing"
            raise RuntimeError(msg)
        moves.append(move)
        position = position.apply(move)
    return position


def _placed(position: Position, card_move: int) -> Move:
    """Return a search's move (a card and where it goes) as a move on ``position``.

    Free cells and empty cascades are taken leftmost first; a run to an empty cascade moves
    whole.
    """
    card, target = card_move & 63, card_move >> 6
    source = position.find(card)
    if target == _HOME:
        return Move(source, FOUNDATION)
    if target == _CELL:
        return Move(source, FREECELLS[position.freecells.index(None)])
    if target == _EMPTY:
        k = next(k for k, cascade in enumerate(position.cascades) if not cascade)
        count = 1
        if source in CASCADES:
            cascade = position.cascades[CASCADES.index(source)]
            count = len(cascade) - cascade.index(card)
        return Move(source, CASCADES[k], count if count > 1 else None)
    k = next(k for k, cascade in enumerate(position.cascades) if cascade[-1:] == (target,))
    return Move(source, CASCADES[k])


def _translate(start: Position, path: list[bytes], card_moves: list[int]) -> tuple[Move, ...]:
    """Return the moves in standard notation, automatic ones written out, checked by replay.

    Each move given as cards is placed on the real position: free cells and empty cascades are
    taken leftmost first. :meth:`Position.apply` checks every move with the rules; it costs
    about 16 us a move, two thirds of the translation (3 ms for a typical solution).
    """
    moves: list[Move] = []
    homes = [sum(key[:4]) for key in path]
    position = _auto_moves(start, homes[0] - sum(start.foundations), moves)
    for i, card_move in enumerate(card_moves):
        move = _placed(position, card_move)
        moves.append(move)
        auto = homes[i + 1] - homes[i] - (move.target == FOUNDATION)
        position = _auto_moves(position.apply(move), auto, moves)
    if not position.is_won():
        msg = "internal error: a solution does not win"
        raise RuntimeError(msg)
    return tuple(moves)


# --- the public API ---------------------------------------------------------------------------


class SolverError(ValueError):
    """Raised for a budget that is no budget, or free cells that a game cannot have.

    A budget below 1 state or 0 seconds; a number of free cells outside 0 to 4, or fewer than
    the position's cards in its free cells.
    """


@dataclass(frozen=True, slots=True)
class Solution:
    """What a search found, how many positions it stored and how long it ran.

    ``moves`` wins from the searched position when played through :meth:`Game.push` with no
    automatic moves: every move to the foundations is written out. It is empty unless
    ``result`` is ``"solved"``. ``str`` gives the moves, or the result.

    >>> solution = Solver(Position.from_deal(deal(1)), max_states=5).run()
    >>> solution.result, solution.moves, solution.states
    ('unknown', (), 5)
    >>> str(solution)
    'unknown'
    """

    result: SolveResult
    moves: tuple[Move, ...] = ()
    states: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        return " ".join(map(str, self.moves)) if self.result == "solved" else self.result

    @property
    def player_moves(self) -> int:
        """The moves a player makes: those not to the foundations (a run moved as one is one).

        >>> solution = Solver(617).run()
        >>> solution.player_moves < len(solution.moves)
        True
        """
        return player_moves(self.moves)


Start = int | Deal | Game | Position
"""What a search can start from: a deal number, a deal, a game (its position now), a position."""

_HEAD: Final = 500  # the first scan runs alone for this many expansions: most deals end there
_SLICES: Final = (100, 100, 400)  # then the scans take turns, this many expansions each
# The atomic scan's larger turns: 11982 is proved impossible in 117,000 states instead of 156,000.
_CHUNK: Final = 32  # expansions between looks at the clock


def _start_position(start: Start) -> Position:
    if isinstance(start, Position):
        return start
    if isinstance(start, Game):
        return start.position
    if isinstance(start, Deal):
        return Position.from_deal(start)
    if isinstance(start, int) and not isinstance(start, bool):
        return Position.from_deal(deal(start))
    msg = f"a search starts from a deal number, a Deal, a Game or a Position, not {start!r}"
    raise TypeError(msg)


class Solver:
    """A search that can run in slices: :meth:`step` works a while and returns, until done.

    The budget is ``max_states`` positions stored over all scans (deterministic: the same
    position and budget give the same answer and the same moves) and, optionally,
    ``max_seconds`` of work over all calls; the clock only decides when to stop. Raises
    :class:`SolverError` for a budget below 1 state or 0 seconds, and
    :class:`~freecell.DealNumberError` for a deal number that names no deal.

    ``cells`` plays a harder game with fewer free cells, 0 to 4: at most that many cards in
    the free cells at once, and runs moved as that many cells allow. Its solution is a
    solution of the ordinary game too; "impossible" means impossible with that many cells
    (deal 3 needs 2). A position with more cards in its free cells than ``cells`` raises
    :class:`SolverError`.

    >>> [Solver(3, cells=cells).run().result for cells in (1, 2)]
    ['impossible', 'solved']

    A :class:`Game` is searched from its position when the solver is made.

    >>> solver = Solver(Game.from_deal_number(617))
    >>> while (solution := solver.step(max_seconds=0.005)) is None:
    ...     pass  # a page would answer its other requests here
    >>> solution.result, solution == solver.solution
    ('solved', True)
    """

    def __init__(
        self,
        start: Start,
        *,
        max_states: int = DEFAULT_MAX_STATES,
        max_seconds: float | None = None,
        cells: int = len(FREECELLS),
    ) -> None:
        if max_states < 1:
            msg = f"max_states must be at least 1, not {max_states}"
            raise SolverError(msg)
        if max_seconds is not None and not max_seconds >= 0:
            msg = f"max_seconds must be at least 0, not {max_seconds}"
            raise SolverError(msg)
        if type(cells) is not int or cells not in range(len(FREECELLS) + 1):
            msg = f"cells must be a number of free cells from 0 to {len(FREECELLS)}, not {cells!r}"
            raise SolverError(msg)
        self._position = _start_position(start)
        held = sum(card is not None for card in self._position.freecells)
        if held > cells:
            msg = f"the position holds {held} cards in its free cells: more than cells={cells}"
            raise SolverError(msg)
        self._cells = cells
        self._max_states = max_states
        self._max_seconds = max_seconds
        self._seconds = 0.0
        self._solution: Solution | None = None
        if len(_SORTED) > _CACHE_LIMIT:  # shared by every search of the process
            _SORTED.clear()
        found, held_cards, cascades = _unpack(canonical_key(self._position))
        found, held_cards = _settle(found, held_cards, cascades)
        start_key = _pack(found, held_cards, cascades)
        self._scans = [_Scan(plan, start_key, cells) for plan in _PLANS]
        self._active = [True] * len(self._scans)
        self._turn = 0  # the scan whose turn it is
        self._left = _HEAD  # expansions left in its turn

    @property
    def position(self) -> Position:
        """The position the search started from."""
        return self._position

    @property
    def cells(self) -> int:
        """The number of free cells of the game searched (4 unless asked for fewer)."""
        return self._cells

    @property
    def solution(self) -> Solution | None:
        """The answer once the search has ended, else ``None``."""
        return self._solution

    @property
    def states(self) -> int:
        """How many positions the scans have stored so far (the start counts once)."""
        return 1 + sum(len(scan.seen) - 1 for scan in self._scans)

    @property
    def seconds(self) -> float:
        """How long the search has worked so far, over all calls."""
        return self._seconds

    def run(self, max_seconds: float | None = None) -> Solution:
        """Search until the answer, the budget's end, or ``max_seconds`` more (then unknown).

        >>> Solver(Position.from_deal(deal(-1))).run().result  # Windows' impossible deal -1
        'impossible'
        """
        if max_seconds is not None:
            self._max_seconds = self._seconds + max_seconds
        while (solution := self.step(None)) is None:
            pass  # step(None) returns only at the end; this loop just says so to the types
        return solution

    def step(self, max_seconds: float | None = 0.005) -> Solution | None:
        """Work for about ``max_seconds`` (``None``: until the end); return the answer or None.

        The work goes in chunks of 32 expansions (about 1 ms in CPython), and the call returns
        after the first chunk that ends past ``max_seconds``; the chunk that finds a solution
        also trims and checks it (a few ms more). Once the search has ended every call returns
        the same :class:`Solution`.
        """
        if self._solution is not None:
            return self._solution
        began = time.perf_counter()
        deadline = None
        if self._max_seconds is not None:
            deadline = began + self._max_seconds - self._seconds
        stop = deadline if max_seconds is None else began + max_seconds
        try:
            while self._solution is None:
                self._work(_CHUNK)
                now = time.perf_counter()
                if self._solution is None and deadline is not None and now >= deadline:
                    self._finish("unknown")
                elif self._solution is None and stop is not None and now >= stop:
                    break
        finally:
            self._seconds += time.perf_counter() - began
        if self._solution is not None:
            self._solution = Solution(
                self._solution.result, self._solution.moves, self.states, self._seconds
            )
        return self._solution

    def _work(self, chunk: int) -> None:
        """Run the scan whose turn it is for up to ``chunk`` expansions, then pass turns on."""
        scans = self._scans
        scan = scans[self._turn]
        count = min(chunk, self._left)
        room = self._max_states - self.states
        ended = scan.run(count, room)
        self._left -= count
        if scan.goal is not None:
            self._win(scan)
            return
        if ended:
            self._active[self._turn] = False
            if scan.exhausted and scan.plan.atomic:
                self._finish("impossible")
                return
            if self.states >= self._max_states or not any(self._active):
                self._finish("unknown")
                return
        if ended or self._left <= 0:
            self._turn = next(
                k % len(scans)
                for k in range(self._turn + 1, self._turn + 1 + len(scans))
                if self._active[k % len(scans)]
            )
            self._left = _SLICES[self._turn]

    def _finish(self, result: SolveResult, moves: tuple[Move, ...] = ()) -> None:
        self._solution = Solution(result, moves)

    def _win(self, scan: _Scan) -> None:
        path, moves = scan.path()
        if scan.plan.atomic:
            path, moves = _shortcut(path, moves, self._cells)
        path, moves = _trim(path, moves, self._cells)
        self._finish("solved", _translate(self._position, path, moves))
