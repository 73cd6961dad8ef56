"""Which deals begin with these cards: :func:`identify`, the dealer run backwards.

A layout's first ``k`` cards give the first ``k`` picks of the shuffle exactly: pick ``j`` is
the place of the ``j``-th dealt card in what is left of the deck, and it equals ``rand % n``
for ``n = 52 - j``. The generator is linear modulo 2**32: after ``j + 1`` steps the state is
``A_j * seed + C_j``, so its low bits depend on the seed's low bits only. An even ``n = 2**a * m``
fixes the low ``a`` bits of ``rand``, which are bits 16 and up of the state; those constraints
are solved for the seed's low 21 bits one bit at a time (the first constraint on a new bit
sets it, the others filter), as in Hensel lifting. Given the low bits ``L``, bits 21 and up of
each state are ``t + a * H`` modulo 2**10 (2**11 for the third generator) with ``a`` odd, a
bijection of the seed's high bits ``H``: the ``H`` that make one pick right are a fixed set
rotated by ``t / a``, one big-int rotation, and a few picks' rotations ANDed leave about one
``H`` in a thousand to check in full. docs/dealer.md tells the method and its measured cost.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from freecell._cards import Card, parse_card
from freecell._deal import _A, _C, _SPECIAL_CARDS, MAX_DEAL, MIN_DEAL, Deal, deal  # noqa: F401 - deal: the doctests
from freecell._errors import CodedError, shorten
from freecell._names import CARD_CODES
from freecell._rules import Position

_COLUMNS: Final = 8
_LOW: Final = 21  # the seed's bits solved from the even picks: the state's bits 16..20
_CHECK_EVERY: Final = 256  # candidates between two progress ticks of a search
_CHUNK: Final = 8192  # low seeds lifted between two progress ticks
MAX_LAYOUT_CHARS: Final = 10_000
"""The longest text :func:`parse_layout` reads: a JSON board indented 8 spaces is under 4,000
characters; a longer text is refused before it is read (a megabyte's paste is answered at once)."""
_WINDOW_FINDS: Final = 64  # deals the first window of a sparse search is expected to hold


class LayoutError(CodedError):
    """Raised for cards that make no layout, or no start of one.

    ``code`` is ``"layout-empty"``, ``"layout-card-twice"`` (``params``: ``card``),
    ``"layout-too-long"`` (``count``), ``"layout-too-large"`` (``count``, ``max``: characters),
    ``"layout-card"`` (``text``), ``"layout-not-start"`` or ``"layout-json"``; a word that is no
    card raises :class:`~freecell.CardError` (``"card-invalid"``). :func:`no_deal` makes the one
    that says no deal begins so (``"layout-no-deal"``: ``count``, ``min``, ``max``), for a
    caller to report.
    """


@dataclass(frozen=True, slots=True)
class _Generator:
    """One variant of the generator: the deals ``first + seed`` for ``seed`` in its range."""

    first: int  # the deal number of seed 0
    high_bits: int  # the seed's bits above the low 21 that change the random numbers
    mask: int  # rand = ((state >> 16) & mask) + add
    add: int
    min_seed: int


_GENERATORS: Final = (
    _Generator(0, 10, 0x7FFF, 0, 1),
    _Generator(2**31, 10, 0x7FFF, 0x8000, 0),
    _Generator(2**32, 11, 0xFFFF, 1, 0),
)


# --- reading a layout --------------------------------------------------------------------------


def _check(cards: list[Card]) -> tuple[Card, ...]:
    if len(cards) > 52:
        raise LayoutError("layout-too-long", count=len(cards))
    seen = set()
    for card in cards:
        if card in seen:
            raise LayoutError("layout-card-twice", card=CARD_CODES[card])
        seen.add(card)
    return tuple(cards)


def _from_columns(columns: list[list[Card]]) -> list[Card] | None:
    """Return the cards in dealing order of 8 columns that hold a layout's first cards, or None."""
    total = sum(map(len, columns))
    if len(columns) != _COLUMNS or total > 52:
        return None
    if [len(c) for c in columns] != [(total - i + 7) // 8 for i in range(_COLUMNS)]:
        return None
    return [columns[k % _COLUMNS][k // _COLUMNS] for k in range(total)]


def _position_cards(position: Position) -> list[Card]:
    if any(position.freecells) or any(position.foundations):
        raise LayoutError("layout-not-start")
    cards = _from_columns([list(c) for c in position.cascades])
    if cards is None or len(cards) != 52:
        raise LayoutError("layout-not-start")
    return cards


def _json_cards(text: str) -> list[Card]:
    try:
        board = json.loads(text)
        if "rows" in board:
            return [parse_card(code) for row in board["rows"] for code in row]
        columns = [[parse_card(code) for code in column] for column in board["columns"]]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise LayoutError("layout-json") from None
    cards = _from_columns(columns)
    if cards is None:
        raise LayoutError("layout-not-start")
    return cards


def _header(line: str) -> bool:
    """Tell whether a line is fc-solve's foundations or free cells line; raise unless empty."""
    head, colon, rest = line.partition(":")
    name = head.strip().lower()
    if not colon or name not in ("foundations", "freecells"):
        return False
    for word in rest.split():
        empty = word.endswith("-0") if name == "foundations" else word in ("-", "--")
        if not empty:
            raise LayoutError("layout-not-start")
    return True


def parse_layout(text: str) -> tuple[Card, ...]:
    """Read a layout, or its first cards, into cards in dealing order.

    It reads cards as words in reading order, row by row (``JD 2D 9H``, ``jd 2d 9h``,
    ``10♦``, the ``rows`` format), and 8 lines as columns when they hold a layout's first cards
    column by column (fc-solve's board, with or without its ``:``, foundations and free cells
    lines, the ``fcs`` and ``unicode`` formats); a ``json`` board too. Raises
    :class:`LayoutError` or :class:`~freecell.CardError`, whose message says what is valid.

    >>> [CARD_CODES[c] for c in parse_layout("jd 2D 9♥ 10c")]
    ['JD', '2D', '9H', 'TC']
    >>> parse_layout(str(deal(1))) == deal(1).cards
    True
    >>> parse_layout("JD 2D JD")
    Traceback (most recent call last):
    ...
    freecell._identify.LayoutError: invalid layout: JD is there twice; a layout holds each card once
    >>> parse_layout("JD " * 5000)
    Traceback (most recent call last):
    ...
    freecell._identify.LayoutError: invalid layout: 15000 characters; a layout's text is at most ...
    """
    if len(text) > MAX_LAYOUT_CHARS:
        raise LayoutError("layout-too-large", count=len(text), max=MAX_LAYOUT_CHARS)
    text = text.removeprefix("\ufeff")  # a byte order mark, as a Windows editor saves UTF-8
    if text.lstrip().startswith("{"):
        return _check(_json_cards(text))
    lines: list[list[Card]] = []
    board = False  # fc-solve's position text: its cascades are columns
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _header(line):
            board = True
            continue
        board = board or line.startswith(":")
        line = line.removeprefix(":")
        lines.append([parse_card(word) for word in line.replace(",", " ").split()])
    lines = [line for line in lines if line]
    if not lines:
        raise LayoutError("layout-empty")
    columns = _from_columns(lines)
    whole_board = len(lines) == _COLUMNS and sum(map(len, lines)) == 52
    if columns is None and (board or whole_board):
        raise LayoutError("layout-not-start")
    return _check(columns if columns is not None else [c for line in lines for c in line])


def layout_cards(cards: Deal | Position | str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Return the cards of a deal, a start position, text or cards, in dealing order.

    Cards may be ints or card codes. Raises :class:`LayoutError` (or
    :class:`~freecell.CardError`) for anything that is no layout's beginning.

    >>> [CARD_CODES[c] for c in layout_cards(["JD", "2d", 8])]
    ['JD', '2D', '3C']
    """
    if isinstance(cards, Deal):
        return cards.cards
    if isinstance(cards, Position):
        return tuple(_position_cards(cards))
    if isinstance(cards, str):
        return parse_layout(cards)
    values = []
    for card in cards:
        if isinstance(card, str):
            values.append(parse_card(card))
        elif type(card) is int and 0 <= card < 52:
            values.append(card)
        else:
            raise LayoutError("layout-card", text=shorten(repr(card)))
    return _check(values)


def no_deal(count: int) -> LayoutError:
    """Return the error that says no deal begins with these ``count`` cards.

    >>> print(no_deal(8))
    no deal begins with these 8 cards: deals -2, -1 and 1 to 8589934591 were searched
    """
    return LayoutError("layout-no-deal", count=count, min=MIN_DEAL, max=MAX_DEAL)


def picks(cards: Iterable[Card]) -> list[int]:
    """Return the shuffle's picks ``rand % n`` (n = 52, 51, ...) that deal these cards first.

    >>> picks(deal(1).cards[:4])
    [41, 5, 34, 40]
    """
    deck = list(range(52))
    place = list(range(52))
    result = []
    for size, card in zip(range(52, 0, -1), cards, strict=False):
        j = place[card]
        result.append(j)
        last = deck[size - 1]
        deck[j], place[last] = last, j
    return result


# --- the search --------------------------------------------------------------------------------


def _low_seeds(picks: list[int], add: int) -> Generator[None, None, list[int]]:
    """Return, ascending, every seed modulo 2**21 whose states agree with the even picks' bits.

    A generator: it yields ``None`` between chunks of work, and returns the list.

    Pick ``j`` of ``n = 2**a * m`` fixes ``rand mod 2**a``: bits 16..16+a-1 of state ``j``
    (``rand`` minus ``add``). Bit ``16 + i`` of ``A * s + C`` with ``A`` odd flips with the
    seed's own bit ``16 + i``, so the first constraint on a bit sets it and the others filter.
    """
    seeds = list(range(1 << 16))
    for bit in range(16, _LOW):
        level = bit - 16
        constraints = []
        for j, pick in enumerate(picks[:51]):
            n = 52 - j
            a = (n & -n).bit_length() - 1
            if a > level:
                constraints.append((_A[j], _C[j], ((pick - add) >> level) & 1))
        # Seeds below 2**bit in order give, with the new bit clear then set, two ordered lists.
        top = 1 << bit
        clear: list[int] = []
        set_: list[int] = []
        for start in range(0, len(seeds), _CHUNK):
            chunk = seeds[start : start + _CHUNK]
            if not constraints:
                clear += chunk
                set_ += [s | top for s in chunk]
                yield None
                continue
            a0, c0, t0 = constraints[0]
            chunk = [s | ((((a0 * s + c0) >> bit) & 1) ^ t0) << bit for s in chunk]
            for a1, c1, t1 in constraints[1:]:
                chunk = [s for s in chunk if ((a1 * s + c1) >> bit) & 1 == t1]
            clear += [s for s in chunk if s < top]
            set_ += [s for s in chunk if s >= top]
            yield None
        seeds = clear + set_
    return seeds


def _high_sets(gen: _Generator, j: int, pick: int) -> tuple[int, list[int]]:
    """Return the inverse of ``A_j`` mod 2**h, and per ``b`` the set of the seed's high bits.

    With ``b`` the state's bits 16..20 and ``u`` its bits 21.., ``rand = b + 32 * u + add``; the
    set for ``b`` holds ``u / A_j`` (mod 2**h) for each ``u`` that makes ``rand % n == pick``, as
    a bit mask.
    """
    size = 1 << gen.high_bits
    a = _A[j] & (size - 1)
    inverse = pow(a, -1, size)  # a is odd: A_j is 214013 ** (j + 1)
    n = 52 - j
    g = min(n & -n, 32)  # gcd(32, n): 32 * u + b + add is rand, and n % g fixes b
    period = n // g
    sets = []
    for b in range(32):
        bits = 0
        diff = pick - b - gen.add
        if diff % g == 0:
            u0 = (diff // g) * pow(32 // g, -1, period) % period if period > 1 else 0
            for u in range(u0, size, period):
                bits |= 1 << (u * inverse & (size - 1))
        sets.append(bits)
    return inverse, sets


def _matches(seed: int, picks: list[int], gen: _Generator) -> bool:
    mask, add = gen.mask, gen.add
    for j, pick in enumerate(picks[:51]):
        if ((((_A[j] * seed + _C[j]) >> 16) & mask) + add) % (52 - j) != pick:
            return False
    return True


def _odd_part(n: int) -> int:
    return n // (n & -n)


def _stages(gen: _Generator, picks: list[int]) -> list[tuple[int, tuple[int, int, int, list[int]]]]:
    """Return the first 3 picks, ``(odd, stage)``, the most selective first.

    ``odd`` is the odd part of the pick's ``n``: one ``H`` in ``odd`` fits, by chance. A stage
    is ``(A_j, C_j, inverse, doubled)``: ``doubled[b]`` is the set of :func:`_high_sets` for the
    state's bits 16..20 equal to ``b``, twice over (``S | S << size``), so that any rotation of
    it is one shift. Three picks leave one ``H`` in 16,575 (13 * 51 * 25) to check in full.
    """
    size = 1 << gen.high_bits
    stages = []
    for j, pick in enumerate(picks[:3]):
        inverse, sets = _high_sets(gen, j, pick)
        stages.append((_odd_part(52 - j), (_A[j], _C[j], inverse, [s | s << size for s in sets])))
    return sorted(stages, key=lambda stage: -stage[0])


def _windows(gen: _Generator, picks: list[int], lows: list[int]) -> Iterator[tuple[int, int]]:
    """Yield the windows of high bits, ``(first, width)``, that a sparse search takes in turn.

    The first is expected to hold about :data:`_WINDOW_FINDS` deals, so that the first deals
    come after one pass over the low seeds; each next one is 4 times as wide, up to all of them.
    """
    size = 1 << gen.high_bits
    odd = 1
    for j in range(min(len(picks), 51)):
        odd *= _odd_part(52 - j)
    per_high = len(lows) / odd  # a low seed meets each pick's odd part by chance
    width = 1
    while width < size and width * per_high < _WINDOW_FINDS:
        width *= 2
    first = 0
    while first < size:
        width = min(width, size - first)
        yield first, width
        first += width
        width *= 4


def _search_windows(gen: _Generator, picks: list[int], lows: list[int]) -> Iterator[int | None]:
    """Yield every deal of ``gen`` (ascending, after progress ticks ``None``): many low seeds.

    The seed's high bits are taken a window at a time, lowest first (:func:`_windows`), so
    that the first deals come after one pass over the low seeds. Per window and pick, a table
    maps the state's bits 16 and up, as the low seed alone makes them, to the window's high
    bits that fit (the rotated mask of :func:`_high_sets`); each chunk of low seeds goes
    through the tables in comprehensions, dropping the seeds with no high bit left.
    """
    size = 1 << gen.high_bits
    full = size - 1
    top = gen.mask  # the state's bits 16.. that make rand: 5 low ones, then the high bits' share
    stages = _stages(gen, picks)
    for first, width in _windows(gen, picks, lows):
        window = (1 << width) - 1
        tables = []
        for _, (a, c, inverse, doubled) in stages:
            table = [
                doubled[r & 31] >> ((first + (r >> 5) * inverse) & full) & window
                for r in range(top + 1)
            ]
            tables.append((a, c, table))
            yield None
        (a0, c0, t0), (a1, c1, t1), (a2, c2, t2) = tables
        # The first pick alone, when it leaves fewer than half of the seeds; else all three.
        alone = 2 * (1 - (1 - 1 / stages[0][0]) ** width) < 1
        found = []
        for start in range(0, len(lows), _CHECK_EVERY * 8):
            chunk = lows[start : start + _CHECK_EVERY * 8]
            if alone:
                masks = [t0[(a0 * low + c0) >> 16 & top] for low in chunk]
                pairs = [
                    (low, mask & t1[(a1 * low + c1) >> 16 & top] & t2[(a2 * low + c2) >> 16 & top])
                    for low, mask in zip(chunk, masks, strict=True)
                    if mask
                ]
            else:
                masks = [
                    t0[(a0 * low + c0) >> 16 & top]
                    & t1[(a1 * low + c1) >> 16 & top]
                    & t2[(a2 * low + c2) >> 16 & top]
                    for low in chunk
                ]
                pairs = [(low, mask) for low, mask in zip(chunk, masks, strict=True) if mask]
            for low, mask in pairs:
                allowed = mask
                while allowed:
                    high = first + (allowed & -allowed).bit_length() - 1
                    allowed &= allowed - 1
                    seed = low | high << _LOW
                    if seed >= gen.min_seed and _matches(seed, picks, gen):
                        found.append(gen.first + seed)
            yield None
        found.sort()
        yield from found


def _search_sparse(gen: _Generator, picks: list[int], lows: list[int]) -> Iterator[int | None]:
    """Yield every deal of ``gen`` (ascending, after progress ticks ``None``) for 3+ picks.

    Many low seeds (3 or 4 cards: a quarter of a million) go through tables a window of high
    bits at a time, so that the first deals come soon; a few (5 cards or more) are each
    narrowed by rotations, which costs less than making the tables.
    """
    if len(lows) > 32 << gen.high_bits:
        return _search_windows(gen, picks, lows)
    return _search_rotated(gen, picks, lows)


def _search_rotated(gen: _Generator, picks: list[int], lows: list[int]) -> Iterator[int | None]:
    """Yield every deal of ``gen`` (ascending, after progress ticks ``None``): few low seeds.

    Each low seed's high bits are narrowed by rotated masks, and what is found is sorted.
    """
    size = 1 << gen.high_bits
    full = size - 1
    steps = []
    product = 1
    for j, pick in enumerate(picks[:51]):
        inverse, sets = _high_sets(gen, j, pick)
        steps.append((_A[j], _C[j], inverse, sets))
        n = 52 - j
        product *= n // (n & -n)
        if product >= 16 * size or len(steps) == 4:
            break
    found = []
    for index, low in enumerate(lows):
        allowed = full_mask = (1 << size) - 1
        for a, c, inverse, sets in steps:
            state = a * low + c
            shift = ((state >> _LOW) * inverse) & full
            rotated = sets[(state >> 16) & 31]
            allowed &= ((rotated >> shift) | (rotated << (size - shift))) & full_mask
            if not allowed:
                break
        while allowed:
            high = (allowed & -allowed).bit_length() - 1
            allowed &= allowed - 1
            seed = low | high << _LOW
            if seed >= gen.min_seed and _matches(seed, picks, gen):
                found.append(gen.first + seed)
        if index % _CHECK_EVERY == 0:
            yield None
    found.sort()
    yield from found


def _search_dense(gen: _Generator, picks: list[int], lows: list[int]) -> Iterator[int | None]:
    """Yield every deal of ``gen`` in order, lazily, for 1 or 2 picks (millions of deals)."""
    for high in range(1 << gen.high_bits):
        base = high << _LOW
        for start in range(0, len(lows), _CHECK_EVERY * 16):
            for low in lows[start : start + _CHECK_EVERY * 16]:
                seed = base | low
                if seed >= gen.min_seed and _matches(seed, picks, gen):
                    yield gen.first + seed
            yield None


def search(cards: Iterable[Card]) -> Iterator[int | None]:
    """Yield every deal number that begins with ``cards``, ascending, with ``None`` between.

    The ``None`` values are progress ticks, a few milliseconds of work apart, so that a caller
    can stop and go on later. ``cards`` must be valid (see :func:`layout_cards`).
    """
    cards = tuple(cards)
    for number in (-2, -1):
        if _SPECIAL_CARDS[number][: len(cards)] == cards:
            yield number
    if not cards:
        yield from range(1, MAX_DEAL + 1)
        return
    chosen = picks(cards)
    lows: dict[int, list[int]] = {}
    for gen in _GENERATORS:
        key = gen.add % 32
        if key not in lows:
            lows[key] = yield from _low_seeds(chosen, gen.add)
        run = _search_dense if len(chosen) <= 2 else _search_sparse
        yield from run(gen, chosen, lows[key])


def identify(cards: Deal | Position | str | Iterable[Card | str]) -> Iterator[int]:
    """Yield, ascending, every deal number whose layout begins with these cards.

    ``cards`` is a whole layout (a :class:`~freecell.Deal`, a start
    :class:`~freecell.Position`, 52 cards) or its first cards in dealing order, as the task
    prints them row by row, left to right: ints, card codes, or text that
    :func:`parse_layout` reads. The numbers run over -2, -1, 1..8,589,934,591; a whole layout
    or a first row of 8 cards takes about a second in all. Fewer than 5 cards begin millions of
    deals: take what you need with :func:`itertools.islice`. Raises :class:`LayoutError` (or
    :class:`~freecell.CardError`) at once for anything that is no layout's beginning.

    >>> list(identify("JD 2D 9H JC 5D 7H 7C 5H"))
    [1]
    >>> list(identify(deal(617)))
    [617]
    >>> list(identify("JD 9H 2D JC 5D 7H 7C 5H"))
    []
    """
    checked = layout_cards(cards)
    return (n for n in search(checked) if n is not None)
