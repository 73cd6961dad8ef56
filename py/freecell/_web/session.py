"""The web page's API: a :class:`Session` of plain values in, JSON text out, for the worker.

The page's worker (web/src/app/worker/worker.js) makes one :class:`Session` and calls its methods by
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

:class:`Session` holds one method per request: its signature declares the request's arguments
(:func:`freecell._web.protocol.arguments` reads it), and it hands the work to a module of one
concern: :mod:`~freecell._web.replies` (the JSON of replies, cards' faces, moves described),
:mod:`~freecell._web.link` (a game opened as a link names it: the deal, the moves, the history
the page kept), :mod:`~freecell._web.moves` (the player's moves and the history's requests),
:mod:`~freecell._web.known` (what the searches found), :mod:`~freecell._web.searches` (the
game's search, the short search, and the turns of all searches), :mod:`~freecell._web.advice`
(hint, solve, check, grade, par, undo to winnable), :mod:`~freecell._web.graded` (the deals of a
grade: daily, random_deal), :mod:`~freecell._web.identify` (the deals of a layout: identify)
and :mod:`~freecell._web.min_cells` (the site's table of the fewest free cells).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

import freecell._web.moves as _moves
from freecell._deal import MAX_DEAL, DealNumberError, deal, format_deal, parse_deal_number
from freecell._errors import ERROR_CODES, CodedError, shorten
from freecell._history import Game
from freecell._identify import parse_layout
from freecell._min_cells import MIN_CELLS_DEALS
from freecell._names import CARD_CODES
from freecell._notation import CASCADES
from freecell._search import daily_grade, parse_date, parse_grade
from freecell._web.advice import Advice
from freecell._web.graded import GradedDeals
from freecell._web.identify import FIND_MOST, LayoutDeals
from freecell._web.known import Known
from freecell._web.link import MAX_LINK_MOVES, replay, stepped
from freecell._web.min_cells import SiteMinCells
from freecell._web.protocol import REQUESTS, SLICE_SECONDS, bind, schedule
from freecell._web.replies import FACES, as_json, game_reply, refusal
from freecell._web.searches import SHORT_SECONDS, Turns

_P = ParamSpec("_P")

__all__ = [
    "ERROR_CODES",
    "FIND_MOST",
    "MAX_LINK_MOVES",
    "SHORT_SECONDS",
    "Session",
    "warm_up",
]


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
            return as_json(refusal(CodedError("no-game")))
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
        self._known = Known()  # what the searches found
        self._advice = Advice(self._known)  # hint, solve, check, grade, par
        self._graded_deals = GradedDeals(self._known)  # daily, random_deal
        self._layout_deals = LayoutDeals()  # identify
        self._turns = Turns(
            [self._graded_deals, self._layout_deals, *self._advice.searches],
            [self._advice.par_search],  # only in slices no other search wants
        )
        self._min_cells = SiteMinCells()

    def handle(self, request: str, args: str = "{}") -> str:
        """Answer one of the page's requests: ``request`` names it, ``args`` is a JSON object.

        The request must be one of :data:`freecell._web.protocol.REQUESTS`, and ``args`` must fit
        its method's parameters (:func:`freecell._web.protocol.bind`): anything else is refused
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
            return as_json({"ok": False, "error": error})
        method = getattr(type(self), request)
        try:
            bound = bind(request, method, json.loads(args))
        except (ValueError, RecursionError) as error:  # JSONDecodeError too
            return as_json({"ok": False, "error": str(error)})
        reply: str = method(self, **bound)
        return reply

    @staticmethod
    def protocol() -> str:
        """Return how the worker schedules each request (:func:`freecell._web.protocol.schedule`).

        >>> json.loads(Session.protocol())["hint"]
        {'waits': True, 'ends': []}
        """
        return as_json(schedule())

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
            return as_json(refusal(error))
        if step:
            number = stepped(number, step)
        self._graded_deals.stop()  # the player chose a deal: a search for another one is over
        game = Game.from_deal_number(number)
        self._game = game
        extra = replay(game, moves, history)
        if faces:
            extra["faces"] = FACES
        previous, following = (stepped(number, by) for by in (-1, 1))
        return game_reply(
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
        auto: str = "safe",
        longest: bool = False,
    ) -> str:
        """Play a move from ``source`` to ``target``: :func:`~freecell._web.moves.play`.

        >>> session = Session(); _ = session.new_game("1")
        >>> json.loads(session.play("5", "a"))["game"]["moves"]
        ['5a']
        """
        return _moves.play(game, source, target, card, auto, longest)

    @_with_game
    def play_card(self, game: Game, card: str, auto: str = "safe") -> str:
        """Play the move a tap on ``card`` makes: :func:`~freecell._web.moves.play_card`."""
        return _moves.play_card(game, card, auto)

    @_with_game
    def play_move(self, game: Game, move: str, auto: str = "off") -> str:
        """Play a move in standard notation: :func:`~freecell._web.moves.play_move`."""
        return _moves.play_move(game, move, auto)

    @_with_game
    def auto_moves(self, game: Game, auto: str = "safe") -> str:
        """Play the automatic moves there are now: :func:`~freecell._web.moves.auto_moves`."""
        return _moves.auto_moves(game, auto)

    @_with_game
    def targets(self, game: Game, source: str) -> str:
        """List where the card(s) at ``source`` can go: :func:`~freecell._web.moves.targets`."""
        return _moves.targets(game, source)

    @_with_game
    def position_text(self, game: Game) -> str:
        """Return the position in fc-solve's format: :func:`~freecell._web.moves.position_text`."""
        return _moves.position_text(game)

    @_with_game
    def undo(self, game: Game) -> str:
        """Take back the player's last turn: :func:`~freecell._web.moves.undo`."""
        return _moves.undo(game)

    @_with_game
    def redo(self, game: Game) -> str:
        """Play again what the last undo took back: :func:`~freecell._web.moves.redo`."""
        return _moves.redo(game)

    @_with_game
    def restart(self, game: Game) -> str:
        """Take back every move, to redo: :func:`~freecell._web.moves.restart`."""
        return _moves.restart(game)

    @_with_game
    def seek(self, game: Game, moves: int) -> str:
        """Go to the history's point after ``moves`` moves: :func:`~freecell._web.moves.seek`."""
        return _moves.seek(game, moves)

    @_with_game
    def hint(self, game: Game) -> str:
        """Say what to do from the game's position: :meth:`~freecell._web.advice.Advice.hint`.

        >>> session = Session(); _ = session.new_game("617")
        >>> json.loads(session.hint())["pending"]
        True
        >>> while session.think(0.005) == "thinking":
        ...     pass  # the page's worker answers other requests meanwhile
        >>> json.loads(session.hint())["result"]
        'solved'
        """
        return self._advice.hint(game)

    @_with_game
    def solve(self, game: Game) -> str:
        """Answer a short solution (Solve's): :meth:`~freecell._web.advice.Advice.solve`."""
        return self._advice.solve(game)

    def solve_stop(self) -> str:
        """End the search of :meth:`solve`: :meth:`~freecell._web.advice.Advice.solve_stop`."""
        return self._advice.solve_stop()

    @_with_game
    def check(self, game: Game) -> str:
        """Tell whether the game can still be won: :meth:`~freecell._web.advice.Advice.check`."""
        return self._advice.check(game)

    @_with_game
    def grade(self, game: Game) -> str:
        """Grade the game's deal, 1 to 5: :meth:`~freecell._web.advice.Advice.grade`."""
        return self._advice.grade(game)

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
        try:
            fields = self._min_cells.fields(game.deal_number, table)
        except ValueError as error:
            return as_json({"ok": False, "error": str(error)})
        return game_reply(game, **fields)

    @_with_game
    def par(self, game: Game) -> str:
        """Say the game's deal's par: :meth:`~freecell._web.advice.Advice.par`."""
        return self._advice.par(game)

    @_with_game
    def undo_to_winnable(self, game: Game) -> str:
        """Undo to a winnable position: :meth:`~freecell._web.advice.Advice.undo_to_winnable`."""
        return self._advice.undo_to_winnable(game)

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
            return as_json(refusal(error))
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
            return as_json(refusal(error))
        return self._find(str(seed), wanted)

    def _find(self, seed: str, grade: int, **fields: Any) -> str:
        """Answer a search for a deal of a grade: found before, or pending (the latest wins)."""
        number = self._graded_deals.ask(seed, grade)
        if number is None:
            return as_json({"ok": True, "pending": True})
        return as_json({"ok": True, "number": number, "difficulty": grade, **fields})

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
            return as_json(refusal(error))
        found = self._layout_deals.ask(cards)
        if found is None:
            return as_json({"ok": True, "pending": True})
        numbers, more = found
        fields = {"numbers": numbers, "more": more, "count": len(cards), "max": MAX_DEAL}
        return as_json({"ok": True, **fields})

    def identify_stop(self) -> str:
        """End the search of :meth:`identify` (the page's Escape); what it found is dropped.

        >>> json.loads(Session().identify_stop())
        {'ok': True}
        """
        self._layout_deals.stop()
        return as_json({"ok": True})

    def think(self, max_seconds: float = SLICE_SECONDS) -> str:
        """Work on the session's searches for about ``max_seconds``, by default one slice.

        A slice is :data:`~freecell._web.protocol.SLICE_SECONDS`, as the worker asks.

        There are five: the search of a position of the game (:meth:`hint`, :meth:`check`,
        :meth:`grade`) and the short search (:meth:`solve`), each dropped once the game has
        moved on; the search for a deal (:meth:`daily`, :meth:`random_deal`), which goes on
        while the game changes and ends when a deal is opened; the search for a layout's
        deals (:meth:`identify`); and the search of the deal's par (:meth:`par`), which goes
        on while the game changes and thinks only when no other search does. With
        several, the slices take turns. Returns ``"thinking"`` (call again), ``"done"`` (a
        search ended, or the short search has more moves to answer: the requests waiting for
        one now answer, or start their next search; call again while searches remain) or
        ``"idle"``: nothing left to search.
        """
        return self._turns.think(self._game, max_seconds)


def warm_up(number: int, search_seconds: float = 0.001) -> None:  # noqa: PLR0915 - a request a line
    """Make every request of the page, as the page makes it, on a throwaway session.

    The session plays deal ``number``; every request of :data:`freecell._web.protocol.REQUESTS`
    goes through :meth:`Session.handle` with JSON arguments, refusals too. The build runs it,
    searching until the answer, to learn which modules the page imports. A hint's search gets
    ``search_seconds`` at most, a short search a second.

    >>> warm_up(1)
    """
    session = Session()

    def ask(request: str, **args: object) -> None:
        session.handle(request, json.dumps(args))

    def think(seconds: float) -> None:
        session.think(seconds)

    ask("new_game", text=str(number))
    ask("hint")
    if session.think(search_seconds) == "done":
        hint: dict[str, Any] = json.loads(session.handle("hint", "{}"))
        ask("play_move", move=hint["moves"][0])
    ask("solve")
    think(min(search_seconds, 1.0))  # the whole short search would take seconds
    ask("solve")
    ask("solve_stop")
    ask("check")
    ask("grade")
    ask("par")
    think(min(search_seconds, 1.0))  # a whole par search would take seconds
    ask("par")
    ask("undo_to_winnable")
    ask("min_cells")
    deals = MIN_CELLS_DEALS
    table = f"# freecell min-cells {deals[0]}..{deals[-1]}\n" + "3" * len(deals)
    ask("min_cells", table=table)
    ask("new_game", text=str(number), faces=False)
    ask("new_game", text=str(number), step=1)
    ask("new_game", text="not a deal")
    ask("daily", date="2026-11-30")
    think(search_seconds)
    ask("daily", date="not a date")
    ask("random_deal", grade="1", seed="warm up")
    ask("random_deal", grade="0", seed="warm up")
    think(search_seconds)
    ask("identify", text="JD 2D 9H JC 5D 7H 7C 5H")
    think(search_seconds)
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
