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

Measured on the 2-core development machine with CPython 3.11 (``bench/bench_solver.py``, two
processes, two runs): deals 1..32000 take a median of 7 to 11 ms of CPU (fc-solve ``-l lg``:
0.13 to 0.22 ms in its own process) and 0.16 to 0.25 s at the 99th percentile; every one is
solved but 11982, proved impossible in 2 to 5 s; solutions have a median of 91 moves (fc-solve
``-l lg``: 117).

>>> solution = solve(617)
>>> solution.result, len(solution.moves) > 52
('solved', True)
>>> game = Game.from_deal_number(617)
>>> for move in solution.moves:
...     _ = game.push(move)
>>> game.is_won()
True
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from freecell._cards import CARDS, card_is_red, card_rank, next_home
from freecell._deal import Deal, deal
from freecell._history import Game
from freecell._notation import CASCADES, FOUNDATION, FREECELLS, Move
from freecell._rules import Position

_V = TypeVar("_V")

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

# --- the compact state ------------------------------------------------------------------------
#
# A key is found(4 bytes) + cells (sorted) + _END + cascades (sorted) joined by _SEP. Cards are
# 0..51, so the two separators can never be cards.

_SEP: Final = 0xFE
_SEP_BYTES: Final = b"\xfe"
_END: Final = 0xFF
_END_BYTES: Final = b"\xff"
_WON: Final = b"\r\r\r\r"

# A move is an int: the card that moves (the top card of a run) | its target << 6. A target
# 0..51 is the card the run goes onto; the others are these.
_HOME: Final = 52
_CELL: Final = 53
_EMPTY: Final = 54

# The scans' inner loops take a card's suit and rank as c & 3 and c >> 2 (card_suit(c) and
# card_rank(c) - 1 without a call); the tables are built with the named helpers.
_RED: Final = tuple(card_is_red(c) for c in CARDS)
_PARENTS: Final = tuple(
    tuple(p for p in CARDS if card_rank(p) == card_rank(c) + 1 and _RED[p] != _RED[c])
    for c in CARDS
)
"""The cards a card fits on in a cascade: one rank higher, the other colour."""
_FITS: Final = tuple(tuple(p in _PARENTS[c] for c in range(52)) for p in range(52))
"""``_FITS[onto][card]``: whether a card fits on another in a cascade."""
_ONE: Final = tuple(bytes((c,)) for c in range(52))


class _Cache(dict[bytes, _V]):
    """A dict that computes a missing value from its key."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[[bytes], _V]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key: bytes) -> _V:
        value = self[key] = self.function(key)
        return value


def canonical_key(position: Position) -> bytes:
    """Return the search's key of a position: equal for positions that differ only in order.

    The order of the cascades and of the free cells does not matter; automatic moves are not
    applied.

    >>> start = Position.from_deal(deal(617))
    >>> swapped = Position(start.cascades[::-1], (None, None, None, None))
    >>> canonical_key(start) == canonical_key(swapped), len(canonical_key(start))
    (True, 64)
    """
    cells = bytes(sorted(c for c in position.freecells if c is not None))
    return _pack(bytes(position.foundations), cells, [bytes(c) for c in position.cascades])


def _pack(found: bytes, cells: bytes, cascades: list[bytes]) -> bytes:
    """Return the key of a state; sorts ``cascades`` in place."""
    cascades.sort()
    return found + cells + _END_BYTES + _SEP_BYTES.join(cascades)


def _unpack(key: bytes) -> tuple[bytes, bytes, list[bytes]]:
    end = key.index(_END, 4)
    return key[:4], key[4:end], key[end + 1 :].split(_SEP_BYTES)


def _run_length(cascade: bytes) -> int:
    """Return how many cards at the bottom of a cascade form a run."""
    n = len(cascade)
    if n == 0:
        return 0
    k = 1
    while k < n and _FITS[cascade[n - k - 1]][cascade[n - k]]:
        k += 1
    return k


def _settle(found: bytes, cells: bytes, cascades: list[bytes]) -> tuple[bytes, bytes]:
    """Make every safe move to the foundations; return the foundations and the free cells.

    ``cascades`` changes in place. A card is safe when it is next for its foundation and both
    cards of the other colour one rank lower are home (aces always).
    """
    while True:
        safe = _SAFE[found]
        for i, cascade in enumerate(cascades):
            if cascade and cascade[-1] in safe:
                card = cascade[-1]
                cascades[i] = cascade[:-1]
                break
        else:
            for card in cells:
                if card in safe:
                    cells = cells.replace(_ONE[card], b"")
                    break
            else:
                return found, cells
        f = bytearray(found)
        f[card & 3] += 1
        found = bytes(f)


def _safe_cards(found: bytes) -> tuple[int, ...]:
    """Return the cards that would be safe to send home with these foundations."""
    low_black, low_red = min(found[0], found[3]), min(found[1], found[2])
    return tuple(
        next_home(s, r)
        for s, r in enumerate(found)
        if r < 13 and r <= (low_black if s in (1, 2) else low_red)
    )


_SAFE: Final = _Cache(_safe_cards)
"""The safe cards of each foundation met so far (at most 14**4; computing them each time was
7% of an expansion)."""
_SORTED: Final = _Cache(lambda cells: bytes(sorted(cells)))
"""Free cells sorted, by the unsorted cells met so far (emptied past ``_CACHE_LIMIT``)."""
_CACHE_LIMIT: Final = 200_000


# --- the heuristics ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    """One scan's settings: its moves and the weights of its estimate of a position.

    A position's estimate ``h`` sums, per cascade, the cards above a lower card of the same
    cascade (``blocker``; ``deep`` more when the rank gap is over 6) and the cards above the run
    at the bottom (``buried``), plus ``empty`` per empty cascade, ``cell`` per occupied free
    cell and ``home`` per card not yet home. The search expands first the position with the
    least ``g_weight * moves so far + h`` (moves to the foundations are free: every solution has
    exactly 52 of them).
    """

    name: str
    atomic: bool
    blocker: int
    deep: int
    buried: int
    empty: int
    cell: int
    home: int
    g_weight: int
    sideways: bool = True

    def cascade_cost(self, cascade: bytes) -> int:
        """Return the part of ``h`` that one cascade adds (the scans cache it per cascade)."""
        if not cascade:
            return self.empty
        lowest = 99
        blockers = deep = 0
        for c in cascade:
            rank = c >> 2
            if rank > lowest:
                blockers += 1
                deep += rank - lowest > 6
            else:
                lowest = rank
        buried = len(cascade) - _run_length(cascade) if self.buried else 0
        return self.blocker * blockers + self.deep * deep + self.buried * buried


# The first plan's weight on buried cards and its weight on moves were tuned on deals 1..500,
# each plan alone: median expansions 210 -> 89, 99th percentile 5,100 -> 7,800, median length
# 91 either way; its hardest deals are the second plan's easy ones. On the 60 hardest deals of
# 1..4000 neither estimate, nor the atomic scan (8 of 60 unsolved within 60,000 expansions),
# wins alone.
# fmt: off
_PLANS: Final = (
    #      name      atomic blocker deep buried empty cell home g_weight sideways
    _Plan("meta",    False, 2,      1,   4,     -4,   6,   2,   3,       False),
    _Plan("meta2",   False, 2,      2,   0,     -4,   6,   2,   1,       False),
    _Plan("atomic",  True,  2,      2,   0,     -4,   6,   2,   1,       True),
)
# fmt: on
_SHORTCUTS: Final = _Plan("shortcut", False, 0, 0, 0, 0, 0, 0, 0)


# --- moves ------------------------------------------------------------------------------------

_Child = tuple[bytes, int, int]
"""A child of a state: its key, the move that leads there, and its estimate h."""


def _children(  # noqa: C901, PLR0912, PLR0915 - one loop per kind of move, kept inline for speed
    key: bytes,
    seen: dict[bytes, bytes | None],
    costs: _Cache[int],
    runs: _Cache[int],
    plan: _Plan,
    *,
    capacity: int,
) -> list[_Child]:
    """Return the children of a state that are not in ``seen``, safe moves home applied.

    ``capacity`` is the number of free cells the game has (4, or fewer for a harder game).

    The hot loop: about 30 us an expansion of a meta scan (6 children stored, a few more met
    again), 20 us an atomic one. Most of it builds the children's keys (copy the list of
    cascades, change two, sort, join); ``h`` changes only by the two cascades a move touches
    (each cascade's share is cached), so it costs two dict lookups.
    """
    end = key.index(_END, 4)
    found = key[:4]
    cells = key[4:end]
    cascades = key[end + 1 :].split(_SEP_BYTES)
    prefix = key[: end + 1]
    free = capacity - len(cells)
    empty = 0
    while empty < 8 and not cascades[empty]:
        empty += 1
    safe = _SAFE[found]
    bottoms = {cascades[i][-1]: i for i in range(empty, 8)}
    column = list(map(costs.__getitem__, cascades))
    total = sum(column)
    cell_weight, home_weight = plan.cell, plan.home
    h_base = home_weight * (52 - sum(found)) + cell_weight * len(cells) + total
    out: list[_Child] = []
    add = out.append
    join = _SEP_BYTES.join
    parents = _PARENTS

    def settled(f: bytes, cl: bytes, nc: list[bytes], move: int) -> None:
        f, cl = _settle(f, cl, nc)
        child = _pack(f, cl, nc)
        if child not in seen:
            h = home_weight * (52 - sum(f)) + cell_weight * len(cl)
            out.append((child, move, h + sum([costs[c] for c in nc])))

    # Cards home that are not safe (the safe ones are home already).
    for i in range(empty, 8):
        c = cascades[i][-1]
        if found[c & 3] == c >> 2:
            f = bytearray(found)
            f[c & 3] += 1
            nc = cascades.copy()
            nc[i] = cascades[i][:-1]
            settled(bytes(f), cells, nc, c | _HOME << 6)
    for c in cells:
        if found[c & 3] == c >> 2:
            f = bytearray(found)
            f[c & 3] += 1
            settled(bytes(f), cells.replace(_ONE[c], b""), cascades.copy(), c | _HOME << 6)
    # Free cells to cascades.
    for c in cells:
        rest = found + cells.replace(_ONE[c], b"") + _END_BYTES
        h = h_base - cell_weight
        for p in parents[c]:
            j = bottoms.get(p)
            if j is not None:
                nc = cascades.copy()
                new = nc[j] = cascades[j] + _ONE[c]
                nc.sort()
                child = rest + join(nc)
                if child not in seen:
                    add((child, c | p << 6, h - column[j] + costs[new]))
        if empty:
            nc = cascades.copy()
            new = nc[0] = _ONE[c]
            nc.sort()
            child = rest + join(nc)
            if child not in seen:
                add((child, c | _EMPTY << 6, h - column[0] + costs[new]))
    # Cascades to cascades and free cells. A meta move takes a run as large as the free cells
    # and empty cascades allow; an atomic move takes one card.
    atomic, sideways = plan.atomic, plan.sideways
    most = 1 if atomic else (free + 1) << empty
    most_to_empty = 1 if atomic else (free + 1) << (empty - 1) if empty else 0
    for i in range(empty, 8):
        cascade = cascades[i]
        n = len(cascade)
        run = runs[cascade]
        h = h_base - column[i]
        top = run if run < most else most  # noqa: FURB136 - min() is a call, 8 an expansion
        for k in range(1 if sideways or run > most else run, top + 1):
            c = cascade[n - k]
            for p in parents[c]:
                j = bottoms.get(p)
                if j is not None:
                    nc = cascades.copy()
                    rest = nc[i] = cascade[: n - k]
                    new = nc[j] = cascades[j] + cascade[n - k :]
                    if rest and rest[-1] in safe:
                        settled(found, cells, nc, c | p << 6)
                        continue
                    nc.sort()
                    child = prefix + join(nc)
                    if child not in seen:
                        add((child, c | p << 6, h - column[j] + costs[rest] + costs[new]))
        if empty and n > 1:
            # Onto an empty cascade: any run but the whole cascade (that changes nothing);
            # meta scans move only the largest run.
            k_most = run if run < most_to_empty else most_to_empty  # noqa: FURB136
            if k_most >= n:
                k_most = n - 1
            for k in range(k_most if not atomic and k_most > 1 else 1, k_most + 1):
                c = cascade[n - k]
                nc = cascades.copy()
                rest = nc[i] = cascade[: n - k]
                new = nc[0] = cascade[n - k :]
                if rest[-1] in safe:
                    settled(found, cells, nc, c | _EMPTY << 6)
                    continue
                nc.sort()
                child = prefix + join(nc)
                if child not in seen:
                    add((child, c | _EMPTY << 6, h - column[0] + costs[rest] + costs[new]))
        if free and (atomic or run == 1):
            # To a free cell; meta scans never break a run there (runs move as a whole).
            c = cascade[-1]
            nc = cascades.copy()
            rest = nc[i] = cascade[:-1]
            cl = _SORTED[cells + _ONE[c]]
            if rest and rest[-1] in safe:
                settled(found, cl, nc, c | _CELL << 6)
                continue
            nc.sort()
            child = found + cl + _END_BYTES + join(nc)
            if child not in seen:
                add((child, c | _CELL << 6, h + cell_weight + costs[rest]))
    return out


def _apply(key: bytes, move: int, capacity: int) -> bytes | None:  # noqa: C901, PLR0911, PLR0912
    """Return the state after a move given as cards, or ``None`` if the rules forbid it.

    The game has ``capacity`` free cells. (One rule a line: hence the branches.)
    """
    found, cells, cascades = _unpack(key)
    card, target = move & 63, move >> 6
    free = capacity - len(cells)
    empty = cascades.count(b"")
    source = -1
    cards = _ONE[card]
    if card not in cells:
        source = next((i for i, c in enumerate(cascades) if card in c), -1)
        if source < 0:
            return None
        cascade = cascades[source]
        cards = cascade[cascade.index(card) :]
        if _run_length(cascade) < len(cards):
            return None
    if target == _HOME:
        if len(cards) != 1 or found[card & 3] != card >> 2:
            return None
        f = bytearray(found)
        f[card & 3] += 1
        found = bytes(f)
    elif target == _CELL:
        if len(cards) != 1 or source < 0 or not free:
            return None
        cells = _SORTED[cells + cards]
    elif target == _EMPTY:
        if not empty or len(cards) > (free + 1) << (empty - 1):
            return None
        if source >= 0 and len(cards) == len(cascades[source]):
            return None
        cascades[cascades.index(b"")] = cards
    else:
        j = next((i for i, c in enumerate(cascades) if c and c[-1] == target), -1)
        if j < 0 or not _FITS[target][card] or len(cards) > (free + 1) << empty:
            return None
        cascades[j] += cards
    if source < 0:
        cells = cells.replace(cards, b"")
    else:
        cascades[source] = cascades[source][: -len(cards)]
    found, cells = _settle(found, cells, cascades)
    return _pack(found, cells, cascades)


# --- one scan ---------------------------------------------------------------------------------

_MOVE_BITS: Final = 12
_G_BITS: Final = 16
_SEQ_BITS: Final = 40
_F_OFFSET: Final = 1 << 12  # keeps priorities positive: h can go below zero near the end
_NO_MOVE: Final = (1 << _MOVE_BITS) - 1


class _Scan:
    """A best-first search over one plan's moves, run a number of expansions at a time.

    ``seen`` maps each stored key to its parent's key. The heap holds ``(priority, key)``: the
    priority is one int of f, a sequence number (first in, first out among equal f), the
    number of moves so far and the move that led there, which ``moves`` keeps for each
    expanded position (a small fraction of those stored), so a path needs no search again.
    """

    __slots__ = (
        "capacity", "costs", "exhausted", "expanded", "goal", "heap", "moves", "plan", "runs",
        "seen", "seq",
    )  # fmt: skip

    def __init__(self, plan: _Plan, start: bytes, capacity: int) -> None:
        self.plan = plan
        self.capacity = capacity
        self.costs = _Cache(plan.cascade_cost)
        self.runs = _Cache(_run_length)
        self.seen: dict[bytes, bytes | None] = {start: None}
        self.moves: dict[bytes, int] = {}
        self.expanded = 0
        self.seq = 0
        self.exhausted = False
        self.goal = start if start.startswith(_WON) else None
        found, cells, cascades = _unpack(start)
        h = plan.home * (52 - sum(found)) + plan.cell * len(cells)
        h += sum(self.costs[c] for c in cascades)
        shift = _SEQ_BITS + _G_BITS + _MOVE_BITS
        self.heap = [((h + _F_OFFSET) << shift | _NO_MOVE, start)]

    def run(self, expansions: int, room: int) -> bool:
        """Expand up to ``expansions`` positions, storing at most ``room`` new ones.

        Returns whether the scan has ended: won (``goal`` is set), exhausted, or out of room.
        """
        heap, seen, costs, runs, plan = self.heap, self.seen, self.costs, self.runs, self.plan
        moves, capacity = self.moves, self.capacity
        g_weight = plan.g_weight
        pop, push = heapq.heappop, heapq.heappush
        seq = self.seq
        g_mask = (1 << _G_BITS) - 1
        move_mask = (1 << _MOVE_BITS) - 1
        try:
            for _ in range(expansions):
                if not heap:
                    self.exhausted = True
                    return True
                priority, key = pop(heap)
                moves[key] = priority & move_mask
                g = priority >> _MOVE_BITS & g_mask
                self.expanded += 1
                for child, move, h in _children(key, seen, costs, runs, plan, capacity=capacity):
                    if room <= 0:
                        push(heap, (priority, key))  # not fully expanded: stays open
                        return True
                    room -= 1
                    seen[child] = key
                    if child.startswith(_WON):
                        self.goal = child
                        moves[child] = move
                        return True
                    g_child = g + (move >> 6 != _HOME)
                    seq += 1
                    f = g_weight * g_child + h + _F_OFFSET
                    order = ((f << _SEQ_BITS | seq) << _G_BITS | g_child) << _MOVE_BITS | move
                    push(heap, (order, child))
            return False
        finally:
            self.seq = seq

    def path(self) -> tuple[list[bytes], list[int]]:
        """Return the keys from the start to the goal, and the moves between them."""
        keys: list[bytes] = []
        key = self.goal
        while key is not None:
            keys.append(key)
            key = self.seen[key]
        keys.reverse()
        return keys, [self.moves[key] for key in keys[1:]]


# --- trimming and translating a solution ------------------------------------------------------


def _shortcut(path: list[bytes], moves: list[int], capacity: int) -> tuple[list[bytes], list[int]]:
    """Follow a winning path, jumping by one meta move to the latest position it can reach.

    A scan's own moves never allow such a jump (the search would have found it first), so this
    helps paths of atomic moves and paths that :func:`_trim` changed. Returns the new path and
    its moves.
    """
    index = {key: i for i, key in enumerate(path)}
    costs, runs = _Cache(_SHORTCUTS.cascade_cost), _Cache(_run_length)
    keys, new_moves = [path[0]], []
    i, last = 0, len(path) - 1
    while i < last:
        best, best_move = i + 1, moves[i]
        for child, move, _ in _children(path[i], {}, costs, runs, _SHORTCUTS, capacity=capacity):
            j = index.get(child, -1)
            if j > best:
                best, best_move = j, move
        i = best
        keys.append(path[i])
        new_moves.append(best_move)
    return keys, new_moves


def _trim(path: list[bytes], moves: list[int], capacity: int) -> tuple[list[bytes], list[int]]:
    """Remove moves, or pairs of moves of one card, while what remains still wins.

    A removed move changes the positions after it until they meet the old path again, so each
    try replays only that far.
    """
    index = {key: i for i, key in enumerate(path)}
    i = 0
    while i < len(moves):
        if moves[i] >> 6 == _HOME:
            i += 1
            continue
        card = moves[i] & 63
        again = next((j for j in range(i + 1, len(moves)) if moves[j] & 63 == card), None)
        for drop in ((i,), (i, again)) if again is not None else ((i,),):
            trimmed = _without(path, moves, drop, index, capacity)
            if trimmed is not None:
                path, moves = trimmed
                index = {key: i for i, key in enumerate(path)}
                break
        else:
            i += 1
    return path, moves


def _without(
    path: list[bytes],
    moves: list[int],
    drop: tuple[int, ...],
    index: dict[bytes, int],
    capacity: int,
) -> tuple[list[bytes], list[int]] | None:
    """Return the path and moves without the moves at ``drop``, or ``None`` if that loses.

    ``index`` maps each key of the path to its place.
    """
    first = drop[0]
    key = path[first]
    keys, kept = [], []
    for k in range(first, len(moves)):
        if k in drop:
            continue
        after = _apply(key, moves[k], capacity)
        if after is None:
            return None
        key = after
        keys.append(key)
        kept.append(moves[k])
        j = index.get(key, -1)
        if j > first:  # met the old path again: keep its rest if that is shorter
            if j - first <= len(kept):
                return None
            return path[: first + 1] + keys + path[j + 1 :], moves[:first] + kept + moves[j:]
    if key.startswith(_WON):
        return path[: first + 1] + keys, moves[:first] + kept
    return None


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

    >>> solution = solve(Position.from_deal(deal(1)), max_states=5)
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

        >>> solve(617).player_moves < len(solve(617).moves)
        True
        """
        return player_moves(self.moves)


def player_moves(moves: Iterable[Move]) -> int:
    """Count the moves a player makes: those not to the foundations (a run moved as one is one).

    >>> player_moves([Move.parse("83"), Move.parse("2h"), Move.parse("36v3")])
    2
    """
    return sum(move.target != FOUNDATION for move in moves)


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

    >>> [solve(3, cells=cells).result for cells in (1, 2)]
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


def solve(
    start: Start,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    max_seconds: float | None = None,
    cells: int = len(FREECELLS),
) -> Solution:
    """Search for a solution within a budget; see :class:`Solver`.

    (``freecell.solve`` is :func:`freecell._short.solve`, which also takes ``short``.)

    >>> game = Game.from_deal_number(1)
    >>> _ = game.push("5a")
    >>> solution = solve(game)
    >>> solution.result, solution.states > 0, all(isinstance(m, Move) for m in solution.moves)
    ('solved', True, True)
    """
    return Solver(start, max_states=max_states, max_seconds=max_seconds, cells=cells).run()
