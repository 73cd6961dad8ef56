"""Short solutions: a beam search over player moves, cards sent home as soon as they can go.

A *player move* is a move whose target is not a foundation; a run moved as one (a supermove)
counts one. Moves home cost nothing: after each player move every card that can go home goes
(not only the safe ones), and a position is won once every cascade is one run, since the
foundations then take every card with no player move.

The search goes one level per player move (macroxue/freecell's beam search). Each level keeps
the ``width`` positions of least rank: the cards above the bottom run of their cascade plus the
occupied free cells. A set of the positions kept so far (the solver's canonical keys) stops
repeats. A beam that dies out is run again twice as wide. A solution found is shortened by
running a beam again from positions along it, bounded by the length of the rest.

:class:`ShortSolver` runs today's :class:`~freecell.Solver` first and then beside the beam:
its proof of impossibility is the answer, its solution the bound to beat and the answer when
the beam finds nothing shorter. Its cost and lengths, against macroxue's stored solutions, are
in docs/performance.md (``bench.bench_short``); the design in docs/solver.md.

The module is one unit, about 650 lines: the beam's moves (:func:`_children`, written
inline for speed as the solver's scan is), the beam, and the one class that runs it beside
today's search share the solver's private key format and nothing else.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import Final

from freecell._history import Game  # noqa: F401 - the doctests play
from freecell._notation import CASCADES, FOUNDATION, FREECELLS, Move, player_moves
from freecell._rules import Position
from freecell._search.scan import (
    _CELL,
    _EMPTY,
    _END_BYTES,
    _ONE,
    _PARENTS,
    _SEP_BYTES,
    _SORTED,
    _Cache,
    _pack,
    _run_length,
    _unpack,
    canonical_key,
)
from freecell._search.solver import (
    DEFAULT_MAX_STATES,
    Solution,
    Solver,
    Start,
    _placed,
)


def _buried(cascade: bytes) -> int:
    """Return how many cards of a cascade sit above its bottom run (out of sequence)."""
    return len(cascade) - _run_length(cascade)


def _settle_all(found: bytes, cells: bytes, cascades: list[bytes]) -> tuple[bytes, bytes]:
    """Send home every card that can go, until none can; ``cascades`` changes in place.

    Suit by suit, the next card of the suit is looked up among the cascades' bottom cards and
    the free cells (the state at the end is the same whatever order the cards go in).
    """
    f = bytearray(found)
    bottoms = {cascade[-1]: i for i, cascade in enumerate(cascades) if cascade}
    suit = idle = 0
    while idle < 4:
        want = f[suit] << 2 | suit
        i = bottoms.get(want)
        if i is not None:
            rest = cascades[i] = cascades[i][:-1]
            if rest:
                bottoms[rest[-1]] = i
        elif want in cells:
            cells = cells.replace(_ONE[want], b"")
        else:
            suit = (suit + 1) & 3
            idle += 1
            continue
        f[suit] += 1
        idle = 0
    return bytes(f), cells


_Step = tuple[int, int, tuple[int, ...], int, int, bool, bytes, bytes]
"""A part of a cascade's bottom run that may move: where it starts (m), its top card, the cards
that card fits on, the suit and rank of the card it leaves at the bottom (-1: none), whether
it is the whole run, and the cascade without it and it (the cards from m)."""
_Shape = tuple[int, int, int, tuple[_Step, ...], bytes, int, int]


def _shape(cascade: bytes) -> _Shape:
    """Return a cascade's bottom run, its buried cards, and those once the run has left.

    And the parts of the run that may move, the last card first; the cascade without its last
    card, and the suit and rank of the card that leaves at its bottom (-1: none).
    """
    n = len(cascade)
    run = _run_length(cascade)
    steps = []
    for k in range(1, run + 1):
        m = n - k
        below = cascade[m - 1] if m else -1
        suit, rank = (below & 3, below >> 2) if m else (0, -1)
        steps.append(
            (m, cascade[m], _PARENTS[cascade[m]], suit, rank, k == run, cascade[:m], cascade[m:])
        )
    up_suit, up_rank = (steps[0][3], steps[0][4]) if steps else (0, -1)
    return run, n - run, _buried(cascade[: n - run]), tuple(steps), cascade[:-1], up_suit, up_rank


def _settled(  # noqa: PLR0917 - the parent's state, passed for speed
    add: Callable[[_Child], None],
    found: bytes,
    cl: bytes,
    nc: list[bytes],
    i: int,
    move: int,
    moved: int,
    bottoms: list[int],
    rest_buried: int,
    shapes: _Cache[_Shape],
    limit: int,
) -> None:
    """Add the child of a move that uncovers a card that goes home, if won or of rank <= limit.

    Cascade i's new bottom card goes home, and the cards under it while they can; then only
    the next card of a suit that went home can go, wherever it is: the card moved (``moved``,
    cascade i's old bottom card), a free cell's or another cascade's bottom card (the card the
    move went onto is covered). Then the rest goes as :func:`_settle_all` sends it. Only
    cascade i's buried cards change until then (a run moved onto a card leaves those of the
    cascade it goes to as they were): ``rest_buried`` counts the others'.
    """
    home = bytearray(found)
    rest = nc[i]
    k = len(rest)
    while k and home[rest[k - 1] & 3] == rest[k - 1] >> 2:
        home[rest[k - 1] & 3] += 1
        k -= 1
    rest = nc[i] = rest[:k]
    f = bytes(home)
    onto = move >> 6
    for s in range(4):
        if f[s] != found[s]:
            w = f[s] << 2 | s
            if w in cl or w == moved or (bottoms[w] != i and bottoms[w] < 8 and w != onto):
                f, cl = _settle_all(f, cl, nc)
                b = sum([shapes[c][1] for c in nc])
                break
    else:
        b = rest_buried + shapes[rest][1]
    if not b or b + len(cl) <= limit:
        nc.sort()
        add((f + cl + _END_BYTES + _SEP_BYTES.join(nc), move, b, b + len(cl)))


_NOWHERE: Final = [8] * 56
"""For each card (and past each suit's king), no cascade: 8."""
_Child = tuple[bytes, int, int, int]
"""A child: its key, the move (card | target << 6), its buried cards and its rank."""


def _children(  # noqa: C901, PLR0912, PLR0915 - one loop per kind of move, kept inline for speed
    key: bytes, total: int, shapes: _Cache[_Shape], capacity: int, limit: int
) -> list[_Child]:
    """Return the positions one player move away, every card that can go home sent home.

    ``total`` is the key's buried cards. Leaves out the children of rank over ``limit`` that
    are not won, before making their keys (most of a child's cost): the beam would not keep
    them. (A child that sends cards home is ranked once they have gone.)

    A run that goes onto a card it fits leaves that cascade's buried cards as they were, and
    moving part of a bottom run leaves its cascade's; so a child's buried cards are known from
    its parent's and, when a whole bottom run leaves, the cards its cascade buries without it
    (``shapes``).
    """
    end = key.index(0xFF, 4)
    found = key[:4]
    cells = key[4:end]
    cascades = key[end + 1 :].split(_SEP_BYTES)
    prefix = key[: end + 1]
    n_cells = end - 4
    free = capacity - n_cells
    empty = 0
    while empty < 8 and not cascades[empty]:
        empty += 1
    bottoms = _NOWHERE.copy()  # the cascade each bottom card is at the bottom of
    for i in range(empty, 8):
        bottoms[cascades[i][-1]] = i
    # The cascades of a key are in order of their first cards, empty ones first: a child's
    # are sorted again only when a cascade empties or an empty one fills.
    out: list[_Child] = []
    add = out.append
    join = _SEP_BYTES.join
    parents = _PARENTS

    # Free cells to cascades (a card in a free cell never fits home: it would be there); the
    # buried cards stay as they are.
    if cells and (not total or total <= limit - n_cells + 1):
        for c in cells:
            rest = b""
            for p in parents[c]:
                j = bottoms[p]
                if j < 8:
                    rest = rest or found + cells.replace(_ONE[c], b"") + _END_BYTES
                    nc = cascades.copy()
                    nc[j] += _ONE[c]
                    add((rest + join(nc), c | p << 6, total, total + n_cells - 1))
            if empty:
                rest = rest or found + cells.replace(_ONE[c], b"") + _END_BYTES
                nc = cascades.copy()
                nc[0] = _ONE[c]
                nc.sort()
                add((rest + join(nc), c | _EMPTY << 6, total, total + n_cells - 1))
    most = (free + 1) << empty
    most_to_empty = (free + 1) << (empty - 1) if empty else 0
    over = limit - n_cells  # the buried cards over which a cascade's child is left out
    part = not total or total <= over  # the children that move a part of a bottom run
    for i in range(empty, 8):
        cascade = cascades[i]
        n = len(cascade)
        run, buried, left, steps, up, up_suit, up_rank = shapes[cascade]
        whole = total - buried + left  # the buried cards once the whole bottom run has left
        low = n - most  # the first card of the largest run that may move
        for m, c, fits, suit, rank, all_of_it, head, tail in steps:
            if m < low:
                break
            home = found[suit] == rank
            if all_of_it:
                b = whole
                if not home and whole and whole > over:
                    continue
            else:
                b = total
                if not home and not part:
                    continue
            for p in fits:
                j = bottoms[p]
                if j < 8:
                    nc = cascades.copy()
                    nc[i] = head
                    nc[j] += tail
                    if home:
                        _settled(
                            add, found, cells, nc, i, c | p << 6, cascade[-1], bottoms,
                            total - buried, shapes, limit,
                        )  # fmt: skip
                        continue
                    if not m:
                        nc.sort()
                    add((prefix + join(nc), c | p << 6, b, b + n_cells))
        if empty and n > 1 and not (run == n and run <= most_to_empty):
            # Onto an empty cascade: the largest run that may go, never the whole cascade.
            k = run if run < most_to_empty else most_to_empty  # noqa: FURB136
            if k >= n:
                k = n - 1
            _, c, _, suit, rank, _, head, tail = steps[k - 1]
            home = found[suit] == rank
            b = whole if k == run else total
            if home or not b or b <= over:
                nc = cascades.copy()
                nc[i] = head
                nc[0] = tail
                if home:
                    _settled(
                        add, found, cells, nc, i, c | _EMPTY << 6, cascade[-1], bottoms,
                        total - buried, shapes, limit,
                    )  # fmt: skip
                else:
                    nc.sort()
                    add((prefix + join(nc), c | _EMPTY << 6, b, b + n_cells))
        if free:
            b = whole if run == 1 else total
            home = found[up_suit] == up_rank
            if not home and b and b >= over:
                continue
            c = cascade[-1]
            nc = cascades.copy()
            nc[i] = up
            cl = _SORTED[cells + _ONE[c]]
            if home:
                _settled(
                    add, found, cl, nc, i, c | _CELL << 6, cascade[-1], bottoms, total - buried,
                    shapes, limit,
                )  # fmt: skip
                continue
            if n == 1:
                nc.sort()
            add((found + cl + _END_BYTES + join(nc), c | _CELL << 6, b, b + n_cells + 1))
    return out


class _Budget:
    """What the beams may hold (positions at once, against ``room``) and the length to beat."""

    __slots__ = ("bound", "cut", "peak", "room", "shortening", "spent")

    def __init__(self, room: int, bound: int) -> None:
        self.room = room
        self.bound = bound
        self.peak = 0
        self.spent = False
        # The solution being shortened and the player moves of it no shortening changes.
        self.shortening: list[int] | None = None
        self.cut = 0


_RANKS: Final = 64
"""More than the highest rank: 52 cards above their run and 4 free cells at the most."""
_ORDER_BITS: Final = 40
"""A child's order in its level is its rank << _ORDER_BITS | (width - its parent's index)."""


def _beam(  # noqa: C901 - one loop, its exits inline
    start: bytes, width: int, bound: int, capacity: int, budget: _Budget
) -> Generator[None, None, list[int] | None]:
    """Search one beam from ``start`` for a win in fewer than ``bound`` player moves.

    Yields every 64 positions expanded, so that a caller can stop between; returns the moves,
    or ``None`` when the beam dies out, reaches the bound or outgrows the budget
    (``budget.spent``). Among positions of equal rank, children of later positions of the
    level are kept first, as macroxue's buckets keep the last one met.
    """
    shapes: _Cache[_Shape] = _Cache(_shape)
    total = sum(shapes[c][1] for c in _unpack(start)[2])
    if total == 0:
        return []
    seen = {start}
    level = [(start, total)]
    links: list[dict[bytes, tuple[bytes, int]]] = []
    depth = 0
    while level and depth + 1 < bound:
        depth += 1
        # Each child met: its order (by rank, then children of later positions first), and
        # its parent and move.
        order: dict[bytes, int] = {}
        via: dict[bytes, tuple[bytes, int, int]] = {}
        goal = None
        # The children of rank over ``limit`` cannot be kept: ``kept`` >= ``width`` of those
        # met have a rank of at most ``limit`` (``counts`` by rank), and it only goes down.
        counts = [0] * _RANKS
        limit = _RANKS - 1 if depth + 1 < bound else -1  # the last level: only a win counts
        kept = 0
        for n, (key, total) in enumerate(level):
            for child, move, b, rank in _children(key, total, shapes, capacity, limit):
                if (rank > limit and b) or child in seen or child in order:
                    continue
                order[child] = rank << _ORDER_BITS | (width - n)
                via[child] = (key, move, b)
                if b == 0:
                    goal = child
                    break
                counts[rank] += 1
                kept += 1
                while kept - counts[limit] >= width:
                    kept -= counts[limit]
                    limit -= 1
            if goal is not None:
                break
            if n & 63 == 63:
                yield
        held = len(seen) + len(order)
        budget.peak = max(budget.peak, held)
        if held > budget.room:
            budget.spent = True
            return None
        if goal is not None:
            links.append({goal: via[goal][:2]})
            return _path(goal, links)
        ranked = sorted(order, key=order.__getitem__)[:width]
        links.append({child: via[child][:2] for child in ranked})
        level = [(child, via[child][2]) for child in ranked]
        seen.update(ranked)
        yield
    return None


def _path(goal: bytes, links: list[dict[bytes, tuple[bytes, int]]]) -> list[int]:
    """Return the moves to ``goal``: ``links[i]`` maps each state of level i+1 to its parent."""
    moves = []
    key = goal
    for link in reversed(links):
        key, move = link[key]
        moves.append(move)
    moves.reverse()
    return moves


def _apply(key: bytes, move: int) -> bytes:
    """Return the state after a player move given as cards (a move the search made)."""
    found, cells, cascades = _unpack(key)
    card, target = move & 63, move >> 6
    if card in cells:
        cells = cells.replace(_ONE[card], b"")
        cards = _ONE[card]
    else:
        i = next(i for i, c in enumerate(cascades) if card in c)
        cascade = cascades[i]
        cards = cascade[cascade.index(card) :]
        cascades[i] = cascade[: -len(cards)]
    if target == _CELL:
        cells = _SORTED[cells + cards]
    elif target == _EMPTY:
        cascades[cascades.index(b"")] = cards
    else:
        j = next(i for i, c in enumerate(cascades) if c and c[-1] == target)
        cascades[j] += cards
    found, cells = _settle_all(found, cells, cascades)
    return _pack(found, cells, cascades)


def _start_key(position: Position) -> bytes:
    """Return the beam's state of a position: its canonical key, every card home that can go."""
    found, cells, cascades = _unpack(canonical_key(position))
    found, cells = _settle_all(found, cells, cascades)
    return _pack(found, cells, cascades)


def home_all(position: Position, moves: list[Move]) -> Position:
    """Send home every card that can go, writing the moves out."""
    while True:
        for place in (*FREECELLS, *CASCADES):
            move = Move(place, FOUNDATION)
            if position.card_at(place) is not None and position.is_legal(move):
                moves.append(move)
                position = position.apply(move)
                break
        else:
            return position


def _translate(start: Position, card_moves: list[int]) -> tuple[Move, ...]:
    """Return the moves in standard notation, every move home written out, checked by replay.

    Free cells and empty cascades are taken leftmost first; :meth:`Position.apply` checks
    each move with the rules.
    """
    moves: list[Move] = []
    position = home_all(start, moves)
    for card_move in card_moves:
        move = _placed(position, card_move)
        moves.append(move)
        position = home_all(position.apply(move), moves)
    if not position.is_won():
        msg = "internal error: a short solution does not win"
        raise RuntimeError(msg)
    return tuple(moves)


FIRST_WIDTH: Final = 1024
"""The first beam's width: positions kept a level. Each beam that fails is tried again twice
as wide: up to ``BOUNDED_WIDTHS`` beams when today's search has a solution to beat, and until
the budget runs out when it has none."""
BOUNDED_WIDTHS: Final = 3
PREFIX_WIDTH: Final = 1024
"""The width of the beams run again from positions along the best solution."""
PREFIX_STEP: Final = 5
"""The player moves between the positions the beam runs again from."""
NO_BOUND: Final = 1000
"""The bound on player moves when there is no solution to beat (no solution is that long)."""
FIRST_STATES: Final = 150_000
"""Today's search runs alone up to this many positions (it settles all of 1..32000 there but
the hardest few, and proves deal 11982 impossible in 119,602); then it and the beam take turns
until one of them has an answer."""
_FAST_TURN: Final = 0.002
"""Today's search's turn, in seconds (a turn of the beam is 64 positions expanded: about 5 ms)."""


def _search(
    position: Position, capacity: int, budget: _Budget
) -> Generator[list[int] | None, None, None]:
    """Search for a win in fewer than ``budget.bound`` player moves, then shorten it.

    Yields ``None`` now and then, and each shorter solution when found (a list of moves).
    """
    start = _start_key(position)
    best: list[int] | None = None
    width, tries = FIRST_WIDTH, 0
    while (
        best is None and not budget.spent and (budget.bound >= NO_BOUND or tries < BOUNDED_WIDTHS)
    ):
        best = yield from _beam(start, width, budget.bound, capacity, budget)
        width, tries = width * 2, tries + 1
    if best is None:
        return
    yield best
    cut = PREFIX_STEP
    while cut < len(best) and not budget.spent:
        budget.shortening, budget.cut = best, cut
        key = start
        for move in best[:cut]:
            key = _apply(key, move)
        rest = yield from _beam(key, PREFIX_WIDTH, len(best) - cut, capacity, budget)
        if rest is not None:
            best = best[:cut] + rest
            budget.shortening = best  # its first ``cut`` moves still stay
            yield best
        cut += PREFIX_STEP


class ShortSolver:
    """A search for a short solution, in slices like :class:`Solver`: :meth:`step` until done.

    It runs today's :class:`Solver` first: a proof of impossibility is the answer, and a
    solution is the one to beat. Once that search has an answer or has stored
    ``FIRST_STATES`` positions, a beam search looks for a solution with fewer player moves
    (:attr:`Solution.player_moves`) and shortens what it finds; while today's search has no
    answer, the two take turns. The answer is the beam's solution, else today's answer
    (solved, impossible or unknown). ``max_states`` caps each: the positions today's search
    stores, and the most the beam holds at once (``states`` counts both); ``max_seconds``
    caps the time over all calls. When either runs out during the beam search, the shortest
    solution found so far is the answer. Raises as :class:`Solver` does.

    >>> solver = ShortSolver(Game.from_deal_number(46))
    >>> while (solution := solver.step(max_seconds=0.05)) is None:
    ...     pass  # a page would answer its other requests here
    >>> solution.result, solution.player_moves <= 16
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
        self._fast = Solver(start, max_states=max_states, max_seconds=max_seconds, cells=cells)
        self._max_seconds = max_seconds
        self._seconds = 0.0
        self._budget = _Budget(max_states, NO_BOUND)
        self._beam: Generator[list[int] | None, None, None] | None = None
        self._beam_done = False
        self._best: tuple[Move, ...] = ()
        self._best_cards: list[int] | None = None  # the beam's moves of _best, if it is the beam's
        self._solution: Solution | None = None

    @property
    def position(self) -> Position:
        """The position the search started from."""
        return self._fast.position

    @property
    def solution(self) -> Solution | None:
        """The answer once the search has ended, else ``None``."""
        return self._solution

    @property
    def best(self) -> tuple[Move, ...]:
        """The shortest solution found so far (empty while there is none)."""
        return self._best

    @property
    def final(self) -> tuple[Move, ...]:
        """The first moves of :attr:`best` that the search no longer changes.

        Once the beam has a solution shorter than today's, it shortens the rest from positions
        along it, ``PREFIX_STEP`` player moves apart: the moves before the position it searches
        from stay (with the moves home after them). A page may play them while it searches on.
        All of the answer's moves once the search has ended; none before.

        >>> solver = ShortSolver(Game.from_deal_number(46))
        >>> while not solver.final:
        ...     _ = solver.step(0.05)
        >>> solver.run().moves[: len(solver.final)] == solver.final
        True
        """
        if self._solution is not None:
            return self._solution.moves
        budget = self._budget
        if budget.shortening is None or budget.shortening is not self._best_cards:
            return ()
        played = 0
        for index, move in enumerate(self._best):
            if move.target != FOUNDATION:
                if played == budget.cut:
                    return self._best[:index]
                played += 1
        return self._best

    def run(self, max_seconds: float | None = None) -> Solution:
        """Search until the end, the budget's end or ``max_seconds`` more; return the answer."""
        if max_seconds is not None:
            self._max_seconds = self._seconds + max_seconds
        while (solution := self.step(None)) is None:
            pass  # step(None) returns only at the end
        return solution

    def step(self, max_seconds: float | None = 0.005) -> Solution | None:
        """Work for about ``max_seconds`` (``None``: until the end); return the answer or None.

        The beam search works in pieces of 64 positions expanded (a few ms in CPython).
        """
        if self._solution is not None:
            return self._solution
        began = time.perf_counter()
        deadline = None
        if self._max_seconds is not None:
            deadline = began + self._max_seconds - self._seconds
        stop = deadline if max_seconds is None else began + max_seconds
        # The beam makes no reference cycles, only many tuples and keys the collector would
        # walk again and again (a few per cent of the time): it rests meanwhile.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while self._solution is None:
                self._work()
                now = time.perf_counter()
                if self._solution is None and deadline is not None and now >= deadline:
                    self._finish()
                elif self._solution is None and stop is not None and now >= stop:
                    break
        finally:
            if collecting:
                gc.enable()
            self._seconds += time.perf_counter() - began
        if self._solution is not None:
            self._solution = replace(self._solution, seconds=self._seconds)
        return self._solution

    def _work(self) -> None:
        """Do a piece of work: today's search alone first, then it and the beam in turns."""
        fast = self._fast
        if fast.solution is None and not self._best:
            first = fast.step(0.0 if self._beam is None else _FAST_TURN)
            if first is not None and first.result == "impossible":
                self._solution = first
                return
            if first is not None and first.result == "solved":
                self._best = first.moves
                self._budget.bound = min(self._budget.bound, first.player_moves)
            if self._beam is None and first is None and fast.states < FIRST_STATES:
                return
        if self._beam is None:
            self._beam = _search(self.position, fast.cells, self._budget)
        if self._beam_done:
            if fast.solution is not None or self._best:
                self._finish()
            return
        try:
            found = next(self._beam)
        except StopIteration:
            self._beam_done = True
            return
        if found is not None:
            self._offer(_translate(self.position, found), found)

    def _offer(self, moves: tuple[Move, ...], cards: list[int]) -> None:
        """Keep the beam's solution if it is the first, or shorter than the best so far.

        A beam that began before today's search had an answer searches without its bound, so
        what it finds may be longer than that answer.
        """
        if not self._best or player_moves(moves) < player_moves(self._best):
            self._best = moves
            self._best_cards = cards

    def _finish(self) -> None:
        """End the search with the best solution so far, else today's search's answer."""
        fast = self._fast.solution
        states = self._fast.states + self._budget.peak
        if self._best:
            self._solution = Solution("solved", self._best, states, self._seconds)
        elif fast is not None:
            self._solution = replace(fast, states=states)
        else:
            self._solution = Solution("unknown", (), states, self._seconds)


def solve(
    start: Start,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    max_seconds: float | None = None,
    cells: int = len(FREECELLS),
    short: bool = False,
) -> Solution:
    """Search for a solution within a budget; see :class:`~freecell.Solver`.

    >>> game = Game.from_deal_number(1)
    >>> _ = game.push("5a")
    >>> solution = solve(game)
    >>> solution.result, solution.states > 0, all(isinstance(m, Move) for m in solution.moves)
    ('solved', True, True)

    ``short=True`` searches on for fewer player moves (:class:`ShortSolver`: some seconds,
    where today's search takes milliseconds).

    >>> solve(3).player_moves, solve(3, short=True).player_moves
    (31, 18)
    """
    search = ShortSolver if short else Solver
    return search(start, max_states=max_states, max_seconds=max_seconds, cells=cells).run()
