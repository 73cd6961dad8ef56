"""A game opened as a link names it: the deal a step from another, its moves, its history.

:meth:`freecell._web.Session.new_game` opens the deal ``step`` places after a number in the
order of Prev and Next (:func:`stepped`), replays the link's moves (:func:`replay`) and takes
from the page what it kept of the game besides them (:class:`PageHistory`: which moves were
automatic, and the moves waiting to be redone), used only if it fits the moves.
"""

from __future__ import annotations

import json
from typing import Any, Final, TypeGuard

from freecell._deal import MAX_DEAL
from freecell._errors import CodedError, message, shorten
from freecell._history import Game

MAX_LINK_MOVES: Final = 5000
"""The most moves :meth:`Session.new_game <freecell._web.Session.new_game>` replays from a
link; more is surely not a game."""


def stepped(number: int, step: int) -> int:
    """Return the deal ``step`` places after ``number`` in the order -2, -1, 1, 2, ... 2**33-1.

    Stops at either end of that order.

    >>> [stepped(n, s) for n, s in [(617, 1), (1, -1), (-1, 1), (-2, -5), (MAX_DEAL, 1)]]
    [618, -1, 1, -2, 8589934591]
    """
    # Places: -2 -> 0, -1 -> 1, 1 -> 2, ..., MAX_DEAL -> MAX_DEAL + 1.
    place = number + 2 if number < 0 else number + 1
    place = min(max(place + int(step), 0), MAX_DEAL + 1)
    return place - 2 if place < 2 else place - 1


def _split_moves(moves: str) -> list[str]:
    return [token.strip() for token in str(moves).split(",") if token.strip()]


def _is_list_of(value: Any, kind: type, length: int) -> TypeGuard[list[Any]]:
    """Tell whether ``value`` is a list of ``length`` items of type ``kind``."""
    return (
        isinstance(value, list)
        and len(value) == length
        and all(isinstance(item, kind) for item in value)
    )


class PageHistory:
    """What a page kept of a game besides its moves: automatic flags and the redo stack.

    >>> kept = PageHistory.read('{"auto": [true], "redo": ["5b"], "redo_auto": [false]}', 1)
    >>> kept.auto, kept.redo
    ([True], ['5b'])
    >>> PageHistory.read("not a history", 2).auto
    [False, False]
    """

    def __init__(self, auto: list[bool], redo: list[str], redo_auto: list[bool]) -> None:
        self.auto = auto
        self.redo = redo
        self.redo_auto = redo_auto

    @classmethod
    def read(cls, text: str, moves: int) -> PageHistory:
        """Read a page's history of a game of ``moves`` moves; an unfit one reads as none."""
        try:
            value = json.loads(text) if text else None
        except ValueError:
            value = None
        if isinstance(value, dict):
            auto, redo, redo_auto = (value.get(key) for key in ("auto", "redo", "redo_auto"))
            count = len(redo) if isinstance(redo, list) else -1
            if (
                _is_list_of(auto, bool, moves)
                and 0 <= count <= MAX_LINK_MOVES
                and _is_list_of(redo, str, count)
                and _is_list_of(redo_auto, bool, count)
            ):
                return cls(auto, redo, redo_auto)
        return cls([False] * moves, [], [])

    def restore_redo(self, game: Game) -> None:
        """Put the kept redo moves back on the game's redo stack, as far as they are legal."""
        pushed = 0
        for move, auto in zip(self.redo, self.redo_auto, strict=True):
            try:
                game.push(move, auto=auto)
            except CodedError:
                break
            pushed += 1
        for _ in range(pushed):
            game.undo()


def replay(game: Game, moves: str, history: str) -> dict[str, Any]:
    """Replay a link's comma-separated ``moves`` on a new game; return the notice's fields.

    The moves are played up to the first that is malformed or illegal, at most
    :data:`MAX_LINK_MOVES` of them; ``history`` (:class:`PageHistory`) says which were
    automatic and, when every move was played, the moves to put back on the redo stack. The
    fields are none, or ``"notice"``, ``"notice_code"`` and ``"notice_params"`` saying why a
    move was not played.

    >>> game = Game.from_deal_number(1)
    >>> replay(game, "5a,zz", "")["notice_code"], [str(move) for move in game.move_stack]
    ('link-move', ['5a'])
    """
    extra: dict[str, Any] = {}
    tokens = _split_moves(moves)
    kept = PageHistory.read(history, len(tokens))
    for index, token in enumerate(tokens[:MAX_LINK_MOVES], start=1):
        try:
            game.push(token, auto=kept.auto[index - 1])
        except CodedError as error:
            params = {"index": index, "move": shorten(token), "reason": error.as_data()}
            extra = {"notice_code": "link-move", "notice_params": params}
            break
    else:
        if len(tokens) > MAX_LINK_MOVES:
            params = {"count": len(tokens), "max": MAX_LINK_MOVES}
            extra = {"notice_code": "link-too-long", "notice_params": params}
        else:
            kept.restore_redo(game)
    if extra:
        extra["notice"] = message(extra["notice_code"], extra["notice_params"])
    return extra
