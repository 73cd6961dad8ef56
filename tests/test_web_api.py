"""The page's Python API (freecell._web): JSON replies, never an exception for bad input."""

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell import CARD_CODES, MAX_DEAL, card_name, deal, format_deal
from freecell._web import open_deal, step_deal


def reply(text: str) -> dict[str, Any]:
    """Parse a JSON reply into a dict."""
    value: dict[str, Any] = json.loads(text)
    return value


class TestOpenDeal:
    @pytest.mark.parametrize("number", [1, 617, -1, -2, 2**31, 2**32, MAX_DEAL])
    def test_columns_match_the_dealer(self, number: int) -> None:
        """The reply's columns hold the dealer's cards, codes and names, and its fcs text."""
        data = reply(open_deal(str(number)))
        assert data["ok"] is True
        assert data["number"] == number
        expected = [[CARD_CODES[c] for c in column] for column in deal(number).columns]
        assert [[card["code"] for card in column] for column in data["columns"]] == expected
        names = [[card_name(c) for c in column] for column in deal(number).columns]
        assert [[card["name"] for card in column] for column in data["columns"]] == names
        assert data["text"] == format_deal(deal(number))

    def test_card_faces(self) -> None:
        """Each card carries its face: rank as printed, suit symbol, colour."""
        first = reply(open_deal("617"))["columns"][0][1]
        assert first == {
            "code": "TD",
            "name": "Ten of Diamonds",
            "rank": "10",
            "suit": "♦",
            "red": True,
        }

    @given(st.text(max_size=30))
    def test_any_text_gets_a_reply(self, text: str) -> None:
        """Any text at all gets a deal or an error message, never an exception."""
        data = reply(open_deal(text))
        assert data["ok"] is True or "1 to 8589934591" in data["error"]

    @pytest.mark.parametrize("text", ["abc", "", "0", "-3", "1.5", "99999999999", "617abc"])
    def test_bad_text_says_what_is_valid(self, text: str) -> None:
        """Bad input gets a message naming the valid numbers."""
        data = reply(open_deal(text))
        assert data == {"ok": False, "error": data["error"]}
        assert "from 1 to 8589934591, or -1 or -2" in data["error"]


class TestStepDeal:
    @pytest.mark.parametrize(
        ("text", "step", "number"),
        [("617", 1, 618), ("617", -1, 616), ("1", -1, -1), ("-1", -1, -2), ("-2", -1, -2),
         ("-2", 1, -1), ("-1", 1, 1), (str(MAX_DEAL), 1, MAX_DEAL), ("#5", 10, 15)],
    )  # fmt: skip
    def test_order_and_ends(self, text: str, step: int, number: int) -> None:
        """Steps go -2, -1, 1, 2, ... and stop at both ends."""
        assert reply(step_deal(text, step))["number"] == number

    def test_bad_base(self) -> None:
        """Stepping from text that is no deal gets the error message."""
        assert reply(step_deal("abc", 1))["ok"] is False
