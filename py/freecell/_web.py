"""The web page's API: plain values in, JSON text out, called from the Pyodide worker.

Every function returns a JSON object with ``"ok": true`` and its result, or ``"ok": false``
and an ``"error"`` message for the user; none raises for bad input.

Every error also comes as data, for a page that speaks another language than English:
``"code"`` names the reason (one of :data:`ERROR_CODES`) and ``"params"`` holds its values
(card codes such as ``"9C"``, places in the notation such as ``"5"`` or ``"a"``, numbers). A
``"notice"`` comes with ``"notice_code"`` and ``"notice_params"`` the same way; a
``"reason"`` among the params is itself ``{"code": ..., "params": ...}``.

The functions keep one :class:`~freecell.Game` in this module (one per worker, so one page):
:func:`new_game` opens it, optionally replaying a link's moves, and :func:`play`,
:func:`play_card`, :func:`undo`, :func:`redo`, :func:`restart` and :func:`targets` act on it.
Every session reply carries ``"game"``, the game's state after the request (unchanged when the
request was refused), so the page never has to guess.
"""

from __future__ import annotations

import json
from typing import Any, Final

from freecell._cards import (
    CARD_CODES,
    RANK_CHARS,
    SUIT_SYMBOLS,
    CardError,
    card_is_red,
    card_name,
    parse_card,
)
from freecell._deal import (
    MAX_DEAL,
    CodedError,
    DealNumberError,
    deal,
    format_deal,
    parse_deal_number,
)
from freecell._game import (
    CASCADES,
    FOUNDATION,
    FREECELLS,
    Game,
    HistoryError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)

_SOURCES: Final = frozenset(CASCADES + FREECELLS)
_PLACES: Final = frozenset(CASCADES + FREECELLS + FOUNDATION)
MAX_LINK_MOVES: Final = 5000
"""The most moves :func:`new_game` replays from a link; more is surely not a real game."""

ERROR_CODES: Final = frozenset({
    # a deal number (freecell._deal)
    "deal-number", "deal-missing",
    # text that is no move (freecell._game.Move)
    "move-syntax", "move-places", "move-same-place", "move-cell-to-cell", "move-count",
    "move-count-places",
    # a move the rules refuse (freecell._game.Position.resolve); params["move"] is the move
    "cascade-empty", "freecell-empty", "foundation-needs", "freecell-full", "freecell-no-fit",
    "run-too-short", "run-limit", "run-limit-empty", "card-no-fit", "run-no-fit", "run-count",
    # the page's own requests (this module)
    "from-foundation", "no-place", "same-place", "card-invalid", "card-not-in-cascade",
    "bottom-card-only-foundations", "bottom-card-only-freecell", "card-stuck", "no-game",
    "nothing-to-undo", "nothing-to-redo", "nothing-to-restart",
    # notices of new_game
    "link-move", "link-too-long",
})  # fmt: skip
"""Every ``"code"`` (and ``"notice_code"``) a reply can carry: a page's catalogue covers them."""


def _card(card: int) -> dict[str, Any]:
    rank = card // 4 + 1
    return {
        "code": CARD_CODES[card],
        "name": card_name(card),
        "rank": "10" if rank == 10 else RANK_CHARS[rank - 1],
        "suit": SUIT_SYMBOLS[card % 4],
        "red": card_is_red(card),
    }


_CARDS = tuple(_card(c) for c in range(52))
_FACES: Final = {card["code"]: card for card in _CARDS}


def _coded(error: CodedError) -> dict[str, Any]:
    """Return an error's English message, code and params, as a reply's fields."""
    return {"error": str(error), "code": error.code, "params": error.params}


def _parse(text: str) -> int | DealNumberError:
    """Return the deal number in ``text``, or the error that says what is valid."""
    try:
        return parse_deal_number(str(text))
    except DealNumberError as error:
        return error


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


# --- the session: one game per worker ---------------------------------------------------------

_game: Game | None = None
_text: str = ""


def _state(game: Game) -> dict[str, Any]:
    """Return the game's state for the page: its snapshot plus what the page shows about it."""
    snap = game.snapshot()
    return {**snap, "text": _text}


def _reply(game: Game, **extra: Any) -> str:
    return json.dumps({"ok": "error" not in extra, **extra, "game": _state(game)})


def _refuse(game: Game, message: str, code: str, **params: Any) -> str:
    """Return a refusal: the English ``message``, its ``code`` and ``params``, and the game."""
    return _reply(game, error=message, code=code, params=params)


def _no_game() -> str:
    return json.dumps({
        "ok": False,
        "error": "no game is open: open a deal first",
        "code": "no-game",
        "params": {},
    })  # fmt: skip


def _split_moves(moves: str) -> list[str]:
    return [token.strip() for token in str(moves).split(",") if token.strip()]


def new_game(text: str, moves: str = "", step: int = 0, faces: bool = True) -> str:
    """Open a game of a deal (``step`` places after the one in ``text``) and replay ``moves``.

    ``moves`` is a link's comma-separated move tokens; they are replayed with no automatic
    moves, up to the first token that is malformed or illegal, which ``"notice"`` reports. The
    reply holds the deal's ``number`` and fc-solve ``text``, the ``"game"``, and, unless
    ``faces`` is false (a caller that has them already), every card's face in ``"faces"``.

    >>> reply = json.loads(new_game("1", "5a,5b,zz,5c"))
    >>> reply["game"]["moves"], reply["notice"]  # doctest: +ELLIPSIS
    (['5a', '5b'], "The link's move 3, 'zz', was not played: invalid move 'zz': ...")
    """
    global _game, _text
    number = _parse(text)
    if isinstance(number, DealNumberError):
        return json.dumps({"ok": False, **_coded(number)})
    if step:
        number = _stepped(number, step)
    game = Game.from_deal_number(number)
    _game, _text = game, format_deal(deal(number))
    extra: dict[str, Any] = {}
    tokens = _split_moves(moves)
    for index, token in enumerate(tokens[:MAX_LINK_MOVES], start=1):
        try:
            game.push(token)
        except (IllegalMoveError, InvalidMoveError) as error:
            shown = token if len(token) <= 12 else token[:12] + "…"
            extra["notice"] = f"The link's move {index}, {shown!r}, was not played: {error}"
            extra["notice_code"] = "link-move"
            extra["notice_params"] = {
                "index": index,
                "move": shown,
                "reason": {"code": error.code, "params": error.params},
            }
            break
    else:
        if len(tokens) > MAX_LINK_MOVES:
            extra["notice"] = (
                f"The link holds {len(tokens)} moves; only the first {MAX_LINK_MOVES} were played."
            )
            extra["notice_code"] = "link-too-long"
            extra["notice_params"] = {"count": len(tokens), "max": MAX_LINK_MOVES}
    if faces:
        extra["faces"] = _FACES
    return _reply(game, number=number, text=_text, **extra)


def _with_autos(game: Game, auto: bool) -> list[dict[str, Any]]:
    """After a user's move: play the safe automatic moves if ``auto``; return every step."""
    steps = [_state(game)]
    if auto:
        while game.auto_move() is not None:
            steps.append(_state(game))
    return steps


def _check_places(source: str, target: str) -> None:
    """Raise :class:`IllegalMoveError` or :class:`InvalidMoveError` for places no move joins."""
    if source not in _SOURCES:
        msg = "cards leave from a cascade or a free cell, never from the foundations"
        raise IllegalMoveError(msg, code="from-foundation")
    if target not in _PLACES:
        msg = f"invalid move {source + target!r}: there is no place {target!r}"
        params = {"move": source + target, "place": target}
        raise InvalidMoveError(msg, code="no-place", params=params)
    if source == target:
        msg = "the card is already there"
        raise IllegalMoveError(msg, code="same-place")


def _user_move(game: Game, source: str, target: str, card: str) -> Move:
    """Return the move a user means by taking ``card`` (or the place's card) to ``target``.

    Raises :class:`IllegalMoveError` or :class:`InvalidMoveError` saying why it cannot be.
    """
    _check_places(source, target)
    position = game.position
    if not card or source in FREECELLS:
        if target in CASCADES and source in CASCADES and position.card_at(target) is None:
            # onto an empty cascade: the longest run that may go there
            moves = [m for m in position.moves_from(source) if m.target == target]
            if moves:
                return moves[-1]
        return Move(source, target)
    try:
        held = parse_card(card)
    except CardError as error:
        raise InvalidMoveError(str(error), code="card-invalid", params={"text": card}) from None
    cascade = position.cascades[CASCADES.index(source)]
    if held not in cascade:
        msg = f"{card_name(held)} is not in cascade {source}"
        params: dict[str, Any] = {"card": CARD_CODES[held], "cascade": source}
        raise IllegalMoveError(msg, code="card-not-in-cascade", params=params)
    count = len(cascade) - cascade.index(held)
    if count == 1:
        return Move(source, target)
    if target not in CASCADES:
        where = "the foundations" if target == FOUNDATION else "a free cell"
        msg = (
            f"illegal move {source + target!r}: only the bottom card of cascade {source} can go "
            f"to {where}, and {CARD_CODES[held]} has {count - 1} below it"
        )
        params = {
            "move": source + target,
            "cascade": source,
            "card": CARD_CODES[held],
            "below": count - 1,
        }
        if target == FOUNDATION:
            raise IllegalMoveError(msg, code="bottom-card-only-foundations", params=params)
        raise IllegalMoveError(msg, code="bottom-card-only-freecell", params=params)
    return Move(source, target, count)


def play(source: str, target: str, card: str = "", auto: bool = True) -> str:
    """Play a user's move from ``source`` to ``target`` (places as in the notation: 1-8, a-d, h).

    ``card`` names the card picked up, when the user picked one: in a cascade it takes the
    cards below it along. Without it, a move onto an empty cascade takes the longest run that
    may go. With ``auto``, the safe automatic moves follow, each a move of its own. The reply's
    ``"steps"`` holds the game after each move made; a refused move gets ``"error"``, the
    engine's reason, and changes nothing.

    >>> _ = new_game("1")
    >>> reply = json.loads(play("5", "a"))
    >>> reply["ok"], reply["game"]["moves"], len(reply["steps"])
    (True, ['5a'], 1)
    >>> json.loads(play("2", "h"))["error"]  # doctest: +ELLIPSIS
    "illegal move '2h': 9C cannot go to the foundations, which need the AC next"
    """
    game = _game
    if game is None:
        return _no_game()
    try:
        move = _user_move(game, str(source), str(target), str(card or ""))
        game.push(move)
    except (IllegalMoveError, InvalidMoveError) as error:
        return _reply(game, **_coded(error))
    return _reply(game, steps=_with_autos(game, bool(auto)))


def play_card(card: str, auto: bool = True) -> str:
    """Play the move a double click on ``card`` makes (the engine's best move for it).

    >>> _ = new_game("1")
    >>> json.loads(play_card("6S"))["game"]["moves"]
    ['1a']
    >>> json.loads(play_card("AH"))["error"]
    'Ace of Hearts has nowhere to go.'
    """
    game = _game
    if game is None:
        return _no_game()
    try:
        move = game.best_move_for(str(card))
    except CardError as error:
        return _refuse(game, str(error), "card-invalid", text=str(card))
    if move is None:
        held = parse_card(str(card))
        message = f"{card_name(held)} has nowhere to go."
        return _refuse(game, message, "card-stuck", card=CARD_CODES[held])
    game.push(move)
    return _reply(game, steps=_with_autos(game, bool(auto)))


def _was_auto(game: Game) -> bool:
    """Tell whether the last move played is the safe automatic move of the position before it."""
    if not game.can_undo:
        return False
    last = game.move_stack[-1]
    before = game.copy()
    before.undo()
    return before.next_auto_move() == last


def undo(auto: bool = True) -> str:
    """Take back the last move; with ``auto``, also the automatic moves that followed it.

    So one undo takes back one user action when auto-moves are on: while the last move is the
    safe automatic move of the position before it, it goes, then one more move goes.

    >>> _ = new_game("1", "5a,5b,5c,5d,5h")
    >>> json.loads(undo())["game"]["moves"]
    ['5a', '5b', '5c']
    >>> json.loads(undo(auto=False))["game"]["moves"]
    ['5a', '5b']
    """
    game = _game
    if game is None:
        return _no_game()
    if not game.can_undo:
        return _refuse(game, "Nothing to undo: no move has been played.", "nothing-to-undo")
    steps = []
    while auto and game.can_undo and _was_auto(game):
        game.undo()
        steps.append(_state(game))
    if game.can_undo:
        game.undo()
        steps.append(_state(game))
    return _reply(game, steps=steps)


def redo(auto: bool = True) -> str:
    """Play the last undone move again; with ``auto``, also the automatic moves undone after it.

    >>> _ = new_game("1", "5a,5b,5c,5d,5h")
    >>> json.loads(undo())["game"]["moves"]
    ['5a', '5b', '5c']
    >>> json.loads(redo())["game"]["moves"]
    ['5a', '5b', '5c', '5d', '5h']
    """
    game = _game
    if game is None:
        return _no_game()
    try:
        game.redo()
    except HistoryError:
        message = "Nothing to redo: no move has been undone since the last move."
        return _refuse(game, message, "nothing-to-redo")
    steps = [_state(game)]
    while auto and game.can_redo:
        after = game.copy()
        after.redo()
        if game.next_auto_move() != after.move_stack[-1]:
            break
        game.redo()
        steps.append(_state(game))
    return _reply(game, steps=steps)


def restart() -> str:
    """Take back every move; redo plays them again, so nothing is lost.

    >>> _ = new_game("1", "5a,5b")
    >>> reply = json.loads(restart())["game"]
    >>> reply["moves"], reply["can_redo"]
    ([], True)
    """
    game = _game
    if game is None:
        return _no_game()
    if not game.can_undo:
        return _refuse(game, "Nothing to restart: no move has been played.", "nothing-to-restart")
    while game.can_undo:
        game.undo()
    return _reply(game, steps=[_state(game)])


def targets(source: str) -> str:
    """List the places the card(s) at ``source`` can go now, for highlighting them.

    >>> _ = new_game("617")
    >>> json.loads(targets("8"))["targets"]
    ['2', '3', 'a', 'b', 'c', 'd']
    """
    game = _game
    if game is None:
        return _no_game()
    places: list[str] = []
    if str(source) in _SOURCES:
        for move in game.moves_from(str(source)):
            if move.target not in places:
                places.append(move.target)
    return _reply(game, targets=places)


def warm_up(number: int) -> None:
    """Run the page's requests on a throwaway game of deal ``number``; the session's stays.

    After Python's memory is restored from a snapshot, the browser's WebAssembly engine has
    not yet seen the interpreter at work and runs it on unoptimised code for a while; the
    worker calls this in idle moments after the first board so that the user's first moves
    do not pay for that.

    >>> _ = new_game("617", "5a")
    >>> warm_up(1)
    >>> reply = json.loads(targets("1"))
    >>> reply["game"]["moves"], reply["game"]["text"].split()[:2]
    (['5a'], ['7D', 'TD'])
    """
    global _game, _text
    session = _game, _text
    try:
        new_game(str(number), "", 0, faces=False)
        for source in CASCADES:
            targets(source)
        play_card(CARD_CODES[0])
        play("1", "a")
        undo()
        redo()
        restart()
    finally:
        _game, _text = session
