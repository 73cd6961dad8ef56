"""What the searches say about the game: hints, Solve's short solutions, the guard, the grade, par.

The page's requests that a search answers (:meth:`Advice.hint`, :meth:`Advice.solve`,
:meth:`Advice.check`, :meth:`Advice.grade`) answer at once from what the searches found
(:class:`freecell._web.known.Known`), or start the search they need (the game's,
:class:`~freecell._web.searches.GameSearch`, or the short one,
:class:`~freecell._web.searches.ShortSearch`) and say ``"pending": true``: the worker gives
the searches slices (:meth:`freecell._web.Session.think`) and asks again once one is done.
"""

from typing import Any

from freecell._errors import CodedError
from freecell._history import Game
from freecell._notation import Move, player_moves
from freecell._rules import Position
from freecell._web.known import Known
from freecell._web.replies import as_json, game_refusal, game_reply, made
from freecell._web.searches import GameSearch, ParSearch, ShortSearch


class Advice:
    """The requests about the game that its searches answer, and those two searches.

    Hint and the guard share what the searches found, per position; a short solution
    (Solve's) known for a position comes before today's search's.
    """

    def __init__(self, known: Known) -> None:
        self._known = known
        self.game_search = GameSearch(known)  # hint, check, grade
        self.short_search = ShortSearch(known)  # solve
        self.par_search = ParSearch(known)  # par, in slices no other search wants

    @property
    def searches(self) -> tuple[GameSearch, ShortSearch]:
        """The game's search and the short search, for the turns of the session's searches."""
        return self.game_search, self.short_search

    def hint(self, game: Game) -> str:
        """Say what to do from the game's position: a solution from here, or that none exists.

        The answer comes at once for a position searched before or on the way of a solution found
        before (so a hint after following the last one costs nothing); a short solution
        (:meth:`solve`'s) known for the position comes first. Otherwise a search starts and
        the reply says ``"pending": true``: call ``think`` until it says ``"done"``, then
        ask again. The answer: ``"result"`` (``"solved"``, ``"impossible"`` when a complete
        search proved it, or ``"unknown"`` when
        :data:`~freecell._web.searches.SEARCH_SECONDS` ran out), ``"moves"`` (a solution
        from here, automatic moves written out), ``"hint"`` (its first move, as ``"made"``
        describes moves) and ``"start"`` (whether the position is the deal's own).

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(617)
        >>> json.loads(advice.hint(game))["pending"]
        True
        >>> think = Turns(advice.searches).think
        >>> while think(game, 0.005) == "thinking":
        ...     pass  # the page's worker answers other requests meanwhile
        >>> reply = json.loads(advice.hint(game))
        >>> reply["result"], reply["hint"]["move"] == reply["moves"][0], reply["start"]
        ('solved', True, True)
        """
        position = game.position
        known = self._known.solution(position)
        if known is None:
            self.game_search.start(game, position)
            return game_reply(game, pending=True)
        return game_reply(game, **self._solution_fields(game, *known))

    def _solution_fields(self, game: Game, result: str, moves: tuple[Move, ...]) -> dict[str, Any]:
        """Return a hint's fields: the result, the moves, the first move and the start flag."""
        position = game.position
        fields: dict[str, Any] = {
            "result": result,
            "moves": [str(move) for move in moves],
            "start": position == game.start,
        }
        if moves:
            fields["hint"] = made(position, moves[0])
        return fields

    def solve(self, game: Game) -> str:
        """Answer a short solution from the game's position: the one Solve plays.

        As :meth:`hint` answers (the same fields, and ``"player_moves"``: the moves whose target is
        not a foundation), with the solution :class:`freecell.ShortSolver` finds, which may
        take seconds: until it ends the reply says ``"pending": true`` (call ``think`` until
        ``"done"``, then ask again), and the search is dropped when the game moves on, or by
        :meth:`solve_stop`. It may search for :data:`~freecell._web.searches.SHORT_SECONDS`:
        then the shortest solution found is the answer; with none, ``"unknown"``.
        ``"impossible"`` is a proof, as for a hint. Every position on a short solution's way
        is remembered, so Solve's next moves, and hints, come at once; so do those of a
        position whose cards that can go home differ only in which went home already (the
        page's automatic moves): the moves home come first.

        While the search shortens a solution, the first moves it no longer changes are an
        answer too (:attr:`freecell.ShortSolver.final`), with ``"partial": true``: the page
        plays them while the search goes on from the positions they reach.

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(46)
        >>> think = Turns(advice.searches).think
        >>> while (reply := json.loads(advice.solve(game))).get("pending") or "partial" in reply:
        ...     while think(game, 0.01) == "thinking":
        ...         pass
        >>> reply["result"], reply["player_moves"]  # freecell.solve(46, short=True)'s
        ('solved', 16)
        >>> json.loads(advice.hint(game))["moves"] == reply["moves"]
        True
        """
        position = game.position
        short = self._known.short(position)
        known: tuple[str, tuple[Move, ...]] | None = None
        if short is not None:
            known = ("solved", short)
        elif self._verdict_known(position) == "no":
            known = ("impossible", ())
        elif position in self._known.short_unknown:
            known = ("unknown", ())
        if known is None:
            partial = self.short_search.start(position)
            if not partial:
                return game_reply(game, pending=True)
            fields = self._solution_fields(game, "solved", partial)
            return game_reply(game, player_moves=player_moves(partial), partial=True, **fields)
        fields = self._solution_fields(game, *known)
        return game_reply(game, player_moves=player_moves(known[1]), **fields)

    def solve_stop(self) -> str:
        """End the search of :meth:`solve` (the page's Solve stopped).

        A solution it was shortening is remembered as it stands (hints follow it).

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(1)
        >>> json.loads(advice.solve(game))["pending"], json.loads(advice.solve_stop())
        (True, {'ok': True})
        >>> Turns(advice.searches).think(game, 0.005)
        'idle'
        """
        self.short_search.drop()
        return as_json({"ok": True})

    def check(self, game: Game) -> str:
        """Tell whether the game can still be won from here: the page's live guard.

        It answers from what searches found before (Hint's and its own), or starts a search
        as :meth:`hint` does and says ``"pending": true`` (call ``think`` until ``"done"``,
        then ask again). ``"solvable"`` is ``"yes"``, ``"no"`` (a complete search proved it)
        or ``"unknown"`` (the search ran out). For ``"no"``, ``"lost"`` names the move that
        lost the game: the player's move from the last position of the game proved winnable,
        found by searching back turn by turn (each search pending in turn), as
        ``{"move_count": moves played before it, "made": as "made" describes moves}``; it is
        ``None`` if a search back ran out, or if no position was ever winnable, when
        ``"deal_lost"`` is true: the deal itself cannot be won.

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(617)
        >>> _ = [game.push(move) for move in ("5a", "5b", "5c", "5d")]
        >>> think = Turns(advice.searches).think
        >>> while json.loads(advice.check(game)).get("pending"):
        ...     while think(game, 0.005) == "thinking":
        ...         pass
        >>> reply = json.loads(advice.check(game))
        >>> reply["solvable"], reply["lost"]["move_count"], reply["lost"]["made"]["move"]
        ('no', 3, '5d')
        """
        verdict = self._verdict(game, game.position)
        if verdict is None:
            return game_reply(game, pending=True)
        fields: dict[str, Any] = {"solvable": verdict, "lost": None, "deal_lost": False}
        if verdict == "no":
            for count, before, move in reversed(game.turns()):
                earlier = self._verdict(game, before)
                if earlier is None:
                    return game_reply(game, pending=True)
                if earlier != "no":
                    if earlier == "yes":
                        fields["lost"] = {"move_count": count, "made": made(before, move)}
                    break
            else:
                fields["deal_lost"] = True
        return game_reply(game, **fields)

    def grade(self, game: Game) -> str:
        """Grade the game's deal, 1 (easy) to 5 (hard), as :func:`freecell.difficulty` does.

        The grade comes from the search of the deal's start, the one ``freecell solve`` makes,
        so the two agree; it is ``None`` for a deal the search does not solve. Answered at once
        when that search was made before (Hint's or the guard's on the deal's start), or
        pending as for :meth:`hint`.

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(1)
        >>> think = Turns(advice.searches).think
        >>> while json.loads(advice.grade(game)).get("pending"):
        ...     while think(game, 0.005) == "thinking":
        ...         pass
        >>> json.loads(advice.grade(game))["difficulty"]
        4
        """
        start = game.start
        if not self._known.graded(start):
            self.game_search.start(game, start)
            return game_reply(game, pending=True)
        return game_reply(game, difficulty=self._known.grade(start))

    def par(self, game: Game) -> str:
        """Say the game's deal's par: the player moves of ``freecell.solve(number, short=True)``.

        The player moves are those whose target is not a foundation (a run moved as one
        counts one: :func:`freecell._notation.player_moves`), as the page counts the player's.
        ``"par"`` is None for a deal that cannot be won. Answered at once for a deal whose par
        was found before; otherwise the search starts (:class:`ParSearch`, from the deal's
        start, whatever the game's position) and the reply says ``"pending": true``. The search
        thinks only while no other search does (a hint, the guard, Solve come first), goes on
        while the game changes, and is dropped when another deal is opened.

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(46)
        >>> think = Turns(advice.searches, [advice.par_search]).think
        >>> while json.loads(advice.par(game)).get("pending"):
        ...     while think(game, 0.05) == "thinking":
        ...         pass
        >>> json.loads(advice.par(game))["par"]  # freecell.solve(46, short=True).player_moves
        16
        >>> json.loads(advice.solve(game))["player_moves"]  # Solve from the start: at once
        16
        """
        number = game.deal_number
        if number is None:
            return game_reply(game, par=None)
        if not self.par_search.known(number):
            self.par_search.start(game)
            return game_reply(game, pending=True)
        return game_reply(game, par=self.par_search.par(number))

    def undo_to_winnable(self, game: Game) -> str:
        """Take back turns to the last position of the game known to be winnable.

        Known from :meth:`check` (or Hint); what is taken back waits on the redo stack, as
        with Undo. Refused with ``"none-winnable"`` when no such position is known; a game
        whose position is known winnable stays as it is.

        >>> import json
        >>> from freecell._web.searches import Turns
        >>> advice, game = Advice(Known()), Game.from_deal_number(617)
        >>> _ = [game.push(move) for move in ("5a", "5b", "5c", "5d")]
        >>> json.loads(advice.undo_to_winnable(game))["code"]
        'none-winnable'
        >>> think = Turns(advice.searches).think
        >>> while json.loads(advice.check(game)).get("pending"):
        ...     while think(game, 0.005) == "thinking":
        ...         pass
        >>> json.loads(advice.undo_to_winnable(game))["game"]["moves"]
        ['5a', '5b', '5c']
        """
        if not self._is_winnable(game.position):
            winnable = (n for n, before, _ in reversed(game.turns()) if self._is_winnable(before))
            count = next(winnable, None)
            if count is None:
                return game_refusal(game, CodedError("none-winnable"))
            while len(game.move_stack) > count:
                game.undo_turn()
        return game_reply(game)

    def _verdict_known(self, position: Position) -> str | None:
        """Return what searches found for a position, as ``yes``/``no``/``unknown``, or None."""
        if self.short_search.partial(position):
            return "yes"
        return self._known.verdict(position)

    def _is_winnable(self, position: Position) -> bool:
        return self._verdict_known(position) == "yes"

    def _verdict(self, game: Game, position: Position) -> str | None:
        """Return :meth:`_verdict_known` for a position of the game; if unknown, search it."""
        verdict = self._verdict_known(position)
        if verdict is None:
            self.game_search.start(game, position)
        return verdict
