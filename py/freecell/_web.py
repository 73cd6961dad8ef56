"""The web page's API: a :class:`Session` of plain values in, JSON text out, for the worker.

The page's worker (web/src/app/worker.js) makes one :class:`Session` and calls its methods by
name: an operation ``"play"`` calls :meth:`Session.play`. Every method returns a JSON object
with ``"ok": true`` and its result, or ``"ok": false`` and an ``"error"`` message for the user;
none raises for bad input.

Every error also comes as data, for a page that speaks another language than English:
``"code"`` names the reason (one of :data:`ERROR_CODES`) and ``"params"`` holds its values
(card codes such as ``"9C"``, places in the notation such as ``"5"`` or ``"a"``, numbers). A
``"notice"`` comes with ``"notice_code"`` and ``"notice_params"`` the same way; a
``"reason"`` among the params is itself ``{"code": ..., "params": ...}``. The English text and
the data come from one table, :data:`freecell._errors.MESSAGES`.

Every reply of a session with a game carries ``"game"``, the game's state after the request
(unchanged when the request was refused), so the page never has to guess; a move also
carries ``"steps"``, the state after the player's move and after each automatic move that
followed, for the page to show one after another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from freecell._cards import CARD_CODES, RANK_CHARS, SUIT_SYMBOLS, card_is_red, parse_card
from freecell._deal import MAX_DEAL, DealNumberError, deal, format_deal, parse_deal_number
from freecell._errors import ERROR_CODES, CodedError, message, shorten
from freecell._game import CASCADES, Game, HistoryError

__all__ = ["ERROR_CODES", "MAX_LINK_MOVES", "Session", "warm_up"]

MAX_LINK_MOVES: Final = 5000
"""The most moves :meth:`Session.new_game` replays from a link; more is surely not a game."""

_FACES: Final = {
    CARD_CODES[card]: {
        "rank": "10" if card // 4 == 9 else RANK_CHARS[card // 4],
        "suit": SUIT_SYMBOLS[card % 4],
        "red": card_is_red(card),
        "rank_index": card // 4,
        "suit_index": card % 4,
    }
    for card in range(52)
}
"""Each card's face by its code: the rank as printed, the suit symbol, the colour, and the
rank (0 ace .. 12 king) and suit (0 clubs .. 3 spades) for naming it in a language."""


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)


def _refusal(error: CodedError) -> dict[str, Any]:
    """Return an error's English message, code and params, as a reply's fields."""
    return {"ok": False, "error": str(error), **error.as_data()}


def _stepped(number: int, step: int) -> int:
    """Return the deal ``step`` places after ``number`` in the order -2, -1, 1, 2, ... 2**33-1.

    Stops at either end of that order.

    >>> [_stepped(n, s) for n, s in [(617, 1), (1, -1), (-1, 1), (-2, -5), (MAX_DEAL, 1)]]
    [618, -1, 1, -2, 8589934591]
    """
    # Places: -2 -> 0, -1 -> 1, 1 -> 2, ..., MAX_DEAL -> MAX_DEAL + 1.
    place = number + 2 if number < 0 else number + 1
    place = min(max(place + int(step), 0), MAX_DEAL + 1)
    return place - 2 if place < 2 else place - 1


def _split_moves(moves: str) -> list[str]:
    return [token.strip() for token in str(moves).split(",") if token.strip()]


class Session:
    """One page's game: opened by :meth:`new_game`, then played, undone and redone.

    >>> session = Session()
    >>> json.loads(session.undo())["code"]
    'no-game'
    >>> reply = json.loads(session.new_game("1", "5a,5b,zz,5c"))
    >>> reply["game"]["moves"], reply["notice"]  # doctest: +ELLIPSIS
    (['5a', '5b'], "The link's move 3, 'zz', was not played: invalid move 'zz': ...")
    """

    def __init__(self) -> None:
        self._game: Game | None = None

    def _reply(self, game: Game, **fields: Any) -> str:
        return _json({"ok": True, **fields, "game": game.snapshot()})

    def _refuse(self, game: Game | None, error: CodedError) -> str:
        state = {} if game is None else {"game": game.snapshot()}
        return _json({**_refusal(error), **state})

    def _game_or_refusal(self) -> Game | str:
        if self._game is None:
            return self._refuse(None, CodedError("no-game"))
        return self._game

    def _played(self, game: Game, auto: bool) -> str:
        """Reply after a player's move: with ``auto``, the safe automatic moves follow."""
        steps = [game.snapshot()]
        while auto and game.auto_move() is not None:
            steps.append(game.snapshot())
        return self._reply(game, steps=steps)

    def new_game(self, text: str, moves: str = "", step: int = 0, faces: bool = True) -> str:
        """Open a game of a deal (``step`` places after the one in ``text``) and replay ``moves``.

        ``moves`` is a link's comma-separated move tokens; they are replayed with no automatic
        moves, up to the first token that is malformed or illegal, which ``"notice"`` reports.
        The reply holds the deal's ``number`` and fc-solve ``text``, the ``"game"``, and, unless
        ``faces`` is false (a caller that has them already), every card's face in ``"faces"``.
        A refused deal number leaves the session's game as it was.

        >>> reply = json.loads(Session().new_game("617", "", 1))
        >>> reply["number"], reply["game"]["cascades"][0][:2], reply["faces"]["TD"]["rank"]
        (618, ['8C', '2D'], '10')
        """
        try:
            number = parse_deal_number(str(text))
        except DealNumberError as error:
            return _json(_refusal(error))
        if step:
            number = _stepped(number, step)
        game = Game.from_deal_number(number)
        self._game = game
        extra: dict[str, Any] = {}
        tokens = _split_moves(moves)
        for index, token in enumerate(tokens[:MAX_LINK_MOVES], start=1):
            try:
                game.push(token)
            except CodedError as error:
                params = {"index": index, "move": shorten(token, 12), "reason": error.as_data()}
                extra = {"notice_code": "link-move", "notice_params": params}
                break
        else:
            if len(tokens) > MAX_LINK_MOVES:
                params = {"count": len(tokens), "max": MAX_LINK_MOVES}
                extra = {"notice_code": "link-too-long", "notice_params": params}
        if extra:
            extra["notice"] = message(extra["notice_code"], extra["notice_params"])
        if faces:
            extra["faces"] = _FACES
        return self._reply(game, number=number, text=format_deal(deal(number)), **extra)

    def play(self, source: str, target: str, card: str = "", auto: bool = True) -> str:
        """Play a player's move from ``source`` to ``target`` (places 1-8, a-d, h).

        ``card`` names the card picked up, when the player picked one: in a cascade it takes
        the cards below it along (see :meth:`~freecell.Position.find_move`). With ``auto``, the
        safe automatic moves follow, each a move of its own. A refused move gets ``"error"``,
        the engine's reason, and changes nothing.

        >>> session = Session(); _ = session.new_game("1")
        >>> reply = json.loads(session.play("5", "a"))
        >>> reply["ok"], reply["game"]["moves"], len(reply["steps"])
        (True, ['5a'], 1)
        >>> json.loads(session.play("2", "h"))["error"]
        "illegal move '2h': 9C cannot go to the foundations, which need the AC next"
        """
        game = self._game_or_refusal()
        if isinstance(game, str):
            return game
        try:
            game.push(game.position.find_move(str(source), str(target), str(card or "")))
        except CodedError as error:
            return self._refuse(game, error)
        return self._played(game, bool(auto))

    def play_card(self, card: str, auto: bool = True) -> str:
        """Play the move a double click on ``card`` makes (the engine's best move for it).

        >>> session = Session(); _ = session.new_game("1")
        >>> json.loads(session.play_card("6S"))["game"]["moves"]
        ['1a']
        >>> json.loads(session.play_card("AH"))["error"]
        'Ace of Hearts has nowhere to go.'
        """
        game = self._game_or_refusal()
        if isinstance(game, str):
            return game
        try:
            move = game.best_move_for(str(card))
        except CodedError as error:
            return self._refuse(game, error)
        if move is None:
            stuck = CodedError("card-stuck", card=CARD_CODES[parse_card(str(card))])
            return self._refuse(game, stuck)
        game.push(move)
        return self._played(game, bool(auto))

    def undo(self) -> str:
        """Take back the player's last move and the automatic moves that followed it.

        >>> session = Session(); _ = session.new_game("1", "5a,5b,5c")
        >>> _ = session.play("5", "d")
        >>> json.loads(session.undo())["game"]["moves"]
        ['5a', '5b', '5c']
        """
        return self._history(Game.undo_turn)

    def redo(self) -> str:
        """Play again what the last :meth:`undo` took back.

        >>> session = Session(); _ = session.new_game("1", "5a,5b")
        >>> _ = session.undo()
        >>> json.loads(session.redo())["game"]["moves"]
        ['5a', '5b']
        """
        return self._history(Game.redo_turn)

    def restart(self) -> str:
        """Take back every move; redo plays them again, one by one, so nothing is lost.

        >>> session = Session(); _ = session.new_game("1", "5a,5b")
        >>> reply = json.loads(session.restart())["game"]
        >>> reply["moves"], reply["can_redo"]
        ([], True)
        """
        return self._history(Game.restart)

    def _history(self, change: Callable[[Game], object]) -> str:
        game = self._game_or_refusal()
        if isinstance(game, str):
            return game
        try:
            change(game)
        except HistoryError as error:
            return self._refuse(game, error)
        return self._reply(game)

    def targets(self, source: str) -> str:
        """List the places the card(s) at ``source`` can go now, for highlighting them.

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.targets("8"))["targets"]
        ['2', '3', 'a', 'b', 'c', 'd']
        """
        game = self._game_or_refusal()
        if isinstance(game, str):
            return game
        places: list[str] = []
        for move in game.moves_from(str(source)):
            if move.target not in places:
                places.append(move.target)
        return self._reply(game, targets=places)


def warm_up(number: int) -> None:
    """Run every request of the page on a throwaway session of deal ``number``.

    The page's worker calls it in idle moments after Python's memory is restored from a
    snapshot, so that the browser's WebAssembly engine has seen the interpreter at work before
    the player's first moves; the build runs it to learn which modules the page imports.

    >>> warm_up(1)
    """
    session = Session()
    session.new_game(str(number), "", 0, faces=False)
    session.new_game(str(number), "", 1, faces=True)
    session.new_game("not a deal")
    for source in CASCADES:
        session.targets(source)
    session.play_card(CARD_CODES[0])
    session.play("1", "a")
    session.play("1", "9")
    session.undo()
    session.redo()
    session.restart()
