"""The FreeCell rules: positions, moves in fc-solve's standard notation, and a game to play.

A :class:`Position` is an immutable board: 8 cascades, 4 free cells that keep their places, and
4 foundations. Its ``str`` is fc-solve's position format (what ``fc-solve -p -t`` prints, and
reads back). A :class:`Move` is a value whose ``str`` is the standard notation fc-solve prints
with ``-m -snx``: places are cascades ``1``-``8``, free cells ``a``-``d`` and the foundations
``h``, so ``1a`` puts the bottom card of cascade 1 in free cell a, ``a3`` puts it on cascade 3,
``2h`` sends a card home and ``36`` moves cards between cascades. A :class:`Game` is a position
with a stack of played moves that can be undone and redone.

Notation, as fc-solve uses it:

* ``36`` onto a cascade that holds cards moves the one run (descending, alternating colours) at
  the bottom of cascade 3 whose top card fits on the bottom card of cascade 6; onto an empty
  cascade it moves one card, and ``36v3`` moves a run of 3 (fc-solve's extended notation, which
  it prints only for a move of several cards to an empty cascade).
* fc-solve prints a card count of 10 or more as one hex digit: ``82vc`` moves 12 cards. Both
  forms are read (no run is longer than 13, so ``v10``-``v13`` and ``va``-``vd`` never collide);
  a :class:`Move` always prints its count in decimal. :data:`MOVE_PATTERN` is the syntax.
* A move to a free cell always names the cell, and that cell must be empty. fc-solve never prints
  a move to a free cell without a letter, so there is no such notation here.
* No move goes from a free cell to another free cell, or out of the foundations.

A run of several cards moves as a unit when it has at most (empty free cells + 1) x 2^(empty
cascades) cards, not counting the target cascade when it is empty.

Positions print as ``fc-solve -p -t`` prints them, trailing spaces included, with each free cell
in a 4-character place so gaps show; :func:`parse_position` reads that back place by place.
fc-solve reads its own output too, but it takes the ``Freecells:`` line as words and so packs
the cards to the left (a ``-`` word keeps an empty cell, and both readers accept it).

>>> game = Game.from_deal_number(1)
>>> game.push("5a")
Move.parse('5a')
>>> game.position.freecells_text()
'Freecells:  6C            '
>>> game.undo()
Move.parse('5a')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, TypedDict

from freecell._cards import Card, CardError, card_code, parse_card
from freecell._deal import Deal, deal
from freecell._errors import CodedError, shorten
from freecell._names import CARD_CODES, RANK_CHARS, SUIT_CHARS

Place = str
"""A place in the notation: a cascade ``"1"``-``"8"``, a free cell ``"a"``-``"d"``, or ``"h"``."""

CASCADES: Final = "12345678"
"""The names of the 8 cascades, left to right."""
FREECELLS: Final = "abcd"
"""The names of the 4 free cells, left to right."""
FOUNDATION: Final = "h"
"""The name of the foundations (fc-solve writes ``h`` for "home")."""

_CASCADE_INDEX: Final = {place: k for k, place in enumerate(CASCADES)}
_FREECELL_INDEX: Final = {place: k for k, place in enumerate(FREECELLS)}
_SOURCES: Final = frozenset(CASCADES + FREECELLS)
_PLACES: Final = frozenset(CASCADES + FREECELLS + FOUNDATION)
_FCS_SUIT_ORDER: Final = (2, 0, 1, 3)  # fc-solve prints the foundations H C D S
_FOUNDATION_RANKS: Final = "0" + RANK_CHARS
MOVE_PATTERN: Final = r"([1-8a-d])([1-8a-dh])(?:v([0-9]{1,2}|[a-f]))?"
"""The standard notation as a regular expression, to match a whole word: ``1a``, ``36v3``, ``82vc``.

Its groups are the source, the target and the card count after ``v``: one or two decimal digits,
or one hex digit ``a``-``f`` as fc-solve prints runs of 10 or more cards. It reads the same in
Python's :mod:`re` and JavaScript's ``RegExp``. Text that matches may still name a move no rule
allows (``ab``, ``36v0``); :meth:`Move.parse` says why.
"""
_MOVE_RE: Final = re.compile(MOVE_PATTERN)


class InvalidMoveError(CodedError):
    """Raised for text that is not a move in standard notation, or a move no rule allows.

    Its ``code`` and ``params`` say why as data (see :data:`freecell._errors.MESSAGES`).
    """


class IllegalMoveError(CodedError):
    """Raised for a move that the rules do not allow in the current position.

    Its ``code`` and ``params`` say why as data; ``params["move"]`` is the move's notation
    when the move has one.
    """


class PositionError(ValueError):
    """Raised for text or values that make no valid FreeCell position."""


class HistoryError(CodedError):
    """Raised by :class:`Game` for an undo, a redo or a restart with nothing to do.

    Its ``code`` is ``"nothing-to-undo"``, ``"nothing-to-redo"`` or ``"nothing-to-restart"``.
    """


def _codes(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(CARD_CODES[c] for c in cards)


def _fits(card: Card, onto: Card) -> bool:
    """Tell whether ``card`` may go on ``onto`` in a cascade: one rank lower, other colour."""
    return onto // 4 == card // 4 + 1 and (onto % 4 in (1, 2)) != (card % 4 in (1, 2))


def _run_length(cascade: tuple[Card, ...]) -> int:
    """Return how many cards at the bottom of a cascade form a run (0 for an empty cascade)."""
    n = len(cascade)
    if n == 0:
        return 0
    length = 1
    while length < n and _fits(cascade[n - length], cascade[n - length - 1]):
        length += 1
    return length


@dataclass(frozen=True, slots=True)
class Move:
    """A move in fc-solve's standard notation: a source, a target and maybe a card count.

    ``count`` is ``None`` for the plain notation (``36``: the run that fits on a cascade with
    cards, one card onto an empty one) and the number after ``v`` otherwise. Raises
    :class:`InvalidMoveError` for places outside the notation and for moves no rule allows.

    >>> Move("3", "6", 3)
    Move.parse('36v3')
    >>> str(Move("a", "h"))
    'ah'
    >>> Move("a", "b")
    Traceback (most recent call last):
    ...
    freecell._game.InvalidMoveError: invalid move 'ab': no move goes from a free cell to a free cell
    """

    source: Place
    target: Place
    count: int | None = None

    def __post_init__(self) -> None:
        text = shorten(
            f"{self.source}{self.target}" + ("" if self.count is None else f"v{self.count}")
        )
        if self.source not in _SOURCES or self.target not in _PLACES:
            raise InvalidMoveError("move-places", move=text)
        if self.source == self.target:
            raise InvalidMoveError("move-same-place", move=text)
        if self.source in FREECELLS and self.target in FREECELLS:
            raise InvalidMoveError("move-cell-to-cell", move=text)
        if self.count is not None and (
            type(self.count) is not int or self.count < 1 or self.count > 13
        ):
            raise InvalidMoveError("move-count", move=text)
        if self.count is not None and not (self.source in CASCADES and self.target in CASCADES):
            raise InvalidMoveError("move-count-places", move=text)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move in standard notation, such as ``1a``, ``a3``, ``2h``, ``36`` or ``36v3``.

        A count of 10 to 13 may be one hex digit, as fc-solve prints it (``82vc``). Raises
        :class:`InvalidMoveError` for anything else.

        >>> Move.parse(" 36v3 ").count
        3
        >>> Move.parse("82vc")
        Move.parse('82v12')
        >>> Move.parse("9a")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        freecell._game.InvalidMoveError: invalid move '9a': write a source (cascade 1-8, free ...
        """
        match = _MOVE_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidMoveError("move-syntax", move=shorten(text))
        source, target, count = match.groups()
        if count is None:
            return cls(source, target)
        return cls(source, target, int(count, 16 if count.isalpha() else 10))

    def __str__(self) -> str:
        return f"{self.source}{self.target}" + ("" if self.count is None else f"v{self.count}")

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


class Snapshot(TypedDict):
    """A game as plain values, for a user interface (see :meth:`Game.snapshot`)."""

    deal: int | None
    cascades: list[list[str]]
    freecells: list[str | None]
    foundations: list[str | None]
    move_count: int
    can_undo: bool
    can_redo: bool
    won: bool
    moves: list[str]
    auto: list[bool]
    redo: list[str]
    redo_auto: list[bool]


@dataclass(frozen=True, slots=True)
class Position:
    """A FreeCell position; its ``str`` is fc-solve's position format.

    ``cascades`` holds 8 tuples of cards, each from the top of the pile to the exposed bottom
    card that can move; ``freecells`` holds 4 cards or ``None``; ``foundations`` holds how many
    cards of each suit (clubs, diamonds, hearts, spades) are home. Raises :class:`PositionError`
    unless every card is in exactly one place.

    >>> for line in str(Position.from_deal(deal(617))).splitlines()[:4]:
    ...     print(repr(line))
    'Foundations: H-0 C-0 D-0 S-0 '
    'Freecells:                '
    ': 7D TD TH KD 4C 4S JD'
    ': AD 7S QC 5H QS TS KS'
    """

    cascades: tuple[tuple[Card, ...], ...]
    freecells: tuple[Card | None, ...] = (None, None, None, None)
    foundations: tuple[int, ...] = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cascades", tuple(tuple(c) for c in self.cascades))
        object.__setattr__(self, "freecells", tuple(self.freecells))
        object.__setattr__(self, "foundations", tuple(self.foundations))
        if len(self.cascades) != 8 or len(self.freecells) != 4 or len(self.foundations) != 4:
            msg = (
                f"a position has 8 cascades, 4 free cells and 4 foundations, not "
                f"{len(self.cascades)}, {len(self.freecells)} and {len(self.foundations)}"
            )
            raise PositionError(msg)
        if any(not 0 <= n <= 13 for n in self.foundations):
            msg = f"a foundation holds 0 to 13 cards, not {list(self.foundations)}"
            raise PositionError(msg)
        seen = [False] * 52
        for suit, n in enumerate(self.foundations):
            for rank in range(n):
                seen[4 * rank + suit] = True
        for card in [c for cascade in self.cascades for c in cascade] + [
            c for c in self.freecells if c is not None
        ]:
            if not 0 <= card < 52:
                msg = f"a card is an int from 0 to 51, not {card!r}"
                raise PositionError(msg)
            if seen[card]:
                msg = f"{card_code(card)} is in two places"
                raise PositionError(msg)
            seen[card] = True
        missing = [c for c in range(52) if not seen[c]]
        if missing:
            msg = f"a position holds all 52 cards, but {_codes(missing)} are missing"
            raise PositionError(msg)

    @classmethod
    def from_deal(cls, d: Deal) -> Position:
        """Return the starting position of a deal.

        >>> Position.from_deal(deal(1)).cascades[0][-1] == parse_card("6S")
        True
        """
        return cls(d.columns)

    # --- printing ---------------------------------------------------------------------------

    def foundations_text(self) -> str:
        """Return the ``Foundations:`` line of fc-solve's format (it ends with a space).

        >>> Position.from_deal(deal(1)).foundations_text()
        'Foundations: H-0 C-0 D-0 S-0 '
        """
        parts = (
            f"{SUIT_CHARS[s]}-{_FOUNDATION_RANKS[self.foundations[s]]} " for s in _FCS_SUIT_ORDER
        )
        return "Foundations: " + "".join(parts)

    def freecells_text(self) -> str:
        """Return the ``Freecells:`` line of fc-solve's format: 4 places of 4 characters.

        >>> Position.from_deal(deal(1)).freecells_text()
        'Freecells:                '
        """
        return "Freecells:" + "".join(
            "    " if c is None else f" {CARD_CODES[c]:>3}" for c in self.freecells
        )

    def __repr__(self) -> str:
        return f"parse_position({str(self)!r})"

    def __str__(self) -> str:
        lines = [self.foundations_text(), self.freecells_text()]
        lines += [(": " + _codes(cascade)) if cascade else ": " for cascade in self.cascades]
        return "\n".join(lines)

    # --- questions ---------------------------------------------------------------------------

    def is_won(self) -> bool:
        """Tell whether all 52 cards are on the foundations.

        >>> Position.from_deal(deal(1)).is_won()
        False
        """
        return self.foundations == (13, 13, 13, 13)

    def empty_freecells(self) -> int:
        """Return how many free cells are empty.

        >>> Position.from_deal(deal(1)).empty_freecells()
        4
        """
        return self.freecells.count(None)

    def empty_cascades(self) -> int:
        """Return how many cascades are empty.

        >>> Position.from_deal(deal(1)).empty_cascades()
        0
        """
        return sum(1 for cascade in self.cascades if not cascade)

    def max_run(self, to_empty_cascade: bool = False) -> int:
        """Return how many cards can move as a unit, onto a cascade with cards or an empty one.

        The limit is (empty free cells + 1) x 2^(empty cascades), not counting the target
        cascade when it is empty.

        >>> Position.from_deal(deal(1)).max_run()
        5
        """
        empty = self.empty_cascades() - (1 if to_empty_cascade else 0)
        return (self.empty_freecells() + 1) << max(empty, 0)

    def card_at(self, place: Place) -> Card | None:
        """Return the card that can leave a place: a cascade's bottom card or a free cell's card.

        Returns ``None`` for an empty place, the foundations and text that names no place.

        >>> card_code(Position.from_deal(deal(1)).card_at("1") or 0)
        '6S'
        """
        if (k := _CASCADE_INDEX.get(place)) is not None:
            cascade = self.cascades[k]
            return cascade[-1] if cascade else None
        if (k := _FREECELL_INDEX.get(place)) is not None:
            return self.freecells[k]
        return None

    def find(self, card: Card) -> Place:
        """Return the place of a card: a cascade, a free cell or ``"h"``.

        >>> Position.from_deal(deal(1)).find(parse_card("AH"))
        '7'
        """
        for k, cascade in enumerate(self.cascades):
            if card in cascade:
                return CASCADES[k]
        if card in self.freecells:
            return FREECELLS[self.freecells.index(card)]
        return FOUNDATION

    # --- the rules ---------------------------------------------------------------------------

    def _limit_error(self, move: Move, count: int, to_empty: bool) -> IllegalMoveError:
        """Return the error of a run of ``count`` cards that is too long to move as a unit."""
        return IllegalMoveError(
            "run-limit-empty" if to_empty else "run-limit",
            move=str(move),
            count=count,
            max=self.max_run(to_empty),
            cells=self.empty_freecells(),
            cascades=self.empty_cascades() - (1 if to_empty else 0),
        )

    def resolve(self, move: Move | str) -> tuple[Move, int]:
        """Check a move and return it in its shortest notation with the number of cards it moves.

        Raises :class:`IllegalMoveError`, saying why, if the rules do not allow it, and
        :class:`InvalidMoveError` for text that is no move.

        >>> Position.from_deal(deal(1)).resolve("5a")
        (Move.parse('5a'), 1)
        >>> Position.from_deal(deal(1)).resolve("2h")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        freecell._game.IllegalMoveError: illegal move '2h': 9C cannot go to the foundations, ...
        """
        if isinstance(move, str):
            move = Move.parse(move)
        source, target, text = move.source, move.target, str(move)
        card = self.card_at(source)
        if card is None:
            if source in CASCADES:
                raise IllegalMoveError("cascade-empty", move=text, cascade=source)
            raise IllegalMoveError("freecell-empty", move=text, cell=source)
        if target == FOUNDATION:
            home = self.foundations[card % 4]
            if home != card // 4:
                need = CARD_CODES[4 * home + card % 4]
                raise IllegalMoveError(
                    "foundation-needs", move=text, card=card_code(card), need=need
                )
            return move, 1
        if target in FREECELLS:
            held = self.freecells[FREECELLS.index(target)]
            if held is not None:
                raise IllegalMoveError(
                    "freecell-full", move=text, cell=target, card=card_code(held)
                )
            return move, 1
        onto = self.card_at(target)
        if source in CASCADES:
            return self._resolve_run(move, onto)
        if onto is not None and not _fits(card, onto):
            raise IllegalMoveError(
                "freecell-no-fit",
                move=text,
                card=card_code(card),
                cell=source,
                onto=card_code(onto),
                cascade=target,
            )
        return move, 1

    def _resolve_run(self, move: Move, onto: Card | None) -> tuple[Move, int]:
        """Resolve a move between two cascades, given the bottom card of the target or None."""
        source, target, text = move.source, move.target, str(move)
        cascade = self.cascades[CASCADES.index(source)]
        run = _run_length(cascade)
        if onto is None:
            count = 1 if move.count is None else move.count
            if count > run:
                raise IllegalMoveError(
                    "run-too-short",
                    move=text,
                    cascade=source,
                    cards=[CARD_CODES[c] for c in cascade[-run:]],
                    count=count,
                )
            if count > self.max_run(to_empty_cascade=True):
                raise self._limit_error(move, count, to_empty=True)
            return Move(source, target, None if count == 1 else count), count
        count = next((k for k in range(1, run + 1) if _fits(cascade[-k], onto)), 0)
        if count == 0:
            raise IllegalMoveError(
                "card-no-fit" if run == 1 else "run-no-fit",
                move=text,
                cards=[CARD_CODES[c] for c in cascade[-run:]],
                cascade=source,
                onto=card_code(onto),
                target=target,
            )
        if move.count is not None and move.count != count:
            raise IllegalMoveError(
                "run-count",
                move=text,
                onto=card_code(onto),
                target=target,
                cards=[CARD_CODES[c] for c in cascade[-count:]],
                count=move.count,
            )
        if count > self.max_run():
            raise self._limit_error(move, count, to_empty=False)
        return Move(source, target), count

    def is_legal(self, move: Move | str) -> bool:
        """Tell whether the rules allow a move here; malformed text is simply not legal.

        >>> Position.from_deal(deal(1)).is_legal("5a"), Position.from_deal(deal(1)).is_legal("x")
        (True, False)
        """
        try:
            self.resolve(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def apply(self, move: Move | str) -> Position:
        """Return the position after a move; this position does not change.

        Raises :class:`IllegalMoveError` or :class:`InvalidMoveError` (see :meth:`resolve`).

        >>> Position.from_deal(deal(1)).apply("5a").freecells_text()
        'Freecells:  6C            '
        """
        resolved, count = self.resolve(move)
        return _after(self, resolved, count)

    def legal_moves(self) -> list[Move]:
        """Return every legal move, in their shortest notation, grouped by source place.

        For each source (cascades 1-8, then free cells a-d) the order is: the foundations, the
        cascades (several sizes of run onto an empty cascade, the largest last), the free cells.

        >>> [str(m) for m in Position.from_deal(deal(1)).legal_moves()][:6]
        ['1a', '1b', '1c', '1d', '2a', '2b']
        """
        moves: list[Move] = []
        for source in CASCADES + FREECELLS:
            moves += self.moves_from(source)
        return moves

    def moves_from(self, source: Place) -> list[Move]:
        """Return the legal moves from one place, in the order of :meth:`legal_moves`.

        >>> [str(m) for m in Position.from_deal(deal(1)).moves_from("1")]
        ['1a', '1b', '1c', '1d']
        """
        card = self.card_at(source)
        if card is None:
            return []
        moves: list[Move] = []
        if self.foundations[card % 4] == card // 4:
            moves.append(Move(source, FOUNDATION))
        run = _run_length(self.cascades[CASCADES.index(source)]) if source in CASCADES else 1
        cells = self.empty_freecells()
        for target in CASCADES:
            if target == source:
                continue
            onto = self.card_at(target)
            if onto is None:
                most = min(run, self.max_run(to_empty_cascade=True))
                moves += [Move(source, target, None if n == 1 else n) for n in range(1, most + 1)]
                continue
            cascade = self.cascades[CASCADES.index(source)] if source in CASCADES else (card,)
            count = next((k for k in range(1, run + 1) if _fits(cascade[-k], onto)), 0)
            if count and count <= self.max_run():
                moves.append(Move(source, target))
        if source in CASCADES and cells:
            free = zip(FREECELLS, self.freecells, strict=True)
            moves += [Move(source, t) for t, c in free if c is None]
        return moves

    def run_at(self, place: Place) -> tuple[Card, ...]:
        """Return the cards at the bottom of a place that form a run: what could move together.

        >>> [card_code(c) for c in Position.from_deal(deal(1)).run_at("1")]
        ['6S']
        """
        if (k := _CASCADE_INDEX.get(place)) is not None:
            cascade = self.cascades[k]
            return cascade[len(cascade) - _run_length(cascade) :]
        card = self.card_at(place)
        return () if card is None else (card,)

    def is_safe_home(self, card: Card) -> bool:
        """Tell whether a card may go home automatically, as a safe move.

        It may when it is next for its foundation and no card still in play could need it:
        aces always, other cards when both cards of the other colour one rank lower are home.

        >>> Position.from_deal(deal(1)).is_safe_home(parse_card("AH"))
        True
        """
        suit, rank = card % 4, card // 4 + 1
        if self.foundations[suit] != rank - 1:
            return False
        others = (0, 3) if suit in (1, 2) else (1, 2)
        return rank == 1 or all(self.foundations[s] >= rank - 1 for s in others)

    def next_auto_move(self) -> Move | None:
        """Return the first safe automatic move to the foundations, or ``None``.

        Sources are tried in the order cascades 1-8, then free cells a-d (see
        :meth:`is_safe_home`).

        >>> Position.from_deal(deal(1)).next_auto_move() is None
        True
        """
        for place in CASCADES + FREECELLS:
            card = self.card_at(place)
            if card is not None and self.is_safe_home(card):
                return Move(place, FOUNDATION)
        return None

    def best_move_for(self, card: Card | str) -> Move | None:
        """Return the move a double click on a card makes, or ``None`` if there is none.

        A card in a free cell goes to the foundations if it can, else onto a cascade where it
        fits, else to an empty cascade. A cascade's bottom card goes to the foundations if it
        can, else onto a cascade where it fits, else to an empty free cell (the leftmost), else
        to an empty cascade. A card higher in a cascade takes the cards below it along when they
        form a run: onto a cascade where the run fits, else to an empty cascade. Cascades are
        tried left to right. Raises :class:`~freecell.CardError` for text that is no card.

        >>> Position.from_deal(deal(1)).best_move_for("6S")
        Move.parse('1a')
        """
        if isinstance(card, str):
            card = parse_card(card)
        place = self.find(card)
        if place == FOUNDATION:
            return None
        moves = self.moves_from(place)
        run = self.run_at(place)
        if card not in run:
            return None
        size = len(run) - run.index(card)
        if size == 1 and Move(place, FOUNDATION) in moves:
            return Move(place, FOUNDATION)
        onto_cards = [
            m
            for m in moves
            if m.target in CASCADES
            and self.card_at(m.target) is not None
            and self.resolve(m)[1] == size
        ]
        if onto_cards:
            return onto_cards[0]
        if size == 1:
            cells = [m for m in moves if m.target in FREECELLS]
            if cells:
                return cells[0]
        empty = [
            m
            for m in moves
            if m.target in CASCADES and self.card_at(m.target) is None and (m.count or 1) == size
        ]
        return empty[0] if empty else None

    def find_move(
        self, source: Place, target: Place, card: Card | str | None = None, *, longest: bool = False
    ) -> Move:
        """Return the legal move that takes the card(s) at ``source`` to ``target``.

        ``card`` is the card a user picked up, if any: in a cascade, the cards below it go
        along. Without it, the place's card moves; onto an empty cascade, the longest run that
        may go there. With ``longest`` (a click, where a drag moves exactly what it holds), a
        move onto an empty cascade takes as much of the run as the rules allow: the whole
        bottom run when ``card`` is the bottom card, else the cards from ``card`` down. Raises
        :class:`IllegalMoveError` or :class:`InvalidMoveError` saying why no legal move does
        that, and :class:`~freecell.CardError` for text that is no card.

        >>> position = Position.from_deal(deal(617))
        >>> position.find_move("8", "2")
        Move.parse('82')
        >>> position.find_move("1", "a", "KD")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        freecell._game.IllegalMoveError: illegal move '1a': only the bottom card of cascade 1 ...
        """
        if source not in _SOURCES:
            raise IllegalMoveError("from-foundation")
        if target not in _PLACES:
            raise InvalidMoveError("no-place", move=shorten(source + target), place=target)
        if source == target:
            raise IllegalMoveError("same-place")
        if card is None or card == "" or source in FREECELLS:
            if target in CASCADES and source in CASCADES and self.card_at(target) is None:
                runs = [m for m in self.moves_from(source) if m.target == target]
                if runs:
                    return runs[-1]
            return self.resolve(Move(source, target))[0]
        held = parse_card(card) if isinstance(card, str) else card
        cascade = self.cascades[CASCADES.index(source)]
        if held not in cascade:
            raise IllegalMoveError("card-not-in-cascade", card=CARD_CODES[held], cascade=source)
        count = len(cascade) - cascade.index(held)
        if longest and target in CASCADES and self.card_at(target) is None:
            run = _run_length(cascade)
            wanted = run if count == 1 else min(count, run)
            count = max(1, min(wanted, self.max_run(to_empty_cascade=True)))
        if count > 1 and target not in CASCADES:
            raise IllegalMoveError(
                "bottom-card-only-foundations"
                if target == FOUNDATION
                else "bottom-card-only-freecell",
                move=source + target,
                cascade=source,
                card=CARD_CODES[held],
                below=count - 1,
            )
        return self.resolve(Move(source, target, None if count == 1 else count))[0]


def _after(position: Position, move: Move, count: int) -> Position:
    """Return the position after a resolved move of ``count`` cards."""
    cascades = list(position.cascades)
    freecells = list(position.freecells)
    foundations = position.foundations
    source, target = move.source, move.target
    if source in CASCADES:
        k = CASCADES.index(source)
        cards = cascades[k][-count:]
        cascades[k] = cascades[k][:-count]
    else:
        k = FREECELLS.index(source)
        held = freecells[k]
        cards = () if held is None else (held,)
        freecells[k] = None
    if target == FOUNDATION:
        suit = cards[0] % 4
        foundations = tuple(n + (s == suit) for s, n in enumerate(foundations))
    elif target in FREECELLS:
        freecells[FREECELLS.index(target)] = cards[0]
    else:
        k = CASCADES.index(target)
        cascades[k] += cards
    return Position(tuple(cascades), tuple(freecells), foundations)


def _parse_rank(text: str, line: str) -> int:
    rank = {"0": 0, "10": 10}.get(text.upper())
    if rank is None and len(text) == 1 and text.upper() in _FOUNDATION_RANKS:
        rank = _FOUNDATION_RANKS.index(text.upper())
    if rank is None:
        msg = f"invalid foundation rank {text!r} in {line!r}: write 0, A, 2-9, T, J, Q or K"
        raise PositionError(msg)
    return rank


def _parse_freecells(rest: str, line: str) -> list[Card | None]:
    """Read the free cells after ``Freecells:``.

    They are read by column when they line up as fc-solve's 4-character places, else as words
    where ``-`` marks an empty cell.
    """
    stripped = rest.rstrip()
    chunks = [stripped[k : k + 4] for k in range(0, 16, 4)]
    try:
        if len(stripped) <= 16 and all(
            c == "" or (c[0] == " " and " " not in c.strip()) for c in chunks
        ):
            return [parse_card(c) if c.strip() else None for c in chunks]
        words = rest.split()
        cells: list[Card | None] = [None if w in ("-", "--") else parse_card(w) for w in words]
    except CardError as error:
        msg = f"invalid free cells {line!r}: {error}"
        raise PositionError(msg) from None
    if len(cells) > 4:
        msg = f"invalid free cells {line!r}: there are 4 free cells"
        raise PositionError(msg)
    return cells + [None] * (4 - len(cells))


def parse_position(text: str) -> Position:
    """Parse a position in fc-solve's format, or a bare board of 8 cascade lines.

    The ``Foundations:`` and ``Freecells:`` lines are optional, foundations may come in any
    order, cascade lines may start with ``:``, and tens may be written ``T`` or ``10``. Raises
    :class:`PositionError` for anything that is not a complete position.

    >>> text = str(Position.from_deal(deal(617)).apply("8a"))
    >>> parse_position(text) == Position.from_deal(deal(617)).apply("8a")
    True
    >>> parse_position("Foundations: H-A C-0 D-0 S-0").cascades  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._game.PositionError: a position has 8 cascades, 4 free cells and 4 foundations, ...
    """
    foundations = [0, 0, 0, 0]
    freecells: list[Card | None] = [None] * 4
    cascades: list[tuple[Card, ...]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        if colon and head.strip().lower() == "foundations":
            for word in rest.split():
                suit_text, dash, rank_text = word.partition("-")
                if not dash or suit_text.upper() not in SUIT_CHARS:
                    msg = f"invalid foundation {word!r} in {raw!r}: write e.g. H-5"
                    raise PositionError(msg)
                foundations[SUIT_CHARS.index(suit_text.upper())] = _parse_rank(rank_text, raw)
            continue
        if colon and head.strip().lower() == "freecells":
            freecells = _parse_freecells(raw.partition(":")[2], raw)
            continue
        if colon and head.strip() == "":
            line = rest
        try:
            cascades.append(tuple(parse_card(word) for word in line.split()))
        except CardError as error:
            msg = f"invalid cascade {raw!r}: {error}"
            raise PositionError(msg) from None
    return Position(tuple(cascades), tuple(freecells), tuple(foundations))


class Game:
    """A game of FreeCell: a position and the moves played, which can be undone and redone.

    Start from a deal, a position, or :meth:`from_deal_number`. Automatic moves to the
    foundations are never made by themselves: call :meth:`auto_move` to make them one by one.
    The history records which moves were automatic, so that :meth:`undo_turn` takes back a
    player's move together with the automatic moves that followed it.

    >>> game = Game(deal(617))
    >>> [str(game.push(m)) for m in ["82", "52", "23"]]
    ['82', '52', '23']
    >>> game.position.cascades[2][-2:] == (parse_card("QH"), parse_card("JC"))
    True
    >>> game.undo(), game.can_redo
    (Move.parse('23'), True)
    >>> game.redo()
    Move.parse('23')
    >>> game.snapshot()["moves"]
    ['82', '52', '23']
    """

    def __init__(self, start: Deal | Position) -> None:
        if isinstance(start, Deal):
            self._deal: int | None = start.number
            start = Position.from_deal(start)
        else:
            self._deal = None
        self._start = start
        self._position = start
        # Each move played: the move, the position before it, and whether it was automatic.
        self._played: list[tuple[Move, Position, bool]] = []
        # The moves undone, last undone last, with their flags; a new move clears them.
        self._undone: list[tuple[Move, bool]] = []

    @classmethod
    def from_deal_number(cls, number: int) -> Game:
        """Start a game of a deal by its number.

        Raises :class:`~freecell.DealNumberError` for a number that names no deal.

        >>> Game.from_deal_number(617).deal_number
        617
        """
        return cls(deal(number))

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Start a game from a position in fc-solve's format (see :func:`parse_position`).

        Raises :class:`PositionError` for text that is no complete position.

        >>> game = Game.from_text(str(Position.from_deal(deal(1)).apply("5a")))
        >>> game.position.freecells_text(), game.deal_number
        ('Freecells:  6C            ', None)
        """
        return cls(parse_position(text))

    @property
    def deal_number(self) -> int | None:
        """The number of the deal the game started from, or ``None`` if it started elsewhere."""
        return self._deal

    @property
    def position(self) -> Position:
        """The current position."""
        return self._position

    @property
    def start(self) -> Position:
        """The starting position."""
        return self._start

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far, first first (a copy)."""
        return [move for move, _, _ in self._played]

    @property
    def auto_flags(self) -> list[bool]:
        """Whether each move of :attr:`move_stack` was automatic (a copy).

        >>> game = Game.from_deal_number(1)
        >>> [str(game.push(m)) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        (['5a', '5b', '5c', '5d'], [Move.parse('5h')])
        >>> game.auto_flags
        [False, False, False, False, True]
        """
        return [auto for _, _, auto in self._played]

    @property
    def redo_stack(self) -> list[Move]:
        """The moves :meth:`redo` would play again, next first (a copy)."""
        return [move for move, _ in reversed(self._undone)]

    @property
    def can_undo(self) -> bool:
        """Whether a move has been played that :meth:`undo` can take back."""
        return bool(self._played)

    @property
    def can_redo(self) -> bool:
        """Whether an undone move is waiting for :meth:`redo`."""
        return bool(self._undone)

    def __str__(self) -> str:
        return str(self._position)

    def __repr__(self) -> str:
        start = f"deal({self._deal})" if self._deal is not None else "a position"
        return f"<freecell.Game from {start} after {len(self._played)} moves>"

    def copy(self) -> Game:
        """Return an independent copy, with the same history.

        >>> game = Game.from_deal_number(1); other = game.copy(); _ = other.push("5a")
        >>> game.can_undo, other.can_undo
        (False, True)
        """
        other = Game(self._start)
        other._deal = self._deal
        other._position = self._position
        other._played = list(self._played)
        other._undone = list(self._undone)
        return other

    def is_won(self) -> bool:
        """Tell whether all 52 cards are on the foundations.

        >>> Game.from_deal_number(1).is_won()
        False
        """
        return self._position.is_won()

    def legal_moves(self) -> list[Move]:
        """Return every legal move (see :meth:`Position.legal_moves`).

        >>> len(Game.from_deal_number(1).legal_moves())
        32
        """
        return self._position.legal_moves()

    def moves_from(self, source: Place) -> list[Move]:
        """Return the legal moves from one place: what a click on it could lead to.

        >>> [str(m) for m in Game.from_deal_number(617).moves_from("8")]
        ['82', '83', '8a', '8b', '8c', '8d']
        """
        return self._position.moves_from(source)

    def best_move_for(self, card: Card | str) -> Move | None:
        """Return the move a double click on a card makes (see :meth:`Position.best_move_for`).

        >>> Game.from_deal_number(617).best_move_for("QH")
        Move.parse('82')
        """
        return self._position.best_move_for(card)

    def is_legal(self, move: Move | str) -> bool:
        """Tell whether a move is legal now.

        >>> Game.from_deal_number(617).is_legal("8h")
        False
        """
        return self._position.is_legal(move)

    def push(self, move: Move | str, *, auto: bool = False) -> Move:
        """Play a move and return it in its shortest notation; the redo stack is cleared.

        ``auto`` records the move as an automatic one (see :meth:`undo_turn`). Raises
        :class:`IllegalMoveError` (the game does not change) or :class:`InvalidMoveError`.

        >>> game = Game.from_deal_number(617)
        >>> game.push("86")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        freecell._game.IllegalMoveError: illegal move '86': QH at the bottom of cascade 8 does ...
        """
        resolved, count = self._position.resolve(move)
        self._played.append((resolved, self._position, auto))
        self._position = _after(self._position, resolved, count)
        self._undone.clear()
        return resolved

    def undo(self) -> Move:
        """Take back the last move and return it; :meth:`redo` plays it again.

        Raises :class:`HistoryError` when no move has been played.

        >>> Game.from_deal_number(1).undo()
        Traceback (most recent call last):
        ...
        freecell._game.HistoryError: nothing to undo: no move has been played
        """
        if not self._played:
            raise HistoryError("nothing-to-undo")
        move, self._position, auto = self._played.pop()
        self._undone.append((move, auto))
        return move

    def redo(self) -> Move:
        """Play the last undone move again and return it.

        Raises :class:`HistoryError` when no move is waiting to be redone.

        >>> Game.from_deal_number(1).redo()
        Traceback (most recent call last):
        ...
        freecell._game.HistoryError: nothing to redo: no move has been undone since the last move
        """
        if not self._undone:
            raise HistoryError("nothing-to-redo")
        move, auto = self._undone[-1]
        resolved, count = self._position.resolve(move)
        self._played.append((resolved, self._position, auto))
        self._position = _after(self._position, resolved, count)
        self._undone.pop()
        return move

    def undo_turn(self) -> list[Move]:
        """Take back a player's last move and the automatic moves after it; return them.

        The moves come last played first. Raises :class:`HistoryError` when no move has been
        played.

        >>> game = Game.from_deal_number(1)
        >>> [str(game.push(m)) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        (['5a', '5b', '5c', '5d'], [Move.parse('5h')])
        >>> game.undo_turn()
        [Move.parse('5h'), Move.parse('5d')]
        >>> [str(move) for move in game.move_stack]
        ['5a', '5b', '5c']
        """
        taken = [self.undo()]
        while self._undone[-1][1] and self._played:
            taken.append(self.undo())
        return taken

    def redo_turn(self) -> list[Move]:
        """Play again the turn :meth:`undo_turn` took back: a move and its automatic moves.

        Raises :class:`HistoryError` when no move is waiting to be redone.

        >>> game = Game.from_deal_number(1)
        >>> _ = [game.push(m) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        >>> _ = game.undo_turn()
        >>> game.redo_turn()
        [Move.parse('5d'), Move.parse('5h')]
        """
        played = [self.redo()]
        while self._undone and self._undone[-1][1]:
            played.append(self.redo())
        return played

    def restart(self) -> list[Move]:
        """Take back every move, last first, and return them; :meth:`redo` plays them again.

        Raises :class:`HistoryError` when no move has been played.

        >>> game = Game.from_deal_number(1); _ = game.push("5a"); _ = game.push("5b")
        >>> game.restart(), game.redo_stack
        ([Move.parse('5b'), Move.parse('5a')], [Move.parse('5a'), Move.parse('5b')])
        """
        if not self._played:
            raise HistoryError("nothing-to-restart")
        return [self.undo() for _ in range(len(self._played))]

    def next_auto_move(self) -> Move | None:
        """Return the next safe automatic move without playing it.

        See :meth:`Position.next_auto_move`.

        >>> Game.from_deal_number(1).next_auto_move() is None
        True
        """
        return self._position.next_auto_move()

    def auto_move(self) -> Move | None:
        """Play one safe automatic move to the foundations and return it, or return ``None``.

        Each automatic move is an ordinary move: it goes on the move stack and can be undone.

        >>> game = Game.from_deal_number(1)
        >>> [str(game.push(m)) for m in ["5a", "5b", "5c", "5d"]]
        ['5a', '5b', '5c', '5d']
        >>> game.auto_move(), game.auto_move()
        (Move.parse('5h'), None)
        """
        move = self._position.next_auto_move()
        if move is not None:
            self.push(move, auto=True)
        return move

    def auto_moves(self) -> list[Move]:
        """Play safe automatic moves until there is none, and return them in order.

        >>> Game.from_deal_number(1).auto_moves()
        []
        """
        moves = []
        while (move := self.auto_move()) is not None:
            moves.append(move)
        return moves

    def snapshot(self) -> Snapshot:
        """Return the game as plain values for a user interface.

        Cascades are lists of card codes from the top of the pile to the bottom card, free
        cells 4 codes or ``None``, foundations the top card of each suit, in the order clubs,
        diamonds, hearts, spades, or ``None``. ``moves`` and ``auto`` are the moves played and
        whether each was automatic; ``redo`` and ``redo_auto`` the same for the moves
        :meth:`redo` would play, next first.

        >>> snap = Game.from_deal_number(617).snapshot()
        >>> snap["cascades"][7], snap["freecells"], snap["won"]
        (['AH', 'KH', 'TC', 'JS', '2S', 'QH'], [None, None, None, None], False)
        """
        position = self._position
        return {
            "deal": self._deal,
            "cascades": [[CARD_CODES[c] for c in cascade] for cascade in position.cascades],
            "freecells": [None if c is None else CARD_CODES[c] for c in position.freecells],
            "foundations": [
                None if n == 0 else CARD_CODES[4 * (n - 1) + s]
                for s, n in enumerate(position.foundations)
            ],
            "move_count": len(self._played),
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "won": position.is_won(),
            "moves": [str(move) for move, _, _ in self._played],
            "auto": self.auto_flags,
            "redo": [str(move) for move in self.redo_stack],
            "redo_auto": [auto for _, auto in reversed(self._undone)],
        }
