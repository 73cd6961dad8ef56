"""The page's tap, click and drag policy: which legal move a tap, a click or a drop makes.

The rules (:mod:`freecell._rules`) say which moves are legal; a player who taps or double-clicks
a card, or picks a card up and puts it down on a place, means one of them, and
:func:`best_move_for` and :func:`find_move` choose which (:func:`why_stuck` says why a card has
none). The page's API (:mod:`freecell._web`) asks them.
"""

from __future__ import annotations

from freecell._cards import Card, parse_card
from freecell._deal import deal  # noqa: F401 - the doctests deal
from freecell._errors import CodedError, shorten
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
    """Return the move a tap or a double click on a card makes in a position, or ``None``.

    The card moves with the cards below it, which must form a run with it (a card higher in a
    cascade takes them along). It goes to the first of these that takes it: its foundation (a
    single card); a cascade with cards, the one whose bottom run the cards make longest first
    (ties left to right); an empty cascade (the leftmost), unless the cards are their whole
    cascade; a free cell (the leftmost empty one; a single card from a cascade). ``None``
    when none does, or when the card is home or under cards out of sequence with it
    (:func:`why_stuck` says which). Raises :class:`~freecell.CardError` for text that is no
    card.

    >>> best_move_for(Position.from_deal(deal(1)), "6S")
    Move.parse('1a')
    >>> best_move_for(Position.from_deal(deal(617)), "QH")  # onto K♠, as left as K♣
    Move.parse('82')
    """
    if isinstance(card, str):
        card = parse_card(card)
    place = position.find(card)
    if place == FOUNDATION:
        return None
    run = position.run_at(place)
    if card not in run:
        return None
    size = len(run) - run.index(card)
    moves = position.moves_from(place)
    if size == 1 and Move(place, FOUNDATION) in moves:
        return Move(place, FOUNDATION)
    onto_cards = [
        m
        for m in moves
        if m.target in CASCADES
        and position.card_at(m.target) is not None
        and position.resolve(m)[1] == size
    ]
    if onto_cards:  # max() keeps the first of equals: the leftmost
        return max(onto_cards, key=lambda m: len(position.run_at(m.target)))
    whole = place in CASCADES and size == len(position.cascades[CASCADES.index(place)])
    empty = [
        m
        for m in moves
        if m.target in CASCADES and position.card_at(m.target) is None and (m.count or 1) == size
    ]
    if empty and not whole:
        return empty[0]
    cells = [m for m in moves if m.target in FREECELLS]
    return cells[0] if cells and size == 1 else None


def why_stuck(position: Position, card: Card | str) -> CodedError:
    """Return why :func:`best_move_for` finds no move for a card, as an error to report.

    ``"from-foundation"`` for a card home, ``"card-covered"`` for a card under cards out of
    sequence with it, ``"card-run-limit"`` for a run longer than may move at once, else
    ``"card-stuck"``: nowhere takes it. Raises :class:`~freecell.CardError` for text that is
    no card.

    >>> str(why_stuck(Position.from_deal(deal(1)), "AH"))
    'Ace of Hearts is covered by cards out of sequence with it'
    """
    if isinstance(card, str):
        card = parse_card(card)
    code = CARD_CODES[card]
    place = position.find(card)
    if place == FOUNDATION:
        return CodedError("from-foundation")
    run = position.run_at(place)
    if card not in run:
        return CodedError("card-covered", card=code)
    size = len(run) - run.index(card)
    if size > position.max_run():
        return CodedError("card-run-limit", card=code, count=size, max=position.max_run())
    return CodedError("card-stuck", card=code)


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
