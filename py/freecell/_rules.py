"""The FreeCell rules: a :class:`Position`, the moves it allows, and what a move makes of it.

A :class:`Position` is an immutable board: 8 cascades, 4 free cells that keep their places, and
4 foundations. Its ``str`` is fc-solve's position format (what ``fc-solve -p -t`` prints, and
reads back; :func:`freecell._fcs.parse_position` reads it here). :meth:`Position.resolve` says
whether a :class:`~freecell._notation.Move` is legal, and why not; :meth:`Position.legal_moves`
lists them all.

A card goes on a cascade onto a card one rank higher of the other colour, and to the
foundations when it is the next card of its suit. A run of several cards moves as a unit when
it has at most (empty free cells + 1) x 2^(empty cascades) cards, not counting the target
cascade when it is empty.

Positions print as ``fc-solve -p -t`` prints them, trailing spaces included, with each free cell
in a 4-character place so gaps show.

The module is one unit, :class:`Position` about 400 lines of it, as python-chess's ``Board``
is: each method is a rule or a question about one board (where a card is, how long a run may
be, whether a move is legal and why not, which moves there are, which move is automatic), and
each uses the others. Those that are not rules live elsewhere: the page's policy of taps and
drags (:mod:`freecell._clicks`), the history (:mod:`freecell._history`), the format read back
(:mod:`freecell._fcs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from freecell._cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    Card,
    card_code,
    card_is_red,
    card_rank,
    card_suit,
    make_card,
    next_home,
    parse_card,  # noqa: F401 - the doctests name cards
)
from freecell._deal import Deal, deal  # noqa: F401 - the doctests deal
from freecell._errors import CodedError, shorten
from freecell._names import CARD_CODES, RANK_CHARS, SUIT_CHARS
from freecell._notation import (
    CASCADE_INDEX,
    CASCADES,
    FOUNDATION,
    FREECELL_INDEX,
    FREECELLS,
    InvalidMoveError,
    Move,
    Place,
)

AutoPlay = Literal["off", "safe", "all"]
"""Which cards go home by themselves after a player's move (see :meth:`Position.next_auto_move`)."""
AUTO_PLAY: Final[tuple[AutoPlay, ...]] = ("off", "safe", "all")
"""The automatic-move choices: none, the safe moves home, or every card that can go home."""

FCS_SUIT_ORDER: Final = (2, 0, 1, 3)
"""The suits in the order fc-solve prints the foundations: H C D S."""
FOUNDATION_RANKS: Final = "0" + RANK_CHARS
"""How fc-solve writes a foundation of 0 to 13 cards: ``0``, ``A``, ``2`` ... ``K``."""


class IllegalMoveError(CodedError):
    """Raised for a move that the rules do not allow in the current position.

    Its ``code`` and ``params`` say why as data; ``params["move"]`` is the move's notation
    when the move has one.
    """


class PositionError(ValueError):
    """Raised for text or values that make no valid FreeCell position."""


def _codes(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(CARD_CODES[c] for c in cards)


def fits(card: Card, onto: Card) -> bool:
    """Tell whether ``card`` may go on ``onto`` in a cascade: one rank lower, other colour.

    >>> fits(parse_card("QH"), parse_card("KS")), fits(parse_card("QH"), parse_card("KD"))
    (True, False)
    """
    return card_rank(onto) == card_rank(card) + 1 and card_is_red(onto) != card_is_red(card)


def run_length(cascade: tuple[Card, ...]) -> int:
    """Return how many cards at the bottom of a cascade form a run (0 for an empty cascade)."""
    n = len(cascade)
    if n == 0:
        return 0
    length = 1
    while length < n and fits(cascade[n - length], cascade[n - length - 1]):
        length += 1
    return length


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
            for rank in range(1, n + 1):
                seen[make_card(rank, suit)] = True
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
            f"{SUIT_CHARS[s]}-{FOUNDATION_RANKS[self.foundations[s]]} " for s in FCS_SUIT_ORDER
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

    def next_home(self, suit: int) -> Card:
        """Return the card its foundation takes next: a suit's ace first, its king last.

        For a suit whose 13 cards are home, a number past the last card (52 or more).

        >>> card_code(Position.from_deal(deal(1)).next_home(HEARTS))
        'AH'
        """
        return next_home(suit, self.foundations[suit])

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
        if (k := CASCADE_INDEX.get(place)) is not None:
            cascade = self.cascades[k]
            return cascade[-1] if cascade else None
        if (k := FREECELL_INDEX.get(place)) is not None:
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
        freecell._rules.IllegalMoveError: illegal move '2h': 9C cannot go to the foundations, ...
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
            need = self.next_home(card_suit(card))
            if card != need:
                raise IllegalMoveError(
                    "foundation-needs", move=text, card=card_code(card), need=card_code(need)
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
        if onto is not None and not fits(card, onto):
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
        run = run_length(cascade)
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
        count = next((k for k in range(1, run + 1) if fits(cascade[-k], onto)), 0)
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
        return position_after(self, resolved, count)

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
        if card == self.next_home(card_suit(card)):
            moves.append(Move(source, FOUNDATION))
        run = run_length(self.cascades[CASCADES.index(source)]) if source in CASCADES else 1
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
            count = next((k for k in range(1, run + 1) if fits(cascade[-k], onto)), 0)
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
        if (k := CASCADE_INDEX.get(place)) is not None:
            cascade = self.cascades[k]
            return cascade[len(cascade) - run_length(cascade) :]
        card = self.card_at(place)
        return () if card is None else (card,)

    def is_safe_home(self, card: Card) -> bool:
        """Tell whether a card may go home automatically, as a safe move.

        It may when it is next for its foundation and no card still in play could need it:
        aces always, other cards when both cards of the other colour one rank lower are home.

        >>> Position.from_deal(deal(1)).is_safe_home(parse_card("AH"))
        True
        """
        suit, rank = card_suit(card), card_rank(card)
        if card != self.next_home(suit):
            return False
        others = (CLUBS, SPADES) if card_is_red(card) else (DIAMONDS, HEARTS)
        return rank == 1 or all(self.foundations[s] >= rank - 1 for s in others)

    def next_auto_move(self, mode: AutoPlay = "safe") -> Move | None:
        """Return the first automatic move to the foundations of a choice, or ``None``.

        ``mode`` is one of :data:`AUTO_PLAY`: ``"safe"`` moves a card that no card in play
        could still need (see :meth:`is_safe_home`), ``"all"`` any card that is next for its
        foundation (as macroxue's "max" auto-play does: it can lose a game), ``"off"`` none.
        Sources are tried in the order cascades 1-8, then free cells a-d. Raises
        :class:`~freecell.CodedError` (``"auto-play-invalid"``) for another mode.

        >>> position = Position.from_deal(deal(3)).apply("1a")
        >>> [str(position.next_auto_move(m)) for m in AUTO_PLAY]  # AH is safe
        ['None', '5h', '5h']
        >>> [str(position.apply("5h").next_auto_move(m)) for m in AUTO_PLAY]  # 2H is not
        ['None', 'None', '6h']
        """
        mode = parse_auto_play(mode)
        if mode == "off":
            return None
        for place in CASCADES + FREECELLS:
            card = self.card_at(place)
            if card is None:
                continue
            home = card == self.next_home(card_suit(card))
            if home and (mode == "all" or self.is_safe_home(card)):
                return Move(place, FOUNDATION)
        return None


def parse_auto_play(text: str) -> AutoPlay:
    """Return an automatic-move choice (one of :data:`AUTO_PLAY`) from its name.

    Raises :class:`~freecell.CodedError` (``"auto-play-invalid"``) for any other text.

    >>> parse_auto_play("all")
    'all'
    >>> parse_auto_play("max")
    Traceback (most recent call last):
    ...
    freecell._errors.CodedError: invalid auto-play 'max': choose off, safe or all
    """
    if text not in AUTO_PLAY:
        raise CodedError("auto-play-invalid", text=shorten(str(text)))
    return text


def position_after(position: Position, move: Move, count: int) -> Position:
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
        suit = card_suit(cards[0])
        foundations = tuple(n + (s == suit) for s, n in enumerate(foundations))
    elif target in FREECELLS:
        freecells[FREECELLS.index(target)] = cards[0]
    else:
        k = CASCADES.index(target)
        cascades[k] += cards
    return Position(tuple(cascades), tuple(freecells), foundations)
