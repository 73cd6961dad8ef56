"""The page's click and drag policy: which legal move a double click, a click or a drop makes.

The rules (:mod:`freecell._rules`) say which moves are legal; a player who double-clicks a card,
or picks a card up and puts it down on a place, means one of them, and :func:`best_move_for`
and :func:`find_move` choose which. The page's API (:mod:`freecell._web`) asks them.
"""

from __future__ import annotations

from freecell._cards import Card, parse_card
from freecell._deal import deal  # noqa: F401 - the doctests deal
from freecell._errors import shorten
from freecell._names import CARD_CODES
from freecell._notation import (
    CASCADES,
    FOUNDATION,
    FREECELLS,
    PLACES,
    SOURCES,
    InvalidMoveError,
    Move,
    Place,
)
from freecell._rules import IllegalMoveError, Position, run_length


def best_move_for(position: Position, card: Card | str) -> Move | None:
    """Return the move a double click on a card makes in a position, or ``None``.

    A card in a free cell goes to the foundations if it can, else onto a cascade where it
    fits, else to an empty cascade. A cascade's bottom card goes to the foundations if it
    can, else onto a cascade where it fits, else to an empty free cell (the leftmost), else
    to an empty cascade. A card higher in a cascade takes the cards below it along when they
    form a run: onto a cascade where the run fits, else to an empty cascade. Cascades are
    tried left to right. Raises :class:`~freecell.CardError` for text that is no card.

    >>> best_move_for(Position.from_deal(deal(1)), "6S")
    Move.parse('1a')
    """
    if isinstance(card, str):
        card = parse_card(card)
    place = position.find(card)
    if place == FOUNDATION:
        return None
    moves = position.moves_from(place)
    run = position.run_at(place)
    if card not in run:
        return None
    size = len(run) - run.index(card)
    if size == 1 and Move(place, FOUNDATION) in moves:
        return Move(place, FOUNDATION)
    onto_cards = [
        m
        for m in moves
        if m.target in CASCADES
        and position.card_at(m.target) is not None
        and position.resolve(m)[1] == size
    ]
    if onto_cards:
        return onto_cards[0]
    if size == 1:
        cells = [m for m in moves if m.target in FREECELLS]
        if cells:
            return cells[0]
    empty = [
        m
        for m in moves
        if m.target in CASCADES and position.card_at(m.target) is None and (m.count or 1) == size
    ]
    return empty[0] if empty else None


def find_move(
    position: Position,
    source: Place,
    target: Place,
    card: Card | str | None = None,
    *,
    longest: bool = False,
) -> Move:
    """Return the legal move that takes the card(s) at ``source`` to ``target`` in a position.

    ``card`` is the card a user picked up, if any: in a cascade, the cards below it go
    along. Without it, the place's card moves; onto an empty cascade, the longest run that
    may go there. With ``longest`` (a click, where a drag moves exactly what it holds), a
    move onto an empty cascade takes as much of the run as the rules allow: the whole
    bottom run when ``card`` is the bottom card, else the cards from ``card`` down. Raises
    :class:`IllegalMoveError` or :class:`InvalidMoveError` saying why no legal move does
    that, and :class:`~freecell.CardError` for text that is no card.

    >>> position = Position.from_deal(deal(617))
    >>> find_move(position, "8", "2")
    Move.parse('82')
    >>> find_move(position, "1", "a", "KD")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    freecell._rules.IllegalMoveError: illegal move '1a': only the bottom card of cascade 1 ...
    """
    if source not in SOURCES:
        raise IllegalMoveError("from-foundation")
    if target not in PLACES:
        raise InvalidMoveError("no-place", move=shorten(source + target), place=target)
    if source == target:
        raise IllegalMoveError("same-place")
    if card is None or card == "" or source in FREECELLS:
        if target in CASCADES and source in CASCADES and position.card_at(target) is None:
            runs = [m for m in position.moves_from(source) if m.target == target]
            if runs:
                return runs[-1]
        return position.resolve(Move(source, target))[0]
    held = parse_card(card) if isinstance(card, str) else card
    cascade = position.cascades[CASCADES.index(source)]
    if held not in cascade:
        raise IllegalMoveError("card-not-in-cascade", card=CARD_CODES[held], cascade=source)
    count = len(cascade) - cascade.index(held)
    if longest and target in CASCADES and position.card_at(target) is None:
        run = run_length(cascade)
        wanted = run if count == 1 else min(count, run)
        count = max(1, min(wanted, position.max_run(to_empty_cascade=True)))
    if count > 1 and target not in CASCADES:
        raise IllegalMoveError(
            "bottom-card-only-foundations" if target == FOUNDATION else "bottom-card-only-freecell",
            move=source + target,
            cascade=source,
            card=CARD_CODES[held],
            below=count - 1,
        )
    return position.resolve(Move(source, target, None if count == 1 else count))[0]
