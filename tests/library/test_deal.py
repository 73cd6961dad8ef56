"""The dealer: the task's examples, the number ranges, the formats and their properties."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell import (
    CARD_CODES,
    FORMATS,
    MAX_DEAL,
    Deal,
    DealNumberError,
    check_deal_number,
    deal,
    deal_freecell,
    deals,
    format_boards,
    format_deal,
    parse_deal_number,
)

GAME_1 = [
    ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"],
    ["KD", "KC", "9S", "5S", "AD", "QC", "KH", "3H"],
    ["2S", "KS", "9D", "QD", "JS", "AS", "AH", "3C"],
    ["4C", "5C", "TS", "QH", "4H", "AC", "4D", "7S"],
    ["3S", "TD", "4S", "TH", "8H", "2C", "JH", "7D"],
    ["6D", "8S", "8D", "QS", "6C", "3D", "8C", "TC"],
    ["6S", "9C", "2H", "6H"],
]
GAME_617 = [
    ["7D", "AD", "5C", "3S", "5S", "8C", "2D", "AH"],
    ["TD", "7S", "QD", "AC", "6D", "8H", "AS", "KH"],
    ["TH", "QC", "3H", "9D", "6S", "8D", "3D", "TC"],
    ["KD", "5H", "9S", "3C", "8S", "7H", "4D", "JS"],
    ["4C", "QS", "9C", "9H", "7C", "6H", "2C", "2S"],
    ["4S", "TS", "2H", "5D", "JC", "6C", "JH", "QH"],
    ["JD", "KS", "KC", "4H"],
]
MINUS_1 = """\
AC 3C 5C 7C 9C JC KC
AD 3D 5D 7D 9D JD KD
AH 3H 5H 7H 9H JH KH
AS 3S 5S 7S 9S JS KS
QC TC 8C 6C 4C 2C
QD TD 8D 6D 4D 2D
QH TH 8H 6H 4H 2H
QS TS 8S 6S 4S 2S
"""
MINUS_2 = """\
AS KS QS JS TS 9S 8S
AH KH QH JH TH 9H 8H
AD KD QD JD TD 9D 8D
AC KC QC JC TC 9C 8C
7S 6S 5S 4S 3S 2S
7H 6H 5H 4H 3H 2H
7D 6D 5D 4D 3D 2D
7C 6C 5C 4C 3C 2C
"""
deal_numbers = st.one_of(
    st.integers(1, MAX_DEAL), st.integers(1, 40_000), st.sampled_from([-1, -2])
)


class TestTaskExamples:
    def test_game_1(self) -> None:
        """deal_freecell(1) is the task's first example, verbatim."""
        assert deal_freecell(1) == GAME_1

    def test_game_617(self) -> None:
        """deal_freecell(617) is the task's second example, verbatim."""
        assert deal_freecell(617) == GAME_617

    def test_shape(self) -> None:
        """The task's array has 7 rows: six of 8 codes and one of 4."""
        assert [len(row) for row in deal_freecell(123)] == [8] * 6 + [4]


class TestSpecialDeals:
    def test_minus_1(self) -> None:
        """Deal -1 is Windows FreeCell's hard-coded deal in fc-solve's column format."""
        assert format_deal(deal(-1)) == MINUS_1

    def test_minus_2(self) -> None:
        """Deal -2 is Windows FreeCell's second hard-coded deal."""
        assert format_deal(deal(-2)) == MINUS_2


class TestNumbers:
    @pytest.mark.parametrize("number", [0, -3, MAX_DEAL + 1, -(2**40), 2**64])
    def test_deal_rejects_numbers_outside_the_range(self, number: int) -> None:
        """deal() raises DealNumberError for a number that names no deal."""
        with pytest.raises(DealNumberError, match="from 1 to 8589934591, or -1 or -2"):
            deal(number)

    @pytest.mark.parametrize("value", [1.0, "617", True, None])
    def test_deal_rejects_non_ints(self, value: object) -> None:
        """deal() raises TypeError for anything but an int (bools included)."""
        with pytest.raises(TypeError, match="a deal number is an int"):
            deal(value)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("text", "number"),
        [("617", 617), (" 617 ", 617), ("#617", 617), ("-1", -1), ("#-2", -2), ("0617", 617),
         ("8589934591", MAX_DEAL), ("1", 1)],
    )  # fmt: skip
    def test_parse_accepts(self, text: str, number: int) -> None:
        """parse_deal_number reads what users type."""
        assert parse_deal_number(text) == number

    @pytest.mark.parametrize(
        "text",
        ["0", "-0", "-3", "-617", "8589934592", "99999999999999999999999", "1.5", "1e3", "0x10",
         "6 17", "", "   ", "#", "abc", "617abc", "+5", "1_000", "٦١٧", "# 617", "<img src=x>"],
    )  # fmt: skip
    def test_parse_rejects(self, text: str) -> None:
        """parse_deal_number raises DealNumberError naming the valid numbers."""
        with pytest.raises(DealNumberError, match="enter a whole number from 1 to 8589934591"):
            parse_deal_number(text)

    def test_long_text_is_shortened_in_the_message(self) -> None:
        """A very long input is cut in the message, so the message stays one readable line."""
        with pytest.raises(DealNumberError) as info:
            parse_deal_number("9" * 5000)
        assert len(str(info.value)) < 200

    def test_check_deal_number(self) -> None:
        """check_deal_number returns valid numbers unchanged."""
        assert [check_deal_number(n) for n in (1, -1, -2, MAX_DEAL)] == [1, -1, -2, MAX_DEAL]


class TestProperties:
    @given(deal_numbers)
    def test_permutation(self, number: int) -> None:
        """Every deal holds each of the 52 cards exactly once."""
        assert sorted(deal(number).cards) == list(range(52))

    @given(deal_numbers)
    def test_column_lengths(self, number: int) -> None:
        """Columns hold 7,7,7,7,6,6,6,6 cards; rows hold 8 x 6 then 4."""
        d = deal(number)
        assert [len(c) for c in d.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
        assert [len(r) for r in d.rows] == [8, 8, 8, 8, 8, 8, 4]

    @given(deal_numbers)
    def test_rows_and_columns_agree(self, number: int) -> None:
        """Card k of the dealing order is row k//8 of column k%8."""
        d = deal(number)
        for k, card in enumerate(d.cards):
            assert d.columns[k % 8][k // 8] == card == d.rows[k // 8][k % 8]

    @given(deal_numbers)
    def test_same_number_same_deal(self, number: int) -> None:
        """Dealing twice gives equal deals, and dealing in a batch gives the same deal."""
        assert deal(number) == deal(number)
        assert next(deals([number])) == deal(number)

    @given(st.integers(1, MAX_DEAL - 50), st.integers(1, 40))
    def test_batches_match_single_deals(self, first: int, count: int) -> None:
        """A run of consecutive deals equals the deals dealt one by one."""
        numbers = range(first, first + count)
        assert list(deals(numbers)) == [deal(n) for n in numbers]

    @pytest.mark.parametrize("edge", [2**31, 2**32])
    def test_batches_across_generator_variants(self, edge: int) -> None:
        """A batch that crosses 2**31 or 2**32 switches generator variant at the edge."""
        numbers = range(edge - 3, edge + 3)
        assert list(deals(numbers)) == [deal(n) for n in numbers]
        assert list(format_boards(numbers)) == [format_deal(deal(n)) for n in numbers]

    @given(st.lists(deal_numbers, max_size=12))
    def test_any_order_of_numbers(self, numbers: list[int]) -> None:
        """deals() and format_boards() accept numbers in any order, repeats included."""
        assert [d.number for d in deals(numbers)] == numbers
        assert list(format_boards(numbers)) == [format_deal(deal(n)) for n in numbers]

    def test_deals_rejects_a_bad_number_when_it_meets_it(self) -> None:
        """deals() raises DealNumberError for a bad number in the stream."""
        with pytest.raises(DealNumberError):
            list(deals([1, 0]))


class TestFormats:
    @given(deal_numbers)
    def test_fcs_is_columns(self, number: int) -> None:
        """fcs is 8 lines, a column each, cards joined by single spaces."""
        d = deal(number)
        expected = "".join(" ".join(CARD_CODES[c] for c in col) + "\n" for col in d.columns)
        assert format_deal(d, "fcs") == expected == str(d)

    @given(deal_numbers)
    def test_rows_is_the_task_array(self, number: int) -> None:
        """rows is deal_freecell's rows, one per line."""
        expected = "".join(" ".join(row) + "\n" for row in deal_freecell(number))
        assert format_deal(deal(number), "rows") == expected

    @given(deal_numbers)
    def test_json(self, number: int) -> None:
        """json holds the number, the columns and the task's rows."""
        data = json.loads(format_deal(deal(number), "json"))
        assert data["number"] == number
        assert data["rows"] == deal_freecell(number)
        assert data["columns"] == [[CARD_CODES[c] for c in col] for col in deal(number).columns]

    def test_unicode(self) -> None:
        """unicode is fcs with suit symbols and 10 for ten."""
        assert format_deal(deal(617), "unicode").splitlines()[0] == "7♦ 10♦ 10♥ K♦ 4♣ 4♠ J♦"

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_format_boards_matches_format_deal(self, fmt: str) -> None:
        """Batch formatting equals one-by-one formatting in every format."""
        numbers = [*range(1, 30), -1, -2, MAX_DEAL]
        expected = [format_deal(deal(n), fmt) for n in numbers]  # type: ignore[arg-type]
        assert list(format_boards(numbers, fmt)) == expected  # type: ignore[arg-type]

    def test_unknown_format(self) -> None:
        """An unknown format raises ValueError naming the valid ones."""
        with pytest.raises(ValueError, match="use one of fcs, rows, json, unicode"):
            format_deal(deal(1), "xml")  # type: ignore[arg-type]

    def test_repr_rebuilds(self) -> None:
        """repr names the call that rebuilds the deal."""
        assert repr(deal(617)) == "freecell.deal(617)"
        assert isinstance(deal(617), Deal)
