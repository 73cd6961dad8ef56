"""Cards: values, names and the parse/format round trips over all 52."""

import pytest

from freecell import (
    CARD_CODES,
    CARDS,
    CardError,
    card_code,
    card_color,
    card_is_red,
    card_name,
    card_rank,
    card_suit,
    card_unicode,
    make_card,
    parse_card,
)


class TestValues:
    def test_order_is_rank_major_clubs_diamonds_hearts_spades(self) -> None:
        """Cards run AC AD AH AS 2C ... KS: 0 is the Ace of Clubs, 51 the King of Spades."""
        assert [card_code(c) for c in (0, 1, 2, 3, 4, 51)] == ["AC", "AD", "AH", "AS", "2C", "KS"]

    def test_rank_suit_and_make_card_agree(self) -> None:
        """make_card rebuilds every card from its rank and suit."""
        assert all(make_card(card_rank(c), card_suit(c)) == c for c in CARDS)

    def test_colours(self) -> None:
        """Diamonds and hearts are red, clubs and spades black, 26 of each."""
        assert sum(card_is_red(c) for c in CARDS) == 26
        assert card_color(parse_card("AD")) == "red"
        assert card_color(parse_card("AS")) == "black"

    @pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, 4), (1, -1)])
    def test_make_card_rejects_out_of_range(self, rank: int, suit: int) -> None:
        """Ranks outside 1..13 and suits outside 0..3 raise CardError."""
        with pytest.raises(CardError, match=r"ranks are 1\.\.13"):
            make_card(rank, suit)

    def test_names(self) -> None:
        """Names are English: rank word, 'of', suit word."""
        assert card_name(parse_card("TD")) == "Ten of Diamonds"
        assert card_name(parse_card("AC")) == "Ace of Clubs"
        assert card_name(parse_card("KS")) == "King of Spades"
        assert len({card_name(c) for c in CARDS}) == 52


class TestRoundTrips:
    @pytest.mark.parametrize("card", CARDS)
    def test_code_round_trips(self, card: int) -> None:
        """parse_card reads back card_code, in upper and lower case."""
        assert parse_card(card_code(card)) == card
        assert parse_card(card_code(card).lower()) == card

    @pytest.mark.parametrize("card", CARDS)
    def test_unicode_round_trips(self, card: int) -> None:
        """parse_card reads back card_unicode (with '10')."""
        assert parse_card(card_unicode(card)) == card

    @pytest.mark.parametrize("card", CARDS)
    def test_ten_written_as_10_and_symbols_with_t(self, card: int) -> None:
        """'10' parses as T, and a T with a suit symbol parses too."""
        code = card_code(card)
        assert parse_card(code.replace("T", "10")) == card
        assert parse_card(code[0] + "♣♦♥♠"[card_suit(card)]) == card

    def test_codes_table_matches_function(self) -> None:
        """CARD_CODES is card_code over all cards, all distinct."""
        assert [card_code(c) for c in CARDS] == list(CARD_CODES)
        assert len(set(CARD_CODES)) == 52


class TestParseErrors:
    @pytest.mark.parametrize("text", ["", "1D", "11D", "TX", "T", "D", "TDD", "0S", "1 0D", "X♠"])
    def test_rejects_non_cards(self, text: str) -> None:
        """Text that is no card raises CardError, a ValueError, naming what is valid."""
        with pytest.raises(CardError, match="write a rank") as info:
            parse_card(text)
        assert isinstance(info.value, ValueError)
