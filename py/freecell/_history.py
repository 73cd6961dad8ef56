"""A game to play: a :class:`Game` is a position with the moves played, to undo and redo.

The history records which moves were automatic, so that :meth:`Game.undo_turn` takes back a
player's move together with the automatic moves that followed it; :meth:`Game.snapshot` gives
the whole game as plain values for a user interface.

:class:`Game` is one unit of about 380 lines: a move stack, a redo stack and the automatic
flags that must change together (push, undo, redo, by turns, seek, restart), and the questions
a player asks of the current position, each a line that hands it to :class:`~freecell.Position`
or :mod:`freecell._clicks`. The rules are :mod:`freecell._rules`, not here.

>>> game = Game.from_deal_number(1)
>>> game.push("5a")
Move.parse('5a')
>>> game.position.freecells_text()
'Freecells:  6C            '
>>> game.undo()
Move.parse('5a')
"""

from __future__ import annotations

from typing import TypedDict

from freecell._cards import Card, make_card, parse_card  # noqa: F401 - the doctests name cards
from freecell._clicks import best_move_for
from freecell._deal import Deal, deal
from freecell._errors import CodedError
from freecell._fcs import parse_position
from freecell._names import CARD_CODES
from freecell._notation import Move, Place, player_moves
from freecell._rules import AutoPlay, Position, position_after


class HistoryError(CodedError):
    """Raised by :class:`Game` for an undo, a redo or a restart with nothing to do.

    Its ``code`` is ``"nothing-to-undo"``, ``"nothing-to-redo"`` or ``"nothing-to-restart"``.
    """


class Snapshot(TypedDict):
    """A game as plain values, for a user interface (see :meth:`Game.snapshot`)."""

    deal: int | None
    cascades: list[list[str]]
    freecells: list[str | None]
    foundations: list[str | None]
    move_count: int
    player_moves: int
    can_undo: bool
    can_redo: bool
    won: bool
    moves: list[str]
    auto: list[bool]
    redo: list[str]
    redo_auto: list[bool]


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
    def player_moves(self) -> int:
        """The moves played as a player counts them: not those home (see :func:`player_moves`).

        >>> game = Game.from_deal_number(1)
        >>> _ = [game.push(m) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        >>> len(game.move_stack), game.player_moves
        (5, 4)
        """
        return player_moves(move for move, _, _ in self._played)

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
        """Return the move a tap or a double click on a card makes (``_clicks.best_move_for``).

        >>> Game.from_deal_number(617).best_move_for("QH")
        Move.parse('82')
        """
        return best_move_for(self._position, card)

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
        freecell._rules.IllegalMoveError: illegal move '86': QH at the bottom of cascade 8 ...
        """
        resolved = self._play(move, auto)
        self._undone.clear()
        return resolved

    def _play(self, move: Move | str, auto: bool) -> Move:
        """Play a move onto the history and return it resolved; the redo stack stays."""
        resolved, count = self._position.resolve(move)
        self._played.append((resolved, self._position, auto))
        self._position = position_after(self._position, resolved, count)
        return resolved

    def undo(self) -> Move:
        """Take back the last move and return it; :meth:`redo` plays it again.

        Raises :class:`HistoryError` when no move has been played.

        >>> Game.from_deal_number(1).undo()
        Traceback (most recent call last):
        ...
        freecell._history.HistoryError: nothing to undo: no move has been played
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
        freecell._history.HistoryError: nothing to redo: no move has been undone since the last move
        """
        if not self._undone:
            raise HistoryError("nothing-to-redo")
        move, auto = self._undone[-1]
        self._play(move, auto)
        self._undone.pop()
        return move

    def turns(self) -> list[tuple[int, Position, Move]]:
        """Each player's move so far (the automatic ones left out), first first.

        Each comes as the number of moves played before it, the position it was played from,
        and the move: a turn starts there, and :meth:`undo_turn` goes back to it.

        >>> game = Game.from_deal_number(1)
        >>> _ = [game.push(m) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        >>> [(count, str(move)) for count, _, move in game.turns()]
        [(0, '5a'), (1, '5b'), (2, '5c'), (3, '5d')]
        """
        return [
            (count, before, move)
            for count, (move, before, auto) in enumerate(self._played)
            if not auto
        ]

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

    def seek(self, count: int) -> int:
        """Undo or redo single moves until ``count`` moves are played; return how many moved.

        The history's moves are the moves played and the moves :meth:`redo` would play, so
        ``count`` goes from 0 to ``len(move_stack) + len(redo_stack)``; a count outside is
        taken as the nearest end. An automatic move is a step like any other (a history
        slider shows each), and the redo stack stays: a move played next starts a new branch.

        >>> game = Game.from_deal_number(1)
        >>> [str(game.push(m)) for m in ["5a", "5b", "5c", "5d"]], game.auto_moves()
        (['5a', '5b', '5c', '5d'], [Move.parse('5h')])
        >>> game.seek(1), [str(m) for m in game.move_stack], [str(m) for m in game.redo_stack]
        (4, ['5a'], ['5b', '5c', '5d', '5h'])
        >>> game.seek(99), game.auto_flags
        (4, [False, False, False, False, True])
        """
        wanted = min(max(int(count), 0), len(self._played) + len(self._undone))
        moved = abs(wanted - len(self._played))
        while len(self._played) > wanted:
            self.undo()
        while len(self._played) < wanted:
            self.redo()
        return moved

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

    def next_auto_move(self, mode: AutoPlay = "safe") -> Move | None:
        """Return the next automatic move of a choice (``"safe"`` unless told) without playing it.

        See :meth:`Position.next_auto_move`.

        >>> Game.from_deal_number(1).next_auto_move() is None
        True
        """
        return self._position.next_auto_move(mode)

    def auto_move(self, mode: AutoPlay = "safe") -> Move | None:
        """Play one automatic move to the foundations and return it, or return ``None``.

        ``mode`` chooses which cards go (see :meth:`Position.next_auto_move`): the safe ones
        unless told. Each automatic move is an ordinary move: it goes on the move stack and
        can be undone.

        >>> game = Game.from_deal_number(1)
        >>> [str(game.push(m)) for m in ["5a", "5b", "5c", "5d"]]
        ['5a', '5b', '5c', '5d']
        >>> game.auto_move(), game.auto_move()
        (Move.parse('5h'), None)
        """
        move = self._position.next_auto_move(mode)
        if move is not None:
            self.push(move, auto=True)
        return move

    def auto_moves(self, mode: AutoPlay = "safe") -> list[Move]:
        """Play automatic moves of a choice (safe unless told) until there is none; return them.

        >>> game = Game.from_deal_number(3); _ = game.push("1a")
        >>> game.auto_moves("safe"), game.auto_moves("all")
        ([Move.parse('5h')], [Move.parse('6h')])
        """
        moves = []
        while (move := self.auto_move(mode)) is not None:
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
                None if n == 0 else CARD_CODES[make_card(n, s)]
                for s, n in enumerate(position.foundations)
            ],
            "move_count": len(self._played),
            "player_moves": self.player_moves,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "won": position.is_won(),
            "moves": [str(move) for move, _, _ in self._played],
            "auto": self.auto_flags,
            "redo": [str(move) for move in self.redo_stack],
            "redo_auto": [auto for _, auto in reversed(self._undone)],
        }
