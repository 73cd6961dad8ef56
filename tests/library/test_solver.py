"""The solver (`freecell.solve`, `freecell.Solver`) and the `freecell solve` command.

Every solution found here is replayed through `Game` with no automatic moves and through
`freecell replay`; every "impossible" is checked against fc-solve's complete single-card scan.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freecell import (
    DEFAULT_MAX_STATES,
    DealNumberError,
    Game,
    Move,
    Position,
    Solver,
    SolverError,
    canonical_key,
    deal,
    difficulty,
    parse_card,
    parse_position,
    solve,
)
from freecell._cli.replay import replay_main
from freecell._cli.solve import solve_main
from helpers import fc_solve_finds_no_solution

FREECELL = [sys.executable, "-m", "freecell"]


def wins_through_game(start: Position, moves: Sequence[Move | str]) -> bool:
    """Play the moves through Game.push (no automatic moves) and tell whether they win."""
    game = Game(start)
    for move in moves:
        game.push(move)
    return game.is_won()


def wins_through_replay(number: int, moves: Sequence[Move | str]) -> bool:
    """Play the moves through `freecell replay N` and tell whether it says solved."""
    out, err = io.StringIO(), io.StringIO()
    status = replay_main([str(number), *map(str, moves)], io.StringIO(), out, err)
    return status == 0 and out.getvalue().endswith("\n# solved\n")


def assert_wins(number: int, moves: Sequence[Move | str], played: Sequence[str] = ()) -> None:
    """Assert that the moves win deal `number` after `played`, through Game and freecell replay."""
    game = Game.from_deal_number(number)
    for move in played:
        game.push(move)
    assert wins_through_game(game.position, moves)
    assert wins_through_replay(number, [*played, *map(str, moves)])


def run_solve(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run solve_main in this process and return its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = solve_main(list(argv), io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


@st.composite
def played_games(draw: st.DrawFn) -> tuple[int, list[str]]:
    """Draw a deal number and up to 40 random legal moves from its start."""
    number = draw(st.integers(1, 1_000_000))
    position = Position.from_deal(deal(number))
    rng: random.Random = draw(st.randoms(use_true_random=False))
    played: list[str] = []
    for _ in range(draw(st.integers(0, 40))):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        played.append(str(move))
        position = position.apply(move)
    return number, played


def position_after(number: int, played: Sequence[str]) -> Position:
    """Return the position after playing moves from a deal."""
    game = Game.from_deal_number(number)
    for move in played:
        game.push(move)
    return game.position


class TestSolutions:
    @pytest.mark.slow
    @pytest.mark.parametrize("number", [1, 2, 24, 617, 31465, 1_000_000, 2**31, 2**33 - 1])
    def test_deal_solution_wins(self, number: int) -> None:
        """A deal's solution wins through Game with auto moves off and through freecell replay."""
        solution = solve(number)
        assert solution.result == "solved"
        assert_wins(number, solution.moves)

    def test_game_in_progress(self) -> None:
        """A game is solved from its current position, not from its deal."""
        game = Game.from_deal_number(617)
        for move in ["2a", "21", "4b"]:
            game.push(move)
        solution = solve(game)
        assert solution.result == "solved"
        assert_wins(617, solution.moves, ["2a", "21", "4b"])

    def test_position_from_text(self) -> None:
        """A position read from fc-solve's format, with a gap between free cells, is solved."""
        position = parse_position(str(Position.from_deal(deal(5)).apply("1b")))
        assert position.freecells[:2] == (None, parse_card("9S"))
        solution = solve(position)
        assert solution.result == "solved"
        assert_wins(5, solution.moves, ["1b"])

    def test_automatic_moves_are_written_out(self) -> None:
        """A safe move home waiting at the start is the first move; all 52 go home explicitly."""
        game = Game.from_deal_number(1)
        for move in ["5a", "5b", "5c", "5d"]:
            game.push(move)
        assert game.next_auto_move() == Move.parse("5h")
        solution = solve(game)
        assert solution.moves[0] == Move.parse("5h")
        assert sum(move.target == "h" for move in solution.moves) == 52
        assert_wins(1, solution.moves, ["5a", "5b", "5c", "5d"])

    def test_won_position(self) -> None:
        """A won position is solved with no moves."""
        won = Position(((),) * 8, (None,) * 4, (13, 13, 13, 13))
        solution = solve(won)
        assert (solution.result, solution.moves, solution.states) == ("solved", (), 1)

    def test_start_types(self) -> None:
        """A deal number, a Deal, a Game and a Position give the same answer."""
        starts = [617, deal(617), Game.from_deal_number(617), Position.from_deal(deal(617))]
        answers = {solve(start, max_states=20_000).moves for start in starts}  # type: ignore[arg-type]
        assert len(answers) == 1
        assert_wins(617, answers.pop())

    def test_str_is_the_moves(self) -> None:
        """`str(solution)` is the moves joined by spaces."""
        solution = solve(617)
        assert str(solution).split() == [str(move) for move in solution.moves]
        assert_wins(617, str(solution).split())


class TestImpossible:
    def test_minus_one_is_impossible_as_fc_solve_says(self) -> None:
        """Windows' deal -1 is proved impossible, and fc-solve's complete scan agrees."""
        solution = solve(-1)
        assert (solution.result, solution.moves) == ("impossible", ())
        assert fc_solve_finds_no_solution(Position.from_deal(deal(-1)))

    def test_impossible_needs_a_complete_scan(self) -> None:
        """With too small a budget the answer is unknown, never impossible."""
        assert solve(-1, max_states=100).result == "unknown"


def assert_within_cells(number: int, moves: Sequence[Move], cells: int) -> None:
    """Assert that the moves win the deal with `cells` free cells.

    Checked here, not by the library: never more than `cells` cards in the free cells, and no
    run longer than `cells` free cells and the empty cascades let a player move card by card.
    """
    game = Game.from_deal_number(number)
    for move in moves:
        before = game.position
        held = sum(card is not None for card in before.freecells)
        empty = sum(not cascade for cascade in before.cascades)
        game.push(move)
        after = game.position
        assert sum(card is not None for card in after.freecells) <= cells, move
        if move.target in "12345678":
            target = int(move.target) - 1
            moved = len(after.cascades[target]) - len(before.cascades[target])
            empty -= not before.cascades[target]
            assert moved <= (cells - held + 1) * 2**empty, move
    assert game.is_won()


class TestFewerCells:
    @pytest.mark.slow
    @pytest.mark.parametrize(
        ("number", "cells", "result"),
        [(164, 0, "solved"), (1, 2, "impossible"), (1, 3, "solved"), (617, 3, "impossible")],
    )
    def test_the_known_minimums(self, number: int, cells: int, result: str) -> None:
        """Deal 164 needs no free cell, deal 1 three and deal 617 four (the published counts)."""
        solution = solve(number, cells=cells)
        assert solution.result == result
        if result == "solved":
            assert_within_cells(number, solution.moves, cells)

    @pytest.mark.slow
    @pytest.mark.parametrize("cells", range(4))
    def test_answers_agree_with_fc_solve(self, cells: int) -> None:
        """Each answer is fc-solve's (`--freecells-num`), and each solution keeps to the cells."""
        results: Counter[str] = Counter()
        for number in (2, 3, 4, 6, 7, 8, 13, 14, 164, 617):
            solution = solve(number, cells=cells)
            results[solution.result] += 1
            position = Position.from_deal(deal(number))
            impossible = fc_solve_finds_no_solution(position, cells)
            assert solution.result == ("impossible" if impossible else "solved"), number
            if solution.result == "solved":
                assert_within_cells(number, solution.moves, cells)
        assert results["impossible"] > 0
        assert results["solved"] > 0

    def test_four_cells_is_the_ordinary_game(self) -> None:
        """`cells=4` is the default: the same moves and count."""
        ordinary, four = solve(617), solve(617, cells=4)
        assert (four.result, four.moves, four.states) == (
            ordinary.result,
            ordinary.moves,
            ordinary.states,
        )
        assert Solver(617).cells == 4

    @pytest.mark.parametrize("cells", [-1, 5, True, 2.0, "3"])
    def test_bad_cells(self, cells: object) -> None:
        """A number of free cells outside 0..4 raises SolverError, naming the range."""
        with pytest.raises(SolverError, match="from 0 to 4"):
            Solver(617, cells=cells)  # type: ignore[arg-type]

    def test_a_position_that_holds_more_cards(self) -> None:
        """A position with more cards in its free cells than `cells` raises SolverError."""
        game = Game.from_deal_number(164)
        for move in ("8a", "8b", "8c"):
            game.push(move)
        assert solve(game, cells=3).result == "solved"
        with pytest.raises(SolverError, match="holds 3 cards in its free cells"):
            Solver(game, cells=2)


class TestBudget:
    @pytest.mark.parametrize("max_states", [1, 2, 50, 1000])
    def test_max_states_is_respected(self, max_states: int) -> None:
        """A search stores no more positions than its budget, and then says unknown."""
        solution = solve(617, max_states=max_states)
        assert solution.result == "unknown"
        assert solution.moves == ()
        assert solution.states <= max_states

    def test_budget_large_enough_solves(self) -> None:
        """The same deal is solved with a budget that is large enough."""
        solution = solve(617, max_states=DEFAULT_MAX_STATES)
        assert solution.result == "solved"
        assert solution.states <= DEFAULT_MAX_STATES
        assert_wins(617, solution.moves)

    def test_no_time_is_unknown(self) -> None:
        """A time budget that is already spent ends the search as unknown."""
        solver = Solver(-2, max_seconds=0)
        assert solver.run().result == "unknown"

    @pytest.mark.parametrize(("max_states", "max_seconds"), [(0, None), (-5, None), (10, -1.0)])
    def test_bad_budget(self, max_states: int, max_seconds: float | None) -> None:
        """A budget below 1 state or 0 seconds raises SolverError, a ValueError."""
        with pytest.raises(SolverError, match="must be at least"):
            Solver(617, max_states=max_states, max_seconds=max_seconds)
        assert issubclass(SolverError, ValueError)

    def test_bad_start(self) -> None:
        """A deal number that names no deal raises DealNumberError; other values TypeError."""
        with pytest.raises(DealNumberError):
            Solver(0)
        with pytest.raises(TypeError, match="a search starts from"):
            Solver("617")  # type: ignore[arg-type]


class TestDeterminism:
    @pytest.mark.slow
    def test_same_answer_twice(self) -> None:
        """The same position and budget give the same answer, moves and states."""
        first, second = solve(253), solve(253)
        assert_wins(253, first.moves)
        assert (first.result, first.moves, first.states) == (
            second.result,
            second.moves,
            second.states,
        )

    def test_same_unknown_twice(self) -> None:
        """A budget that runs out runs out at the same place."""
        assert solve(617, max_states=3000).states == solve(617, max_states=3000).states

    def test_slices_give_the_same_answer(self) -> None:
        """Many smallest slices of work give exactly what one call gives."""
        solver = Solver(617)
        calls = 0
        while (solution := solver.step(max_seconds=0)) is None:
            calls += 1
        assert calls > 10
        whole = solve(617)
        assert_wins(617, solution.moves)
        assert (solution.result, solution.moves, solution.states) == (
            whole.result,
            whole.moves,
            whole.states,
        )

    def test_step_after_the_end(self) -> None:
        """Once ended, every step returns the same solution and does no more work."""
        solver = Solver(1)
        solution = solver.run()
        assert_wins(1, solution.moves)
        assert solver.step() is solution
        assert solver.solution is solution
        assert solver.states == solution.states


class TestCanonicalKey:
    @given(st.integers(1, 1_000_000), st.randoms(use_true_random=False))
    def test_cascade_and_cell_order_do_not_matter(self, number: int, rng: random.Random) -> None:
        """Permuting the cascades and the free cells keeps the key."""
        position = Position.from_deal(deal(number))
        for move in ["1a", "2c", "3d"]:
            position = position.apply(move)
        cascades, cells = list(position.cascades), list(position.freecells)
        rng.shuffle(cascades)
        rng.shuffle(cells)
        assert canonical_key(Position(tuple(cascades), tuple(cells))) == canonical_key(position)

    @given(played_games())
    @settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow])
    def test_different_positions_differ(self, game: tuple[int, list[str]]) -> None:
        """A legal move changes the key, unless it moves a whole cascade to an empty one."""
        position = position_after(*game)
        for move in position.legal_moves():
            count = position.resolve(move)[1]
            source = position.cascades[int(move.source) - 1] if move.source.isdigit() else ()
            same = (
                len(source) == count
                and move.target.isdigit()
                and position.card_at(move.target) is None
            )
            assert (canonical_key(position.apply(move)) == canonical_key(position)) == same


class TestRandomPositions:
    @given(played_games())
    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def test_answers_are_true(self, game: tuple[int, list[str]]) -> None:
        """A solved answer wins (Game and freecell replay); fc-solve confirms an impossible one."""
        number, played = game
        position = position_after(number, played)
        solution = solve(position, max_states=20_000)
        if solution.result == "solved":
            assert_wins(number, solution.moves, played)
        elif solution.result == "impossible":
            assert fc_solve_finds_no_solution(position)
        assert solution.states <= 20_000


class TestCommand:
    def test_text_lines(self) -> None:
        """Each deal gets a line `N: MOVES`, in order, and the moves replay to a win."""
        status, out, err = run_solve("617", "1..2")
        assert (status, err) == (0, "")
        lines = out.splitlines()
        assert [line.split(":")[0] for line in lines] == ["617", "1", "2"]
        for line in lines:
            number, moves = line.split(": ")
            assert_wins(int(number), moves.split())

    def test_json_lines(self) -> None:
        """--format json prints an object a line with deal, result, moves, states, seconds."""
        status, out, _ = run_solve("-f", "json", "1", "-1")
        assert status == 0
        first, second = map(json.loads, out.splitlines())
        assert set(first) == {
            "deal", "result", "moves", "player_moves", "states", "seconds", "cells", "difficulty",
        }  # fmt: skip
        assert (first["cells"], first["difficulty"]) == (4, difficulty(solve(1)))
        assert (first["deal"], first["result"]) == (1, "solved")
        assert_wins(1, first["moves"])
        assert (second["deal"], second["result"], second["moves"]) == (-1, "impossible", [])
        assert second["difficulty"] is None

    def test_cells(self) -> None:
        """--cells K solves the game with K free cells.

        Its JSON gives no grade: the grade is the four-cell game's.
        """
        assert run_solve("617", "--cells", "3") == (0, "617: impossible\n", "")
        status, out, _ = run_solve("-f", "json", "--cells", "3", "1")
        line = json.loads(out)
        assert (status, line["result"], line["cells"], line["difficulty"]) == (0, "solved", 3, None)
        assert_within_cells(1, [Move.parse(move) for move in line["moves"]], 3)

    @pytest.mark.parametrize("value", ["5", "-1", "x", "", "4.0"])
    def test_bad_cells(self, value: str) -> None:
        """A --cells outside 0..4 is a usage error that names the range."""
        status, out, err = run_solve("617", "--cells", value)
        assert (status, out) == (2, "")
        assert "write a number of free cells from 0 to 4" in err
        assert err.count("\n") == 1

    def test_a_position_that_holds_more_cards_than_cells(self) -> None:
        """A position on stdin with more cards in its free cells than --cells is refused."""
        game = Game.from_deal_number(617)
        for move in ("8a", "8b", "8c"):
            game.push(move)
        status, out, err = run_solve("-", "--cells", "2", stdin=str(game.position))
        assert (status, out) == (2, "")
        assert err == (
            "freecell solve: the position on standard input holds 3 cards in its free cells: "
            "more than --cells 2\n"
        )

    @pytest.mark.slow
    def test_impossible_deal(self) -> None:
        """Deal 11982 is impossible, and fc-solve's complete scan agrees; exit status 0."""
        assert run_solve("11982") == (0, "11982: impossible\n", "")
        assert fc_solve_finds_no_solution(Position.from_deal(deal(11982)))

    def test_unknown_exits_3(self) -> None:
        """A deal the budget cannot settle prints unknown and the exit status is 3."""
        assert run_solve("1", "617", "--max-states", "100") == (3, "1: unknown\n617: unknown\n", "")

    def test_timeout(self) -> None:
        """--timeout bounds each deal's search: a deal that needs longer is unknown."""
        assert run_solve("-2", "--timeout", "0.01") == (3, "-2: unknown\n", "")

    def test_position_on_stdin(self) -> None:
        """`-` solves the position on standard input and labels it `-`."""
        position = Position.from_deal(deal(617)).apply("2a").apply("21")
        status, out, _ = run_solve("-", "--format", "text", stdin=str(position))
        assert status == 0
        label, moves = out.rstrip("\n").split(": ")
        assert label == "-"
        assert_wins(617, moves.split(), ["2a", "21"])
        status, out, _ = run_solve("-", "-f", "json", stdin=str(position))
        assert json.loads(out)["deal"] is None

    @pytest.mark.parametrize(
        ("args", "stdin"),
        [(["0"], ""), (["abc"], ""), (["5..3"], ""), (["1", "x"], ""), ([], ""),
         (["--jobs", "0", "1"], ""), (["--max-states", "x", "1"], ""),
         (["--timeout", "-1", "1"], ""), (["--format", "xml", "1"], ""), (["--bogus", "1"], ""),
         (["1", "-"], "not a position"), (["-"], "")],
    )  # fmt: skip
    def test_bad_input(self, args: list[str], stdin: str) -> None:
        """Bad input exits 2 with one stderr line and prints nothing on stdout."""
        status, out, err = run_solve(*args, stdin=stdin)
        assert (status, out) == (2, "")
        assert len(err.splitlines()) == 1
        assert err.startswith("freecell solve: ")

    def test_bad_argument_after_good_ones_solves_nothing(self) -> None:
        """All arguments are checked before the first deal is solved."""
        assert run_solve("1..3", "0")[:2] == (2, "")

    def test_help(self) -> None:
        """--help prints the usage and exits 0."""
        status, out, _ = run_solve("--help")
        assert status == 0
        assert out.startswith("usage: freecell solve")
        assert "impossible" in out


class TestCommandProcess:
    def test_pipeline_to_replay(self) -> None:
        """`freecell solve 617 | cut -d: -f2 | freecell replay 617` ends in solved."""
        with (
            subprocess.Popen([*FREECELL, "solve", "617"], stdout=subprocess.PIPE) as solver,
            subprocess.Popen(
                ["cut", "-d:", "-f2"], stdin=solver.stdout, stdout=subprocess.PIPE
            ) as cut,
        ):
            assert solver.stdout is not None
            solver.stdout.close()
            replayed = subprocess.run(
                [*FREECELL, "replay", "617"], stdin=cut.stdout, capture_output=True, check=False
            )
        assert replayed.returncode == 0
        assert replayed.stdout.decode().splitlines()[-1] == "# solved"

    @pytest.mark.slow
    def test_jobs_keep_the_order_and_stream(self) -> None:
        """With --jobs 2 lines come in order, each as soon as it and those before are known."""
        command = [
            *FREECELL,
            "solve",
            "-j",
            "2",
            "--max-states",
            "200000",
            "-f",
            "json",
            "1..4",
            "-2",
        ]
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            lines = [json.loads(process.stdout.readline()) for _ in range(4)]
            still_running = process.poll() is None
            process.stdout.close()  # like `| head -4`: the command ends, workers and all
            assert process.wait(timeout=60) == 0
        assert [line["deal"] for line in lines] == [1, 2, 3, 4]
        for line in lines:
            assert_wins(line["deal"], line["moves"])
        assert still_running  # deal -2 takes many seconds: the first lines did not wait for it

    def test_main_help_mentions_solve(self) -> None:
        """`freecell --help` names `freecell solve`."""
        result = subprocess.run(
            [*FREECELL, "--help"], capture_output=True, text=True, check=True, timeout=60
        )
        assert "freecell solve" in result.stdout
