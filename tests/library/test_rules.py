"""The rules engine: notation, positions, the rules, history, automatic moves and solutions."""

import itertools
import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell import (
    AUTO_PLAY,
    CASCADES,
    FORMATS,
    FREECELLS,
    MOVE_PATTERN,
    CodedError,
    Game,
    HistoryError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    PositionError,
    deal,
    format_deal,
    parse_auto_play,
    parse_card,
    parse_position,
)
from freecell._clicks import best_move_for, why_stuck
from freecell._errors import QUOTE_LIMIT

SOLUTIONS = Path(__file__).parents[1] / "data" / "solutions"
SOLVED_DEALS = sorted(
    int(p.stem) for p in SOLUTIONS.glob("*.txt") if re.fullmatch(r"-?[0-9]+", p.stem)
)
STATE_FILES = sorted(SOLUTIONS.glob("*-states.txt"))
_MOVE_WORD = re.compile(MOVE_PATTERN)


def solution(number: int) -> list[str]:
    """Return the moves of a committed fc-solve solution (the words of its move lines)."""
    text = (SOLUTIONS / f"{number}.txt").read_text()
    return [w for w in text.split() if _MOVE_WORD.fullmatch(w)]


def layout(*cascades: str, cells: str = "- - - -") -> Position:
    """Build a position from cascade texts and free cells; the other cards are home.

    Each suit's foundation holds the ranks below its lowest card in play; any other card not
    given is buried at the top of cascade 8, in card order.
    """
    columns = [[parse_card(w) for w in text.split()] for text in cascades]
    columns += [[] for _ in range(8 - len(columns))]
    freecells = [None if w == "-" else parse_card(w) for w in cells.split()]
    in_play = {c for column in columns for c in column} | {c for c in freecells if c is not None}
    foundations = [min([c // 4 for c in in_play if c % 4 == suit], default=13) for suit in range(4)]
    home = {4 * rank + suit for suit in range(4) for rank in range(foundations[suit])}
    columns[7] = sorted(set(range(52)) - in_play - home) + columns[7]
    return Position(tuple(tuple(c) for c in columns), tuple(freecells), tuple(foundations))


def cards_of(position: Position) -> list[int]:
    """Return every card of a position, in play or home, sorted."""
    home = [4 * rank + suit for suit, n in enumerate(position.foundations) for rank in range(n)]
    cells = [c for c in position.freecells if c is not None]
    return sorted([c for cascade in position.cascades for c in cascade] + cells + home)


# A run of 5 (QC down to 8C) in cascade 1 fits on KH in cascade 2. The filler cards 7C 7D 7H 7S
# 6C 6D 6H go into free cells, single-card cascades 6-8, or the top of cascade 3, so tests can
# choose how many free cells and cascades are empty.
_RUN = "QC JD TS 9H 8C"
_FILLERS = ["7C", "7D", "7H", "7S", "6C", "6D", "6H"]


def run_layout(empty_cells: int, empty_cascades: int) -> Position:
    """Return the run-of-5 layout with the given numbers of empty free cells and cascades."""
    fillers = list(_FILLERS)
    cells = [fillers.pop() for _ in range(4 - empty_cells)] + ["-"] * empty_cells
    singles = [fillers.pop() for _ in range(3 - empty_cascades)] + [""] * empty_cascades
    bottom = " ".join(fillers)
    return layout(
        _RUN,
        "KH",
        f"{bottom} KD QS JH TC 9D 8S",
        "KC QH JS TD 9C 8H",
        "KS QD JC TH 9S 8D",
        *singles,
        cells=" ".join(cells),
    )


class TestNotation:
    @pytest.mark.parametrize("text", ["1a", "a3", "2h", "ah", "36", "36v3", "8d", "d8", "12v13"])
    def test_round_trips(self, text: str) -> None:
        """Every form fc-solve prints parses and prints back unchanged."""
        assert str(Move.parse(text)) == text

    def test_parts(self) -> None:
        """A move holds its source, its target and the count after `v`."""
        assert Move.parse("36v3") == Move("3", "6", 3)
        assert Move.parse("a3") == Move("a", "3", None)

    @pytest.mark.parametrize(
        ("text", "count"), [("82va", 10), ("82vb", 11), ("82vc", 12), ("36vd", 13)]
    )
    def test_hex_counts_as_fc_solve_prints_them(self, text: str, count: int) -> None:
        """A count of 10 to 13 in one hex digit, as fc-solve prints it, reads as that count."""
        move = Move.parse(text)
        assert move == Move(text[0], text[1], count) == Move.parse(f"{text[:2]}v{count}")
        assert str(move) == f"{text[:2]}v{count}"

    @pytest.mark.parametrize("text", ["82ve", "82vf"])
    def test_hex_counts_past_13_are_too_many_cards(self, text: str) -> None:
        """`ve` and `vf` are well-formed but ask for 14 and 15 cards, which no move takes."""
        with pytest.raises(InvalidMoveError, match="1 to 13 cards"):
            Move.parse(text)

    def test_move_pattern_is_the_syntax(self) -> None:
        """MOVE_PATTERN matches exactly the words Move.parse reads, over every short word."""
        words = ["".join(p) for n in range(5) for p in itertools.product("18adhv0fg", repeat=n)]
        for word in [*words, "36v10", "36v13", "36v1a", "36va0", "36v100"]:
            try:
                Move.parse(word)
            except InvalidMoveError as error:
                readable = error.code != "move-syntax"
            else:
                readable = True
            assert bool(re.fullmatch(MOVE_PATTERN, word)) == readable, word

    def test_surrounding_spaces_are_ignored(self) -> None:
        """Spaces around a move are dropped."""
        assert Move.parse(" 2h\n") == Move("2", "h")

    @pytest.mark.parametrize(
        "text",
        [
            "",
            "1",
            "9a",
            "1e",
            "h1",
            "1H",
            "1A",
            "1 a",
            "36v",
            "36vx",
            "1a2",
            "36v100",
            "36vA",
            "36v1a",
            "36vg",
            "36vab",
        ],
    )
    def test_malformed(self, text: str) -> None:
        """Text outside the notation raises InvalidMoveError showing the text."""
        with pytest.raises(InvalidMoveError, match=re.escape(f"invalid move {text!r}")):
            Move.parse(text)

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("11", "two different places"),
            ("aa", "two different places"),
            ("ab", "from a free cell to a free cell"),
            ("1av2", "only a move between cascades"),
            ("1hv2", "only a move between cascades"),
            ("36v0", "1 to 13 cards"),
            ("36v14", "1 to 13 cards"),
        ],
    )
    def test_moves_no_rule_allows(self, text: str, reason: str) -> None:
        """Well-formed text for a move no rule allows is an InvalidMoveError too."""
        with pytest.raises(InvalidMoveError, match=reason):
            Move.parse(text)

    def test_invalid_and_illegal_are_different_errors(self) -> None:
        """Malformed notation and illegal moves raise different ValueError subclasses."""
        assert issubclass(InvalidMoveError, ValueError)
        assert issubclass(IllegalMoveError, ValueError)
        assert not issubclass(InvalidMoveError, IllegalMoveError)
        assert not issubclass(IllegalMoveError, InvalidMoveError)

    def test_moves_are_hashable_values(self) -> None:
        """Equal moves are equal and hash alike, so they can key sets and dicts."""
        assert len({Move.parse("1a"), Move("1", "a"), Move.parse("1b")}) == 2


class TestPositionText:
    def test_starting_position_prints_as_fc_solve_does(self) -> None:
        """A deal prints with fc-solve's -p -t layout, trailing spaces included."""
        text = str(Position.from_deal(deal(1)))
        assert text.splitlines() == [
            "Foundations: H-0 C-0 D-0 S-0 ",
            "Freecells:                ",
            ": JD KD 2S 4C 3S 6D 6S",
            ": 2D KC KS 5C TD 8S 9C",
            ": 9H 9S 9D TS 4S 8D 2H",
            ": JC 5S QD QH TH QS 6H",
            ": 5D AD JS 4H 8H 6C",
            ": 7H QC AS AC 2C 3D",
            ": 7C KH AH 4D JH 8C",
            ": 5H 3H 3C 7S 7D TC",
        ]

    def test_free_cells_keep_their_places(self) -> None:
        """Free cells print in 4-character places, so a gap shows."""
        position = layout("KH", "KC", "KD", "KS", cells="- QH - QS")
        assert position.freecells_text() == "Freecells:      QH      QS"
        assert position.foundations_text() == "Foundations: H-J C-Q D-Q S-J "

    def test_empty_cascades_print_a_colon_and_a_space(self) -> None:
        """An empty cascade prints as ': ', as fc-solve prints it."""
        position = layout("KH", "KC", "KD", "KS")
        assert str(position).splitlines()[-1] == ": "

    @pytest.mark.parametrize("state_file", STATE_FILES, ids=lambda p: p.name)
    def test_every_state_of_a_solution_matches_fc_solve(self, state_file: Path) -> None:
        """After each move of fc-solve's solution, the position prints exactly as fc-solve's."""
        blocks = state_file.read_text().split("====================\n")
        game = Game.from_deal_number(int(state_file.name.split("-states")[0]))

        def state(block: str) -> str:
            keep = ("Foundations:", "Freecells:", ":")
            return "\n".join(line for line in block.splitlines() if line.startswith(keep))

        assert str(game) == state(blocks[0])
        played = 0
        for block in blocks[1:]:
            moves = [line[len("Move: ") :].strip() for line in block.splitlines()]
            moves = [line for line in moves if _MOVE_WORD.fullmatch(line)]
            if not moves:
                continue
            game.push(moves[0])
            played += 1
            assert str(game) == state(block), f"after move {played} {moves[0]}"
        assert game.is_won()
        assert played == len(solution(game.deal_number or 0))

    @pytest.mark.parametrize("played", [0, 40, 90])
    def test_fc_solve_reads_our_positions(self, fc_solve: str, played: int) -> None:
        """fc-solve reads a position we print and prints it back the same."""
        game = Game.from_deal_number(4294967296)
        for move in solution(4294967296)[:played]:
            game.push(move)
        result = subprocess.run(
            [fc_solve, "-m", "-snx", "-p", "-t", "-sam", "-"],
            input=str(game) + "\n",
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        state = result.stdout.split("====================")[0].strip("-=\n")
        assert state.rstrip("\n") == str(game)
        assert "This game is solveable." in result.stdout

    @pytest.mark.parametrize("number", [1, 617, -1, 8589934591])
    def test_parse_reads_back_what_it_prints(self, number: int) -> None:
        """parse_position reads str(position) back to an equal position."""
        position = Position.from_deal(deal(number))
        assert parse_position(str(position)) == position

    def test_parse_reads_back_a_position_in_play(self) -> None:
        """Free cell gaps, foundations and empty cascades survive a round trip."""
        position = layout("KH QS", "KC", "", "KD", "KS", cells="- QH - TD")
        assert parse_position(str(position)) == position

    def test_parse_accepts_fc_solve_input_forms(self) -> None:
        """Words with '-' for empty cells, '10' for ten, no colons, any foundation order."""
        text = """
            Foundations: S-J D-9 C-Q H-J
            Freecells: - QH - 10D
            KH QS
            KC
            :
            KD QD JD
            KS
        """
        expected = layout("KH QS", "KC", "", "KD QD JD", "KS", cells="- QH - TD")
        assert parse_position(text + ":\n:\n:\n") == expected

    def test_parse_a_bare_board(self) -> None:
        """A board of 8 lines without headers is a starting position."""
        assert parse_position(format_deal(deal(617))) == Position.from_deal(deal(617))

    @given(st.one_of(st.integers(1, 8_589_934_591), st.sampled_from([-1, -2])))
    @settings(max_examples=50)
    def test_every_format_of_every_deal_reads_back(self, number: int) -> None:
        """A deal printed in any of the command's formats reads back as its starting position."""
        start = Position.from_deal(deal(number))
        for fmt in FORMATS:
            assert parse_position(format_deal(deal(number), fmt)) == start, fmt

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("Foundations: H-0 C-0 D-0 S-0\n" + ": AC\n" * 9, "8 cascades"),
            ("Foundations: H-X", "invalid foundation rank 'X'"),
            ("Foundations: Z-3", "invalid foundation 'Z-3'"),
            ("Freecells: AC 2C 3C 4C 5C", "there are 4 free cells"),
            ("Freecells: 1C", "invalid free cells"),
            (": AC XX", "invalid cascade"),
        ],
    )
    def test_parse_rejects_bad_text(self, text: str, message: str) -> None:
        """Text that makes no position raises PositionError naming the problem."""
        with pytest.raises(PositionError, match=re.escape(message)):
            parse_position(text)

    def test_a_card_in_two_places_is_rejected(self) -> None:
        """A position holds every card exactly once."""
        text = str(Position.from_deal(deal(1))).replace("Freecells:    ", "Freecells:   6S", 1)
        with pytest.raises(PositionError, match="6S is in two places"):
            parse_position(text)

    def test_a_missing_card_is_rejected(self) -> None:
        """A position with a card missing names the missing card."""
        text = str(Position.from_deal(deal(1))).replace(" 6S\n", "\n", 1)
        with pytest.raises(PositionError, match="6S are missing"):
            parse_position(text)


class TestRules:
    def test_foundations_start_with_aces(self) -> None:
        """Only an ace can start a foundation."""
        position = layout("2H AH", "AS 2S")
        assert position.is_legal("1h")
        with pytest.raises(IllegalMoveError, match="2S cannot go to the foundations"):
            position.apply("2h")
        assert not position.is_legal("2h")

    def test_foundations_go_up_by_one_in_the_same_suit(self) -> None:
        """A foundation takes the next card of its suit only."""
        position = layout("3H", "2H AH", "2C")
        after = position.apply("2h")
        assert after.is_legal("2h")
        assert not after.is_legal("1h")
        assert after.apply("2h").apply("1h").foundations[2] == 3

    def test_foundation_message_names_the_next_card(self) -> None:
        """A card that is not next says which card its foundation needs."""
        with pytest.raises(
            IllegalMoveError, match="3H cannot go to the foundations, which need the 2H next"
        ):
            layout("3H", "KC 2H").apply("1h")

    def test_free_cell_move_goes_to_the_named_cell(self) -> None:
        """`1c` puts the card in free cell c, leaving a and b empty."""
        after = Position.from_deal(deal(1)).apply("1c")
        assert after.freecells == (None, None, parse_card("6S"), None)

    def test_free_cell_must_be_empty(self) -> None:
        """A move to a free cell that holds a card is illegal and says which card."""
        position = Position.from_deal(deal(1)).apply("1a")
        with pytest.raises(IllegalMoveError, match=r"illegal move '2a': free cell a holds 6S"):
            position.apply("2a")

    def test_empty_source_is_illegal(self) -> None:
        """Moving from an empty free cell or cascade is illegal."""
        position = layout("KH", "", "KD", "KS")
        with pytest.raises(IllegalMoveError, match="free cell a is empty"):
            position.apply("a1")
        with pytest.raises(IllegalMoveError, match="cascade 2 is empty"):
            position.apply("21")

    def test_cascade_needs_one_rank_higher_and_other_colour(self) -> None:
        """A card goes on a cascade whose bottom card is one rank higher and the other colour."""
        position = layout("KH", "QS", "QD", "JC", "KS")
        assert position.is_legal("21")
        assert not position.is_legal("31")  # same colour
        assert not position.is_legal("41")  # two ranks apart
        assert position.is_legal("43")
        with pytest.raises(IllegalMoveError, match="QD at the bottom of cascade 3 does not fit"):
            position.apply("31")

    def test_free_cell_card_onto_a_cascade(self) -> None:
        """A free cell card goes onto a cascade where it fits, or an empty one."""
        position = layout("KH", "KS", cells="QC QD - -")
        assert position.is_legal("a1")
        assert position.is_legal("b2")
        assert position.is_legal("a3")
        with pytest.raises(IllegalMoveError, match="QD from free cell b does not fit on KH"):
            position.apply("b1")

    def test_plain_move_onto_a_cascade_takes_the_run_that_fits(self) -> None:
        """`36` moves the part of the run whose top card fits on the target's bottom card."""
        position = layout("KS QH JC TD 9S", "JS", "QD", "KC", cells="- - - -")
        assert position.resolve("12") == (Move("1", "2"), 2)
        assert position.resolve("13") == (Move("1", "3"), 3)
        after = position.apply("13")
        assert after.cascades[2] == tuple(parse_card(c) for c in ["QD", "JC", "TD", "9S"])

    def test_explicit_count_onto_a_cascade_must_match(self) -> None:
        """`36v3` onto a cascade with cards is legal only when the run that fits has 3 cards."""
        position = layout("KS QH JC TD 9S", "JS", "QD", "KC")
        assert position.resolve("12v2") == (Move("1", "2"), 2)
        with pytest.raises(IllegalMoveError, match=r"is 2 cards \(TD 9S\), not 3"):
            position.apply("12v3")

    def test_no_card_of_the_run_fits(self) -> None:
        """A run with no card that fits names the run."""
        position = layout("KS QH JC", "KH", "KD", "KC")
        with pytest.raises(IllegalMoveError, match="no card of the run KS QH JC in cascade 1 fits"):
            position.apply("12")

    def test_plain_move_to_an_empty_cascade_moves_one_card(self) -> None:
        """`15` onto an empty cascade moves one card; `15v3` moves three."""
        position = layout("KS QH JC TD", "KH", "KD", "KC")
        assert position.apply("15").cascades[4] == (parse_card("TD"),)
        assert len(position.apply("15v3").cascades[4]) == 3
        assert position.resolve("15v1") == (Move("1", "5"), 1)

    def test_count_beyond_the_run_is_illegal(self) -> None:
        """Asking for more cards than the bottom run holds is illegal."""
        position = layout("KS QH JC TD", "KH", "KD", "KC")
        with pytest.raises(IllegalMoveError, match=r"run of 4 cards \(KS QH JC TD\), not 5"):
            position.apply("15v5")

    @pytest.mark.parametrize("empty_cells", range(5))
    @pytest.mark.parametrize("empty_cascades", range(4))
    def test_run_limit(self, empty_cells: int, empty_cascades: int) -> None:
        """A run moves when it has at most (empty cells + 1) x 2^(empty cascades) cards."""
        position = run_layout(empty_cells, empty_cascades)
        limit = (empty_cells + 1) * 2**empty_cascades
        assert (position.empty_freecells(), position.empty_cascades()) == (
            empty_cells,
            empty_cascades,
        )
        assert position.max_run() == limit
        assert position.is_legal("12") == (limit >= 5)

    @pytest.mark.parametrize("empty_cells", range(5))
    @pytest.mark.parametrize("empty_cascades", range(1, 4))
    def test_run_limit_to_an_empty_cascade(self, empty_cells: int, empty_cascades: int) -> None:
        """Moving to an empty cascade, that cascade does not count in the limit."""
        position = run_layout(empty_cells, empty_cascades)
        target = CASCADES[8 - empty_cascades]
        limit = (empty_cells + 1) * 2 ** (empty_cascades - 1)
        assert position.max_run(to_empty_cascade=True) == limit
        for count in range(2, 6):
            assert position.is_legal(f"1{target}v{count}") == (count <= limit)

    def test_run_limit_message(self) -> None:
        """The message says how many cards can move with how many cells and cascades."""
        position = run_layout(1, 1)
        with pytest.raises(IllegalMoveError) as caught:
            position.apply("12")
        assert str(caught.value) == (
            "illegal move '12': cannot move 5 cards: only 4 cards can move with 1 free cell "
            "and 1 empty cascade"
        )
        with pytest.raises(IllegalMoveError) as caught:
            run_layout(0, 2).apply("18v3")
        assert str(caught.value) == (
            "illegal move '18v3': cannot move 3 cards to an empty cascade: only 2 cards can "
            "move with 0 free cells and 1 other empty cascade"
        )
        with pytest.raises(IllegalMoveError, match="only 1 card can move"):
            run_layout(0, 0).apply("12")

    def test_illegal_move_leaves_the_game_untouched(self) -> None:
        """An illegal push changes neither the position nor the history."""
        game = Game.from_deal_number(617)
        game.push("82")
        before, stack = game.position, game.move_stack
        with pytest.raises(IllegalMoveError):
            game.push("86")
        with pytest.raises(InvalidMoveError):
            game.push("8x")
        assert (game.position, game.move_stack) == (before, stack)

    def test_legal_moves_of_a_deal(self) -> None:
        """Deal 617 starts with moves to free cells and two builds of QH."""
        moves = [str(m) for m in Game.from_deal_number(617).legal_moves()]
        assert [m for m in moves if m[1] not in FREECELLS] == ["58", "82", "83"]
        assert len(moves) == 8 * 4 + 3

    def test_legal_moves_list_every_size_to_an_empty_cascade(self) -> None:
        """Each size of run that may move to an empty cascade is its own move."""
        position = layout("KS QH JC TD", "KH", "KD QC JD", "KC", cells="QD - - -")
        moves = [str(m) for m in position.moves_from("1")]
        assert moves == ["1h", "14", "15", "15v2", "15v3", "15v4", "16", "16v2", "16v3", "16v4"] + [
            f"1{c}v{n}" if n > 1 else f"1{c}" for c in "78" for n in (1, 2, 3, 4)
        ] + ["1b", "1c", "1d"]


def played_with_positions(number: int, count: int) -> tuple[Game, list[str], list[Position]]:
    """Play the first `count` moves of deal `number`'s solution.

    Returns the game, the moves, and the position before the first move and after each.
    """
    game = Game.from_deal_number(number)
    moves = solution(number)[:count]
    positions = [game.position]
    for move in moves:
        game.push(move)
        positions.append(game.position)
    return game, moves, positions


class TestHistory:
    def test_undo_and_redo_any_number_of_moves(self) -> None:
        """Undoing every move returns to the start; redoing all returns to the end."""
        game, moves, positions = played_with_positions(1, 30)
        for k in range(len(moves), 0, -1):
            assert str(game.undo()) == moves[k - 1]
            assert game.position == positions[k - 1]
        assert not game.can_undo
        assert game.can_redo
        for k, move in enumerate(moves, start=1):
            assert str(game.redo()) == move
            assert game.position == positions[k]
        assert not game.can_redo

    def test_a_new_move_clears_redo(self) -> None:
        """After an undo, playing a different move drops the undone moves."""
        game = Game.from_deal_number(1)
        game.push("5a")
        game.undo()
        game.push("5b")
        assert not game.can_redo
        with pytest.raises(HistoryError, match="nothing to redo"):
            game.redo()

    def test_undo_with_no_moves(self) -> None:
        """Undo at the start raises HistoryError."""
        with pytest.raises(HistoryError, match="nothing to undo"):
            Game.from_deal_number(1).undo()

    def test_seek_goes_to_every_point_of_the_history(self) -> None:
        """Seeking to any count shows that position, keeps the rest to redo, and says how far."""
        game, moves, positions = played_with_positions(1, 30)
        here = len(moves)
        for count in [0, 30, 7, 8, 29, 1, 1, 15, 0]:
            assert game.seek(count) == abs(count - here)
            here = count
            assert game.position == positions[count]
            assert [str(m) for m in game.move_stack + game.redo_stack] == moves

    def test_seek_steps_one_move_at_a_time_through_automatic_moves(self) -> None:
        """A turn's automatic moves are steps of their own, and keep their flags."""
        game = Game.from_deal_number(1)
        for move in ["5a", "5b", "5c", "5d"]:
            game.push(move)
        game.auto_moves()
        assert game.seek(4) == 1
        assert game.snapshot()["redo_auto"] == [True]
        game.seek(5)
        assert game.auto_flags == [False, False, False, False, True]
        game.seek(4)
        assert [str(m) for m in game.undo_turn()] == ["5d"]

    @pytest.mark.parametrize("count", [-5, 99])
    def test_seek_outside_goes_to_the_nearest_end(self, count: int) -> None:
        """A count below 0 or past the redo stack stops at the start or the end."""
        game = Game.from_deal_number(1)
        game.push("5a")
        game.push("5b")
        game.undo()
        game.seek(count)
        assert len(game.move_stack) == (0 if count < 0 else 2)

    def test_a_move_after_seeking_back_starts_a_new_branch(self) -> None:
        """A move played after seeking back clears the moves that were ahead."""
        game = Game.from_deal_number(1)
        for move in ["5a", "5b", "5c"]:
            game.push(move)
        game.seek(1)
        game.push("6b")
        assert [str(m) for m in game.move_stack] == ["5a", "6b"]
        assert not game.can_redo
        assert game.seek(5) == 0

    def test_pushes_record_the_shortest_notation(self) -> None:
        """`12v2` onto a cascade with cards is recorded as `12`, `15v1` as `15`."""
        game = Game(layout("KS QH JC TD 9S", "JS", "QD", "KC"))
        assert str(game.push("12v2")) == "12"
        assert str(game.push("15v1")) == "15"
        assert game.snapshot()["moves"] == ["12", "15"]

    def test_copy_is_independent(self) -> None:
        """A copy shares history up to now but not later moves."""
        game = Game.from_deal_number(1)
        game.push("5a")
        other = game.copy()
        other.push("5b")
        assert game.move_stack == [Move.parse("5a")]
        assert other.move_stack == [Move.parse("5a"), Move.parse("5b")]
        assert other.deal_number == 1


class TestAutomaticMoves:
    def test_aces_always_go_up(self) -> None:
        """An ace is always safe."""
        position = layout("KH", "KC", "KD QS JH TC 9D 8S 7H 6S 5H 4S 3H 2S AS")
        assert position.is_safe_home(parse_card("AS"))

    def test_a_card_waits_for_both_lower_cards_of_the_other_colour(self) -> None:
        """3H goes up only when 2C and 2S are both home."""
        assert not layout("3H", "3C", "3S 2S", "3D").is_safe_home(parse_card("3H"))
        assert layout("3H", "3C", "3S", "3D").is_safe_home(parse_card("3H"))

    def test_a_card_that_cannot_go_home_is_not_safe(self) -> None:
        """A card that is not next on its foundation is never safe."""
        assert not layout("2H 3H", "3C", "3S", "3D").is_safe_home(parse_card("3H"))

    def test_automatic_moves_are_off_unless_asked(self) -> None:
        """Pushing a move never sends other cards home."""
        game = Game.from_deal_number(1)
        for move in ["5a", "5b", "5c", "5d"]:
            game.push(move)
        assert game.position.foundations == (0, 0, 0, 0)
        assert str(game.next_auto_move()) == "5h"
        assert game.position.foundations == (0, 0, 0, 0)

    def test_auto_moves_are_recorded_one_by_one(self) -> None:
        """Each automatic move is its own token on the move stack, and can be undone."""
        game = Game(layout("KH QS", "AC", "2C", cells="AH AD - -"))
        moves = [str(m) for m in game.auto_moves()]
        assert moves == ["2h", "ah", "bh", "3h"]
        assert game.snapshot()["moves"] == moves
        assert game.position.foundations == (2, 1, 1, 11)
        assert str(game.undo()) == "3h"

    def test_auto_moves_finish_a_won_game(self) -> None:
        """When every card is in order, automatic moves win the game."""
        moves = solution(1)
        last = max(k for k, move in enumerate(moves) if not move.endswith("h"))
        game = Game.from_deal_number(1)
        for move in moves[: last + 1]:
            game.push(move)
        assert [str(m) for m in game.auto_moves()] == moves[last + 1 :]
        assert game.is_won()
        assert game.auto_move() is None


class TestInterface:
    def test_snapshot_is_plain_json(self) -> None:
        """The snapshot holds only JSON values, in the documented shape."""
        game = Game.from_deal_number(1)
        for move in ["5a", "5b", "5c", "5d", "5h"]:
            game.push(move)
        game.undo()
        snap = game.snapshot()
        assert json.loads(json.dumps(snap)) == snap
        assert snap == {
            "deal": 1,
            "cascades": [
                ["JD", "KD", "2S", "4C", "3S", "6D", "6S"],
                ["2D", "KC", "KS", "5C", "TD", "8S", "9C"],
                ["9H", "9S", "9D", "TS", "4S", "8D", "2H"],
                ["JC", "5S", "QD", "QH", "TH", "QS", "6H"],
                ["5D", "AD"],
                ["7H", "QC", "AS", "AC", "2C", "3D"],
                ["7C", "KH", "AH", "4D", "JH", "8C"],
                ["5H", "3H", "3C", "7S", "7D", "TC"],
            ],
            "freecells": ["6C", "8H", "4H", "JS"],
            "foundations": [None, None, None, None],
            "move_count": 4,
            "player_moves": 4,
            "can_undo": True,
            "can_redo": True,
            "won": False,
            "moves": ["5a", "5b", "5c", "5d"],
            "auto": [False, False, False, False],
            "redo": ["5h"],
            "redo_auto": [False],
        }

    def test_snapshot_foundations_are_top_cards_in_suit_order(self) -> None:
        """Foundations show the top card of clubs, diamonds, hearts and spades."""
        snap = Game(layout("KH", "KC", "KD QD JD", "KS", cells="QH - - -")).snapshot()
        assert snap["foundations"] == ["QC", "TD", "JH", "QS"]
        assert snap["deal"] is None

    def test_moves_from_a_place(self) -> None:
        """moves_from lists the legal moves of one place, for click-to-select."""
        game = Game(layout("KH", "KS", cells="QC QD - -"))
        assert [str(m) for m in game.moves_from("a")] == [
            "ah", "a1", "a3", "a4", "a5", "a6", "a7", "a8",
        ]  # fmt: skip
        assert game.moves_from("c") == []

    def test_best_move_prefers_the_foundations(self) -> None:
        """A tap on a card that can go home sends it home."""
        game = Game(layout("KH QS", "AC", cells="- - - -"))
        assert game.best_move_for("AC") == Move("2", "h")

    def test_best_move_then_a_build_then_a_free_cell(self) -> None:
        """A bottom card goes onto a cascade where it fits before a free cell."""
        game = Game(layout("KH", "QS", "QD", "KD", "", "AC AD AH AS"))  # KS ends cascade 8
        assert game.best_move_for("QS") == Move("2", "1")
        assert game.best_move_for("QD") == Move("3", "8")
        assert game.best_move_for("KH") == Move("1", "a")

    def test_best_move_onto_the_longest_run(self) -> None:
        """Of two cascades that take a card, the one whose bottom run it makes longest wins."""
        game = Game(layout("3C 7C", "9C 8H 7S", "", "KC 6H", "AS AH AD AC"))
        assert game.best_move_for("6H") == Move("4", "2")
        game = Game(layout("3C 7C", "KC 6D", "9C 8H 7S", "AS AH AD AC"))
        assert game.best_move_for("6D") == Move("2", "3")  # the longer run, though right

    def test_best_move_for_equal_runs_is_leftmost(self) -> None:
        """Two cascades whose runs are as long: the leftmost takes the card."""
        game = Game(layout("3C 7S", "4D 7C", "KC 6H", "AS AH AD AC"))
        assert game.best_move_for("6H") == Move("3", "1")

    def test_best_move_empty_cascade_before_free_cell(self) -> None:
        """A card that fits on no card goes to an empty cascade before a free cell."""
        game = Game(layout("KH QS 5D", "", "KC", "KD", "KS", "AC AD AH AS"))
        assert game.best_move_for("5D") == Move("1", "2")

    def test_best_move_never_moves_a_whole_cascade_to_an_empty_one(self) -> None:
        """A card alone in its cascade goes to a free cell, not to another empty cascade."""
        game = Game(layout("KH", "5S", "", "", "", "AC AD AH AS"))
        assert game.best_move_for("KH") == Move("1", "a")
        assert game.best_move_for("5S") == Move("2", "a")

    def test_best_move_for_a_full_free_cells(self) -> None:
        """With no empty free cell, a bottom card goes to an empty cascade; alone, nowhere."""
        game = Game(layout("KH 5S", "QH", "", "", "", "AC AD AH AS", cells="KC KD KS QD"))
        assert game.best_move_for("5S") == Move("1", "3")
        assert game.best_move_for("QH") is None

    def test_best_move_for_a_card_in_a_run(self) -> None:
        """A card higher in a run takes the cards below it along."""
        game = Game(layout("KS QH JC TD", "KH", "KC", cells="- - - -"))
        assert game.best_move_for("JC") == Move("1", "4", 2)
        game = Game(layout("KS QH JC TD", "QD", "KC"))
        assert game.best_move_for("JC") == Move("1", "2")
        assert game.best_move_for("QH") == Move("1", "3")

    def test_best_move_for_a_buried_card(self) -> None:
        """A card under cards out of sequence, or already home, has no move."""
        game = Game(layout("KS QH 2C", "KC"))
        assert game.best_move_for("QH") is None
        assert game.best_move_for("AC") is None

    def test_best_move_for_a_free_cell_card(self) -> None:
        """A free cell card goes home, else onto a build, else to an empty cascade."""
        game = Game(layout("KH", "KS", "", "", "", "AC AD AH AS", cells="QC QD - -"))
        assert game.best_move_for("QC") == Move("a", "1")
        assert game.best_move_for("QD") == Move("b", "2")
        game = Game(layout("KH", "KD", "", "", "", "KS KC AC AD AH AS", cells="QH - - -"))
        assert game.best_move_for("QH") == Move("a", "3")
        game = Game(layout("KH", "KD", cells="QC - - -"))
        assert game.best_move_for("QC") == Move("a", "h")

    @pytest.mark.parametrize(
        ("position", "card", "code", "params"),
        [
            (layout("KS QH 2C", "KC"), "QH", "card-covered", {"card": "QH"}),
            (layout("KS QH 2C", "KC"), "AC", "from-foundation", {}),
            (
                layout("KS QH JC TD 9S", "KC", "KD", "KH", "AS AH AD AC", "5C", "6C",
                       cells="5D 5H 5S -"),
                "QH",
                "card-run-limit",
                {"card": "QH", "count": 4, "max": 2},
            ),
            (layout("KH", "QH", "", "", "", "AC AD AH AS", cells="KC KD KS QD"), "QH",
             "card-stuck", {"card": "QH"}),
        ],
    )  # fmt: skip
    def test_why_stuck(
        self, position: Position, card: str, code: str, params: dict[str, object]
    ) -> None:
        """A card with no best move says why: covered, home, too long a run, or nowhere."""
        assert best_move_for(position, card) is None
        error = why_stuck(position, card)
        assert (error.code, error.params) == (code, params)

    def test_every_best_move_is_legal(self) -> None:
        """Along a solution, every card's best move is legal, and none moves a whole cascade."""
        game = Game.from_deal_number(617)
        for move in solution(617):
            position = game.position
            for card in [c for cascade in position.cascades for c in cascade]:
                best = best_move_for(position, card)
                if best is None:
                    continue
                assert position.is_legal(best)
                source = position.cascades[CASCADES.index(best.source)]
                whole = best.target in CASCADES and (best.count or 1) == len(source)
                assert not (whole and position.card_at(best.target) is None), (best, card)
            game.push(move)


class TestSolutions:
    def test_there_are_enough_solutions(self) -> None:
        """At least 5 deals, across the generator's variants, have committed solutions."""
        assert len(SOLVED_DEALS) >= 5
        assert any(n >= 2**32 for n in SOLVED_DEALS)

    @pytest.mark.parametrize("number", SOLVED_DEALS)
    def test_fc_solve_solution_wins(self, number: int) -> None:
        """fc-solve's solution, played move by move with no automatic moves, wins the deal."""
        game = Game.from_deal_number(number)
        for move in solution(number):
            game.push(move)
        assert game.is_won()
        assert game.snapshot()["won"]
        assert game.legal_moves() == []


# --- properties -------------------------------------------------------------------------------

_ALL_MOVES = [
    Move(s, t, n)
    for s in CASCADES + FREECELLS
    for t in CASCADES + FREECELLS + "h"
    if s != t and not (s in FREECELLS and t in FREECELLS)
    for n in ([None, *range(1, 8)] if s in CASCADES and t in CASCADES else [None])
]

deal_numbers = st.one_of(st.integers(1, 32000), st.sampled_from([-1, -2, 2**31, 2**33 - 1]))


@st.composite
def games(draw: st.DrawFn) -> Game:
    """Draw a game: a random deal, or part of a committed solution (rich in empty cascades)."""
    if draw(st.booleans()):
        return Game.from_deal_number(draw(deal_numbers))
    number = draw(st.sampled_from(SOLVED_DEALS))
    moves = solution(number)
    game = Game.from_deal_number(number)
    for move in moves[: draw(st.integers(0, len(moves)))]:
        game.push(move)
    return game


def pick(game: Game, choice: int) -> Move | None:
    """Pick a legal move by ``choice``, mostly among moves that do not fill a free cell."""
    moves = game.legal_moves()
    builds = [m for m in moves if m.target not in FREECELLS]
    pool = builds if builds and choice % 4 else moves
    return pool[choice % len(pool)] if pool else None


choice_lists = st.lists(st.integers(0, 10**6), max_size=80)


def walk(game: Game, choices: list[int]) -> Game:
    """Play the legal moves picked by ``choices`` (see :func:`pick`)."""
    for choice in choices:
        move = pick(game, choice)
        if move is None:
            break
        game.push(move)
    return game


class TestProperties:
    @settings(max_examples=150, deadline=None)
    @given(games(), choice_lists)
    def test_no_card_is_lost_or_duplicated(self, game: Game, choices: list[int]) -> None:
        """Every position of a random legal game holds each of the 52 cards once."""
        for choice in choices:
            move = pick(game, choice)
            if move is None:
                break
            game.push(move)
            assert cards_of(game.position) == list(range(52))

    @settings(max_examples=150, deadline=None)
    @given(games(), choice_lists)
    def test_undo_restores_and_redo_reapplies(self, game: Game, choices: list[int]) -> None:
        """Each move's undo gives back the exact position, and its redo the position after."""
        for choice in choices:
            move = pick(game, choice)
            if move is None:
                break
            before, before_text = game.position, str(game)
            played = game.push(move)
            after = game.position
            assert game.undo() == played
            assert (game.position, str(game)) == (before, before_text)
            assert game.redo() == played
            assert game.position == after

    @settings(max_examples=100, deadline=None)
    @given(games(), choice_lists)
    def test_undo_all_returns_to_the_start(self, game: Game, choices: list[int]) -> None:
        """Undoing every move returns to the starting position, and redoing all to the end."""
        walk(game, choices)
        end, count = game.position, len(game.move_stack)
        while game.can_undo:
            game.undo()
        assert game.position == game.start
        for _ in range(count):
            game.redo()
        assert game.position == end

    @settings(max_examples=100, deadline=None)
    @given(games(), choice_lists)
    def test_run_size_limit_holds(self, game: Game, choices: list[int]) -> None:
        """No legal move between cascades moves more cards than the limit allows."""
        for choice in choices:
            position = game.position
            for legal in position.legal_moves():
                if legal.source in CASCADES and legal.target in CASCADES:
                    to_empty = not position.cascades[CASCADES.index(legal.target)]
                    _, count = position.resolve(legal)
                    cells, empty = position.empty_freecells(), position.empty_cascades()
                    assert count <= (cells + 1) * 2 ** (empty - to_empty)
            move = pick(game, choice)
            if move is None:
                break
            game.push(move)

    @pytest.mark.slow
    @settings(max_examples=60, deadline=None)
    @given(games(), choice_lists)
    def test_legal_moves_agree_with_push(self, game: Game, choices: list[int]) -> None:
        """A move is legal exactly when its shortest form is listed; illegal ones change nothing."""
        walk(game, choices)
        legal = set(game.legal_moves())
        before = game.position
        for move in _ALL_MOVES:
            try:
                resolved, _ = before.resolve(move)
            except IllegalMoveError:
                with pytest.raises(IllegalMoveError):
                    game.push(move)
                assert game.position == before
                continue
            assert resolved in legal

    @settings(max_examples=100, deadline=None)
    @given(games(), choice_lists)
    def test_positions_print_and_parse_back(self, game: Game, choices: list[int]) -> None:
        """Every position reached parses back from its printed text."""
        position = walk(game, choices).position
        assert parse_position(str(position)) == position


class TestAutoPlay:
    def test_the_choices_read_back(self) -> None:
        """Each automatic-move choice parses to itself; any other text is refused by code."""
        assert [parse_auto_play(mode) for mode in AUTO_PLAY] == ["off", "safe", "all"]
        for text in ["", "max", "Safe", "<b>all</b>", "x" * 100]:
            with pytest.raises(CodedError) as raised:
                parse_auto_play(text)
            assert raised.value.code == "auto-play-invalid"
            assert len(raised.value.params["text"]) <= QUOTE_LIMIT + 1  # cut as every quote is

    def test_all_sends_a_card_that_safe_keeps(self) -> None:
        """2H goes home with `all` while the black aces are out; `safe` keeps it, `off` all."""
        game = Game.from_deal_number(3)
        game.push("1a")
        assert [str(m) for m in game.auto_moves("safe")] == ["5h"]
        assert game.next_auto_move("off") is None
        assert [str(m) for m in game.auto_moves("all")] == ["6h"]
        assert game.auto_flags == [False, True, True]
        assert [str(m) for m in game.undo_turn()] == ["6h", "5h", "1a"]

    @settings(max_examples=100, deadline=None)
    @given(games(), choice_lists)
    def test_all_is_every_move_home_and_safe_a_part_of_it(
        self, game: Game, choices: list[int]
    ) -> None:
        """`all` finds a move home whenever one is legal, and `safe` only ones `all` allows."""
        for choice in choices:
            position = game.position
            home = [m for m in position.legal_moves() if m.target == "h"]
            every, safe = position.next_auto_move("all"), position.next_auto_move("safe")
            assert (every is None) == (not home)
            assert every is None or every in home
            assert safe is None or (safe in home and every is not None)
            assert position.next_auto_move("off") is None
            move = pick(game, choice)
            if move is None:
                break
            game.push(move)
