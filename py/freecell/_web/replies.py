"""The page's replies: JSON text, refusals as data, cards' faces and moves described.

The pieces every request of :class:`freecell._web.Session` answers with: a reply is a JSON
object (:func:`as_json`), a refusal carries its English message, code and params
(:func:`refusal`), a move is described before it is played (:func:`made`), and the automatic
moves a request asks for are played and described one by one (:func:`automatic_moves`).
"""

import json
from typing import Any, Final

from freecell._cards import card_is_red, card_rank, card_suit, card_unicode
from freecell._errors import CodedError
from freecell._history import Game, Snapshot
from freecell._names import CARD_CODES, SUIT_SYMBOLS
from freecell._notation import CASCADES, Move
from freecell._rules import AutoPlay, Position

FACES: Final = {
    CARD_CODES[card]: {
        "rank": card_unicode(card)[:-1],
        "suit": SUIT_SYMBOLS[card_suit(card)],
        "red": card_is_red(card),
        "rank_index": card_rank(card) - 1,
        "suit_index": card_suit(card),
    }
    for card in range(52)
}
"""Each card's face by its code: the rank as printed, the suit symbol, the colour, and the
rank (0 ace .. 12 king) and suit (0 clubs .. 3 spades) for naming it in a language."""


def as_json(value: dict[str, Any]) -> str:
    """Return a reply as JSON text, non-ASCII characters as they are.

    >>> as_json({"ok": True, "suit": "♥"})
    '{"ok": true, "suit": "♥"}'
    """
    return json.dumps(value, ensure_ascii=False)


def refusal(error: CodedError) -> dict[str, Any]:
    """Return an error's English message, code and params, as a reply's fields.

    >>> refusal(CodedError("no-game"))["code"]
    'no-game'
    """
    return {"ok": False, "error": str(error), **error.as_data()}


def game_reply(game: Game, **fields: Any) -> str:
    """Return a request's answer: ``"ok": true``, its fields and the game after it.

    >>> game_reply(Game.from_deal_number(1), text="x")[:24]
    '{"ok": true, "text": "x"'
    """
    return as_json({"ok": True, **fields, "game": game.snapshot()})


def game_refusal(game: Game, error: CodedError) -> str:
    """Return a request's refusal (see :func:`refusal`), with the game, unchanged.

    >>> '"code": "no-game"' in game_refusal(Game.from_deal_number(1), CodedError("no-game"))
    True
    """
    return as_json({**refusal(error), "game": game.snapshot()})


def made(position: Position, move: Move) -> dict[str, Any]:
    """Describe a legal move before it is played, for a page to say it.

    ``{"move": notation, "cards": the card codes it moves, top first, "target": the place,
    "onto": the card it goes onto, or None}``.

    >>> from freecell._deal import deal
    >>> made(Position.from_deal(deal(617)), Move.parse("82"))
    {'move': '82', 'cards': ['QH'], 'target': '2', 'onto': 'KS'}
    """
    resolved, count = position.resolve(move)
    if resolved.source in CASCADES:
        cards = position.cascades[CASCADES.index(resolved.source)][-count:]
    else:
        cards = tuple(card for card in [position.card_at(resolved.source)] if card is not None)
    onto = position.card_at(resolved.target) if resolved.target in CASCADES else None
    return {
        "move": str(resolved),
        "cards": [CARD_CODES[card] for card in cards],
        "target": resolved.target,
        "onto": None if onto is None else CARD_CODES[onto],
    }


def automatic_moves(game: Game, mode: AutoPlay) -> tuple[list[dict[str, Any]], list[Snapshot]]:
    """Play the automatic moves of ``mode``; return what each made and the game after each.

    >>> game = Game.from_deal_number(3); _ = game.push("1a")
    >>> [move["move"] for move in automatic_moves(game, "safe")[0]]
    ['5h']
    """
    described: list[dict[str, Any]] = []
    steps: list[Snapshot] = []
    while (move := game.position.next_auto_move(mode)) is not None:
        described.append(made(game.position, move))
        game.push(move, auto=True)
        steps.append(game.snapshot())
    return described, steps
