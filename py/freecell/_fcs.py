"""fc-solve's position format read back: :func:`parse_position`.

It reads every board the ``freecell`` command prints, its ``rows`` and ``json`` formats too.

:class:`~freecell._rules.Position` prints itself as ``fc-solve -p -t`` prints a position, with
each free cell in a 4-character place so gaps show; :func:`parse_position` reads that back
place by place. fc-solve reads its own output too, but it takes the ``Freecells:`` line as words
and so packs the cards to the left (a ``-`` word keeps an empty cell, and both readers accept
it).
"""

from __future__ import annotations

import json

from freecell._cards import Card, CardError, parse_card
from freecell._deal import deal  # noqa: F401 - the doctests deal
from freecell._names import SUIT_CHARS
from freecell._rules import FOUNDATION_RANKS, Position, PositionError


def _parse_rank(text: str, line: str) -> int:
    rank = {"0": 0, "10": 10}.get(text.upper())
    if rank is None and len(text) == 1 and text.upper() in FOUNDATION_RANKS:
        rank = FOUNDATION_RANKS.index(text.upper())
    if rank is None:
        msg = f"invalid foundation rank {text!r} in {line!r}: write 0, A, 2-9, T, J, Q or K"
        raise PositionError(msg)
    return rank


def _parse_freecells(rest: str, line: str) -> list[Card | None]:
    """Read the free cells after ``Freecells:``.

    They are read by column when they line up as fc-solve's 4-character places, else as words
    where ``-`` marks an empty cell.
    """
    stripped = rest.rstrip()
    chunks = [stripped[k : k + 4] for k in range(0, 16, 4)]
    try:
        if len(stripped) <= 16 and all(
            c == "" or (c[0] == " " and " " not in c.strip()) for c in chunks
        ):
            return [parse_card(c) if c.strip() else None for c in chunks]
        words = rest.split()
        cells: list[Card | None] = [None if w in ("-", "--") else parse_card(w) for w in words]
    except CardError as error:
        msg = f"invalid free cells {line!r}: {error}"
        raise PositionError(msg) from None
    if len(cells) > 4:
        msg = f"invalid free cells {line!r}: there are 4 free cells"
        raise PositionError(msg)
    return cells + [None] * (4 - len(cells))


def _parse_foundations(rest: str, line: str, foundations: list[int]) -> None:
    """Read the foundations after ``Foundations:`` into ``foundations`` (in any suit order)."""
    for word in rest.split():
        suit_text, dash, rank_text = word.partition("-")
        if not dash or suit_text.upper() not in SUIT_CHARS:
            msg = f"invalid foundation {word!r} in {line!r}: write e.g. H-5"
            raise PositionError(msg)
        foundations[SUIT_CHARS.index(suit_text.upper())] = _parse_rank(rank_text, line)


def _json_cascades(text: str) -> list[tuple[Card, ...]]:
    """Read the cascades of a deal in the ``json`` format (an object with ``columns``)."""
    try:
        board = json.loads(text)
        columns = board["columns"]
        return [tuple(parse_card(code) for code in column) for column in columns]
    except (ValueError, KeyError, TypeError, CardError) as error:
        msg = f"invalid board in JSON: {error} (write one object with 8 columns of card codes)"
        raise PositionError(msg) from None


def _deal_rows(cascades: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Turn a deal written as its 7 rows (the ``rows`` format) into its 8 cascades."""
    if len(cascades) == 7 and {len(row) for row in cascades[:-1]} == {8} and len(cascades[-1]) == 4:
        return [tuple(row[column] for row in cascades if column < len(row)) for column in range(8)]
    return cascades


def parse_position(text: str) -> Position:
    """Parse a position in fc-solve's format, or a bare board of 8 cascade lines.

    The ``Foundations:`` and ``Freecells:`` lines are optional, foundations may come in any
    order, cascade lines may start with ``:``, tens may be written ``T`` or ``10`` and suits as
    symbols, and ``#`` starts a comment line. A deal as the command's ``rows`` (7 rows) or
    ``json`` format prints it is read too. Raises :class:`PositionError` for anything that is
    not a complete position.

    >>> text = str(Position.from_deal(deal(617)).apply("8a"))
    >>> parse_position(text) == Position.from_deal(deal(617)).apply("8a")
    True
    >>> parse_position("Foundations: H-A C-0 D-0 S-0").cascades  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._rules.PositionError: a position has 8 cascades, 4 free cells and 4 foundations, ...
    """
    foundations = [0, 0, 0, 0]
    freecells: list[Card | None] = [None] * 4
    if text.lstrip().startswith("{"):
        return Position(tuple(_json_cascades(text)), tuple(freecells), tuple(foundations))
    cascades: list[tuple[Card, ...]] = []
    headers = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        if colon and head.strip().lower() == "foundations":
            _parse_foundations(rest, raw, foundations)
            headers = True
            continue
        if colon and head.strip().lower() == "freecells":
            freecells = _parse_freecells(raw.partition(":")[2], raw)
            headers = True
            continue
        if colon and head.strip() == "":
            line = rest
        try:
            cascades.append(tuple(parse_card(word) for word in line.split()))
        except CardError as error:
            msg = f"invalid cascade {raw!r}: {error}"
            raise PositionError(msg) from None
    if not headers:
        cascades = _deal_rows(cascades)
    return Position(tuple(cascades), tuple(freecells), tuple(foundations))
