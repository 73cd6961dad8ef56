"""Finding a deal's number from its layout, checked against pysol-cards' independent dealer."""

import itertools
import json
import random
import statistics
import time

import pytest
from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped]
from pysol_cards.deal_game import Game  # type: ignore[import-untyped]
from pysol_cards.random import RandomBase  # type: ignore[import-untyped]

from freecell import (
    CARD_CODES,
    FORMATS,
    MAX_DEAL,
    CardError,
    LayoutError,
    Position,
    deal,
    deals,
    format_deal,
    identify,
    parse_layout,
)
from freecell._identify import (
    _GENERATORS,
    MAX_LAYOUT_CHARS,
    _low_seeds,
    _search_dense,
    _search_rotated,
    _search_windows,
    picks,
    search,
)

SPANS = {"microsoft": (1, 2**31 - 1), "0x8000": (2**31, 2**32 - 1), "16-bit": (2**32, MAX_DEAL)}


def pysol_board(number: int) -> str:
    """Return pysol-cards' fc-solve board text for a Microsoft deal."""
    game = Game("freecell", 1, RandomBase.DEALS_MS, 13)
    return str(game.calc_deal_string(number, CardRenderer(True)))


def drawn(span: str, count: int = 4) -> list[int]:
    """Return deal numbers drawn at random, with a fixed seed, from one generator's range."""
    rng = random.Random(f"identify {span}")
    return [rng.randint(*SPANS[span]) for _ in range(count)]


class TestIdentify:
    @pytest.mark.parametrize("span", SPANS)
    @pytest.mark.parametrize("cut", [52, 12, 8])
    def test_pysol_layouts_of_each_generator(self, span: str, cut: int) -> None:
        """pysol-cards' layouts, whole or cut to their first 8 or 12 cards, give their number."""
        for number in drawn(span):
            cards = parse_layout(pysol_board(number))[:cut]
            found = list(identify(cards))
            assert number in found
            assert all(deal(n).cards[:cut] == cards for n in found)
            if cut > 8:
                assert found == [number]

    @pytest.mark.parametrize("number", [-1, -2])
    @pytest.mark.parametrize("cut", [52, 12, 8])
    def test_the_hard_coded_deals(self, number: int, cut: int) -> None:
        """Windows' deals -1 and -2 (pysol-cards deals neither) are found whole and cut."""
        assert list(identify(deal(number).cards[:cut])) == [number]

    def test_the_task_s_first_row(self) -> None:
        """The first row of deal 1 as the task prints it finds deal 1 alone."""
        assert list(identify("JD 2D 9H JC 5D 7H 7C 5H")) == [1]

    def test_two_cards_swapped_give_no_deal(self) -> None:
        """A layout with two of its cards swapped is no deal's."""
        cards = list(deal(617).cards)
        cards[3], cards[40] = cards[40], cards[3]
        assert list(identify(cards)) == []
        row = list(deal(617).cards[:8])
        row[1], row[6] = row[6], row[1]
        assert list(identify(row)) == []

    def test_a_deal_a_position_text_and_codes_are_taken(self) -> None:
        """A Deal, its start Position, its text and its card codes all identify it."""
        d = deal(11982)
        texts = [CARD_CODES[c] for c in d.cards]
        for given in (d, Position.from_deal(d), str(d), texts, list(d.cards)):
            assert list(identify(given)) == [11982]

    def test_edges_of_the_ranges(self) -> None:
        """The first and last deal of each generator are found from their first row."""
        for number in (1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, MAX_DEAL):
            assert number in identify(deal(number).cards[:8])

    @pytest.mark.slow
    @pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 9])
    def test_short_prefixes_find_every_deal_in_order(self, count: int) -> None:
        """Every deal of 1..20,000 that begins with a few cards comes out, ascending."""
        boards = [d.cards for d in deals(range(1, 20001))]
        prefix = boards[616][:count]
        expected = [n for n, cards in enumerate(boards, 1) if cards[:count] == prefix]
        found = list(itertools.takewhile(lambda n: n <= 20000, identify(prefix)))
        assert found == expected

    @pytest.mark.slow
    @pytest.mark.parametrize("gen", range(3))
    def test_the_dense_search_of_each_generator(self, gen: int) -> None:
        """With 2 cards, each generator's lazy search yields its deals in order, none missed."""
        generator = _GENERATORS[gen]
        first = generator.first + generator.min_seed
        numbers = range(first, first + 60000)
        boards = [d.cards for d in deals(numbers)]
        prefix = boards[7][:2]
        chosen = picks(prefix)
        lows = _low_seeds(chosen, generator.add)
        while True:
            try:
                next(lows)
            except StopIteration as done:
                lazy = _search_dense(generator, chosen, done.value)
                break
        found = list(itertools.takewhile(lambda n: n < numbers.stop, filter(None, lazy)))
        assert found == [n for n, cards in zip(numbers, boards, strict=True) if cards[:2] == prefix]

    @pytest.mark.slow
    def test_a_longer_prefix_lists_every_deal(self) -> None:
        """Four cards begin about 1,300 deals: all of them, each right, ascending, no repeat."""
        prefix = deal(617).cards[:4]
        found = list(identify(prefix))
        assert 1000 < len(found) < 1700
        assert found == sorted(set(found))
        assert all(d.cards[:4] == prefix for d in deals(found))

    @pytest.mark.parametrize("gen", range(3))
    @pytest.mark.parametrize("count", [3, 4])
    def test_the_windows_find_what_the_rotations_find(self, gen: int, count: int) -> None:
        """3 or 4 cards: the windows find each generator's deals, in order, as rotations do.

        Over the first 20,000 low seeds, for time.
        """
        generator = _GENERATORS[gen]
        chosen = picks(deal(generator.first + 617).cards[:count])
        lifting = _low_seeds(chosen, generator.add)
        while True:
            try:
                next(lifting)
            except StopIteration as done:
                lows = done.value[:20_000]
                break
        expected = [n for n in _search_rotated(generator, chosen, lows) if n is not None]
        found = [n for n in _search_windows(generator, chosen, lows) if n is not None]
        assert found == expected
        assert len(found) > 10

    def test_a_short_prefix_lists_its_first_deals_soon(self) -> None:
        """3 cards (65,000 deals) give their first 20 deals about as soon as a first row its.

        Within 2.5 times a first row's find: it took 4 times as long (3.4 times the time it
        takes now), the generator's every deal gathered first. 4 cards: 1.5 times faster.
        """

        def seconds(cards: tuple[int, ...]) -> float:
            times = []
            for _ in range(3):
                start = time.perf_counter()
                found = list(itertools.islice(identify(cards), 20))
                times.append(time.perf_counter() - start)
            assert found == sorted(found)
            assert len(found) == 20 or len(cards) == 8
            assert all(deal(n).cards[: len(cards)] == cards for n in found)
            return statistics.median(times)

        row = seconds(deal(617).cards[:8])
        assert seconds(deal(617).cards[:3]) < 2.5 * row
        seconds(deal(617).cards[:4])

    def test_the_search_ticks_between_results(self) -> None:
        """The search yields progress ticks (None) so that a caller can run it in slices."""
        steps = list(search(deal(5).cards[:8]))
        assert steps.count(None) > 10
        assert [s for s in steps if s is not None] == [5]

    def test_no_cards_begin_every_deal(self) -> None:
        """An empty layout begins every deal: -2, -1, 1, 2, ..."""
        assert list(itertools.islice(identify([]), 4)) == [-2, -1, 1, 2]


class TestParseLayout:
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_every_format_the_dealer_prints(self, fmt: str) -> None:
        """Each format of the dealer reads back to the deal's cards."""
        d = deal(2**32 + 99)
        assert parse_layout(format_deal(d, fmt)) == d.cards  # type: ignore[arg-type]

    def test_fc_solve_s_position_text(self) -> None:
        """fc-solve's position text (foundations, free cells, ':' lines) reads as a layout."""
        assert parse_layout(str(Position.from_deal(deal(617)))) == deal(617).cards

    def test_cards_as_people_type_them(self) -> None:
        """Lowercase, 10, suit symbols, commas and rows split over lines all read."""
        text = "jd, 2d 9♥\n jc 5♦ 7h 7c 5H\nkd 10d"
        assert [CARD_CODES[c] for c in parse_layout(text)] == [
            "JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H", "KD", "TD"
        ]  # fmt: skip

    def test_first_cards_by_columns(self) -> None:
        """Eight column lines holding a layout's first cards read in dealing order."""
        cards = deal(1).cards[:11]
        columns = [" ".join(CARD_CODES[c] for c in cards[i::8]) for i in range(8)]
        assert parse_layout("\n".join(columns)) == cards

    def test_json_rows_or_columns(self) -> None:
        """A JSON board with rows, or with columns only, reads as a layout."""
        board = json.loads(format_deal(deal(3), "json"))
        assert parse_layout(json.dumps({"columns": board["columns"]})) == deal(3).cards
        assert parse_layout(json.dumps({"rows": board["rows"][:1]})) == deal(3).cards[:8]

    @pytest.mark.parametrize(
        ("text", "code"),
        [
            ("", "layout-empty"),
            ("  \n# a comment\n", "layout-empty"),
            ("JD 2D JD", "layout-card-twice"),
            (" ".join(CARD_CODES[:51]) + " AC", "layout-card-twice"),
            (" ".join(CARD_CODES) + " AC", "layout-too-long"),
            ("Foundations: H-A C-0 D-0 S-0\n: JD", "layout-not-start"),
            ("Freecells:  JD\n: 2D", "layout-not-start"),
            ('{"columns": [["JD"], ["2D", "9H"]]}', "layout-not-start"),
            ('{"rows": 3}', "layout-json"),
            ("[1, 2]", "card-invalid"),
            ("JD 1D", "card-invalid"),
            ("JD ZZ", "card-invalid"),
        ],
    )
    def test_bad_layouts_say_what_is_valid(self, text: str, code: str) -> None:
        """Text that is no layout's beginning raises a coded error with a one-line message."""
        with pytest.raises((LayoutError, CardError)) as caught:
            parse_layout(text)
        assert caught.value.code == code
        assert "\n" not in str(caught.value)

    def test_a_long_text_is_refused_before_it_is_read(self) -> None:
        """A megabyte of cards is refused at once, saying the ceiling (it took a second)."""
        text = "JD 2D 9H " * 120_000
        start = time.perf_counter()
        with pytest.raises(LayoutError) as caught:
            parse_layout(text)
        assert time.perf_counter() - start < 0.05
        assert caught.value.code == "layout-too-large"
        assert caught.value.params == {"count": len(text), "max": MAX_LAYOUT_CHARS}
        assert f"at most {MAX_LAYOUT_CHARS} characters" in str(caught.value)
        board = json.loads(format_deal(deal(617), "json"))  # the most verbose format, indented
        assert parse_layout(json.dumps(board, indent=8)) == deal(617).cards
        assert len(json.dumps(board, indent=8)) < MAX_LAYOUT_CHARS // 2

    def test_more_than_52_cards(self) -> None:
        """53 cards or more are too many, counted in the message."""
        with pytest.raises(LayoutError, match="53 cards"):
            identify([*range(52), 0])

    def test_a_position_that_is_no_start(self) -> None:
        """A position after a move is no start: identify says so at once."""
        with pytest.raises(LayoutError) as caught:
            identify(Position.from_deal(deal(617)).apply("8a"))
        assert caught.value.code == "layout-not-start"

    def test_a_board_after_a_move_is_no_start(self) -> None:
        """A board whose columns are not 7 7 7 7 6 6 6 6, with or without fc-solve's headers."""
        after = Position.from_deal(deal(617)).apply("82")
        bare = "\n".join(" ".join(CARD_CODES[c] for c in cascade) for cascade in after.cascades)
        for text in (str(after), bare):
            with pytest.raises(LayoutError) as caught:
                parse_layout(text)
            assert caught.value.code == "layout-not-start"

    def test_values_that_are_no_card(self) -> None:
        """Ints outside 0..51 and other values are no cards."""
        for bad in (52, -1, 3.0, None):
            with pytest.raises(LayoutError, match="invalid card"):
                identify([0, bad])  # type: ignore[list-item]
