"""The `freecell replay` command, through replay_main with in-memory streams."""

import io
import os
import re
import subprocess
import sys
import tracemalloc

import pytest
from hypothesis import example, given, settings

from freecell import (
    CASCADES,
    FREECELLS,
    MOVE_PATTERN,
    VALID_DEALS_TEXT,
    Game,
    Position,
    deal,
    format_deal,
    solve,
)
from freecell._cli.replay import move_words, numbered_move_words, replay_main
from freecell._fcs import parse_position
from helpers import SOLUTIONS, move_lines

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
    def test_no_moves_prints_the_position(self) -> None:
        """A position on stdin and no move as arguments: the position is printed, not solved."""
        start = str(Position.from_deal(deal(617)))
        assert replay("-", stdin=start) == (0, start + "\n", "")

    @pytest.mark.parametrize(
        "text",
        ["", "\n\n", "This game is solveable.\n", "617: impossible\n", "-=-=-=-\n====\n",
         "I could not solve this game.\nTotal number of states checked is 12.\n",
         str(Position.from_deal(deal(617))) + "\n"],
    )  # fmt: skip
    def test_stdin_with_no_move_is_an_error(self, text: str) -> None:
        """Standard input that gives no move ends with 1 and says so: it never passes for a win.

        `freecell solve 5 | cut -d: -f2 | freecell replay 5` on an impossible deal, fc-solve's
        output for a game it gave up on, or moves in a format not read played nothing, exit 0.
        """
        status, out, err = replay("617", stdin=text)
        first, second, *position = err.splitlines()
        assert (status, out) == (1, "")
        assert first == (
            "freecell replay: no move was read from standard input: it held only text, "
            "positions and separators, which are skipped, or nothing"
        )
        assert second == "position before move 1 (deal 617, 0 moves played):"
        assert parse_position("\n".join(position)) == Position.from_deal(deal(617))

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
        """The index counts moves, skipping lines that hold none; the line is named too."""
        status, _, err = replay("1", stdin="Solution:\n5a 5b\n\n5a\n")
        assert status == 1
        assert err.startswith(
            "freecell replay: move 3 '5a' on line 4 is illegal: free cell a holds 6C\n"
        )

    def test_malformed_move(self) -> None:
        """A malformed move exits 1 and is called malformed."""
        status, out, err = replay("1", "5a", "5x")
        assert (status, out) == (1, "")
        assert err.startswith("freecell replay: move 2 '5x' is malformed: write a source")

    def test_typo_on_a_move_line_is_not_skipped(self) -> None:
        """A line with moves on it is all moves: a typo there is reported."""
        status, _, err = replay("1", stdin="5a 5b 5c 5x\n")
        assert status == 1
        assert "move 4 '5x' on line 1 is malformed" in err

    @pytest.mark.parametrize("bad", ["1z", "9", "a", "h1", "5a5b", "12v", "2a;", "{", "@@"])
    def test_a_malformed_move_alone_on_its_line_is_not_skipped(self, bad: str) -> None:
        """`83`, `2a`, then a line holding only a malformed move: status 1, naming line 3."""
        status, out, err = replay("617", stdin=f"83\n2a\n{bad}\n")
        assert (status, out) == (1, "")
        assert err.startswith(f"freecell replay: move 3 {bad!r} on line 3 is malformed: ")
        assert "position before move 3 (deal 617, 2 moves played):" in err

    @pytest.mark.parametrize("line", ["83\x002a", "\x00", "83 2a\x1b[0m", "This game\x07 is."])
    def test_a_control_character_damages_its_line(self, line: str) -> None:
        """A NUL (or any control character) in a line fails with status 1, naming the line."""
        status, out, err = replay("617", stdin=f"-=-=-=-\n\n{line}\n")
        assert (status, out) == (1, "")
        column = next(k for k, char in enumerate(line, start=1) if char < " ")
        assert err.splitlines()[0] == (
            f"freecell replay: line 3 of standard input is damaged: it holds the control "
            f"character U+{ord(line[column - 1]):04X} at column {column}"
        )

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

    def test_fc_solve_text_and_drawn_positions_are_skipped(self) -> None:
        """fc-solve's sentences and the positions -sam draws without -p -t give no words."""
        lines = [
            "I could not solve this game.", "Iterations count exceeded.", "====================",
            " 6C                     H-0 C-0 D-0 S-0", "--- --- --- --- ", " --  --  --  -- ",
            "10D  7D  8H  2C  JH  4S 10H  3S ", "# solved", "617: impossible", "-: unknown",
            "This scan generated 17 states.", "Total number of states checked is 12.",
        ]  # fmt: skip
        assert list(move_words(lines)) == []

    def test_a_byte_order_mark_starting_the_input_is_ignored(self) -> None:
        """Moves saved as UTF-8 by a Windows editor, which starts with U+FEFF, are read."""
        assert list(move_words(["\ufeff83 2a", "\ufeff1a"])) == ["83", "2a", "\ufeff1a"]

    def test_words_carry_their_line_numbers(self) -> None:
        """numbered_move_words gives each word with its line, counting every line."""
        lines = ["-=-=-", "", "8a 8b", "This game is solveable.", "1z"]
        assert list(numbered_move_words(lines)) == [(3, "8a"), (3, "8b"), (5, "1z")]

    def test_real_fc_solve_outputs_replay_to_a_win(self, fc_solve: str) -> None:
        """Every output of the real fc-solve that holds `-m -snx` moves replays deal 1 to a win."""
        for options in (["-m", "-snx"], ["-sam", "-m", "-snx"], ["-sam", "-p", "-t", "-m", "-snx"]):
            text = subprocess.run(
                [fc_solve, *options, "-"],
                input=format_deal(deal(1)),
                capture_output=True,
                text=True,
                check=True,
                timeout=60,
            ).stdout
            assert replay("1", stdin=text)[0:2] == (0, WON + "\n# solved\n"), options

    def test_an_unsolved_fc_solve_output_plays_nothing(self, fc_solve: str) -> None:
        """fc-solve's output for a game it gave up on is all text: no move, status 1."""
        text = subprocess.run(
            [fc_solve, "-mi", "10", "-m", "-snx", "-"],
            input=format_deal(deal(1)),
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        assert "I could not solve this game." in text
        status, out, err = replay("1", stdin=text)
        assert (status, out) == (1, "")
        assert err.startswith("freecell replay: no move was read from standard input")


def said(position: Position, move: str) -> str:
    """Say a move in words as `fc-solve -m` does: places counted from 0, a count between stacks."""

    def place(name: str) -> str:
        if name in CASCADES:
            return f"stack {CASCADES.index(name)}"
        return f"freecell {FREECELLS.index(name)}"

    source, target = move[0], move[1]
    if target == "h":
        return f"Move a card from {place(source)} to the foundations"
    if source in CASCADES and target in CASCADES:
        moved = len(position.cascades[CASCADES.index(source)]) - len(
            position.apply(move).cascades[CASCADES.index(source)]
        )
        return f"Move {moved} cards from {place(source)} to {place(target)}"
    return f"Move a card from {place(source)} to {place(target)}"


def in_words(number: int) -> str:
    """Return our solution of a deal as `fc-solve -m` prints one: sentences between separators."""
    position, sentences = Position.from_deal(deal(number)), []
    for move in solve(number).moves:
        sentences.append(said(position, str(move)))
        position = position.apply(move)
    separator = "\n\n====================\n\n"
    end = "This game is solveable.\n"
    return f"-=-=-=-=-=-=-=-=-=-=-=-\n\n{separator.join(sentences)}{separator}{end}"


class TestMovesInWords:
    """fc-solve's `-m` without `-snx` says its moves in words: they are read, or reported."""

    @pytest.mark.parametrize("number", [24, 617])
    def test_a_solution_in_words_replays_to_a_win(self, number: int) -> None:
        """Every sentence is its move; a run between cascades moves as many cards as it says."""
        text = in_words(number)
        assert "cards from stack" in text
        assert replay(str(number), stdin=text) == (0, WON + "\n# solved\n", "")

    def test_fc_solve_words_replay_to_a_win(self, fc_solve: str) -> None:
        """The real `fc-solve -m` output of deals 1 and 24 replays to a win."""
        for number in (1, 24):
            text = subprocess.run(
                [fc_solve, "-m", "-"],
                input=format_deal(deal(number)),
                capture_output=True,
                text=True,
                check=True,
                timeout=60,
                env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
            ).stdout
            assert "Move a card from stack" in text
            assert replay(str(number), stdin=text)[:2] == (0, WON + "\n# solved\n"), number

    @pytest.mark.parametrize(
        "sentence",
        [
            "Move the sequence on top of Stack 3 to the foundations",
            "Move a card from stack 8 to the foundations",
            "Move a card from freecell 4 to stack 1",
            "Move 2 cards from stack 0 to freecell 1",
            "Move 2 cards from stack 0 to the foundations",
            "move a card from stack 0 to the north",
        ],
    )
    def test_a_sentence_of_no_freecell_move_is_malformed(self, sentence: str) -> None:
        """A sentence that says no move of FreeCell ends the replay, naming it and its line."""
        status, out, err = replay(
            "24", stdin=f"Move a card from stack 3 to the foundations\n{sentence}\n"
        )
        assert (status, out) == (1, "")
        assert err.startswith(f"freecell replay: move 2 {sentence[:40]!r}"[:-1])
        assert "on line 2 is malformed" in err

    def test_a_wrong_count_is_illegal(self) -> None:
        """A run onto a card said one card long too many is refused at its line, as GSV does."""
        position, lines = Position.from_deal(deal(24)), ["-=-=-=-=-=-=-=-=-=-=-=-"]
        for move in map(str, solve(24).moves):
            lines += ["", said(position, move), "", "===================="]
            onto = move[1] in CASCADES and position.cascades[CASCADES.index(move[1])]
            if move[0] in CASCADES and onto:
                count = int(lines[-3].split()[1])
                lines[-3] = lines[-3].replace(f"Move {count} cards", f"Move {count + 1} cards")
                break
            position = position.apply(move)
        status, _, err = replay("24", stdin="\n".join(lines))
        assert status == 1
        assert f"on line {len(lines) - 2} is illegal: the run that fits" in err


CYCLE = "25 52\n"
"""Two moves of deal 6 that bring it back where it was: a game as long as one wants."""


class TestStreaming:
    @pytest.mark.slow
    def test_a_long_game_on_stdin_takes_the_memory_of_one_position(self) -> None:
        """30,000 moves on stdin replay with a peak of well under a megabyte, not one a move."""
        moves, out, err = io.StringIO(CYCLE * 15_000), io.StringIO(), io.StringIO()
        tracemalloc.start()
        try:
            status = replay_main(["6"], moves, out, err)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        start = Position.from_deal(deal(6))
        assert (status, out.getvalue(), err.getvalue()) == (0, f"{start}\n", "")
        assert peak < 1_000_000


class TestFuzz:
    @pytest.mark.slow
    @settings(max_examples=300, deadline=2000)
    @given(move_lines)
    @example("83\n2a\n1z\n")
    @example("83\x002a\n")
    def test_any_lines_replay_or_fail_naming_the_move_or_line(self, text: str) -> None:
        """Any lines on stdin: status 0 and a position, or 1 with one line and the position met."""
        out, err = io.StringIO(), io.StringIO()
        tracemalloc.start()
        try:
            status = replay_main(["617"], io.StringIO(text), out, err)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 2_000_000 + 10 * len(text)
        if status == 0:
            assert err.getvalue() == ""
            parse_position(out.getvalue())
            return
        assert (status, out.getvalue()) == (1, "")
        first, second, *position = err.getvalue().splitlines()
        assert first.startswith("freecell replay: ")
        assert " on line " in first or first.startswith(
            ("freecell replay: line ", "freecell replay: no move was read")
        )
        assert len(first) < 600
        assert second.startswith("position before move ")
        parse_position("\n".join(position))

    @pytest.mark.parametrize(
        "data",
        [b"83\n2a\n1z\n", b"83\x002a\n", b"8a 8b\n\x1b[31m\n", b"Move: 5x\n", b"\xff\xfe\n",
         b"5a\n" * 300_000],
    )  # fmt: skip
    def test_in_a_real_process(self, data: bytes) -> None:
        """A few damaged inputs in a real process: status 1 (2 for bytes that are not text)."""
        result = subprocess.run(
            [sys.executable, "-m", "freecell", "replay", "617"],
            input=data,
            capture_output=True,
            check=False,
            timeout=60,
        )
        lines = result.stderr.decode().splitlines()
        assert result.returncode == (2 if data.startswith(b"\xff") else 1), lines
        assert result.stdout == b""
        assert lines[0].startswith("freecell replay: ")
        assert len(lines[0]) < 250
        assert b"Traceback" not in result.stderr
