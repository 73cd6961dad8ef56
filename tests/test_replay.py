"""The `freecell replay` command, through replay_main with in-memory streams."""

import io
import os
import re
import subprocess

import pytest

from freecell import MOVE_PATTERN, VALID_DEALS_TEXT, Game, Position, deal, format_deal
from freecell._cli.replay import move_words, replay_main
from helpers import SOLUTIONS

SOLVED_DEALS = sorted(
    int(p.stem) for p in SOLUTIONS.glob("*.txt") if re.fullmatch(r"-?[0-9]+", p.stem)
)
WON = "\n".join(["Foundations: H-K C-K D-K S-K ", "Freecells:                "] + [": "] * 8)
HEX_RUN_DEALS = [22, 359, 419, 2174]
"""Deals whose fc-solve 5.0 solution moves a run of 10+ cards, which it writes in hex (82vc)."""


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
        assert replay(str(number), stdin=text) == (0, WON + "\n# solved\n", "")

    @pytest.mark.parametrize("number", SOLVED_DEALS)
    def test_moves_as_arguments_are_solved(self, number: int) -> None:
        """The same moves given as arguments, some joined by commas, replay to a win."""
        moves = list(move_words((SOLUTIONS / f"{number}.txt").read_text().splitlines()))
        argv = [",".join(moves[k : k + 3]) for k in range(0, len(moves), 3)]
        assert replay(str(number), *argv) == (0, WON + "\n# solved\n", "")

    def test_sam_output_on_stdin_is_solved(self) -> None:
        """fc-solve's -sam output, with positions and `Move:` lines, replays too."""
        text = (SOLUTIONS / "1-states.txt").read_text()
        assert replay("1", stdin=text)[0:2] == (0, WON + "\n# solved\n")


@pytest.fixture(scope="module")
def fc_solve_solutions(fc_solve: str) -> dict[int, str]:
    """Return the whole output of the real `fc-solve -m -snx` for each of HEX_RUN_DEALS."""
    outputs = {}
    for number in HEX_RUN_DEALS:
        result = subprocess.run(
            [fc_solve, "-m", "-snx", "-"],
            input=format_deal(deal(number)),
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
        )
        outputs[number] = result.stdout
    return outputs


class TestFcSolveHexCounts:
    @pytest.mark.parametrize("number", HEX_RUN_DEALS)
    def test_fc_solve_output_replays_to_a_win(
        self, fc_solve_solutions: dict[int, str], number: int
    ) -> None:
        """fc-solve's own solution, just made, replays to a win, hex counts and all."""
        assert replay(str(number), stdin=fc_solve_solutions[number]) == (
            0,
            WON + "\n# solved\n",
            "",
        )

    def test_the_solutions_hold_hex_counts(self, fc_solve_solutions: dict[int, str]) -> None:
        """The deals above still test what they are for: runs of 10, 11 and 12 cards in hex."""
        counts = {
            m for text in fc_solve_solutions.values() for m in re.findall(r"v([a-f])\b", text)
        }
        assert counts >= {"a", "b", "c"}

    def test_a_committed_solution_holds_a_hex_count(self) -> None:
        """One committed solution moves a run written in hex, so every solution test covers it."""
        assert re.search(r"\b[1-8]{2}v[a-f]\b", (SOLUTIONS / "22.txt").read_text())
        assert 22 in SOLVED_DEALS


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
        assert all(re.fullmatch(MOVE_PATTERN, w) for w in words)

    def test_a_line_of_hex_counts_is_a_move_line(self) -> None:
        """A line whose only moves carry hex counts (as fc-solve writes runs of 10+) is read."""
        assert list(move_words(["82vc 45va", "This game is solveable."])) == ["82vc", "45va"]

    def test_position_lines_are_skipped(self) -> None:
        """Card codes like 8H or 2D are not moves: position lines are skipped."""
        assert list(move_words([": 8H 2D 3C", "Freecells:  6C", "Move: 2d"])) == ["2d"]
