"""The page's requests, declared once: what the worker may ask a :class:`~freecell._web.Session`.

:data:`REQUESTS` names every request: the :class:`~freecell._web.Session` method it calls
(of the same name), the shape of its reply (a :class:`~typing.TypedDict` below) and how the
worker schedules it. A request's arguments are its method's parameters, names, types and
defaults as the method declares them (:func:`arguments` reads them): the method is their one
home. :meth:`Session.handle <freecell._web.Session.handle>` checks a request against this
table and answers it; the worker forwards any request by name (web/src/app/worker/requests.js), and
docs/architecture.md and the tests are checked against the table.

Every reply is JSON: a :class:`Refusal`, or ``"ok": true`` with the request's fields. A reply
of a session with a game holds ``"game"``, the game after the request (a
:class:`~freecell.Snapshot`).
"""

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, NotRequired, TypedDict

from freecell._history import Snapshot

# --- the replies -------------------------------------------------------------------------------


class Refusal(TypedDict):
    """A request refused: ``"error"`` for the user, ``"code"`` and ``"params"`` as data.

    A refusal by a session with a game holds ``"game"``, unchanged. A request the table does
    not know, or whose arguments do not fit it, has no ``"code"``: that is the page's bug.
    """

    ok: Literal[False]
    error: str
    code: NotRequired[str]
    params: NotRequired[dict[str, Any]]
    game: NotRequired[Snapshot]


class Pending(TypedDict):
    """A request that waits for a search: ask again once :meth:`Session.think` says done."""

    ok: Literal[True]
    pending: Literal[True]
    game: NotRequired[Snapshot]


class Answered(TypedDict):
    """A request answered with the game after it, and nothing else."""

    ok: Literal[True]
    game: Snapshot


class Opened(Answered):
    """``new_game``: the deal opened and the deals Prev and Next open."""

    number: int
    text: str
    previous: int | None
    next: int | None
    faces: NotRequired[dict[str, dict[str, Any]]]
    notice: NotRequired[str]
    notice_code: NotRequired[str]
    notice_params: NotRequired[dict[str, Any]]


class Played(Answered):
    """A move and the automatic moves after it: each move ``"made"``, the game after each."""

    made: list[dict[str, Any]]
    steps: list[Snapshot]


class PositionText(Answered):
    """``position_text``: the position in fc-solve's format."""

    text: str


class Hinted(Answered):
    """``hint``: a solution from here (``"moves"``), its first move, or that there is none."""

    result: Literal["solved", "impossible", "unknown"]
    moves: list[str]
    start: bool
    hint: NotRequired[dict[str, Any]]


class ShortSolved(Hinted):
    """``solve``: a short solution from here (as ``hint`` answers) and its player moves.

    ``"partial"``: the moves are only the first of it, which the search no longer changes.
    """

    player_moves: int
    partial: NotRequired[bool]


class ParAnswer(Answered):
    """``par``: the deal's par, its short solution's player moves; None for a deal with none."""

    par: int | None


class Checked(Answered):
    """``check``: whether the game can still be won, and which move lost it."""

    solvable: Literal["yes", "no", "unknown"]
    lost: dict[str, Any] | None
    deal_lost: bool


class Graded(Answered):
    """``grade``: the deal's difficulty, 1 to 5, or None for a deal the search does not solve."""

    difficulty: int | None


class MinCellsAnswer(Answered):
    """``min_cells``: the fewest free cells, or the site's table that Python needs first."""

    min_cells: NotRequired[dict[str, Any] | int | None]
    table: NotRequired[str]


class FoundDeal(TypedDict):
    """``daily`` and ``random_deal``: the deal found and its grade (and the daily's date)."""

    ok: Literal[True]
    number: int
    difficulty: int
    date: NotRequired[str]


class Identified(TypedDict):
    """``identify``: the deals whose layout begins with the cards read."""

    ok: Literal[True]
    numbers: list[int]
    more: bool
    count: int
    max: int


class Targets(Answered):
    """``targets``: the places a selection could go."""

    targets: list[str]


class Done(TypedDict):
    """A request that changes no game: done."""

    ok: Literal[True]


# --- the requests ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """A request of the page: its name (the method's), its reply and its scheduling."""

    name: str
    reply: type
    waits: bool = False
    """Answered when a search ends: until then the reply is :class:`Pending`, and the worker
    asks again after each slice of :meth:`Session.think` that ends a search."""
    ends: tuple[str, ...] = ()
    """The requests whose waiting this one ends (the worker answers them ``cancelled``)."""


_FINDING: Final = ("daily", "random_deal")  # a search for a deal, which goes on while one plays

REQUESTS: Final[dict[str, Request]] = {
    request.name: request
    for request in (
        Request("new_game", Opened, ends=(*_FINDING, "solve", "par")),
        Request("play", Played),
        Request("play_card", Played),
        Request("auto_moves", Played),
        Request("play_move", Played),
        Request("undo", Answered),
        Request("redo", Answered),
        Request("restart", Answered),
        Request("seek", Answered),
        Request("position_text", PositionText),
        Request("targets", Targets),
        Request("hint", Hinted, waits=True),
        Request("solve", ShortSolved, waits=True),
        Request("solve_stop", Done, ends=("solve",)),
        Request("check", Checked, waits=True),
        Request("par", ParAnswer, waits=True, ends=("par",)),
        Request("grade", Graded, waits=True),
        Request("undo_to_winnable", Answered),
        Request("min_cells", MinCellsAnswer),
        Request("daily", FoundDeal, waits=True, ends=_FINDING),
        Request("random_deal", FoundDeal, waits=True, ends=_FINDING),
        Request("identify", Identified, waits=True, ends=("identify",)),
        Request("identify_stop", Done, ends=("identify",)),
    )
}
"""Every request of the page, by name."""


SLICE_SECONDS: Final = 0.005
"""How long one slice of the searches lasts: :meth:`Session.think <freecell._web.Session.think>`'s
default, which the worker calls with no argument, and answers the page's other requests between
two slices (web/src/app/worker/requests.js). 5 ms keeps a request's wait short and a search's
share of the worker's time high."""


# --- the arguments -----------------------------------------------------------------------------

_TYPES: Final[dict[str, type | None]] = {"str": str, "int": int, "bool": bool, "None": None}
"""The types a request's argument may have (JSON's), by the name a signature writes."""


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a request: its name, the types it takes, its default if it has one."""

    name: str
    types: tuple[type | None, ...]
    default: object = inspect.Parameter.empty

    @property
    def required(self) -> bool:
        """Whether a request must give this argument."""
        return self.default is inspect.Parameter.empty

    def takes(self, value: object) -> bool:
        """Tell whether ``value`` (from JSON) is of this argument's types (a bool is no int).

        >>> Argument("step", (int,)).takes(True), Argument("card", (str, None)).takes(None)
        (False, True)
        """
        return any(
            value is None if kind is None else type(value) is kind  # `is`: a bool is no int
            for kind in self.types
        )

    def __str__(self) -> str:
        types = " | ".join("None" if kind is None else kind.__name__ for kind in self.types)
        return f"{self.name}: {types}" + ("" if self.required else f" = {self.default!r}")


@functools.cache
def arguments(method: Callable[..., Any]) -> tuple[Argument, ...]:
    """Return a request's arguments, read from its method's signature (``self`` left out).

    Each parameter's annotation must name JSON's types: ``str``, ``int``, ``bool``, ``None``,
    joined by ``|``. Raises :class:`TypeError` for any other, so that a method the page cannot
    call fails its test.

    >>> def play(self, source: str, card: str | None = None, auto: str = "safe"): ...
    >>> [str(argument) for argument in arguments(play)]
    ['source: str', 'card: str | None = None', "auto: str = 'safe'"]
    """
    found = []
    for parameter in list(inspect.signature(method).parameters.values())[1:]:
        annotation = parameter.annotation  # a string where annotations are not evaluated
        if not isinstance(annotation, str):
            annotation = inspect.formatannotation(annotation)
        names = annotation.split("|")
        if not all(name.strip() in _TYPES for name in names):
            msg = f"{method.__name__}({parameter.name}: {parameter.annotation}): not JSON's types"
            raise TypeError(msg)
        types = tuple(_TYPES[name.strip()] for name in names)
        found.append(Argument(parameter.name, types, parameter.default))
    return tuple(found)


def bind(request: str, method: Callable[..., Any], args: object) -> dict[str, Any]:
    """Return the keyword arguments of a request's call from ``args``, a JSON object's value.

    A missing argument takes its default (so does a ``None`` where None is not a type it
    takes). Raises :class:`ValueError`, with a message that says what the request takes, for
    anything else: no object, an unknown name, a missing or mistyped argument.

    >>> def seek(self, moves: int): ...
    >>> bind("seek", seek, {"moves": 3})
    {'moves': 3}
    >>> bind("seek", seek, {"moves": "3"})
    Traceback (most recent call last):
    ...
    ValueError: request seek: moves must be int, not str ('3'); seek takes (moves: int)
    """
    declared = arguments(method)
    takes = f"{request} takes ({', '.join(map(str, declared))})"
    if not isinstance(args, dict):
        msg = f"request {request}: the arguments must be an object; {takes}"
        raise ValueError(msg)  # noqa: TRY004 - a reply's message, not a caller's type error
    unknown = sorted(set(args) - {argument.name for argument in declared})
    if unknown:
        msg = f"request {request}: no argument {unknown[0][:40]!r}; {takes}"
        raise ValueError(msg)
    bound = {}
    for argument in declared:
        value = args.get(argument.name)
        if value is None and None not in argument.types:
            if argument.required:
                msg = f"request {request}: {argument.name} is missing; {takes}"
                raise ValueError(msg)
            continue
        if not argument.takes(value):
            kinds = " | ".join("None" if k is None else k.__name__ for k in argument.types)
            shown = repr(value)[:40]
            msg = (
                f"request {request}: {argument.name} must be {kinds}, not "
                f"{type(value).__name__} ({shown}); {takes}"
            )
            raise ValueError(msg)
        bound[argument.name] = value
    return bound


def schedule() -> dict[str, dict[str, Any]]:
    """Return how the worker schedules each request: ``{name: {"waits", "ends"}}``.

    >>> schedule()["identify"]
    {'waits': True, 'ends': ['identify']}
    """
    return {
        name: {"waits": request.waits, "ends": list(request.ends)}
        for name, request in REQUESTS.items()
    }
