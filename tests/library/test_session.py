"""The page's Python API (freecell._web): JSON replies, never an exception for bad input."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import freecell._web as web
import freecell._web.link as web_link
from freecell import (
    AUTO_PLAY,
    CARD_CODES,
    ERROR_CODES,
    MAX_DEAL,
    Game,
    Move,
    card_unicode,
    deal,
    difficulty,
    format_deal,
    solve,
)
from freecell._notation import player_moves
from freecell._web import MAX_LINK_MOVES, Session
from freecell._web.protocol import ShortSolved
from freecell._web.searches import Turns
from helpers import LOSING_MOVES, engine_after, fc_solve_finds_no_solution, solution


@pytest.fixture
def session() -> Session:
    """Return a new session, with no game open."""
    return Session()


def reply(text: str) -> dict[str, Any]:
    """Parse a JSON reply into a dict."""
    value: dict[str, Any] = json.loads(text)
    return value


class TestOpenDeal:
    @pytest.mark.parametrize("number", [1, 617, -1, -2, 2**31, 2**32, MAX_DEAL])
    def test_columns_match_the_dealer(self, session: Session, number: int) -> None:
        """The reply's cascades hold the dealer's cards, and its text is the fcs board."""
        data = reply(session.new_game(str(number)))
        assert data["ok"] is True
        assert data["number"] == number
        expected = [[CARD_CODES[c] for c in column] for column in deal(number).columns]
        assert data["game"]["cascades"] == expected
        assert data["text"] == format_deal(deal(number))

    def test_card_faces(self, session: Session) -> None:
        """Each card carries its face: rank as printed, suit symbol, colour, rank and suit."""
        faces = reply(session.new_game("617"))["faces"]
        assert faces["TD"] == {
            "rank": "10",
            "suit": "♦",
            "red": True,
            "rank_index": 9,
            "suit_index": 1,
        }
        assert {f"{face['rank']}{face['suit']}" for face in faces.values()} == {
            card_unicode(card) for card in range(52)
        }

    def test_faces_only_when_asked(self, session: Session) -> None:
        """A caller that has the faces already can leave them out of the reply."""
        assert "faces" not in reply(session.new_game("617", "", 0, faces=False))

    @given(st.text(max_size=30))
    def test_any_text_gets_a_reply(self, text: str) -> None:
        """Any text at all gets a deal or an error message, never an exception."""
        session = Session()
        data = reply(session.new_game(text))
        assert data["ok"] is True or "1 to 8589934591" in data["error"]

    @pytest.mark.parametrize("text", ["abc", "", "0", "-3", "1.5", "99999999999", "617abc"])
    def test_bad_text_says_what_is_valid(self, session: Session, text: str) -> None:
        """Bad input gets a message naming the valid numbers."""
        data = reply(session.new_game(text))
        assert data == {"ok": False, "error": data["error"], "code": "deal-number",
                        "params": {"text": text, "min": 1, "max": MAX_DEAL}}  # fmt: skip
        assert "from 1 to 8589934591, or -1 or -2" in data["error"]


class TestStepDeal:
    @pytest.mark.parametrize(
        ("text", "step", "number"),
        [("617", 1, 618), ("617", -1, 616), ("1", -1, -1), ("-1", -1, -2), ("-2", -1, -2),
         ("-2", 1, -1), ("-1", 1, 1), (str(MAX_DEAL), 1, MAX_DEAL), ("#5", 10, 15)],
    )  # fmt: skip
    def test_order_and_ends(self, session: Session, text: str, step: int, number: int) -> None:
        """Steps go -2, -1, 1, 2, ... and stop at both ends."""
        assert reply(session.new_game(text, "", step))["number"] == number

    def test_bad_base(self, session: Session) -> None:
        """Stepping from text that is no deal gets the error message."""
        assert reply(session.new_game("abc", "", 1))["ok"] is False


def game_of(text: str) -> dict[str, Any]:
    """Return the game state in a session reply."""
    state: dict[str, Any] = reply(text)["game"]
    return state


class TestNewGame:
    def test_opens_the_deal(self, session: Session) -> None:
        """A new game holds the deal's cascades, its number, fc-solve text and card faces."""
        data = reply(session.new_game("617"))
        assert data["ok"] is True
        assert data["number"] == 617
        assert data["text"] == format_deal(deal(617))
        assert data["game"]["cascades"] == engine_after(617, [])["cascades"]
        assert data["game"]["moves"] == []
        assert len(data["faces"]) == 52

    def test_replays_a_link(self, session: Session) -> None:
        """A link's moves are replayed exactly, with no automatic moves added."""
        moves = ["5a", "5b", "5c", "5d"]
        state = game_of(session.new_game("1", ",".join(moves)))
        expected = engine_after(1, moves)
        assert state["moves"] == moves
        assert state["cascades"] == expected["cascades"]
        assert state["freecells"] == expected["freecells"]

    def test_whole_solution_wins(self, session: Session) -> None:
        """The committed fc-solve solution of deal 1, replayed from a link, wins the game."""
        state = game_of(session.new_game("1", ",".join(solution(1))))
        assert state["won"] is True

    @pytest.mark.parametrize(
        ("moves", "played", "bad"),
        [("5a,5b,zz,5c", ["5a", "5b"], "'zz'"), ("2h", [], "'2h'"),
         ("5a,,5b", ["5a", "5b"], None), ("5a,5a", ["5a"], "free cell a holds")],
    )  # fmt: skip
    def test_bad_tokens_stop_the_replay(
        self, session: Session, moves: str, played: list[str], bad: str | None
    ) -> None:
        """The replay stops at the first malformed or illegal token and says which it was."""
        data = reply(session.new_game("1", moves))
        assert data["ok"] is True
        assert data["game"]["moves"] == played
        if bad is None:
            assert "notice" not in data
        else:
            assert bad in data["notice"]

    def test_step(self, session: Session) -> None:
        """A step opens the deal that many places on, in the order -2, -1, 1, 2, ..."""
        assert reply(session.new_game("1", "", -1))["number"] == -1

    def test_too_many_moves(self, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
        """A link with more moves than MAX_LINK_MOVES plays only that many."""
        assert MAX_LINK_MOVES >= 1000
        monkeypatch.setattr(web_link, "MAX_LINK_MOVES", 3)
        data = reply(session.new_game("1", "5a,5b,5c,5d"))
        assert data["game"]["moves"] == ["5a", "5b", "5c"]
        assert "only the first 3" in data["notice"]

    @given(st.text(max_size=40))
    def test_any_moves_text_gets_a_game(self, moves: str) -> None:
        """Any moves text at all gets the game, replayed up to its first bad token."""
        session = Session()
        data = reply(session.new_game("617", moves))
        assert data["ok"] is True
        assert data["game"]["deal"] == 617

    def test_bad_deal(self, session: Session) -> None:
        """A bad deal number gets the message that says what is valid."""
        assert "1 to 8589934591" in reply(session.new_game("0", "5a"))["error"]


class TestPlay:
    def test_a_move(self, session: Session) -> None:
        """A legal move is played and recorded as its token."""
        session.new_game("1")
        data = reply(session.play("5", "a", "", "off"))
        assert data["ok"] is True
        assert data["game"]["moves"] == ["5a"]
        assert data["steps"] == [data["game"]]

    def test_auto_moves_follow(self, session: Session) -> None:
        """With auto on, the safe automatic moves follow, each its own token and step."""
        session.new_game("1", "5a,5b,5c")
        data = reply(session.play("5", "d", "", "safe"))
        assert data["game"]["moves"] == ["5a", "5b", "5c", "5d", "5h"]
        assert [step["moves"][-1] for step in data["steps"]] == ["5d", "5h"]

    def test_no_auto(self, session: Session) -> None:
        """With auto off, only the user's move is played."""
        session.new_game("1", "5a,5b,5c")
        assert game_of(session.play("5", "d", "", "off"))["moves"] == ["5a", "5b", "5c", "5d"]

    def test_auto_play_all(self, session: Session) -> None:
        """With `all`, a card goes home that `safe` keeps: 2H with the black aces out."""
        session.new_game("3")
        assert game_of(session.play("1", "a", "", "safe"))["moves"] == ["1a", "5h"]
        session.new_game("3")
        data = reply(session.play("1", "a", "", "all"))
        assert data["game"]["moves"] == ["1a", "5h", "6h"]
        assert data["game"]["auto"] == [False, True, True]
        assert [made["move"] for made in data["made"]] == ["1a", "5h", "6h"]
        assert game_of(session.undo())["moves"] == []
        assert game_of(session.redo())["moves"] == ["1a", "5h", "6h"]

    def test_auto_play_off(self, session: Session) -> None:
        """With `off`, nothing follows the player's move."""
        session.new_game("3")
        assert game_of(session.play_card("8C", "off"))["moves"] == ["1a"]
        assert game_of(session.auto_moves("all"))["moves"] == ["1a", "5h", "6h"]

    def test_a_link_made_with_all_replays_with_any_setting(self, session: Session) -> None:
        """A link records every move: replayed, it is the same game, whatever auto-play says."""
        session.new_game("3")
        made = game_of(session.play("1", "a", "", "all"))
        for mode in ["off", "safe", "all"]:
            other = Session()
            opened = reply(other.new_game("3", ",".join(made["moves"])))
            assert opened["game"]["cascades"] == made["cascades"]
            assert opened["game"]["foundations"] == made["foundations"]
            assert game_of(other.auto_moves(mode))["moves"][:3] == made["moves"]

    @pytest.mark.parametrize("request_name", ["play", "play_card", "play_move", "auto_moves"])
    def test_auto_play_is_a_name_not_a_flag(self, session: Session, request_name: str) -> None:
        """The page sends auto-play's name: true or false (a checkbox's, once) is refused."""
        session.new_game("3")
        args = {"play": {"source": "1", "target": "a"}, "play_card": {"card": "8C"}}
        args |= {"play_move": {"move": "1a"}, "auto_moves": {}}
        sent = json.dumps(args[request_name] | {"auto": True})
        answer = json.loads(session.handle(request_name, sent))
        assert answer["ok"] is False
        assert "auto must be str, not bool" in answer["error"]
        assert game_of(session.position_text())["moves"] == []

    @pytest.mark.parametrize("bad", ["max", "", "<img src=x>", "1"])
    def test_a_bad_auto_play_is_refused(self, session: Session, bad: str) -> None:
        """An unknown auto-play choice is refused by code, and the game stays as it was."""
        session.new_game("3")
        for answer in [
            session.play("1", "a", "", bad),
            session.play_card("8C", bad),
            session.play_move("1a", bad),
            session.auto_moves(bad),
        ]:
            data = reply(answer)
            assert (data["ok"], data["code"], data["game"]["moves"]) == (
                False,
                "auto-play-invalid",
                [],
            )

    def test_solve_plays_with_the_choice(self, session: Session) -> None:
        """Solve's moves (play_move) are followed by the automatic moves of the choice."""
        session.new_game("3")
        assert game_of(session.play_move("1a"))["moves"] == ["1a"]
        session.new_game("3")
        assert game_of(session.play_move("1a", "all"))["moves"] == ["1a", "5h", "6h"]

    def test_illegal_move_changes_nothing(self, session: Session) -> None:
        """A refused move gives the engine's reason and leaves the game as it was."""
        session.new_game("1", "5a")
        before = game_of(session.play("5", "b", "", "off"))
        data = reply(session.play("2", "h", "", "safe"))
        assert data["ok"] is False
        assert "9C cannot go to the foundations" in data["error"]
        assert data["game"] == before

    @pytest.mark.parametrize(
        ("source", "target", "card", "words"),
        [("h", "1", "", "never from the foundations"), ("1", "x", "", "no place"),
         ("1", "1", "", "already there"), ("1", "a", "JD", "only the bottom card"),
         ("1", "2", "AH", "is not in cascade 1"), ("1", "2", "ZZ", "")],
    )  # fmt: skip
    def test_refusals(
        self, session: Session, source: str, target: str, card: str, words: str
    ) -> None:
        """Places no move joins, and cards not where they are said to be, are refused."""
        session.new_game("1")
        data = reply(session.play(source, target, card, "safe"))
        assert data["ok"] is False
        assert words in data["error"]

    def test_run_to_an_empty_cascade(self, session: Session) -> None:
        """A picked card higher in a cascade takes its run along to an empty cascade."""
        moves = solution(1000000)
        game = Game.from_deal_number(1000000)
        for k, move in enumerate(moves):
            if "v" in move:
                source, target, count = move[0], move[1], int(move.split("v")[1])
                for m in moves[:k]:
                    game.push(m)
                card = game.snapshot()["cascades"][int(source) - 1][-count]
                session.new_game("1000000", ",".join(moves[:k]))
                assert game_of(session.play(source, target, card, "off"))["moves"][-1] == move
                return
        pytest.skip("the solution moves no run to an empty cascade")

    def test_no_game(self, session: Session) -> None:
        """Before any game is open the session's requests say so."""
        for text in (
            session.play("1", "a"),
            session.play_card("AH"),
            session.undo(),
            session.redo(),
            session.restart(),
            session.targets("1"),
        ):
            assert "no game is open" in reply(text)["error"]


class TestPlayCard:
    def test_best_move(self, session: Session) -> None:
        """A double-clicked card makes the engine's best move for it."""
        session.new_game("617")
        assert game_of(session.play_card("QH", "off"))["moves"] == ["82"]

    def test_nowhere(self, session: Session) -> None:
        """A card with no move gets a message and nothing changes."""
        session.new_game("617", "8a,8b,8c,8d")  # 2S, in free cell b, fits nowhere
        data = reply(session.play_card("2S", "safe"))
        assert (data["ok"], data["code"], data["game"]["moves"]) == (
            False,
            "card-stuck",
            ["8a", "8b", "8c", "8d"],
        )
        session.new_game("1")
        data = reply(session.play_card("AH", "safe"))
        assert data["ok"] is False
        assert data["game"]["moves"] == []

    def test_not_a_card(self, session: Session) -> None:
        """Text that is no card is refused."""
        session.new_game("1")
        assert reply(session.play_card("ZZ"))["ok"] is False


class TestUndoRedo:
    def test_undo_takes_back_a_player_move(self, session: Session) -> None:
        """Undo takes back the player's move and the automatic moves that followed it."""
        session.new_game("1", "5a,5b,5c")
        session.play("5", "d", "", "safe")
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c"]

    def test_a_move_home_by_hand_is_one_move(self, session: Session) -> None:
        """A move home that the player made is undone alone, whatever auto-move does later."""
        session.new_game("1", "5a,5b,5c,5d")
        session.play("5", "h", "", "off")
        session.play("b", "2", "", "safe")
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c", "5d", "5h"]
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c", "5d"]

    def test_link_moves_are_undone_one_by_one(self, session: Session) -> None:
        """A link's moves were all the player's: each undo takes back one."""
        session.new_game("1", "5a,5b,5c,5d,5h")
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c", "5d"]

    def test_redo_plays_the_turn_again(self, session: Session) -> None:
        """Redo after undo restores the move and the automatic ones after it."""
        session.new_game("1", "5a,5b,5c")
        session.play("5", "d", "", "safe")
        session.undo()
        state = game_of(session.redo())
        assert state["moves"] == ["5a", "5b", "5c", "5d", "5h"]
        assert state["can_redo"] is False

    def test_nothing_to_undo_or_redo(self, session: Session) -> None:
        """Undo at the start and redo with nothing undone are refused with a message."""
        session.new_game("1")
        assert "nothing to undo" in reply(session.undo())["error"]
        assert "nothing to redo" in reply(session.redo())["error"]

    @given(
        st.lists(st.integers(min_value=0, max_value=200), max_size=12), st.sampled_from(AUTO_PLAY)
    )
    def test_undo_all_then_redo_all(self, picks: list[int], auto: str) -> None:
        """After any legal moves, undoing everything and redoing everything restores the game."""
        session = Session()
        session.new_game("24")
        for pick in picks:
            legal = Game.from_deal_number(24)
            for move in game_of(session.targets("1"))["moves"]:
                legal.push(move)
            options = legal.legal_moves()
            if not options:
                break
            move = options[pick % len(options)]
            session.play(move.source, move.target, "", auto)
        final = game_of(session.targets("1"))
        while reply(session.undo())["ok"]:
            pass
        assert game_of(session.targets("1"))["moves"] == []
        while reply(session.redo())["ok"]:
            pass
        assert game_of(session.targets("1")) == final

    def test_restart_keeps_the_moves_for_redo(self, session: Session) -> None:
        """Restart goes back to the deal; redo then replays the moves."""
        session.new_game("1", "5a,5b")
        state = game_of(session.restart())
        assert state["moves"] == []
        assert state["cascades"] == engine_after(1, [])["cascades"]
        assert game_of(session.redo())["moves"] == ["5a"]
        session.new_game("1")
        assert "nothing to restart" in reply(session.restart())["error"]


class TestSeek:
    def test_back_and_forth_one_move_a_step(self, session: Session) -> None:
        """Each count shows the engine's game after that many moves; the rest waits to redo."""
        moves = solution(1)[:20]
        session.new_game("1", ",".join(moves))
        for count in [0, 20, 5, 6, 19, 0, 20]:
            state = game_of(session.seek(count))
            assert state["moves"] == moves[:count]
            assert state["redo"] == moves[count:]
            assert state["cascades"] == engine_after(1, moves[:count])["cascades"]

    def test_automatic_moves_are_steps(self, session: Session) -> None:
        """A turn's automatic moves count one step each; Undo still takes the turn back."""
        session.new_game("1", "5a,5b,5c")
        session.play("5", "d")
        state = game_of(session.seek(4))
        assert state["moves"] == ["5a", "5b", "5c", "5d"]
        assert state["redo"] == ["5h"]
        assert state["redo_auto"] == [True]
        session.seek(5)
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c"]

    def test_a_move_from_an_earlier_point_starts_a_branch(self, session: Session) -> None:
        """A move played after seeking back replaces the moves that were ahead."""
        session.new_game("1", "5a,5b,5c")
        session.seek(1)
        state = game_of(session.play("6", "b", "", "off"))
        assert state["moves"] == ["5a", "6b"]
        assert state["redo"] == []
        assert game_of(session.seek(3))["moves"] == ["5a", "6b"]

    @pytest.mark.parametrize("count", [-1, 4, 10**9])
    def test_outside_goes_to_the_nearest_end(self, session: Session, count: int) -> None:
        """A count past either end is no error: the game goes to that end."""
        session.new_game("1", "5a,5b,5c")
        result = reply(session.seek(count))
        assert result["ok"] is True
        assert result["game"]["move_count"] == (0 if count < 0 else 3)

    def test_no_game(self, session: Session) -> None:
        """Before a game is open, seek is refused with no-game."""
        assert reply(session.seek(0))["code"] == "no-game"


class TestTargets:
    def test_places(self, session: Session) -> None:
        """Targets lists each place the card at a source can go, once."""
        session.new_game("617")
        assert reply(session.targets("8"))["targets"] == ["2", "3", "a", "b", "c", "d"]

    @pytest.mark.parametrize("source", ["h", "9", "", "a"])
    def test_nothing_to_move(self, session: Session, source: str) -> None:
        """An empty place or no place at all has no targets."""
        session.new_game("617")
        assert reply(session.targets(source))["targets"] == []


PY_SOURCES = Path(__file__).parents[2] / "py" / "freecell"


def refusal(text: str) -> tuple[str, dict[str, Any]]:
    """Return the code and params of a refused request's reply, checking its shape."""
    data = reply(text)
    assert data["ok"] is False
    assert isinstance(data["error"], str)
    assert data["code"] in ERROR_CODES
    params: dict[str, Any] = data["params"]
    return data["code"], params


class TestErrorCodes:
    """Every error comes as data too: a code (one of ERROR_CODES) and its params."""

    def test_every_code_is_used(self) -> None:
        """Each code of the table is raised or replied somewhere in freecell's other sources."""
        text = "\n".join(
            path.read_text()
            for path in sorted(PY_SOURCES.rglob("*.py"))
            if path.name != "_errors.py"
        )
        assert {code for code in ERROR_CODES if f'"{code}"' not in text} == set()

    @pytest.mark.parametrize("text", ["0", "abc", "99999999999", ""])
    def test_deal_number(self, session: Session, text: str) -> None:
        """A bad deal number names the text typed and the valid range."""
        for data in (session.new_game(text), session.new_game(text, "", 1)):
            assert refusal(data) == ("deal-number", {"text": text, "min": 1, "max": MAX_DEAL})

    def test_long_text_is_shortened(self, session: Session) -> None:
        """Long text comes back cut to 40 characters and an ellipsis, as in the message."""
        _, params = refusal(session.new_game("9" * 50))
        assert params["text"] == "9" * 40 + "…"

    def test_every_quoted_value_is_cut_alike(self, session: Session) -> None:
        """A deal, a date, a grade and a link's move, however long, are quoted cut to 40."""
        long = "9" * 100_000
        replies = [
            session.new_game(long),
            session.daily(long),
            session.random_deal(long, "seed"),
        ]
        for reply in replies:
            assert refusal(reply)[1]["text"] == "9" * 40 + "…"
        notice = json.loads(session.new_game("1", "z" * 100))["notice_params"]
        assert notice["move"] == "z" * 40 + "…"

    @pytest.mark.parametrize(
        ("place", "code", "params"),
        [
            (("5a", "2", "h", ""), "foundation-needs", {"move": "2h", "card": "9C", "need": "AC"}),
            (("5a", "5", "a", ""), "freecell-full", {"move": "5a", "cell": "a", "card": "6C"}),
            (("", "a", "1", ""), "freecell-empty", {"move": "a1", "cell": "a"}),
            (("", "1", "2", ""), "card-no-fit",
             {"move": "12", "cards": ["6S"], "cascade": "1", "onto": "9C", "target": "2"}),
            (("", "h", "1", ""), "from-foundation", {}),
            (("", "1", "x", ""), "no-place", {"move": "1x", "place": "x"}),
            (("", "1", "1", ""), "same-place", {}),
            (("", "a", "b", ""), "move-cell-to-cell", {"move": "ab"}),
            (("", "1", "2", "ZZ"), "card-invalid", {"text": "ZZ"}),
            (("", "1", "2", "AH"), "card-not-in-cascade", {"card": "AH", "cascade": "1"}),
            (("", "1", "a", "JD"), "bottom-card-only-freecell",
             {"move": "1a", "cascade": "1", "card": "JD", "below": 6}),
            (("", "1", "h", "JD"), "bottom-card-only-foundations",
             {"move": "1h", "cascade": "1", "card": "JD", "below": 6}),
        ],
    )  # fmt: skip
    def test_refused_moves(
        self, session: Session, place: tuple[str, str, str, str], code: str, params: dict[str, Any]
    ) -> None:
        """A refused move names its reason and the cards and places involved."""
        moves, source, target, card = place
        session.new_game("1", moves)
        assert refusal(session.play(source, target, card)) == (code, params)

    def test_run_limit(self) -> None:
        """Too long a run names the count, the most that can move and the free places."""
        position = Game.from_deal_number(617).position
        error = position._limit_error(Move("1", "5"), 7, to_empty=False)
        assert error.code == "run-limit"
        assert error.params == {"move": "15", "count": 7, "max": 5, "cells": 4, "cascades": 0}
        assert str(error) == (
            "illegal move '15': cannot move 7 cards: only 5 cards can move with 4 free cells and "
            "0 empty cascades"
        )

    def test_card_stuck_and_history(self, session: Session) -> None:
        """Play card, undo, redo and restart refusals carry their codes."""
        session.new_game("1")
        assert refusal(session.play_card("AH")) == ("card-covered", {"card": "AH"})
        assert refusal(session.play_card("1X")) == ("card-invalid", {"text": "1X"})
        assert refusal(session.undo()) == ("nothing-to-undo", {})
        assert refusal(session.redo()) == ("nothing-to-redo", {})
        assert refusal(session.restart()) == ("nothing-to-restart", {})

    def test_no_game(self, session: Session) -> None:
        """Before any game is open the refusal is coded too."""
        assert refusal(session.undo()) == ("no-game", {})

    @pytest.mark.parametrize(
        ("moves", "index", "move", "reason"),
        [
            ("5a,5b,zz", 3, "zz", {"code": "move-syntax", "params": {"move": "zz"}}),
            ("5a,2h", 2, "2h", {"code": "foundation-needs",
                                "params": {"move": "2h", "card": "9C", "need": "AC"}}),
            ("9a", 1, "9a", {"code": "move-syntax", "params": {"move": "9a"}}),
            ("36v14", 1, "36v14", {"code": "move-count", "params": {"move": "36v14"}}),
            ("36v", 1, "36v", {"code": "move-syntax", "params": {"move": "36v"}}),
            ("1av2", 1, "1av2", {"code": "move-count-places", "params": {"move": "1av2"}}),
            ("36v0", 1, "36v0", {"code": "move-count", "params": {"move": "36v0"}}),
        ],
    )  # fmt: skip
    def test_link_notice(
        self, session: Session, moves: str, index: int, move: str, reason: dict[str, Any]
    ) -> None:
        """A link's bad move gives a notice with its place, the token and the coded reason."""
        data = reply(session.new_game("1", moves))
        assert data["ok"] is True
        assert data["notice_code"] == "link-move"
        assert data["notice_params"] == {"index": index, "move": move, "reason": reason}
        assert reason["code"] in ERROR_CODES

    def test_too_many_moves_notice(self, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
        """A link longer than MAX_LINK_MOVES is coded with its count and the limit."""
        monkeypatch.setattr(web_link, "MAX_LINK_MOVES", 3)
        data = reply(session.new_game("1", "5a,5b,5c,5d"))
        assert data["notice_code"] == "link-too-long"
        assert data["notice_params"] == {"count": 4, "max": 3}

    @pytest.mark.parametrize(
        ("moves", "move", "code", "params"),
        [
            ("", "12", "card-no-fit",
             {"cards": ["6S"], "cascade": "1", "onto": "9C", "target": "2"}),
            ("5a,5b", "5b", "freecell-full", {"cell": "b", "card": "8H"}),
            ("", "a1", "freecell-empty", {"cell": "a"}),
        ],
    )  # fmt: skip
    def test_engine_codes_have_the_english(
        self, moves: str, move: str, code: str, params: dict[str, Any]
    ) -> None:
        """The engine's errors carry the English message and the move among the params."""
        game = Game.from_deal_number(1)
        for token in _split(moves):
            game.push(token)
        with pytest.raises(ValueError, match=r"^illegal move ") as caught:
            game.push(move)
        assert getattr(caught.value, "code", None) == code
        assert getattr(caught.value, "params", None) == {"move": move, **params}


def _split(moves: str) -> list[str]:
    return [token for token in moves.split(",") if token]


class TestHistory:
    """A page keeps a game's automatic flags and redo moves across a reload."""

    def test_redo_survives(self, session: Session) -> None:
        """The kept redo moves and flags come back: Redo plays the undone turn again."""
        session.new_game("1", "5a,5b,5c")
        session.play("5", "d", "", "safe")
        kept = game_of(session.undo())
        assert (kept["redo"], kept["redo_auto"]) == (["5d", "5h"], [False, True])
        history = json.dumps({k: kept[k] for k in ("auto", "redo", "redo_auto")})
        other = Session()
        reopened = game_of(other.new_game("1", ",".join(kept["moves"]), 0, False, history))
        assert (reopened["redo"], reopened["redo_auto"]) == (["5d", "5h"], [False, True])
        assert game_of(other.redo())["moves"] == ["5a", "5b", "5c", "5d", "5h"]

    def test_auto_flags_survive(self, session: Session) -> None:
        """Kept automatic flags group the undo as before the reload."""
        history = json.dumps({"auto": [False] * 4 + [True], "redo": [], "redo_auto": []})
        session.new_game("1", "5a,5b,5c,5d,5h", 0, False, history)
        assert game_of(session.undo())["moves"] == ["5a", "5b", "5c"]

    @pytest.mark.parametrize(
        "history",
        ["", "{", "[]", "null", '{"auto": [true]}', '{"auto": [0,0], "redo": [], "redo_auto": []}',
         '{"auto": [false, false], "redo": 5, "redo_auto": []}',
         '{"auto": [false, false], "redo": ["zz"], "redo_auto": [false]}',
         '{"auto": [false, false], "redo": ["5b"], "redo_auto": []}'],
    )  # fmt: skip
    def test_unfit_history_is_ignored(self, session: Session, history: str) -> None:
        """History that does not fit the moves, or is no history at all, changes nothing."""
        state = game_of(session.new_game("1", "5a,5b", 0, False, history))
        assert (state["moves"], state["auto"], state["redo"]) == (["5a", "5b"], [False] * 2, [])

    @given(st.text(max_size=60))
    def test_any_history_text(self, history: str) -> None:
        """Any history text at all gets the game."""
        assert reply(Session().new_game("1", "5a", 0, False, history))["ok"] is True


def answered(session: Session, op: str = "check") -> dict[str, Any]:
    """Ask until the searches an op needs are done (as the page's worker does), then answer."""
    while (data := reply(getattr(session, op)())).get("pending"):
        while session.think(0.005) == "thinking":
            pass
    return data


class TestCheck:
    @pytest.mark.parametrize(("number", "before", "losing"), LOSING_MOVES)
    def test_the_fixtures_are_true(self, number: int, before: list[str], losing: str) -> None:
        """Each fixture's move takes a winnable position to a lost one, as fc-solve says too."""
        game = Game.from_deal_number(number)
        for move in before:
            game.push(move)
        assert solve(game).result == "solved"
        assert not fc_solve_finds_no_solution(game.position)
        game.push(losing)
        assert solve(game).result == "impossible"
        assert fc_solve_finds_no_solution(game.position)

    @pytest.mark.slow
    @pytest.mark.parametrize(("number", "before", "losing"), LOSING_MOVES)
    def test_the_move_that_lost_is_named(
        self, session: Session, number: int, before: list[str], losing: str
    ) -> None:
        """After the losing move, and after more moves, check names it and the moves before it."""
        session.new_game(str(number), ",".join(before))
        assert answered(session)["solvable"] == "yes"
        session.play_move(losing)
        data = answered(session)
        assert (data["solvable"], data["deal_lost"]) == ("no", False)
        assert data["lost"]["move_count"] == len(before)
        assert data["lost"]["made"]["move"] == losing
        # Played on from there (a position never searched before): the same move is named.
        legal = Game.from_deal_number(number)
        for move in [*before, losing]:
            legal.push(move)
        onward = str(legal.legal_moves()[0])
        session.play_move(onward)
        again = answered(session)
        assert (again["solvable"], again["lost"]) == ("no", data["lost"])

    def test_a_winnable_game(self, session: Session) -> None:
        """A game that can be won says yes, with nothing lost."""
        session.new_game("617", "82")
        data = answered(session)
        assert (data["solvable"], data["lost"], data["deal_lost"]) == ("yes", None, False)
        assert data["game"]["moves"] == ["82"]

    @pytest.mark.slow
    def test_a_deal_that_cannot_be_won(self, session: Session) -> None:
        """Deal 11982 is lost from its start: no move lost it."""
        session.new_game("11982")
        data = answered(session)
        assert (data["solvable"], data["lost"], data["deal_lost"]) == ("no", None, True)
        assert reply(session.undo_to_winnable())["code"] == "none-winnable"

    def test_a_change_drops_the_search(self, session: Session) -> None:
        """The next change of the game ends the search under way; check starts the new one."""
        session.new_game("11982")
        assert reply(session.check())["pending"] is True
        assert session.think(0.001) == "thinking"
        session.new_game("617")
        assert session.think(0.001) == "idle"
        assert answered(session)["solvable"] == "yes"

    def test_hint_and_check_share_their_answers(self, session: Session) -> None:
        """A position Hint searched is known to check at once, and the other way round."""
        session.new_game("617")
        answered(session, "hint")
        assert reply(session.check())["solvable"] == "yes"
        session.play_move("3a")
        answered(session)
        assert reply(session.hint())["result"] == "impossible"


class TestUndoToWinnable:
    @pytest.mark.slow
    @pytest.mark.parametrize(("number", "before", "losing"), LOSING_MOVES)
    def test_back_to_the_last_winnable_position(
        self, session: Session, number: int, before: list[str], losing: str
    ) -> None:
        """It takes back the turns from the losing move on; Redo plays them again."""
        session.new_game(str(number), ",".join([*before, losing]))
        answered(session)
        data = reply(session.undo_to_winnable())
        assert data["ok"] is True
        assert data["game"]["moves"] == before
        assert data["game"]["redo"] == [losing]
        assert answered(session)["solvable"] == "yes"

    def test_a_winnable_game_stays(self, session: Session) -> None:
        """On a game known to be winnable, nothing changes."""
        session.new_game("617", "82")
        answered(session)
        assert reply(session.undo_to_winnable())["game"]["moves"] == ["82"]

    def test_nothing_known(self, session: Session) -> None:
        """Before any check, no position is known winnable: refused, the game unchanged."""
        session.new_game("617", "3a")
        data = reply(session.undo_to_winnable())
        assert (data["ok"], data["code"], data["game"]["moves"]) == (False, "none-winnable", ["3a"])
        assert data["error"] == "no position of this game so far is known to be winnable"


class TestGrade:
    @pytest.mark.parametrize(("number", "moves"), [(1, ""), (617, "82,52"), (164, ""), (24, "")])
    def test_the_grade_is_the_deals(self, session: Session, number: int, moves: str) -> None:
        """The grade is difficulty() of the search of the deal's start, whatever was played."""
        session.new_game(str(number), moves)
        assert answered(session, "grade")["difficulty"] == difficulty(solve(number))

    @pytest.mark.slow
    def test_an_impossible_deal_has_none(self, session: Session) -> None:
        """A deal the search does not solve has no grade."""
        session.new_game("11982")
        assert answered(session, "grade")["difficulty"] is None


def identified(session: Session, text: str) -> dict[str, Any]:
    """Ask identify, thinking until its search ends, and return the answer."""
    while (answer := reply(session.identify(text))).get("pending"):
        while session.think(0.005) == "thinking":
            pass
    return answer


class TestIdentify:
    """identify: the deals whose layout begins with cards the player typed or pasted."""

    def test_a_first_row_finds_its_deal(self, session: Session) -> None:
        """A first row of 8 cards, typed in lower case, finds its one deal."""
        row = " ".join(CARD_CODES[c] for c in deal(2**32 + 617).cards[:8]).lower()
        answer = identified(session, row)
        assert answer == {"ok": True, "numbers": [2**32 + 617], "more": False, "count": 8,
                          "max": MAX_DEAL}  # fmt: skip

    def test_a_pasted_board_finds_its_deal(self, session: Session) -> None:
        """fc-solve's text of a deal, as the dealer prints it, finds it."""
        assert identified(session, format_deal(deal(-1)))["numbers"] == [-1]

    def test_a_short_beginning_lists_the_first_deals_and_says_more(self, session: Session) -> None:
        """Two cards begin millions of deals: the first FIND_MOST, and more."""
        answer = identified(session, "JD 2D")
        assert answer["more"] is True
        assert len(answer["numbers"]) == web.FIND_MOST
        assert all(deal(n).cards[:2] == deal(1).cards[:2] for n in answer["numbers"])

    def test_no_deal(self, session: Session) -> None:
        """Two cards of a row swapped: no deal, with the count of cards read."""
        cards = [CARD_CODES[c] for c in deal(617).cards[:8]]
        cards[0], cards[5] = cards[5], cards[0]
        answer = identified(session, " ".join(cards))
        assert (answer["numbers"], answer["count"], answer["more"]) == ([], 8, False)

    @pytest.mark.parametrize(
        ("text", "code"),
        [("", "layout-empty"), ("JD 2D jd", "layout-card-twice"), ("JD 1D", "card-invalid"),
         ("Freecells: JD", "layout-not-start"), (" ".join(CARD_CODES) + " AC", "layout-too-long")],
    )  # fmt: skip
    def test_bad_text_is_refused_with_its_code(
        self, session: Session, text: str, code: str
    ) -> None:
        """Text that is no layout is refused at once, as data, with no search started."""
        answer = reply(session.identify(text))
        assert (answer["ok"], answer["code"]) == (False, code)
        assert session.think(0.001) == "idle"

    def test_a_new_text_replaces_the_search_and_stop_ends_it(self, session: Session) -> None:
        """A newer identify replaces the running search; identify_stop leaves nothing to do."""
        assert reply(session.identify("JD 2D 9H JC"))["pending"] is True
        assert reply(session.identify("7D AD 5C 3S 5S 8C 2D AH"))["pending"] is True
        while session.think(0.005) == "thinking":
            pass
        assert reply(session.identify("7D AD 5C 3S 5S 8C 2D AH"))["numbers"] == [617]
        assert reply(session.identify("JD 2D 9H JC"))["pending"] is True
        assert reply(session.identify_stop()) == {"ok": True}
        assert session.think(0.005) == "idle"

    def test_it_takes_turns_with_the_game_s_search(self, session: Session) -> None:
        """With a hint's search running, identify's slices alternate with it and both end."""
        session.new_game("617")
        assert reply(session.hint())["pending"] is True
        assert reply(session.identify("JD 2D 9H JC 5D 7H 7C 5H"))["pending"] is True
        done = 0
        while done < 2:
            state = session.think(0.005)
            done += state == "done"
            assert state != "idle"
        assert reply(session.identify("JD 2D 9H JC 5D 7H 7C 5H"))["numbers"] == [1]
        assert "moves" in reply(session.hint())


SHORT_DEAL = 164
"""A deal whose short search from SHORT_MOVES in is quick (a fraction of a second)."""
SHORT_MOVES = [str(move) for move in solve(SHORT_DEAL).moves[:30]]
"""Today's first 30 moves of the deal: a game in progress."""


def open_short(session: Session) -> None:
    """Open SHORT_DEAL after SHORT_MOVES in a session."""
    session.new_game(str(SHORT_DEAL), ",".join(SHORT_MOVES))


def solved(session: Session) -> dict[str, Any]:
    """Ask solve until the search has ended (no longer pending, nor partial); the answer."""
    while (data := reply(session.solve())).get("pending") or "partial" in data:
        while session.think(0.005) == "thinking":
            pass
    return data


def short_game() -> Game:
    """Return the engine's game of SHORT_DEAL after SHORT_MOVES."""
    game = Game.from_deal_number(SHORT_DEAL)
    for move in SHORT_MOVES:
        game.push(move)
    return game


class TestSolve:
    """solve: the short search's solution, in slices; remembered along its way."""

    def test_the_answer_is_the_short_search_s(self, session: Session) -> None:
        """The reply is the library's short solution from the position, which wins."""
        open_short(session)
        data = solved(session)
        expected = solve(short_game(), short=True)
        assert data["result"] == "solved"
        assert data["moves"] == [str(move) for move in expected.moves]
        assert data["player_moves"] == expected.player_moves < solve(short_game()).player_moves
        assert data["hint"]["move"] == data["moves"][0]
        assert (
            set(ShortSolved.__required_keys__)
            <= set(data)
            <= ShortSolved.__required_keys__ | {"hint"}
        )
        assert data["start"] is False
        game = short_game()
        for move in data["moves"]:
            game.push(move)
        assert game.is_won()

    @pytest.mark.slow
    @pytest.mark.parametrize("auto", ["off", "safe", "all"])
    def test_solve_follows_its_solution_at_once(self, session: Session, auto: str) -> None:
        """Played with any auto-play, each next solve answers at once, as short to the end."""
        open_short(session)
        first = solved(session)
        played = 0
        while not (data := reply(session.solve()))["game"]["won"]:
            assert data["result"] == "solved", data
            move = data["moves"][0]
            played += not move.endswith("h")
            session.play_move(move, auto)
        assert played == first["player_moves"]

    @pytest.mark.slow
    def test_hint_comes_from_the_short_solution(self, session: Session) -> None:
        """After solve, hint answers its moves, though today's search answered before."""
        open_short(session)
        today = answered(session, "hint")
        short = solved(session)
        assert today["moves"] != short["moves"]
        assert reply(session.hint())["moves"] == short["moves"]
        session.play_move(short["moves"][0], "safe")
        session.play_move(reply(session.hint())["moves"][0], "safe")
        assert reply(session.check())["solvable"] == "yes"  # known: no search

    def test_the_search_ends_with_stop_or_a_change(self, session: Session) -> None:
        """solve_stop drops the search, and so does a move; nothing is remembered."""
        open_short(session)
        assert reply(session.solve())["pending"] is True
        assert session.think(0.001) == "thinking"
        assert reply(session.solve_stop()) == {"ok": True}
        assert session.think(0.001) == "idle"
        assert reply(session.solve())["pending"] is True
        session.undo()
        assert session.think(0.001) == "idle"
        session.redo()
        assert reply(session.solve())["pending"] is True  # still unknown

    def test_a_lost_position_is_proved(self, session: Session) -> None:
        """From a lost position the answer is today's proof: impossible, no moves."""
        session.new_game("617", "3a")
        data = solved(session)
        assert (data["result"], data["moves"], data["player_moves"]) == ("impossible", [], 0)
        assert reply(session.hint())["result"] == "impossible"  # remembered: no search

    @pytest.mark.slow
    def test_it_answers_the_moves_it_keeps_while_it_shortens(self, session: Session) -> None:
        """Before its end it answers the moves it no longer changes ("partial"), then the rest.

        The game may follow them while the search goes on, with no search for the guard.
        """
        open_short(session)
        expected = [str(move) for move in solve(short_game(), short=True).moves]
        partial = 0
        played: list[str] = []
        while not (data := reply(session.solve()))["game"]["won"]:
            if data.get("pending"):
                assert session.think(0.005) != "idle"
                continue
            partial += data.get("partial", False)
            assert data["moves"] == expected[len(played) : len(played) + len(data["moves"])]
            assert reply(session.check())["solvable"] == "yes"  # no search: on its way
            for move in data["moves"][:5]:
                session.play_move(move, "off")
                played.append(move)
        assert played == expected
        assert partial > 0

    @pytest.mark.slow
    def test_a_stop_keeps_the_solution_it_was_shortening(self, session: Session) -> None:
        """Stopped once it answers partly, hints follow that solution, its kept moves first."""
        open_short(session)
        today = answered(session, "hint")
        while (data := reply(session.solve())).get("pending"):
            session.think(0.005)
        session.solve_stop()
        assert session.think(0.005) == "idle"
        hinted = reply(session.hint())
        assert hinted["moves"][: len(data["moves"])] == data["moves"]
        assert len(hinted["moves"]) < len(today["moves"])
        game = short_game()
        for move in hinted["moves"]:
            game.push(move)
        assert game.is_won()

    @pytest.mark.slow
    def test_cards_sent_home_in_another_order_are_looked_up(self, session: Session) -> None:
        """A position off its way only by the order cards went home in is answered at once.

        The moves home that are left come first, then the solution's.
        """
        open_short(session)
        moves = solved(session)["moves"]
        # Two moves home from two places, the second one able to go first.
        game = short_game()
        for index, move in enumerate(moves[:-2]):
            game.push(move)
            home = moves[index + 1 : index + 3]
            if (
                all(m.endswith("h") for m in home)
                and home[0] != home[1]  # from two places: "5h, 5h" is one order only
                and game.position.is_legal(Move.parse(home[1]))
            ):
                break
        else:
            pytest.fail("no such move in the solution")
        for move in moves[: index + 1]:
            session.play_move(move)
        session.play_move(moves[index + 2])  # the second card home first, the first left
        data = reply(session.solve())
        assert "pending" not in data
        assert "partial" not in data
        assert data["moves"][0].endswith("h")
        next_player_move = next(m for m in moves[index + 1 :] if not m.endswith("h"))
        assert next(m for m in data["moves"] if not m.endswith("h")) == next_player_move
        game = short_game()
        for move in [*moves[: index + 1], moves[index + 2], *data["moves"]]:
            game.push(move)
        assert game.is_won()
        assert data["player_moves"] == solved(session)["player_moves"]

    @pytest.mark.slow
    def test_think_says_done_when_moves_are_final(self, session: Session) -> None:
        """A worker asks again on "done": it gets the moves settled before the search's end."""
        open_short(session)
        assert reply(session.solve())["pending"] is True
        while session.think(0.005) == "thinking":
            pass
        assert reply(session.solve())["partial"] is True
        assert session.think(0.005) == "thinking"  # the search goes on


class TestPlayerMoves:
    def test_the_count_leaves_out_moves_home_whatever_auto_play(self) -> None:
        """A game's player_moves counts its moves not home: the same with or without auto-play."""
        counts = {}
        for auto in ("off", "safe"):
            session = Session()
            session.new_game("3")
            game = reply(session.play_move("1a", auto))["game"]
            counts[auto] = (game["move_count"], game["player_moves"])
        assert counts == {"off": (1, 1), "safe": (2, 1)}  # "5h" went home by itself

    def test_a_linked_solution_counts_as_the_library_does(self, session: Session) -> None:
        """The snapshot's count is freecell's player_moves of the moves: a run moved is one."""
        moves = solution(1)
        game = reply(session.new_game("1", ",".join(moves)))["game"]
        expected = Game.from_deal_number(1)
        for move in moves:
            expected.push(move)
        assert game["won"]
        assert game["player_moves"] == expected.player_moves == player_moves(map(Move.parse, moves))
        assert game["player_moves"] == sum(not move.endswith("h") for move in moves)
        assert game["player_moves"] < game["move_count"] == len(moves)


class _Slices:
    """A search that counts the slices it is given, and runs for ``slices`` of them."""

    def __init__(self, slices: int) -> None:
        self.left, self.given = slices, 0

    def running(self, game: Game | None) -> bool:  # noqa: ARG002 - a Search's signature
        return self.left > 0

    def step(self, max_seconds: float) -> str:  # noqa: ARG002 - a Search's signature
        self.given += 1
        self.left -= 1
        return "done" if self.left == 0 else "thinking"


class TestPar:
    def test_par_is_the_short_solutions_player_moves(self, session: Session) -> None:
        """The par of a deal is the player moves of freecell.solve(number, short=True)."""
        session.new_game("3")
        assert reply(session.par())["pending"] is True
        assert answered(session, "par")["par"] == solve(3, short=True).player_moves == 18

    def test_the_par_is_remembered_per_deal(self, session: Session) -> None:
        """A deal opened again answers its par at once; Solve from its start too."""
        session.new_game("46")
        par = answered(session, "par")["par"]
        session.new_game("47")
        session.new_game("46")
        data = reply(session.par())
        assert (data.get("pending"), data["par"]) == (None, par)
        assert reply(session.solve())["player_moves"] == par

    def test_the_search_goes_on_while_the_game_changes(self, session: Session) -> None:
        """Moves of the same deal keep the par's search; the par is the deal's, from its start."""
        session.new_game("46")
        assert reply(session.par())["pending"] is True
        assert session.think(0.005) == "thinking"
        session.play_move("1a", "off")
        assert session.think(0.005) == "thinking"  # the same search, not dropped
        assert answered(session, "par")["par"] == solve(46, short=True).player_moves

    def test_another_deal_ends_the_search(self, session: Session) -> None:
        """A deal opened drops the last deal's par search: nothing is left to think about."""
        session.new_game("46")
        assert reply(session.par())["pending"] is True
        assert session.think(0.005) == "thinking"
        session.new_game("47")
        assert session.think(0.005) == "idle"

    def test_a_deal_that_cannot_be_won_has_no_par(self, session: Session) -> None:
        """Deal 11982, proved impossible, has par None."""
        session.new_game("11982")
        assert answered(session, "par")["par"] is None

    def test_the_par_search_thinks_only_when_no_other_search_does(self) -> None:
        """Turns gives the background search (the par's) no slice while another search runs."""
        hint, par = _Slices(3), _Slices(2)
        turns = Turns([hint], [par])
        states = [turns.think(None, 0.005) for _ in range(3)]
        assert (states, hint.given, par.given) == (["thinking", "thinking", "done"], 3, 0)
        states = [turns.think(None, 0.005) for _ in range(3)]
        assert (states, hint.given, par.given) == (["thinking", "done", "idle"], 3, 2)
