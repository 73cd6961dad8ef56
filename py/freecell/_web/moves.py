"""The page's requests that move in the game: the player's moves, Undo, Redo, the history.

Each takes the session's :class:`~freecell.Game` and the request's arguments as
:class:`freecell._web.Session`'s method of its name declares them, changes the game (or refuses,
changing nothing) and returns the reply, the game after the request in ``"game"``. A move's
reply describes each move made (``"made"``, :func:`freecell._web.replies.made`) and holds the
game after each (``"steps"``), the automatic moves of ``auto`` included.
"""

from collections.abc import Callable

from freecell._clicks import best_move_for, find_move, why_stuck
from freecell._errors import CodedError
from freecell._history import Game, HistoryError
from freecell._notation import Move
from freecell._rules import AutoPlay, parse_auto_play
from freecell._web.replies import automatic_moves, game_refusal, game_reply, made


def _played(game: Game, move: Move, auto: AutoPlay) -> str:
    """Play a player's move; the automatic moves of ``auto`` follow."""
    moved = [made(game.position, move)]
    game.push(move)
    steps = [game.snapshot()]
    made_auto, steps_auto = automatic_moves(game, auto)
    return game_reply(game, steps=steps + steps_auto, made=moved + made_auto)


def play(  # noqa: PLR0917 - the request's arguments, as the page sends them
    game: Game,
    source: str,
    target: str,
    card: str = "",
    auto: str = "safe",
    longest: bool = False,
) -> str:
    """Play a player's move from ``source`` to ``target`` (places 1-8, a-d, h).

    ``card`` names the card picked up, when the player picked one: in a cascade it takes
    the cards below it along; ``longest`` (a click rather than a drag) moves as much of a
    run onto an empty cascade as the rules allow (see
    :func:`freecell._clicks.find_move`). The automatic moves of ``auto`` follow (``"off"``,
    ``"safe"`` or ``"all"``: see :meth:`freecell.Position.next_auto_move`), each a move of
    its own. A refused move gets ``"error"``, the engine's reason, and changes nothing.

    >>> import json
    >>> game = Game.from_deal_number(1)
    >>> reply = json.loads(play(game, "5", "a"))
    >>> reply["ok"], reply["game"]["moves"], len(reply["steps"])
    (True, ['5a'], 1)
    >>> json.loads(play(game, "2", "h"))["error"]
    "illegal move '2h': 9C cannot go to the foundations, which need the AC next"
    """
    try:
        mode = parse_auto_play(auto)
        move = find_move(
            game.position, str(source), str(target), str(card or ""), longest=bool(longest)
        )
    except CodedError as error:
        return game_refusal(game, error)
    return _played(game, move, mode)


def play_card(game: Game, card: str, auto: str = "safe") -> str:
    """Play the move a tap or a double click on ``card`` makes (its best place).

    :func:`freecell._clicks.best_move_for` chooses it; a card with none is refused with
    the reason :func:`freecell._clicks.why_stuck` gives. The automatic moves of ``auto``
    follow, as for :func:`play`.

    >>> import json
    >>> game = Game.from_deal_number(1)
    >>> json.loads(play_card(game, "6S"))["game"]["moves"]
    ['1a']
    >>> json.loads(play_card(game, "AH"))["error"]
    'Ace of Hearts is covered by cards out of sequence with it'
    """
    try:
        mode = parse_auto_play(auto)
        move = best_move_for(game.position, str(card))
        if move is None:
            raise why_stuck(game.position, str(card))
    except CodedError as error:
        return game_refusal(game, error)
    return _played(game, move, mode)


def play_move(game: Game, move: str, auto: str = "off") -> str:
    """Play one move in standard notation (Solve plays these), the moves of ``auto`` after.

    With ``"off"``, the default, no automatic move follows.

    >>> import json
    >>> json.loads(play_move(Game.from_deal_number(617), "82"))["made"][0]["onto"]
    'KS'
    """
    try:
        mode = parse_auto_play(auto)
        resolved, _ = game.position.resolve(str(move))
    except CodedError as error:
        return game_refusal(game, error)
    return _played(game, resolved, mode)


def auto_moves(game: Game, auto: str = "safe") -> str:
    """Play the automatic moves of ``auto`` there are now (auto-play was just changed).

    They count as automatic moves of the last turn, so Undo takes them back with it.

    >>> import json
    >>> game = Game.from_deal_number(3); _ = game.push("1a")
    >>> json.loads(auto_moves(game))["game"]["moves"]
    ['1a', '5h']
    >>> json.loads(auto_moves(game, "all"))["game"]["moves"]
    ['1a', '5h', '6h']
    """
    try:
        mode = parse_auto_play(auto)
    except CodedError as error:
        return game_refusal(game, error)
    moved, steps = automatic_moves(game, mode)
    return game_reply(game, steps=steps, made=moved)


def targets(game: Game, source: str) -> str:
    """List the places the card(s) at ``source`` can go now, for highlighting them.

    >>> import json
    >>> json.loads(targets(Game.from_deal_number(617), "8"))["targets"]
    ['2', '3', 'a', 'b', 'c', 'd']
    """
    places: list[str] = []
    for move in game.position.moves_from(str(source)):
        if move.target not in places:
            places.append(move.target)
    return game_reply(game, targets=places)


def position_text(game: Game) -> str:
    """Return the game's position in fc-solve's format, as "Copy text" copies it.

    >>> import json
    >>> game = Game.from_deal_number(617); _ = game.push("82")
    >>> print(json.loads(position_text(game))["text"].splitlines()[-1])
    : AH KH TC JS 2S
    """
    return game_reply(game, text=str(game.position) + "\n")


def _history(game: Game, change: Callable[[Game], object]) -> str:
    try:
        change(game)
    except HistoryError as error:
        return game_refusal(game, error)
    return game_reply(game)


def undo(game: Game) -> str:
    """Take back the player's last move and the automatic moves that followed it.

    >>> import json
    >>> game = Game.from_deal_number(1)
    >>> _ = play(game, "5", "a"), play(game, "5", "d")
    >>> json.loads(undo(game))["game"]["moves"]
    ['5a']
    """
    return _history(game, Game.undo_turn)


def redo(game: Game) -> str:
    """Play again what the last :func:`undo` took back.

    >>> import json
    >>> game = Game.from_deal_number(1); _ = play(game, "5", "a"), undo(game)
    >>> json.loads(redo(game))["game"]["moves"]
    ['5a']
    """
    return _history(game, Game.redo_turn)


def restart(game: Game) -> str:
    """Take back every move; redo plays them again, one by one, so nothing is lost.

    >>> import json
    >>> game = Game.from_deal_number(1); _ = play(game, "5", "a"), play(game, "5", "b")
    >>> reply = json.loads(restart(game))["game"]
    >>> reply["moves"], reply["can_redo"]
    ([], True)
    """
    return _history(game, Game.restart)


def seek(game: Game, moves: int) -> str:
    """Go back or forth through the game's history until ``moves`` moves are played.

    One step is one move, automatic moves included (see :meth:`freecell.Game.seek`):
    ``moves`` runs from 0 to the moves played plus the moves to redo, and a count outside
    goes to the nearest end. Nothing is lost: the moves passed wait on the redo stack, and
    a move played from an earlier point starts a new branch, as after Undo.

    >>> import json
    >>> game = Game.from_deal_number(1)
    >>> _ = [play_move(game, move) for move in ("5a", "5b", "5c")]
    >>> reply = json.loads(seek(game, 1))["game"]
    >>> reply["moves"], reply["redo"]
    (['5a'], ['5b', '5c'])
    >>> json.loads(seek(game, 3))["game"]["moves"]
    ['5a', '5b', '5c']
    """
    game.seek(int(moves))
    return game_reply(game)
