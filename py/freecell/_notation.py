"""Moves in fc-solve's standard notation: places, :data:`MOVE_PATTERN` and :class:`Move`.

A :class:`Move` is a value whose ``str`` is the standard notation fc-solve prints with
``-m -snx``: places are cascades ``1``-``8``, free cells ``a``-``d`` and the foundations ``h``,
so ``1a`` puts the bottom card of cascade 1 in free cell a, ``a3`` puts it on cascade 3, ``2h``
sends a card home and ``36`` moves cards between cascades. What a move does in a position is
the rules' business (:mod:`freecell._rules`).

Notation, as fc-solve uses it:

* ``36`` onto a cascade that holds cards moves the one run (descending, alternating colours) at
  the bottom of cascade 3 whose top card fits on the bottom card of cascade 6; onto an empty
  cascade it moves one card, and ``36v3`` moves a run of 3 (fc-solve's extended notation, which
  it prints only for a move of several cards to an empty cascade).
* fc-solve prints a card count of 10 or more as one hex digit: ``82vc`` moves 12 cards. Both
  forms are read (no run is longer than 13, so ``v10``-``v13`` and ``va``-``vd`` never collide);
  a :class:`Move` always prints its count in decimal. :data:`MOVE_PATTERN` is the syntax.
* A move to a free cell always names the cell, and that cell must be empty. fc-solve never prints
  a move to a free cell without a letter, so there is no such notation here.
* No move goes from a free cell to another free cell, or out of the foundations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from freecell._errors import CodedError, shorten

Place = str
"""A place in the notation: a cascade ``"1"``-``"8"``, a free cell ``"a"``-``"d"``, or ``"h"``."""

CASCADES: Final = "12345678"
"""The names of the 8 cascades, left to right."""
FREECELLS: Final = "abcd"
"""The names of the 4 free cells, left to right."""
FOUNDATION: Final = "h"
"""The name of the foundations (fc-solve writes ``h`` for "home")."""

CASCADE_INDEX: Final = {place: k for k, place in enumerate(CASCADES)}
"""Each cascade's index, 0 to 7, by its name."""
FREECELL_INDEX: Final = {place: k for k, place in enumerate(FREECELLS)}
"""Each free cell's index, 0 to 3, by its name."""
SOURCES: Final = frozenset(CASCADES + FREECELLS)
"""The places a move can start from."""
PLACES: Final = frozenset(CASCADES + FREECELLS + FOUNDATION)
"""Every place a move names."""
MOVE_PATTERN: Final = r"([1-8a-d])([1-8a-dh])(?:v([0-9]{1,2}|[a-f]))?"
"""The standard notation as a regular expression, to match a whole word: ``1a``, ``36v3``, ``82vc``.

Its groups are the source, the target and the card count after ``v``: one or two decimal digits,
or one hex digit ``a``-``f`` as fc-solve prints runs of 10 or more cards. It reads the same in
Python's :mod:`re` and JavaScript's ``RegExp``. Text that matches may still name a move no rule
allows (``ab``, ``36v0``); :meth:`Move.parse` says why.
"""
_MOVE_RE: Final = re.compile(MOVE_PATTERN)


class InvalidMoveError(CodedError):
    """Raised for text that is not a move in standard notation, or a move no rule allows.

    Its ``code`` and ``params`` say why as data (see :data:`freecell._errors.MESSAGES`).
    """


@dataclass(frozen=True, slots=True)
class Move:
    """A move in fc-solve's standard notation: a source, a target and maybe a card count.

    ``count`` is ``None`` for the plain notation (``36``: the run that fits on a cascade with
    cards, one card onto an empty one) and the number after ``v`` otherwise. Raises
    :class:`InvalidMoveError` for places outside the notation and for moves no rule allows.

    >>> Move("3", "6", 3)
    Move.parse('36v3')
    >>> str(Move("a", "h"))
    'ah'
    >>> Move("a", "b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._notation.InvalidMoveError: invalid move 'ab': no move goes from a free cell to a ...
    """

    source: Place
    target: Place
    count: int | None = None

    def __post_init__(self) -> None:
        text = shorten(
            f"{self.source}{self.target}" + ("" if self.count is None else f"v{self.count}")
        )
        if self.source not in SOURCES or self.target not in PLACES:
            raise InvalidMoveError("move-places", move=text)
        if self.source == self.target:
            raise InvalidMoveError("move-same-place", move=text)
        if self.source in FREECELLS and self.target in FREECELLS:
            raise InvalidMoveError("move-cell-to-cell", move=text)
        if self.count is not None and (
            type(self.count) is not int or self.count < 1 or self.count > 13
        ):
            raise InvalidMoveError("move-count", move=text)
        if self.count is not None and not (self.source in CASCADES and self.target in CASCADES):
            raise InvalidMoveError("move-count-places", move=text)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move in standard notation, such as ``1a``, ``a3``, ``2h``, ``36`` or ``36v3``.

        A count of 10 to 13 may be one hex digit, as fc-solve prints it (``82vc``). Raises
        :class:`InvalidMoveError` for anything else.

        >>> Move.parse(" 36v3 ").count
        3
        >>> Move.parse("82vc")
        Move.parse('82v12')
        >>> Move.parse("9a")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        freecell._notation.InvalidMoveError: invalid move '9a': write a source (cascade 1-8, ...
        """
        match = _MOVE_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidMoveError("move-syntax", move=shorten(text))
        source, target, count = match.groups()
        if count is None:
            return cls(source, target)
        return cls(source, target, int(count, 16 if count.isalpha() else 10))

    def __str__(self) -> str:
        return f"{self.source}{self.target}" + ("" if self.count is None else f"v{self.count}")

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def player_moves(moves: Iterable[Move]) -> int:
    """Count the moves as a player counts them: those whose target is not the foundations.

    A run moved as one counts one; a move home costs nothing, whether the player made it or it
    went by itself, so the count does not depend on the automatic moves' setting. It is the
    count of :attr:`freecell.Solution.player_moves`, of a game's
    :attr:`freecell.Game.player_moves`, and of the page's move counter and par.

    >>> player_moves([Move.parse("83"), Move.parse("2h"), Move.parse("36v3")])
    2
    """
    return sum(move.target != FOUNDATION for move in moves)
