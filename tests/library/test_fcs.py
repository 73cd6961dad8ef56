"""Reading a position back (parse_position): strict about every format, short in its messages."""

import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, example, given, settings

from freecell import Position, deal, format_deal, solve
from freecell._fcs import MAX_POSITION_TEXT, parse_position
from freecell._rules import PositionError
from helpers import positions

MESSAGE_LIMIT = 600
"""The longest message a position's error may be: its own words (under 200 characters) and at
most 40 quoted characters, each at most 10 when escaped (``\\U000e0001``)."""


def refusal(text: str) -> str:
    """Return the message parse_position refuses text with (failing if it reads a position)."""
    with pytest.raises(PositionError) as caught:
        parse_position(text)
    message = str(caught.value)
    assert "\n" not in message
    assert len(message) < MESSAGE_LIMIT, message[:500]
    return message


class TestJsonTypes:
    @pytest.mark.parametrize(
        "text",
        ['{"columns": [[1]]}', '{"columns": [[true]]}', '{"columns": [[null]]}',
         '{"columns": [[["AS"]]]}', '{"columns": [[{"AS": 1}]]}', '{"columns": [[NaN]]}',
         '{"columns": NaN}', '{"columns": true}', '{"columns": "AS KS"}',
         '{"columns": {"AS": 1}}', '{"columns": [null]}', '{"columns": [1, 2]}', "{}",
         '{"rows": []}', "{1}", '{"columns": [["AS"]]', '{"columns": [[1' + "0" * 5000 + "]]}"],
    )  # fmt: skip
    def test_json_of_the_wrong_shape_is_one_short_line(self, text: str) -> None:
        """JSON that is no board of card codes, whatever its types, is a PositionError."""
        assert refusal(text).startswith("invalid board in JSON: ")

    @pytest.mark.parametrize("text", ['[[["AS"]]]', "NaN", "true", "null", "[]", '"AS"', "7"])
    def test_json_that_is_no_object_is_read_as_text(self, text: str) -> None:
        """A JSON value that is no object is not the json format: it is refused as a cascade."""
        assert refusal(text).startswith("invalid cascade ")

    @pytest.mark.parametrize("opening", ['{"columns": ' + "[" * 30_000, '{"a":' * 10_000])
    def test_deeply_nested_brackets_are_refused(self, opening: str) -> None:
        """Brackets nested far deeper than the stack allows are refused, not a RecursionError."""
        assert "nested too deeply" in refusal(opening)

    def test_a_byte_order_mark_is_ignored(self) -> None:
        """A position saved as UTF-8 by a Windows editor, which starts with U+FEFF, reads."""
        for fmt in ("fcs", "json"):
            text = "\ufeff" + format_deal(deal(617), fmt)
            assert parse_position(text) == Position.from_deal(deal(617))

    def test_a_deal_in_json_is_read(self) -> None:
        """The json format of a deal (what `freecell N -f json` prints) still reads back."""
        assert parse_position(format_deal(deal(617), "json")) == Position.from_deal(deal(617))


class TestSize:
    def test_text_past_the_limit_is_refused_at_once(self) -> None:
        """Text longer than MAX_POSITION_TEXT is refused without being read line by line."""
        text = "AS\n" * 10_000_000
        start = time.perf_counter()
        message = refusal(text)
        assert time.perf_counter() - start < 0.1
        assert message == (
            f"a position is at most {MAX_POSITION_TEXT:,} characters, not {len(text):,}"
        )

    def test_a_position_with_room_to_spare_is_read(self) -> None:
        """A position padded with comments and spaces up to the limit is read."""
        board = str(Position.from_deal(deal(1)))
        text = board + "\n" + "# a comment\n" * ((MAX_POSITION_TEXT - len(board)) // 12 - 1)
        assert len(text) <= MAX_POSITION_TEXT
        assert parse_position(text) == Position.from_deal(deal(1))


LONG = 5_000


class TestShortMessages:
    @pytest.mark.parametrize(
        "line",
        ["Foundations: H-" + "9" * LONG, "Foundations: " + "H" * LONG, "Freecells: " + "X" * LONG,
         "Freecells: " + "AS " * LONG, ": " + "AS " * 3_000 + "ZZ", "\x00" * LONG,
         "\x01\x7f\x1b[2J" * LONG, "🂡" * LONG],
    )  # fmt: skip
    def test_a_long_line_is_quoted_in_at_most_40_characters(self, line: str) -> None:
        """A 5,000-character bad line (digits, cells, a 3,000-card cascade, binary) is cut."""
        message = refusal(str(Position.from_deal(deal(1))) + "\n" + line + "\n")
        assert len(message) < (250 if line.isascii() and line.isprintable() else 400)

    def test_a_3000_card_cascade_of_good_cards_is_a_short_line(self) -> None:
        """A ninth cascade of 3,000 valid cards is named by its count, briefly."""
        text = str(Position.from_deal(deal(1))) + "\n: " + "AS " * 3_000 + "\n"
        assert refusal(text).endswith("not 9, 4 and 4")

    def test_a_bad_line_is_named_by_its_number(self) -> None:
        """The message names the line by its number and quotes only the word it cannot read."""
        text = str(Position.from_deal(deal(1))).replace("6S", "6S#" + "x" * 100)
        assert refusal(text) == (
            "invalid cascade on line 3: invalid card '6S#xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…': "
            "write a rank (A 2-9 T or 10 J Q K) then a suit (C D H S or ♣ ♦ ♥ ♠), e.g. 'TD'"
        )


class TestFuzz:
    @pytest.mark.slow
    @settings(max_examples=600, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
    @given(positions)
    @example('{"columns": [[1]]}')
    @example("[" * 50_000)
    @example("Foundations: H-" + "9" * 5_000)
    def test_any_text_is_a_position_or_one_short_line(self, text: str) -> None:
        """Any text gives a Position or a one-line PositionError, in bounded time and memory."""
        tracemalloc.start()
        try:
            position = parse_position(text)
        except PositionError as error:
            message = str(error)
            assert "\n" not in message
            assert len(message) < MESSAGE_LIMIT, message[:500]
        else:
            assert parse_position(str(position)) == position
        finally:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        assert peak < 4_000_000 + 20 * len(text)


def with_an_empty_cascade(number: int, column: int) -> Position:
    """Return a position of deal ``number``'s solution where cascade ``column`` is empty."""
    position = Position.from_deal(deal(number))
    for move in solve(number).moves:
        position = position.apply(move)
        if not position.cascades[column]:
            return position
    msg = f"deal {number}'s solution never empties cascade {column + 1}"
    raise AssertionError(msg)


def fc_solve_board(position: Position) -> list[str]:
    """Return a position's lines as fc-solve's test boards write them: no ``:``, a line a cascade.

    An empty cascade is an empty line (fc-solve's `24-mid.board`); the headers are ours.
    """
    lines = str(position).splitlines()
    return lines[:2] + [line.removeprefix(":").strip() for line in lines[2:]]


class TestEmptyLines:
    """fc-solve reads a line a cascade: an empty line among them is an empty cascade."""

    @pytest.mark.parametrize(("number", "column"), [(24, 2), (24, 3), (617, 5)])
    def test_an_empty_line_between_cascades_is_an_empty_cascade(
        self, number: int, column: int
    ) -> None:
        """The board reads as the position, with or without a final newline or headers."""
        position = with_an_empty_cascade(number, column)
        lines = fc_solve_board(position)
        assert lines[2 + column] == ""
        assert parse_position("\n".join(lines) + "\n") == position
        assert parse_position("\n".join(lines)) == position
        if not any(position.freecells) and not any(position.foundations):
            assert parse_position("\n".join(lines[2:])) == position

    def test_blank_lines_that_only_space_the_text_out_are_skipped(self) -> None:
        """Blank lines before, after and between every cascade: the 8 written lines are read."""
        position = Position.from_deal(deal(617)).apply("8a")
        lines = str(position).splitlines()
        spaced = ["", *lines[:2], "", "\n".join(lines[2:]).replace("\n", "\n\n"), "", ""]
        assert parse_position("\n".join(spaced)) == position
        rows = format_deal(deal(617), "rows")
        assert parse_position(f"\n{rows}\n\n") == Position.from_deal(deal(617))

    def test_a_colon_alone_is_an_empty_cascade_anywhere(self) -> None:
        """As positions print it: `:` is a cascade, even as the last line."""
        position = with_an_empty_cascade(24, 7)
        assert str(position).splitlines()[-1].strip() == ":"
        assert parse_position(str(position)) == position

    @pytest.mark.parametrize("column", [0, 7])
    def test_an_empty_first_or_last_cascade_in_a_text_with_headers(self, column: int) -> None:
        """After the headers, or at the end of the text, an empty line is a cascade too."""
        position = with_an_empty_cascade(24, column)
        lines = fc_solve_board(position)
        assert parse_position("\n".join(lines) + "\n") == position
        assert parse_position("\n".join(["", *lines, ""])) == position

    def test_seven_cascades_and_an_empty_line_are_refused(self) -> None:
        """A deal with its last cascade left out is still refused, empty line or not."""
        lines = fc_solve_board(Position.from_deal(deal(617)))
        assert "are missing" in refusal("\n".join(lines[:-1]) + "\n\n")
        assert refusal("\n".join(lines[2:-1]) + "\n\n").startswith("a position has 8 cascades")
