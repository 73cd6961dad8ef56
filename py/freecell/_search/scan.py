"""The solver's search: compact states, their moves, one best-first scan, and trimming a path.

Everything here works on the search's own state, a ``bytes`` key (the four foundation counts,
the free cells' cards sorted, then the eight cascades sorted and joined by a separator), and on
moves as ints (a card | its target << 6); :mod:`freecell._search.solver` runs the scans as a
portfolio and translates a winning path back into moves on a real :class:`~freecell.Position`.

The module is one unit, longer than most, on purpose: the key's layout is one private format
that every part reads by offsets (packing, settling safe moves home, generating children,
applying a move, the scans' estimates, trimming), and the inner loop (:func:`_children`,
:func:`_apply`) is written inline, without helper calls, because it is the solver's time
(docs/solver.md). Split, the format would be spread over several modules that still had to
agree byte for byte.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from freecell._cards import CARDS, card_is_red, card_rank, next_home
from freecell._deal import deal  # noqa: F401 - the doctests deal
from freecell._rules import Position

_V = TypeVar("_V")

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


# --- trimming a solution ----------------------------------------------------------------------


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
