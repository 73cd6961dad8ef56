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

import functools
import inspect
import json
import time
from collections.abc import Callable
from typing import Any, Concatenate, Final, ParamSpec, TypeGuard

from freecell._cards import card_is_red, card_rank, card_suit, card_unicode
from freecell._clicks import best_move_for, find_move, why_stuck
from freecell._daily import GradedDealSearch, daily_grade, parse_date, parse_grade
from freecell._deal import MAX_DEAL, DealNumberError, deal, format_deal, parse_deal_number
from freecell._difficulty import difficulty
from freecell._errors import ERROR_CODES, CodedError, message, shorten
from freecell._history import Game, HistoryError, Snapshot
from freecell._identify import parse_layout, search
from freecell._min_cells import MIN_CELLS_DEALS, MIN_CELLS_FILE, MinCells, parse_min_cells
from freecell._names import CARD_CODES, SUIT_SYMBOLS
from freecell._notation import CASCADES, Move
from freecell._protocol import REQUESTS, bind, schedule
from freecell._rules import AutoPlay, Position, parse_auto_play
from freecell._short import ShortSolver, _home_all
from freecell._solver import Solution, Solver, player_moves

_P = ParamSpec("_P")

__all__ = ["ERROR_CODES", "FIND_MOST", "MAX_LINK_MOVES", "SHORT_SECONDS", "Session", "warm_up"]

MAX_LINK_MOVES: Final = 5000
"""The most moves :meth:`Session.new_game` replays from a link; more is surely not a game."""
SEARCH_SECONDS: Final = 60.0
"""How long the page's solver may work on one position before it says it found nothing."""
SHORT_SECONDS: Final = 30.0
"""How long the page's short search (Solve) may work on one position: then the shortest
solution found so far is the answer, or, with none, today's search's answer."""
FIND_MOST: Final = 20
"""The most deal numbers :meth:`Session.identify` lists; a reply with more says ``"more"``."""
_KNOWN_MOST: Final = 20_000  # positions whose answer a session remembers before forgetting all

_FACES: Final = {
    CARD_CODES[card]: {
        "rank": card_unicode(card)[:-1],
        "suit": SUIT_SYMBOLS[card_suit(card)],
        "red": card_is_red(card),
        "rank_index": card_rank(card) - 1,
        "suit_index": card_suit(card),
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


def _site_table(text: str) -> dict[int, MinCells]:
    r"""Read the site's table of the fewest free cells: exactly the deals of MIN_CELLS_DEALS.

    Raises ValueError, saying what is wrong, for anything else.

    >>> _site_table("# freecell min-cells 1..3\n123\n")
    Traceback (most recent call last):
    ...
    ValueError: the table holds deals 1..3, not the site's 1..32000
    """
    table = parse_min_cells(text)
    deals = MIN_CELLS_DEALS
    if list(table) != list(deals):
        first, last = min(table, default=None), max(table, default=None)
        msg = f"the table holds deals {first}..{last}, not the site's {deals[0]}..{deals[-1]}"
        raise ValueError(msg)
    return table


def _split_moves(moves: str) -> list[str]:
    return [token.strip() for token in str(moves).split(",") if token.strip()]


def _is_list_of(value: Any, kind: type, length: int) -> TypeGuard[list[Any]]:
    """Tell whether ``value`` is a list of ``length`` items of type ``kind``."""
    return (
        isinstance(value, list)
        and len(value) == length
        and all(isinstance(item, kind) for item in value)
    )


def _made(position: Position, move: Move) -> dict[str, Any]:
    """Describe a legal move before it is played, for a page to say it.

    ``{"move": notation, "cards": the card codes it moves, top first, "target": the place,
    "onto": the card it goes onto, or None}``.

    >>> _made(Position.from_deal(deal(617)), Move.parse("82"))
    {'move': '82', 'cards': ['QH'], 'target': '2', 'onto': 'KS'}
    """
    resolved, count = position.resolve(move)
    if resolved.source in CASCADES:
        cards = position.cascades[CASCADES.index(resolved.source)][-count:]
    else:
        cards = tuple(card for card in [position.card_at(resolved.source)] if card is not None)
    onto = position.card_at(resolved.target) if resolved.target in CASCADES else None
    return {
        "move": str(resolved),
        "cards": [CARD_CODES[card] for card in cards],
        "target": resolved.target,
        "onto": None if onto is None else CARD_CODES[onto],
    }


def _looked_up(
    table: dict[Position, tuple[Move, ...]], position: Position
) -> tuple[Move, ...] | None:
    """Return the moves a table of positions holds for ``position``, or None.

    Held for the position itself, or for the position every card that can go home has gone
    home from: that one is the same whichever of them went home first, and in any order (a
    move home never prevents another), so the moves home come first.
    """
    known = table.get(position)
    if known is None:
        home: list[Move] = []
        settled = _home_all(position, home)
        after = table.get(settled) if home else None
        if after is not None:
            known = (*home, *after)
    return known


def _auto_play(auto: str | bool) -> AutoPlay:
    """Return the automatic-move choice a request names: ``"off"``, ``"safe"`` or ``"all"``.

    ``True`` and ``False`` (a caller of the days of one checkbox) mean ``"safe"`` and
    ``"off"``. Raises :class:`CodedError` (``"auto-play-invalid"``) for anything else.

    >>> _auto_play("all"), _auto_play(True), _auto_play(False)
    ('all', 'safe', 'off')
    """
    if isinstance(auto, bool):
        return "safe" if auto else "off"
    return parse_auto_play(auto)


def _auto_moves(game: Game, mode: AutoPlay) -> tuple[list[dict[str, Any]], list[Snapshot]]:
    """Play the automatic moves of ``mode``; return what each made and the game after each."""
    made: list[dict[str, Any]] = []
    steps: list[Snapshot] = []
    while (move := game.position.next_auto_move(mode)) is not None:
        made.append(_made(game.position, move))
        game.push(move, auto=True)
        steps.append(game.snapshot())
    return made, steps


class _History:
    """What a page kept of a game besides its moves: automatic flags and the redo stack."""

    def __init__(self, auto: list[bool], redo: list[str], redo_auto: list[bool]) -> None:
        self.auto = auto
        self.redo = redo
        self.redo_auto = redo_auto

    @classmethod
    def read(cls, text: str, moves: int) -> _History:
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


class _Identifying:
    """The search for the deals that begin with some cards, a slice at a time."""

    def __init__(self, cards: tuple[int, ...]) -> None:
        self.cards = cards
        self.numbers: list[int] = []
        self.more = False
        self._steps = search(cards)

    def step(self, max_seconds: float) -> bool:
        """Search for about ``max_seconds``; return whether the search is over."""
        deadline = time.perf_counter() + max_seconds
        for value in self._steps:
            if value is None:
                if time.perf_counter() >= deadline:
                    return False
            elif len(self.numbers) == FIND_MOST:
                self.more = True
                return True
            else:
                self.numbers.append(value)
        return True


def _with_game(
    request: Callable[Concatenate[Session, Game, _P], str],
) -> Callable[Concatenate[Session, _P], str]:
    """Make a request of a session's game: refused with ``"no-game"`` while no game is open.

    The request gets the game after ``self``; the page calls it without.
    """

    @functools.wraps(request)
    def on_the_game(self: Session, /, *args: _P.args, **kwargs: _P.kwargs) -> str:
        game = self._game
        if game is None:
            return _json(_refusal(CodedError("no-game")))
        return request(self, game, *args, **kwargs)

    signature = inspect.signature(request)
    self_, _game, *parameters = signature.parameters.values()
    on_the_game.__signature__ = signature.replace(parameters=[self_, *parameters])  # type: ignore[attr-defined]
    return on_the_game


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
        self._search: Solver | None = None
        # The game's position when the search began: the search is for that game (it may
        # search an earlier position of it, for check), and ends when the game moves on.
        self._search_at: Position | None = None
        # What searches found: a position, its result and the moves that win from it.
        self._known: dict[Position, tuple[str, tuple[Move, ...]]] = {}
        # The grade of each position searched from the start (not met on another's way).
        self._grades: dict[Position, int | None] = {}
        # The search for a deal of a grade (daily, random_deal): not the game's, so it goes on
        # while the game changes; the latest asked for replaces it, and new_game ends it.
        self._finder: GradedDealSearch | None = None
        self._found: dict[tuple[str, int], int] = {}  # (seed, grade) -> the deal found
        self._turn = 0  # whose slice think() gives next when both searches run
        self._min_cells: dict[int, MinCells] | None = None  # the site's table, once read
        # The search for the deals that begin with a layout's cards (identify): the latest
        # asked for replaces it, identify_stop ends it; what it found, by the cards.
        self._identifying: _Identifying | None = None
        self._identified: dict[tuple[int, ...], tuple[list[int], bool]] = {}
        # The search for a short solution (solve) and the game's position when it began: it
        # is dropped when the game moves on, or by solve_stop.
        self._short: ShortSolver | None = None
        self._short_at: Position | None = None
        # What short searches found, kept apart from _known so that today's answers never
        # replace a short one: the moves that win from each position on a short solution's
        # way, and the positions where a short search found nothing in its time.
        self._short_known: dict[Position, tuple[Move, ...]] = {}
        self._short_unknown: set[Position] = set()
        # The running short search's way: each position along the moves it no longer
        # changes (ShortSolver.final), with those moves from there; and its length.
        self._short_way: dict[Position, tuple[Move, ...]] = {}
        self._short_way_moves = -1
        self._short_final_said = 0  # the final moves think() has said "done" for

    def handle(self, request: str, args: str = "{}") -> str:
        """Answer one of the page's requests: ``request`` names it, ``args`` is a JSON object.

        The request must be one of :data:`freecell._protocol.REQUESTS`, and ``args`` must fit
        its method's parameters (:func:`freecell._protocol.bind`): anything else is refused
        with a message that says what the request takes. The reply is the method's.

        >>> session = Session()
        >>> json.loads(session.handle("new_game", '{"text": "617", "step": 1}'))["number"]
        618
        >>> json.loads(session.handle("seek", '{"moves": "3"}'))["error"]
        "request seek: moves must be int, not str ('3'); seek takes (moves: int)"
        >>> json.loads(session.handle("cheat"))["error"]  # doctest: +ELLIPSIS
        "unknown request 'cheat'; the requests are new_game, play, play_card, ..."
        """
        if request not in REQUESTS:
            names = ", ".join(REQUESTS)
            error = f"unknown request {shorten(str(request))!r}; the requests are {names}"
            return _json({"ok": False, "error": error})
        method = getattr(type(self), request)
        try:
            bound = bind(request, method, json.loads(args))
        except (ValueError, RecursionError) as error:  # JSONDecodeError too
            return _json({"ok": False, "error": str(error)})
        reply: str = method(self, **bound)
        return reply

    @staticmethod
    def protocol() -> str:
        """Return how the worker schedules each request (see :func:`freecell._protocol.schedule`).

        >>> json.loads(Session.protocol())["hint"]
        {'waits': True, 'ends': []}
        """
        return _json(schedule())

    def _reply(self, game: Game, **fields: Any) -> str:
        return _json({"ok": True, **fields, "game": game.snapshot()})

    def _refuse(self, game: Game, error: CodedError) -> str:
        return _json({**_refusal(error), "game": game.snapshot()})

    def _play(self, game: Game, move: Move, auto: AutoPlay) -> str:
        """Play a player's move; the automatic moves of ``auto`` follow.

        The reply's ``"made"`` describes each move made (see :func:`_made`), and ``"steps"``
        holds the game after each.
        """
        made = [_made(game.position, move)]
        game.push(move)
        steps = [game.snapshot()]
        made_auto, steps_auto = _auto_moves(game, auto)
        return self._reply(game, steps=steps + steps_auto, made=made + made_auto)

    def new_game(
        self, text: str, moves: str = "", step: int = 0, faces: bool = True, history: str = ""
    ) -> str:
        """Open a game of a deal (``step`` places after the one in ``text``) and replay ``moves``.

        ``moves`` is a link's comma-separated move tokens; they are replayed with no automatic
        moves, up to the first token that is malformed or illegal, which ``"notice"`` reports.
        ``history`` is what a page kept of this game (JSON of a snapshot's ``auto``, ``redo``
        and ``redo_auto``): which of the moves were automatic, and the moves waiting to be
        redone; it is used if it fits the moves, and ignored otherwise. The reply holds the
        deal's ``number`` and fc-solve ``text``, the ``"game"``, and, unless ``faces`` is false
        (a caller that has them already), every card's face in ``"faces"``, and the deals
        Prev and Next open, ``"previous"`` and ``"next"``: ``None`` at either end of the order
        (-2, -1, 1, 2, ... 8589934591). A refused deal number leaves the session's game as it
        was.

        >>> reply = json.loads(Session().new_game("617", "", 1))
        >>> reply["number"], reply["game"]["cascades"][0][:2], reply["faces"]["TD"]["rank"]
        (618, ['8C', '2D'], '10')
        >>> last = json.loads(Session().new_game("8589934591"))
        >>> last["previous"], last["next"]
        (8589934590, None)
        """
        try:
            number = parse_deal_number(str(text))
        except DealNumberError as error:
            return _json(_refusal(error))
        if step:
            number = _stepped(number, step)
        self._finder = None  # the player chose a deal: a search for another one is over
        game = Game.from_deal_number(number)
        self._game = game
        extra: dict[str, Any] = {}
        tokens = _split_moves(moves)
        kept = _History.read(history, len(tokens))
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
        if faces:
            extra["faces"] = _FACES
        previous, following = (_stepped(number, by) for by in (-1, 1))
        return self._reply(
            game,
            number=number,
            text=format_deal(deal(number)),
            previous=None if previous == number else previous,
            next=None if following == number else following,
            **extra,
        )

    @_with_game
    def play(  # noqa: PLR0917 - the worker passes the page's arguments by position
        self,
        game: Game,
        source: str,
        target: str,
        card: str = "",
        auto: str | bool = "safe",
        longest: bool = False,
    ) -> str:
        """Play a player's move from ``source`` to ``target`` (places 1-8, a-d, h).

        ``card`` names the card picked up, when the player picked one: in a cascade it takes
        the cards below it along; ``longest`` (a click rather than a drag) moves as much of a
        run onto an empty cascade as the rules allow (see
        :func:`freecell._clicks.find_move`). The automatic moves of ``auto`` follow (``"off"``,
        ``"safe"`` or ``"all"``: see :meth:`freecell.Position.next_auto_move`), each a move of
        its own. A refused move gets ``"error"``, the engine's reason, and changes nothing.

        >>> session = Session(); _ = session.new_game("1")
        >>> reply = json.loads(session.play("5", "a"))
        >>> reply["ok"], reply["game"]["moves"], len(reply["steps"])
        (True, ['5a'], 1)
        >>> json.loads(session.play("2", "h"))["error"]
        "illegal move '2h': 9C cannot go to the foundations, which need the AC next"
        """
        try:
            mode = _auto_play(auto)
            move = find_move(
                game.position, str(source), str(target), str(card or ""), longest=bool(longest)
            )
        except CodedError as error:
            return self._refuse(game, error)
        return self._play(game, move, mode)

    @_with_game
    def play_card(self, game: Game, card: str, auto: str | bool = "safe") -> str:
        """Play the move a tap or a double click on ``card`` makes (its best place).

        :func:`freecell._clicks.best_move_for` chooses it; a card with none is refused with
        the reason :func:`freecell._clicks.why_stuck` gives. The automatic moves of ``auto``
        follow, as for :meth:`play`.

        >>> session = Session(); _ = session.new_game("1")
        >>> json.loads(session.play_card("6S"))["game"]["moves"]
        ['1a']
        >>> json.loads(session.play_card("AH"))["error"]
        'Ace of Hearts is covered by cards out of sequence with it'
        """
        try:
            mode = _auto_play(auto)
            move = best_move_for(game.position, str(card))
            if move is None:
                raise why_stuck(game.position, str(card))
        except CodedError as error:
            return self._refuse(game, error)
        return self._play(game, move, mode)

    @_with_game
    def auto_moves(self, game: Game, auto: str | bool = "safe") -> str:
        """Play the automatic moves of ``auto`` there are now (auto-play was just changed).

        They count as automatic moves of the last turn, so Undo takes them back with it.

        >>> session = Session(); _ = session.new_game("3", "1a")
        >>> json.loads(session.auto_moves())["game"]["moves"]
        ['1a', '5h']
        >>> json.loads(session.auto_moves("all"))["game"]["moves"]
        ['1a', '5h', '6h']
        """
        try:
            mode = _auto_play(auto)
        except CodedError as error:
            return self._refuse(game, error)
        made, steps = _auto_moves(game, mode)
        return self._reply(game, steps=steps, made=made)

    @_with_game
    def position_text(self, game: Game) -> str:
        """Return the game's position in fc-solve's format, as "Copy text" copies it.

        >>> session = Session(); _ = session.new_game("617", "82")
        >>> print(json.loads(session.position_text())["text"].splitlines()[-1])
        : AH KH TC JS 2S
        """
        return self._reply(game, text=str(game.position) + "\n")

    @_with_game
    def undo(self, game: Game) -> str:
        """Take back the player's last move and the automatic moves that followed it.

        >>> session = Session(); _ = session.new_game("1", "5a,5b,5c")
        >>> _ = session.play("5", "d")
        >>> json.loads(session.undo())["game"]["moves"]
        ['5a', '5b', '5c']
        """
        return self._history(game, Game.undo_turn)

    @_with_game
    def redo(self, game: Game) -> str:
        """Play again what the last :meth:`undo` took back.

        >>> session = Session(); _ = session.new_game("1", "5a,5b")
        >>> _ = session.undo()
        >>> json.loads(session.redo())["game"]["moves"]
        ['5a', '5b']
        """
        return self._history(game, Game.redo_turn)

    @_with_game
    def restart(self, game: Game) -> str:
        """Take back every move; redo plays them again, one by one, so nothing is lost.

        >>> session = Session(); _ = session.new_game("1", "5a,5b")
        >>> reply = json.loads(session.restart())["game"]
        >>> reply["moves"], reply["can_redo"]
        ([], True)
        """
        return self._history(game, Game.restart)

    @_with_game
    def seek(self, game: Game, moves: int) -> str:
        """Go back or forth through the game's history until ``moves`` moves are played.

        One step is one move, automatic moves included (see :meth:`freecell.Game.seek`):
        ``moves`` runs from 0 to the moves played plus the moves to redo, and a count outside
        goes to the nearest end. Nothing is lost: the moves passed wait on the redo stack, and
        a move played from an earlier point starts a new branch, as after Undo.

        >>> session = Session(); _ = session.new_game("1", "5a,5b,5c")
        >>> game = json.loads(session.seek(1))["game"]
        >>> game["moves"], game["redo"]
        (['5a'], ['5b', '5c'])
        >>> json.loads(session.seek(3))["game"]["moves"]
        ['5a', '5b', '5c']
        """
        game.seek(int(moves))
        return self._reply(game)

    def _history(self, game: Game, change: Callable[[Game], object]) -> str:
        try:
            change(game)
        except HistoryError as error:
            return self._refuse(game, error)
        return self._reply(game)

    @_with_game
    def hint(self, game: Game) -> str:
        """Say what to do from the game's position: a solution from here, or that none exists.

        The answer comes at once for a position searched before or on the way of a solution
        found before (so a hint after following the last one costs nothing); a short solution
        (:meth:`solve`'s) known for the position comes first. Otherwise a search
        starts and the reply says ``"pending": true``: call :meth:`think` until it says
        ``"done"``, then ask again. The answer: ``"result"`` (``"solved"``, ``"impossible"``
        when a complete search proved it, or ``"unknown"`` when :data:`SEARCH_SECONDS` ran
        out), ``"moves"`` (a solution from here, automatic moves written out), ``"hint"``
        (its first move, as ``"made"`` describes moves) and ``"start"`` (whether the position
        is the deal's own).

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.hint())["pending"]
        True
        >>> while session.think(0.005) == "thinking":
        ...     pass  # the page's worker answers other requests meanwhile
        >>> reply = json.loads(session.hint())
        >>> reply["result"], reply["hint"]["move"] == reply["moves"][0], reply["start"]
        ('solved', True, True)
        """
        position = game.position
        short = self._short_answer(position)
        known = ("solved", short) if short is not None else self._known.get(position)
        if known is None:
            self._search_for(game, position)
            return self._reply(game, pending=True)
        return self._reply(game, **self._solution_fields(game, *known))

    def _solution_fields(self, game: Game, result: str, moves: tuple[Move, ...]) -> dict[str, Any]:
        """Return a hint's fields: the result, the moves, the first move and the start flag."""
        position = game.position
        fields: dict[str, Any] = {
            "result": result,
            "moves": [str(move) for move in moves],
            "start": position == game.start,
        }
        if moves:
            fields["hint"] = _made(position, moves[0])
        return fields

    @_with_game
    def solve(self, game: Game) -> str:
        """Answer a short solution from the game's position: the one Solve plays.

        As :meth:`hint` answers (the same fields, and ``"player_moves"``: the moves whose
        target is not a foundation), with the solution :class:`freecell.ShortSolver` finds,
        which may take seconds: until it ends the reply says ``"pending": true`` (call
        :meth:`think` until ``"done"``, then ask again), and the search is dropped when the
        game moves on, or by :meth:`solve_stop`. It may search for :data:`SHORT_SECONDS`:
        then the shortest solution found is the answer; with none, ``"unknown"``.
        ``"impossible"`` is a proof, as for a hint. Every position on a short solution's way
        is remembered, so Solve's next moves, and hints, come at once; so do those of a
        position whose cards that can go home differ only in which went home already (the
        page's automatic moves): the moves home come first.

        While the search shortens a solution, the first moves it no longer changes are an
        answer too (:attr:`freecell.ShortSolver.final`), with ``"partial": true``: the page
        plays them while the search goes on from the positions they reach.

        >>> session = Session(); _ = session.new_game("1")
        >>> while (reply := json.loads(session.solve())).get("pending") or "partial" in reply:
        ...     while session.think(0.01) == "thinking":
        ...         pass
        >>> reply["result"], reply["player_moves"]  # freecell.solve(1, short=True)'s
        ('solved', 29)
        >>> json.loads(session.hint())["moves"] == reply["moves"]
        True
        """
        position = game.position
        short = self._short_answer(position)
        known: tuple[str, tuple[Move, ...]] | None = None
        if short is not None:
            known = ("solved", short)
        elif self._verdict_known(position) == "no":
            known = ("impossible", ())
        elif position in self._short_unknown:
            known = ("unknown", ())
        if known is None:
            partial = self._short_partial(position)
            if partial is None:
                self._drop_short()
                self._short = ShortSolver(position, max_seconds=SHORT_SECONDS)
                self._short_final_said = 0
            self._short_at = position
            if not partial:
                return self._reply(game, pending=True)
            fields = self._solution_fields(game, "solved", partial)
            return self._reply(game, player_moves=player_moves(partial), partial=True, **fields)
        fields = self._solution_fields(game, *known)
        return self._reply(game, player_moves=player_moves(known[1]), **fields)

    def solve_stop(self) -> str:
        """End the search of :meth:`solve` (the page's Solve stopped).

        A solution it was shortening is remembered as it stands (hints follow it).

        >>> session = Session(); _ = session.new_game("1")
        >>> json.loads(session.solve())["pending"], json.loads(session.solve_stop())
        (True, {'ok': True})
        >>> session.think(0.005)
        'idle'
        """
        self._drop_short()
        return _json({"ok": True})

    def _drop_short(self) -> None:
        """End the short search; remember the solution it was shortening, if any, as it is.

        Its first moves (:attr:`freecell.ShortSolver.final`) are those of the search's answer
        had it gone on; the rest is shorter than today's search's, if not yet as short as the
        search would have made it.
        """
        short = self._short
        if short is not None and short.final:
            self._keep_short(short.position, short.best)
        self._short = None
        self._short_way, self._short_way_moves = {}, -1

    def _short_answer(self, position: Position) -> tuple[Move, ...] | None:
        """Return the short solution known from ``position``, or None."""
        return _looked_up(self._short_known, position)

    def _short_partial(self, position: Position) -> tuple[Move, ...] | None:
        """Return the moves the running short search keeps from ``position``, or None.

        None when no short search runs or ``position`` is not on its way; the moves may be
        none (the search has not settled any from there yet).
        """
        short = self._short
        if short is None:
            return None
        final = short.final
        if len(final) != self._short_way_moves:  # it grew: the way again
            position_on = short.position
            self._short_way = {position_on: final}
            for index, move in enumerate(final):
                position_on = position_on.apply(move)
                self._short_way[position_on] = final[index + 1 :]
            self._short_way_moves = len(final)
        return _looked_up(self._short_way, position)

    @_with_game
    def check(self, game: Game) -> str:
        """Tell whether the game can still be won from here: the page's live guard.

        It answers from what searches found before (Hint's and its own), or starts a search
        as :meth:`hint` does and says ``"pending": true`` (call :meth:`think` until ``"done"``,
        then ask again). ``"solvable"`` is ``"yes"``, ``"no"`` (a complete search proved it)
        or ``"unknown"`` (the search ran out). For ``"no"``, ``"lost"`` names the move that
        lost the game: the player's move from the last position of the game proved winnable,
        found by searching back turn by turn (each search pending in turn), as
        ``{"move_count": moves played before it, "made": as "made" describes moves}``; it is
        ``None`` if a search back ran out, or if no position was ever winnable, when
        ``"deal_lost"`` is true: the deal itself cannot be won.

        >>> session = Session(); _ = session.new_game("617", "5a,5b,5c,5d")
        >>> while json.loads(session.check()).get("pending"):
        ...     while session.think(0.005) == "thinking":
        ...         pass
        >>> reply = json.loads(session.check())
        >>> reply["solvable"], reply["lost"]["move_count"], reply["lost"]["made"]["move"]
        ('no', 3, '5d')
        """
        verdict = self._verdict(game, game.position)
        if verdict is None:
            return self._reply(game, pending=True)
        fields: dict[str, Any] = {"solvable": verdict, "lost": None, "deal_lost": False}
        if verdict == "no":
            for count, before, move in reversed(game.turns()):
                earlier = self._verdict(game, before)
                if earlier is None:
                    return self._reply(game, pending=True)
                if earlier != "no":
                    if earlier == "yes":
                        fields["lost"] = {"move_count": count, "made": _made(before, move)}
                    break
            else:
                fields["deal_lost"] = True
        return self._reply(game, **fields)

    @_with_game
    def grade(self, game: Game) -> str:
        """Grade the game's deal, 1 (easy) to 5 (hard), as :func:`freecell.difficulty` does.

        The grade comes from the search of the deal's start, the one ``freecell solve`` makes,
        so the two agree; it is ``None`` for a deal the search does not solve. Answered at once
        when that search was made before (Hint's or the guard's on the deal's start), or
        pending as for :meth:`hint`.

        >>> session = Session(); _ = session.new_game("1")
        >>> while json.loads(session.grade()).get("pending"):
        ...     while session.think(0.005) == "thinking":
        ...         pass
        >>> json.loads(session.grade())["difficulty"]
        4
        """
        start = game.start
        if start not in self._grades:
            self._search_for(game, start)
            return self._reply(game, pending=True)
        return self._reply(game, difficulty=self._grades[start])

    @_with_game
    def min_cells(self, game: Game, table: str | None = None) -> str:
        r"""Say the fewest free cells the game's deal can be won with (see freecell._min_cells).

        The reply's ``min_cells`` is 0-4, ``"impossible"`` or ``"unknown"``, or ``None`` for a
        deal outside :data:`~freecell._min_cells.MIN_CELLS_DEALS`. The site's table is read
        when first needed: until it is, a deal in its range gets ``{"table": path}`` (the
        table's path from the site's root), and the caller asks again with the table's text.
        Text that is not the table of exactly those deals (empty, an error page, another
        range) is an error, and the table is asked for again the next time.

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.min_cells())["table"]
        'data/min-cells.txt'
        >>> table = "# freecell min-cells 1..32000\n" + "4" * 32000
        >>> json.loads(session.min_cells(table))["min_cells"]
        4
        >>> _ = session.new_game("40000"); print(json.loads(session.min_cells())["min_cells"])
        None
        >>> other = Session(); _ = other.new_game("617")
        >>> print(json.loads(other.min_cells(""))["error"])
        data/min-cells.txt: a min-cells table starts with '# freecell min-cells FIRST..LAST'
        """
        number = game.deal_number
        if number is None or number not in MIN_CELLS_DEALS:
            return self._reply(game, min_cells=None)
        if self._min_cells is None:
            if table is None:
                return self._reply(game, table=MIN_CELLS_FILE)
            try:
                self._min_cells = _site_table(table)
            except ValueError as error:
                return _json({"ok": False, "error": f"{MIN_CELLS_FILE}: {error}"})
        return self._reply(game, min_cells=self._min_cells[number])

    @_with_game
    def undo_to_winnable(self, game: Game) -> str:
        """Take back turns to the last position of the game known to be winnable.

        Known from :meth:`check` (or Hint); what is taken back waits on the redo stack, as
        with Undo. Refused with ``"none-winnable"`` when no such position is known; a game
        whose position is known winnable stays as it is.

        >>> session = Session(); _ = session.new_game("617", "5a,5b,5c,5d")
        >>> json.loads(session.undo_to_winnable())["code"]
        'none-winnable'
        >>> while json.loads(session.check()).get("pending"):
        ...     while session.think(0.005) == "thinking":
        ...         pass
        >>> json.loads(session.undo_to_winnable())["game"]["moves"]
        ['5a', '5b', '5c']
        """
        if not self._is_winnable(game.position):
            winnable = (n for n, before, _ in reversed(game.turns()) if self._is_winnable(before))
            count = next(winnable, None)
            if count is None:
                return self._refuse(game, CodedError("none-winnable"))
            while len(game.move_stack) > count:
                game.undo_turn()
        return self._reply(game)

    def _verdict_known(self, position: Position) -> str | None:
        """Return what searches found for a position, as ``yes``/``no``/``unknown``, or None."""
        if self._short_answer(position) is not None or self._short_partial(position):
            return "yes"
        known = self._known.get(position)
        if known is None:
            return None
        return {"solved": "yes", "impossible": "no"}.get(known[0], "unknown")

    def _is_winnable(self, position: Position) -> bool:
        return self._verdict_known(position) == "yes"

    def _verdict(self, game: Game, position: Position) -> str | None:
        """Return :meth:`_verdict_known` for a position of the game; if unknown, search it."""
        verdict = self._verdict_known(position)
        if verdict is None:
            self._search_for(game, position)
        return verdict

    def _search_for(self, game: Game, position: Position) -> None:
        """Make the session's search the one of ``position`` (kept if it is already)."""
        if self._search is None or self._search.position != position:
            self._search = Solver(position, max_seconds=SEARCH_SECONDS)
        self._search_at = game.position

    def daily(self, date: str) -> str:
        """Find the daily deal of a UTC date (YYYY-MM-DD), as :func:`freecell.daily_deal` does.

        The answer: ``"number"`` (the deal), ``"date"`` and ``"difficulty"`` (its grade, the
        weekday's); or, while the search runs, ``"pending": true``: call :meth:`think` until
        ``"done"``, then ask again. It opens nothing: the page opens the deal with
        :meth:`new_game`, whose grade and hints then come from the search made here. Text that
        is no date is refused with ``"date-invalid"``.

        >>> session = Session()
        >>> while json.loads(session.daily("2026-11-30")).get("pending"):
        ...     while session.think(0.005) == "thinking":
        ...         pass
        >>> from freecell import daily_deal
        >>> json.loads(session.daily("2026-11-30"))["number"] == daily_deal("2026-11-30")
        True
        >>> json.loads(session.daily("30.11.2026"))["code"]
        'date-invalid'
        """
        try:
            day = parse_date(str(date))
        except CodedError as error:
            return _json(_refusal(error))
        return self._find(day.isoformat(), daily_grade(day), date=day.isoformat())

    def random_deal(self, grade: str, seed: str) -> str:
        """Find a random deal of ``grade`` (1..5), the first of ``seed``'s candidates that has it.

        As :func:`freecell.graded_deal` does: the page gives a random ``seed``. Answered as
        :meth:`daily` is (``"number"``, ``"difficulty"``, or pending); a grade out of 1..5 is
        refused with ``"grade-invalid"``, whose params say the valid ones.

        >>> json.loads(Session().random_deal("7", "any"))["error"]
        "invalid grade '7': a grade is a whole number from 1 to 5"
        """
        try:
            wanted = parse_grade(str(grade))
        except CodedError as error:
            return _json(_refusal(error))
        return self._find(str(seed), wanted)

    def _find(self, seed: str, grade: int, **fields: Any) -> str:
        """Answer a search for a deal of a grade: found before, or pending (the latest wins)."""
        number = self._found.get((seed, grade))
        if number is not None:
            return _json({"ok": True, "number": number, "difficulty": grade, **fields})
        finder = self._finder
        if finder is None or (finder.seed, finder.grade) != (seed, grade):
            self._finder = GradedDealSearch(seed, grade)
        return _json({"ok": True, "pending": True})

    def identify(self, text: str) -> str:
        """Find the deals whose layout begins with the cards of ``text``, as ``identify`` does.

        ``text`` is what :func:`freecell.parse_layout` reads: cards typed row by row, any board
        the dealer prints, fc-solve's text. The answer: ``"numbers"``, ascending, at most
        :data:`FIND_MOST` of them, ``"more"`` (whether there are more), ``"count"`` (the cards
        read) and ``"max"`` (the last deal searched); or, while the search runs, ``"pending":
        true``: call :meth:`think` until ``"done"``, then ask again. A newer text replaces the
        search. Text that is no layout's beginning is refused (``"layout-*"``, ``"card-invalid"``).

        >>> session = Session()
        >>> while json.loads(session.identify("jd 2d 9h jc 5d 7h 7c 5h")).get("pending"):
        ...     while session.think(0.005) == "thinking":
        ...         pass
        >>> json.loads(session.identify("JD 2D 9H JC 5D 7H 7C 5H"))["numbers"]
        [1]
        >>> json.loads(session.identify("JD 2D JD"))["code"]
        'layout-card-twice'
        """
        try:
            cards = parse_layout(str(text))
        except CodedError as error:
            return _json(_refusal(error))
        found = self._identified.get(cards)
        if found is not None:
            numbers, more = found
            fields = {"numbers": numbers, "more": more, "count": len(cards), "max": MAX_DEAL}
            return _json({"ok": True, **fields})
        if self._identifying is None or self._identifying.cards != cards:
            self._identifying = _Identifying(cards)
        return _json({"ok": True, "pending": True})

    def identify_stop(self) -> str:
        """End the search of :meth:`identify` (the page's Escape); what it found is dropped.

        >>> json.loads(Session().identify_stop())
        {'ok': True}
        """
        self._identifying = None
        return _json({"ok": True})

    def think(self, max_seconds: float = 0.005) -> str:
        """Work on the session's searches for about ``max_seconds``.

        There are four: the search of a position of the game (:meth:`hint`, :meth:`check`,
        :meth:`grade`) and the short search (:meth:`solve`), each dropped once the game has
        moved on; the search for a deal (:meth:`daily`, :meth:`random_deal`), which goes on
        while the game changes and ends when a deal is opened; and the search for a layout's
        deals (:meth:`identify`). With
        several, the slices take turns. Returns ``"thinking"`` (call again), ``"done"`` (a
        search ended, or the short search has more moves to answer: the requests waiting for
        one now answer, or start their next search; call again while searches remain) or
        ``"idle"``: nothing left to search.
        """
        turns: list[Callable[[float], str]] = []
        if self._finder is not None:
            turns.append(functools.partial(self._think_finder, self._finder))
        if self._identifying is not None:
            turns.append(functools.partial(self._think_identify, self._identifying))
        game_search = self._game_search()
        if game_search is not None:
            turns.append(functools.partial(self._think_game, game_search))
        short = self._short_search()
        if short is not None:
            turns.append(functools.partial(self._think_short, short))
        if not turns:
            return "idle"
        turn = turns[self._turn % len(turns)]
        self._turn += 1
        return turn(max_seconds)

    def _think_game(self, game_search: Solver, max_seconds: float) -> str:
        solution = game_search.step(max_seconds)
        if solution is None:
            return "thinking"
        self._search = None
        self._learn(game_search.position, solution)
        return "done"

    def _think_short(self, short: ShortSolver, max_seconds: float) -> str:
        solution = short.step(max_seconds)
        if solution is None:
            # More moves final: "done" for the requests waiting (a solve answers them), though
            # the search goes on.
            final = len(short.final)
            if final == self._short_final_said:
                return "thinking"
            self._short_final_said = final
            return "done"
        self._short = None
        self._short_way, self._short_way_moves = {}, -1
        self._learn_short(short.position, solution)
        return "done"

    def _short_search(self) -> ShortSolver | None:
        """Return the short search, dropped if the game has left its way (see :meth:`solve`)."""
        game = self._game
        if game is None:
            self._drop_short()
        elif self._short_at != game.position:
            on_its_way = self._short_partial(game.position) is not None
            self._short_at = game.position
            if not on_its_way:
                self._drop_short()
        return self._short

    def _learn_short(self, position: Position, solution: Solution) -> None:
        """Remember a short search's answer: a solution for every position on its way.

        A proof of impossibility is today's search's, remembered as its answers are.
        """
        if solution.result == "impossible":
            self._learn(position, solution)
            return
        if solution.result != "solved":
            self._short_unknown.add(position)
            return
        self._keep_short(position, solution.moves)

    def _keep_short(self, position: Position, moves: tuple[Move, ...]) -> None:
        """Remember a short solution from ``position``: for every position on its way."""
        if len(self._short_known) > _KNOWN_MOST:
            self._short_known.clear()
            self._short_unknown.clear()
        self._short_known[position] = moves
        for index, move in enumerate(moves):
            position = position.apply(move)
            self._short_known[position] = moves[index + 1 :]

    def _think_identify(self, identifying: _Identifying, max_seconds: float) -> str:
        if not identifying.step(max_seconds):
            return "thinking"
        self._identifying = None
        if len(self._identified) > _KNOWN_MOST // 1000:
            self._identified.clear()
        self._identified[identifying.cards] = (identifying.numbers, identifying.more)
        return "done"

    def _game_search(self) -> Solver | None:
        """Return the search of the game, dropped if the game has moved on since it began."""
        if self._game is None or self._search_at != self._game.position:
            self._search = None
        return self._search

    def _think_finder(self, finder: GradedDealSearch, max_seconds: float) -> str:
        number = finder.step(max_seconds)
        if number is None:
            return "thinking"
        self._finder = None
        self._found[finder.seed, finder.grade] = number
        if finder.solution is not None:  # the deal's own search: its grade, hints, guard
            self._learn(Position.from_deal(deal(number)), finder.solution)
        return "done"

    def _learn(self, position: Position, solution: Solution) -> None:
        """Remember a search's answer and grade, and for a solution every position on its way."""
        if len(self._known) > _KNOWN_MOST:
            self._known.clear()
            self._grades.clear()
        self._grades[position] = difficulty(solution)
        moves = solution.moves
        self._known[position] = (solution.result, moves)
        for index, move in enumerate(moves):
            position = position.apply(move)
            self._known[position] = ("solved", moves[index + 1 :])

    @_with_game
    def play_move(self, game: Game, move: str, auto: str | bool = "off") -> str:
        """Play one move in standard notation (Solve plays these), the moves of ``auto`` after.

        With ``"off"``, the default, no automatic move follows.

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.play_move("82"))["made"][0]["onto"]
        'KS'
        """
        try:
            mode = _auto_play(auto)
            resolved, _ = game.position.resolve(str(move))
        except CodedError as error:
            return self._refuse(game, error)
        return self._play(game, resolved, mode)

    @_with_game
    def targets(self, game: Game, source: str) -> str:
        """List the places the card(s) at ``source`` can go now, for highlighting them.

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.targets("8"))["targets"]
        ['2', '3', 'a', 'b', 'c', 'd']
        """
        places: list[str] = []
        for move in game.position.moves_from(str(source)):
            if move.target not in places:
                places.append(move.target)
        return self._reply(game, targets=places)


def warm_up(number: int, search_seconds: float = 0.001) -> None:
    """Make every request of the page, as the page makes it, on a throwaway session.

    The session plays deal ``number``; every request of :data:`freecell._protocol.REQUESTS`
    goes through :meth:`Session.handle` with JSON arguments, refusals too. The page's worker
    calls it in idle moments after Python's memory is restored from a snapshot, so that the
    browser's WebAssembly engine has seen the interpreter at work before the player's first
    moves; the build runs it, searching until the answer, to learn which modules the page
    imports. A hint's search gets ``search_seconds`` at most, a short search a second.

    >>> warm_up(1)
    """
    session = Session()

    def ask(request: str, **args: object) -> dict[str, Any]:
        reply: dict[str, Any] = json.loads(session.handle(request, json.dumps(args)))
        return reply

    ask("new_game", text=str(number))
    ask("hint")
    if session.think(search_seconds) == "done":
        ask("play_move", move=ask("hint")["moves"][0])
    ask("solve")
    session.think(min(search_seconds, 1.0))  # the whole short search would take seconds
    ask("solve")
    ask("solve_stop")
    ask("check")
    ask("grade")
    ask("undo_to_winnable")
    ask("min_cells")
    deals = MIN_CELLS_DEALS
    ask("min_cells", table=f"# freecell min-cells {deals[0]}..{deals[-1]}\n" + "3" * len(deals))
    ask("new_game", text=str(number), faces=False)
    ask("new_game", text=str(number), step=1)
    ask("new_game", text="not a deal")
    ask("daily", date="2026-11-30")
    session.think(search_seconds)
    ask("daily", date="not a date")
    ask("random_deal", grade="1", seed="warm up")
    ask("random_deal", grade="0", seed="warm up")
    session.think(search_seconds)
    ask("identify", text="JD 2D 9H JC 5D 7H 7C 5H")
    session.think(search_seconds)
    ask("identify", text="JD 2D JD")
    ask("identify_stop")
    for source in CASCADES:
        ask("targets", source=source)
    ask("play_card", card=CARD_CODES[0])
    ask("play", source="1", target="a")
    ask("play", source="1", target="9")
    ask("play", source="2", target="a", card=CARD_CODES[0], auto="all", longest=True)
    ask("play_move", move="1a", auto="safe")
    ask("auto_moves", auto="safe")
    ask("auto_moves", auto="max")
    ask("position_text")
    ask("undo")
    ask("redo")
    ask("seek", moves=0)
    ask("seek", moves=1)
    ask("restart")
    ask("seek", moves="not a number")  # a page's bug: refused, with what seek takes
    ask("no such request")
