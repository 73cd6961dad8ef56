"""The facts the page shares with the library are the library's own (web/src/app/page/rules.js)."""

import re

from freecell import (
    AUTO_PLAY,
    CASCADES,
    DIFFICULTY_GRADES,
    FOUNDATION,
    FREECELLS,
    MAX_DEAL,
    MICROSOFT_DEALS,
    MIN_DEAL,
    MOVE_PATTERN,
    SPECIAL_DEALS,
)
from freecell._cards import card_is_red
from freecell._errors import QUOTE_LIMIT
from freecell._identify import MAX_LAYOUT_CHARS
from freecell._min_cells import _SYMBOLS
from freecell._names import CARD_CODES, SUIT_SYMBOLS
from helpers import WEB, js_object

RULES = js_object(WEB / "app" / "page" / "rules.js")


class TestRules:
    def test_places(self) -> None:
        """The page names cascades, free cells and the foundations as the notation does."""
        assert (RULES["cascades"], RULES["freecells"], RULES["foundation"]) == (
            CASCADES,
            FREECELLS,
            FOUNDATION,
        )

    def test_move_syntax(self) -> None:
        """The page's move syntax is the library's pattern."""
        assert RULES["move"] == MOVE_PATTERN

    def test_deal_numbers(self) -> None:
        """The page's deal range, special deals and random deals are the library's."""
        assert (RULES["min_deal"], RULES["max_deal"]) == (MIN_DEAL, MAX_DEAL)
        assert tuple(RULES["special_deals"]) == SPECIAL_DEALS
        assert range(1, RULES["random_deals"] + 1) == MICROSOFT_DEALS

    def test_grades(self) -> None:
        """The page's grades (Random's choice, a link's grade) are the library's."""
        assert RULES["grades"] == list(DIFFICULTY_GRADES)

    def test_min_cells(self) -> None:
        """What a deal's fewest free cells can be is what the library's table holds."""
        assert RULES["min_cells"] == list(_SYMBOLS)

    def test_max_layout_chars(self) -> None:
        """Find refuses a text as long as parse_layout refuses, before sending it to Python."""
        assert RULES["max_layout_chars"] == MAX_LAYOUT_CHARS

    def test_quote_limit(self) -> None:
        """The page quotes as much of a user's text as the library's messages do."""
        assert RULES["quote_limit"] == QUOTE_LIMIT

    def test_suit_symbols(self) -> None:
        """The page finds suits in messages by the library's symbols, in the suits' order."""
        assert RULES["suit_symbols"] == SUIT_SYMBOLS

    def test_auto_play(self) -> None:
        """The page's automatic-move choices (select#auto) are the library's, in its order."""
        assert RULES["auto_play"] == list(AUTO_PLAY)

    def test_cards(self) -> None:
        """The page's ranks, suits and red suits make the library's card codes and colours."""
        codes = [rank + suit for rank in RULES["ranks"] for suit in RULES["suits"]]
        assert codes == list(CARD_CODES)
        red = [code[1] in RULES["red_suits"] for code in codes]
        assert red == [card_is_red(card) for card in range(52)]

    def test_no_other_module_spells_them(self) -> None:
        """No other page module writes a place list, the move syntax or the deal range again."""
        spelled = re.compile(
            r"12345678|\"abcd\"|'abcd'|8589934591|\[1-8a-d\]|1_?000_?000|A23456789TJQK|\"CDHS\""
        )
        offenders = [
            path.name
            for path in sorted((WEB / "app").rglob("*.js"))
            if path.name != "rules.js" and spelled.search(path.read_text())
        ]
        assert offenders == []
