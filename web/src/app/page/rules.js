// The facts of the game that the page needs, each as freecell (Python) defines it: the places
// of the notation, a move's syntax, the deal numbers, the cards' ranks and suits (a card's code
// is its rank then its suit; the suits' symbols), the red suits, the grades of difficulty
// (easiest first), what a deal's fewest free cells can be, how much of a user's text a
// message quotes, the automatic-move choices, and the longest text Find reads as a layout.
// tests/library/test_rules_js.py checks every value against the library's own constants; keep
// this a plain JSON object for that.
export default {
  "cascades": "12345678",
  "freecells": "abcd",
  "foundation": "h",
  "move": "([1-8a-d])([1-8a-dh])(?:v([0-9]{1,2}|[a-f]))?",
  "min_deal": 1,
  "max_deal": 8589934591,
  "special_deals": [-1, -2],
  "random_deals": 1000000,
  "ranks": "A23456789TJQK",
  "suits": "CDHS",
  "suit_symbols": "♣♦♥♠",
  "red_suits": "DH",
  "grades": [1, 2, 3, 4, 5],
  "min_cells": [0, 1, 2, 3, 4, "impossible", "unknown"],
  "quote_limit": 40,
  "auto_play": ["off", "safe", "all"],
  "max_layout_chars": 10000
};
