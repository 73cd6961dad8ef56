"""The `freecell replay` command, through replay_main with in-memory streams."""

import io
import re

import pytest

from freecell import VALID_DEALS_TEXT, deal
from freecell._game import Game, Position
from freecell._replay import move_words, replay_main
from helpers import SOLUTIONS

SOLVED_DEALS = sorted(
    int(p.stem) for p in SOLUTIONS.glob("*.txt") if re.fullmatch(r"-?[0-9]+", p.stem)
)
WON = "\n".join(["Foundations: H-K C-K D-K S-K ", "Freecells:                "] + [": "] * 8)


def replay(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run replay_main and return its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = replay_main(list(argv), io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


class TestSolutions:
    @pytest.mark.parametrize("number", SOLVED_DEALS)
    def test_fc_solve_output_on_stdin_is_solved(self, number: int) -> None:
        """The whole output of `fc-solve -m -snx` on stdin replays to a win."""
        text = (SOLUTIONS / f"{number}.txt").read_text()
        assert replay(str(number), stdin=text) == (0, WON + "\nsolved\n", "")

    @pytest.mark.parametrize("number", SOLVED_DEALS)
    def test_moves_as_arguments_are_solved(self, number: int) -> None:
        """The same moves given as arguments, some joined by commas, replay to a win."""
        moves = list(move_words((SOLUTIONS / f"{number}.txt").read_text().splitlines()))
        argv = [",".join(moves[k : k + 3]) for k in range(0, len(moves), 3)]
        assert replay(str(number), *argv) == (0, WON + "\nsolved\n", "")

    def test_sam_output_on_stdin_is_solved(self) -> None:
        """fc-solve's -sam output, with positions and `Move:` lines, replays too."""
        text = (SOLUTIONS / "1-states.txt").read_text()
        assert replay("1", stdin=text)[0:2] == (0, WON + "\nsolved\n")


class TestOutput:
    def test_no_moves_prints_the_deal(self) -> None:
        """With no moves the starting position is printed, and it is not solved."""
        status, out, err = replay("617", stdin="")
        assert (status, out, err) == (0, str(Position.from_deal(deal(617))) + "\n", "")

    def test_automatic_moves_are_off(self) -> None:
        """An ace uncovered by a move stays in its cascade."""
        status, out, _ = replay("1", "5a", "5b", "5c", "5d")
        assert status == 0
        assert out.splitlines()[0] == "Foundations: H-0 C-0 D-0 S-0 "
        assert out.splitlines()[6] == ": 5D AD"
        assert "solved" not in out

    def test_separators(self) -> None:
        """Moves may be separated by spaces, commas and newlines, on stdin or in arguments."""
        expected = replay("1", "5a", "5b", "5c", "5d", "5h")
        assert replay("1", "5a 5b,5c", "5d,5h") == expected
        assert replay("1", stdin="5a, 5b\n5c\n\n5d 5h\n") == expected
        assert expected[1].startswith("Foundations: H-0 C-0 D-A S-0 \n")

    def test_special_deal_number(self) -> None:
        """`-1` is a deal number, not an option."""
        status, out, _ = replay("-1", "1a")
        assert status == 0
        assert out.splitlines()[1] == "Freecells:  KC            "

    def test_help(self) -> None:
        """-h prints the usage and exits 0."""
        status, out, _ = replay("-h")
        assert status == 0
        assert out.startswith("usage: freecell replay")


class TestErrors:
    def test_illegal_move(self) -> None:
        """An illegal move exits 1 naming its index and text, with the position it met."""
        status, out, err = replay("617", "82", "52", "23", "1a", "13")
        assert (status, out) == (1, "")
        lines = err.splitlines()
        assert lines[0] == (
            "freecell replay: move 5 '13' is illegal: 4S at the bottom of cascade 1 does not fit "
            "on JC at the bottom of cascade 3"
        )
        game = Game.from_deal_number(617)
        for move in ["82", "52", "23", "1a"]:
            game.push(move)
        assert "\n".join(lines[2:]) == str(game)

    def test_illegal_move_on_stdin_counts_moves_not_lines(self) -> None:
        """The index counts moves, skipping lines that hold none."""
        status, _, err = replay("1", stdin="Solution:\n5a 5b\n\n5a\n")
        assert status == 1
        assert err.startswith("freecell replay: move 3 '5a' is illegal: free cell a holds 6C\n")

    def test_malformed_move(self) -> None:
        """A malformed move exits 1 and is called malformed."""
        status, out, err = replay("1", "5a", "5x")
        assert (status, out) == (1, "")
        assert err.startswith("freecell replay: move 2 '5x' is malformed: write a source")

    def test_typo_on_a_move_line_is_not_skipped(self) -> None:
        """A line with moves on it is all moves: a typo there is reported."""
        status, _, err = replay("1", stdin="5a 5b 5c 5x\n")
        assert status == 1
        assert "move 4 '5x' is malformed" in err

    @pytest.mark.parametrize("number", ["0", "abc", "-3", "8589934592", "1.5"])
    def test_bad_deal_number(self, number: str) -> None:
        """A bad deal number exits 2 with one line naming the valid range."""
        status, out, err = replay(number, "1a")
        assert (status, out) == (2, "")
        assert err.count("\n") == 1
        assert err.startswith("freecell replay: invalid deal number")
        assert VALID_DEALS_TEXT in err

    def test_no_arguments(self) -> None:
        """No deal number is a usage error."""
        status, _, err = replay()
        assert status == 2
        assert "give a deal number" in err


class TestMoveWords:
    def test_fc_solve_output(self) -> None:
        """Only move lines of fc-solve's output give words."""
        text = (SOLUTIONS / "617.txt").read_text().splitlines()
        words = list(move_words(text))
        assert words[:4] == ["8a", "8b", "8c", "87"]
        assert len(words) == 155
        assert all(re.fullmatch(r"[1-8a-d][1-8a-dh](v[0-9]+)?", w) for w in words)

    def test_position_lines_are_skipped(self) -> None:
        """Card codes like 8H or 2D are not moves: position lines are skipped."""
        assert list(move_words([": 8H 2D 3C", "Freecells:  6C", "Move: 2d"])) == ["2d"]
