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
from typing import Final

from freecell._cards import Card, CardError, parse_card
from freecell._deal import deal  # noqa: F401 - the doctests deal
from freecell._errors import shorten
from freecell._names import SUIT_CHARS
from freecell._notation import CASCADES
from freecell._rules import FOUNDATION_RANKS, Position, PositionError

MAX_POSITION_TEXT: Final = 65_536
"""The longest text :func:`parse_position` reads, in characters: a position takes under 1,000
(fc-solve's format about 200, a deal's ``json`` line about 700), which leaves room for comments
and spacing; longer text is refused at once."""

_BOM: Final = "\ufeff"
_JSON_HELP: Final = "write one object whose columns are 8 lists of card codes"


def _quote(text: str) -> str:
    """Return text quoted for a message, at most QUOTE_LIMIT characters of it."""
    return repr(shorten(text.strip()))


def _parse_rank(text: str, line: int) -> int:
    rank = {"0": 0, "10": 10}.get(text.upper())
    if rank is None and len(text) == 1 and text.upper() in FOUNDATION_RANKS:
        rank = FOUNDATION_RANKS.index(text.upper())
    if rank is None:
        msg = (
            f"invalid foundation rank {_quote(text)} on line {line}: write 0, A, 2-9, T, J, Q or K"
        )
        raise PositionError(msg)
    return rank


def _parse_freecells(rest: str, line: int) -> list[Card | None]:
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
        msg = f"invalid free cells on line {line}: {error}"
        raise PositionError(msg) from None
    if len(cells) > 4:
        msg = f"invalid free cells on line {line}: there are 4 free cells, not {len(cells):,}"
        raise PositionError(msg)
    return cells + [None] * (4 - len(cells))


def _parse_foundations(rest: str, line: int, foundations: list[int]) -> None:
    """Read the foundations after ``Foundations:`` into ``foundations`` (in any suit order)."""
    for word in rest.split():
        suit_text, dash, rank_text = word.partition("-")
        if not dash or suit_text.upper() not in SUIT_CHARS:
            msg = f"invalid foundation {_quote(word)} on line {line}: write e.g. H-5"
            raise PositionError(msg)
        foundations[SUIT_CHARS.index(suit_text.upper())] = _parse_rank(rank_text, line)


def _json_cascades(text: str) -> list[tuple[Card, ...]]:
    """Read the cascades of a deal in the ``json`` format (an object with ``columns``).

    Anything else, of any JSON type or depth, raises :class:`PositionError`.

    >>> _json_cascades('{"columns": [[1]]}')
    Traceback (most recent call last):
    ...
    freecell._rules.PositionError: invalid board in JSON: a number where a card code belongs ...
    """
    try:
        board = json.loads(text)
    except RecursionError:  # brackets nested deeper than the interpreter's stack
        msg = f"invalid board in JSON: nested too deeply ({_JSON_HELP})"
        raise PositionError(msg) from None
    except ValueError as error:  # a JSONDecodeError, or an integer of too many digits
        msg = f"invalid board in JSON: {shorten(str(error), 80)} ({_JSON_HELP})"
        raise PositionError(msg) from None
    columns = board.get("columns") if isinstance(board, dict) else None
    if not isinstance(columns, list) or not all(isinstance(c, list) for c in columns):
        msg = f"invalid board in JSON: no list of columns ({_JSON_HELP})"
        raise PositionError(msg)
    cascades = []
    for column in columns:
        for code in column:
            if not isinstance(code, str):
                kind = _json_type(code)
                msg = f"invalid board in JSON: {kind} where a card code belongs ({_JSON_HELP})"
                raise PositionError(msg)
        try:
            cascades.append(tuple(parse_card(code) for code in column))
        except CardError as error:
            msg = f"invalid board in JSON: {error} ({_JSON_HELP})"
            raise PositionError(msg) from None
    return cascades


def _json_type(value: object) -> str:
    """Name a JSON value's type in words: ``a number``, ``a list``, ``null``.

    >>> _json_type(True), _json_type(1.5), _json_type(None), _json_type({})
    ('true or false', 'a number', 'null', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "a list" if isinstance(value, list) else "an object"


def _deal_rows(cascades: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Turn a deal written as its 7 rows (the ``rows`` format) into its 8 cascades."""
    if len(cascades) == 7 and {len(row) for row in cascades[:-1]} == {8} and len(cascades[-1]) == 4:
        return [tuple(row[column] for row in cascades if column < len(row)) for column in range(8)]
    return cascades


def parse_position(text: str) -> Position:
    """Parse a position in fc-solve's format, or a bare board of 8 cascade lines.

    The ``Foundations:`` and ``Freecells:`` lines are optional, foundations may come in any
    order, cascade lines may start with ``:``, tens may be written ``T`` or ``10`` and suits as
    symbols, ``#`` starts a comment line, and a byte order mark at the start is ignored. An
    empty line is an empty cascade where fc-solve's reading (a line a cascade) makes the 8 and
    the written lines do not (see :func:`_cascade_lines`); elsewhere blank lines are skipped. A
    deal as the command's ``rows`` (7 rows) or ``json`` format prints it is read too. Raises
    :class:`PositionError` for anything that is not a complete position, at once for text
    longer than :data:`MAX_POSITION_TEXT`; its message is one line and quotes at most 40
    characters of the text.

    >>> text = str(Position.from_deal(deal(617)).apply("8a"))
    >>> parse_position(text) == Position.from_deal(deal(617)).apply("8a")
    True
    >>> parse_position("Foundations: H-A C-0 D-0 S-0").cascades  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._rules.PositionError: a position has 8 cascades, 4 free cells and 4 foundations, ...
    """
    if len(text) > MAX_POSITION_TEXT:
        msg = f"a position is at most {MAX_POSITION_TEXT:,} characters, not {len(text):,}"
        raise PositionError(msg)
    text = text.removeprefix(_BOM)  # as a Windows editor saves UTF-8
    foundations = [0, 0, 0, 0]
    freecells: list[Card | None] = [None] * 4
    if text.lstrip().startswith("{"):
        return Position(tuple(_json_cascades(text)), tuple(freecells), tuple(foundations))
    lines: list[tuple[int, str]] = []  # the cascades' lines stripped, blank ones too
    headers = started = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        started = started or bool(line)
        if line.startswith("#") or not started:
            continue
        head, colon, rest = line.partition(":")
        if colon and head.strip().lower() == "foundations":
            _parse_foundations(rest, number, foundations)
            headers = True
            continue
        if colon and head.strip().lower() == "freecells":
            freecells = _parse_freecells(raw.partition(":")[2], number)
            headers = True
            continue
        lines.append((number, f":{rest}" if colon and head.strip() == "" else line))
    cascades = [_parse_cascade(line, number) for number, line in _cascade_lines(lines, headers)]
    if not headers:
        cascades = _deal_rows(cascades)
    return Position(tuple(cascades), tuple(freecells), tuple(foundations))


def _cascade_lines(lines: list[tuple[int, str]], headers: bool) -> list[tuple[int, str]]:
    """Return the lines that are cascades, ``(number, line)``: blank ones too, as fc-solve reads.

    ``lines`` are the text's lines but headers and comments, from its first line that is not
    blank. Where 8 lines are written (or 7 rows of a deal), blank lines only space the text out.
    Else fc-solve's reading counts: a line a cascade, an empty line an empty cascade (its test
    boards write them so), between two cascades, and after the headers or at the end of a text
    that has them; if that does not make 8 either, the written lines are the cascades (and the
    position is refused). A ``:`` alone (as positions print an empty cascade) is written.

    >>> _cascade_lines([(1, "KH QC"), (2, ""), (3, "5D"), (4, "")], False)
    [(1, 'KH QC'), (3, '5D')]
    >>> [n for n, _ in _cascade_lines([(n, "" if n == 4 else "AS") for n in range(1, 9)], False)]
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    count = len(CASCADES)
    written = [index for index, (_, line) in enumerate(lines) if line]
    rows = [len(lines[index][1].split()) for index in written] == [8] * 6 + [4]
    if len(written) in (0, count) or (rows and not headers):
        return [lines[index] for index in written]
    inner = lines[written[0] : written[-1] + 1]
    if len(inner) == count:
        return inner
    if headers and len(lines) >= count and written[-1] < count:
        return lines[:count]
    return [lines[index] for index in written]


def _parse_cascade(line: str, number: int) -> tuple[Card, ...]:
    """Read a cascade's cards (after a ``:``, if any); ``number`` names it in a message."""
    try:
        return tuple(parse_card(word) for word in line.removeprefix(":").split())
    except CardError as error:
        msg = f"invalid cascade on line {number}: {error}"
        raise PositionError(msg) from None
