"""The ``freecell replay`` command: play moves in standard notation from a deal, check each.

``freecell replay N MOVE...`` plays the moves from deal N with no automatic moves and prints the
final position in fc-solve's format, then ``# solved`` (a comment line of the format) when all 52
cards are home, so that ``freecell solve -`` and fc-solve read the output back. With no MOVE
arguments the moves come from standard input, which may be the whole output of
``fc-solve -m -snx``, or of ``fc-solve -m``, whose moves are sentences: lines of text and
positions are skipped (see :func:`numbered_move_words`), and any other line is moves. Moves
may be separated by spaces, commas or newlines; they are read and played as a stream, one
position in memory, however many there are.
``freecell replay - MOVE...`` starts from a position in fc-solve's format on standard input
instead (what ``freecell N``, ``freecell replay`` and the page's "Copy text" print; at most
:data:`~freecell._fcs.MAX_POSITION_TEXT` characters). Exit status: 0 when every move was legal,
1 at the first illegal or malformed move or damaged line (stderr names it, and its line on
standard input, and shows the position it met) or when standard input gave no move at all (so
fc-solve's output for a game it gave up on, or a format not read, never passes for a replay
that held), 2 for a bad command line;
:func:`freecell._cli.streams.run_command` adds the streams' own (1 when one fails, 2 for standard
input that is not text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final, TextIO

from freecell._cards import CardError, parse_card
from freecell._cli.options import Answered, Parser, UsageError, answered_or_refused
from freecell._cli.streams import EXIT_FAILURE, EXIT_OK, quoted, read_limited
from freecell._deal import VALID_DEALS_TEXT, DealNumberError, deal, parse_deal_number
from freecell._errors import reason
from freecell._fcs import MAX_POSITION_TEXT, parse_position
from freecell._notation import CASCADES, FOUNDATION, FREECELLS, MOVE_PATTERN, InvalidMoveError
from freecell._rules import IllegalMoveError, Position, PositionError

_PROG: Final = "freecell replay"
_DESCRIPTION: Final = f"""\
Play moves in standard notation (1a, a3, 2h, 36, 36v3, and fc-solve's hex counts
such as 82vc) from a deal, with no automatic moves, and print the final position
in fc-solve's format, then `# solved` if all 52 cards are home.

With no MOVE arguments the moves are read from standard input, which may be
the whole output of `fc-solve -m -snx`: lines of text (This game is solveable.),
separators and positions are skipped; any other line is moves, and a line that
is no moves is an error. fc-solve's moves in words (`fc-solve -m` alone: Move a
card from stack 3 to the foundations) are read too. Moves may be separated by
spaces, commas or newlines.

A DEAL is {VALID_DEALS_TEXT} (617, #617, -1), or - for a position in
fc-solve's format on standard input (what `freecell N` and `freecell replay`
print); the moves then come from the arguments.
"""
_EPILOG: Final = f"""\
Exit status: 0 if every move was legal; 1 at the first illegal or malformed
move or damaged line (one holding a control character such as NUL), when
standard input gave no move at all, or when standard input cannot be read or
the output cannot be written; 2 for a bad command line, standard input that is
not text (in the locale's encoding), a line of it longer than 1 MiB, or a
position longer than {MAX_POSITION_TEXT:,} characters.
"""


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument(
        "deal", nargs="?", metavar="DEAL", help="the deal to play, or - for a position on stdin"
    )
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves, or several a comma apart")
    return parser


_SEPARATORS: Final = re.compile(r"[\s,]+")
_MOVE_LIKE: Final = re.compile(MOVE_PATTERN)  # the notation itself: one syntax in one place
_MOVE_PREFIX: Final = re.compile(r"^\s*(?:Move|#?-?[0-9]+|-):\s*")  # fc-solve's, solve's labels
_TEXT_WORD: Final = re.compile(r"[^\W\d_]{3,}[.,:;!?]*")  # a word: no move has 3 letters
_CONTROL: Final = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")  # controls but \t\n\v\f\r
_SEPARATOR_CHARS: Final = frozenset("-=*#:_~. \t\r\n\f\v")  # fc-solve's -=-=- and ====
_PLACE_WORD: Final = re.compile(r"-+|[CDHS]-(?:[0A2-9TJQK]|10)", re.IGNORECASE)  # --, H-0
_SENTENCE: Final = re.compile(
    r"Move (?:a card|(?P<count>[0-9]{1,2}) cards) from (?P<source>stack|freecell) (?P<at>[0-9]) "
    r"to (?:the foundations|(?P<target>stack|freecell) (?P<to>[0-9]))\.?"
)
"""A move in words, as ``fc-solve -m`` writes it without ``-snx`` (places count from 0)."""
_SENTENCE_START: Final = re.compile(r"\s*Move (?:a card|the |[0-9]+ cards?)\b", re.IGNORECASE)
"""How a move in words starts: a line that starts so is a move, read or reported, never text."""
_STDIN: Final = "-"
_NO_MOVE: Final = (
    "no move was read from standard input: it held only text, positions and separators, "
    "which are skipped, or nothing"
)
"""Standard input that gave no move (an unsolved game's output, another format, nothing)."""
SOLVED_LINE: Final = "# solved"
"""The line after a won game's position: a comment in fc-solve's format, which reads past it."""


class DamagedLineError(ValueError):
    """A line holds a character no text of moves has: a control character (NUL...)."""

    def __init__(self, line: int, column: int, char: str) -> None:
        self.line = line
        self.detail = f"it holds the control character U+{ord(char):04X} at column {column}"
        super().__init__(f"line {line} is damaged: {self.detail}")


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardError:
        return False
    return True


def _is_move_line(words: list[str], line: str) -> bool:
    """Tell whether a line's words are moves, rather than text or a position to skip.

    A line that starts with a word of text (three letters or more: ``This scan generated 17
    states.``) is text. Else a line is moves when one of its words looks like a move. Else it
    is skipped when it holds a word of text (``I could not solve this game.``), is a line of a
    position (``: 8H 2D``, or cards and places as ``fc-solve -sam`` draws them: `` 6C  --
    H-0``) or a separator (``-=-=-``, ``====``); anything else is moves, to be reported
    (``1z``).
    """
    if _TEXT_WORD.fullmatch(words[0]):
        return False
    if any(_MOVE_LIKE.fullmatch(w) for w in words):
        return True
    text = line.strip()
    if any(_TEXT_WORD.fullmatch(w) for w in words) or text.startswith(":"):
        return False
    if set(text) <= _SEPARATOR_CHARS:
        return False
    return not all(_is_card(w) or _PLACE_WORD.fullmatch(w) for w in words)


def sentence_move(line: str) -> str | None:
    """Return the move in standard notation that a line of fc-solve's words says, if it is one.

    fc-solve's ``-m`` output without ``-snx`` says each move in a sentence, its stacks and free
    cells counted from 0; a move between stacks says how many cards it moves, and so does its
    notation (``v1`` too: ``16`` alone would move the whole run that fits). A line that starts
    as such a sentence but says no move of FreeCell (another game's, a place that does not
    exist) comes back as it is, to be reported as a malformed move; any other line gives None.

    >>> sentence_move("Move a card from stack 3 to the foundations")
    '4h'
    >>> sentence_move("Move 3 cards from stack 0 to stack 5"), sentence_move("Move 1 cards from stack 0 to stack 5")
    ('16v3', '16v1')
    >>> sentence_move("Move a card from freecell 2 to stack 7"), sentence_move("This game is solveable.")
    ('c8', None)
    >>> sentence_move("Move the sequence on top of Stack 3 to the foundations")
    'Move the sequence on top of Stack 3 to the foundations'
    """  # noqa: E501 - a doctest's output is one line
    if not _SENTENCE_START.match(line):
        return None
    text = line.strip()
    found = _SENTENCE.fullmatch(text)
    places = {"stack": CASCADES, "freecell": FREECELLS}
    if found is None:
        return text
    source, at = places[found["source"]], int(found["at"])
    target, to = (FOUNDATION, 0)
    if found["target"] is not None:
        target, to = places[found["target"]], int(found["to"])
    between = source == target == CASCADES
    count = f"v{int(found['count'] or 1)}" if between else ""
    if at >= len(source) or to >= len(target) or (found["count"] and not between):
        return text
    return f"{source[at]}{target[to]}{count}"


def numbered_move_words(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    r"""Yield each move word of text such as fc-solve's output with the number of its line.

    A move in words (``Move a card from stack 3 to the foundations``, fc-solve's ``-m``
    without ``-snx``) is read as its move (see :func:`sentence_move`). Another line counts as
    moves when one of its words, split at spaces and commas, looks like a move, unless it
    starts as text, or when it is neither text, nor a line of a position, nor a
    separator (see :func:`_is_move_line`); then every word is yielded, so a typo is reported
    rather than skipped. A leading ``Move:`` (as in fc-solve's ``-sam`` output) or a deal's label
    (``617:``, as ``freecell solve`` prints) is dropped, and so is a byte order mark starting
    the first line. Lines are read one at a time.

    Raises :class:`DamagedLineError` at a line holding a control character (other than a tab,
    a line or page break: NUL, ESC, DEL, the C1 controls...), which no text of moves holds.

    >>> list(numbered_move_words(["5a 5b", "This game is solveable.", "1z"]))
    [(1, '5a'), (1, '5b'), (3, '1z')]
    >>> list(numbered_move_words(["83\x002a"]))
    Traceback (most recent call last):
    ...
    freecell._cli.replay.DamagedLineError: line 1 is damaged: it holds the control character U+0000 at column 3
    """  # noqa: E501 - a doctest's output is one line
    for number, line in enumerate(lines, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")  # noqa: PLW2901 - a byte order mark is no text
        if (control := _CONTROL.search(line)) is not None:
            raise DamagedLineError(number, control.start() + 1, control.group())
        if line.isspace():
            continue
        if (said := sentence_move(line)) is not None:
            yield number, said
            continue
        words = [w for w in _SEPARATORS.split(_MOVE_PREFIX.sub("", line)) if w]
        if words and _is_move_line(words, line):
            yield from ((number, word) for word in words)


def move_words(lines: Iterable[str]) -> Iterator[str]:
    """Yield the move words of text such as fc-solve's output (see :func:`numbered_move_words`).

    >>> list(move_words(["-=-=-=-", "5a 5b,5c", "", "This game is solveable.", "Move: 78v5"]))
    ['5a', '5b', '5c', '78v5']
    >>> list(move_words(["617: 83 2a"]))
    ['83', '2a']
    >>> list(move_words(["1a 2x"]))
    ['1a', '2x']
    """
    return (word for _, word in numbered_move_words(lines))


def _start(text: str | None, stdin: TextIO, parser: Parser) -> tuple[Position, str]:
    """Return the position to replay from and what it is for messages (``deal 617``).

    Raises UsageError when there is no deal or the position on stdin is bad, or DealNumberError.
    """
    if text is None:
        msg = f"give a deal number or - ({parser.format_usage().strip()})"
        raise UsageError(msg)
    if text != _STDIN:
        number = parse_deal_number(text)
        return Position.from_deal(deal(number)), f"deal {number}"
    try:
        position = parse_position(read_limited(stdin, MAX_POSITION_TEXT, "a position"))
    except PositionError as error:
        msg = f"invalid position on standard input: {error}"
        raise UsageError(msg) from None
    return position, "the position on standard input"


def replay_main(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``freecell replay`` with the arguments that follow ``replay``; return the exit status.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> replay_main(["1", "5a", "5b,5c", "5d", "5h"], io.StringIO(), out, err)
    0
    >>> out.getvalue().splitlines()[:2]
    ['Foundations: H-0 C-0 D-A S-0 ', 'Freecells:  6C  8H  4H  JS']
    >>> replay_main(["1", "5h"], io.StringIO(), out, err)
    1
    >>> print(err.getvalue().splitlines()[0])
    freecell replay: move 1 '5h' is illegal: 6C cannot go to the foundations, which need the AC next
    >>> position = io.StringIO(out.getvalue())  # a position read back, and played on
    >>> replay_main(["-", "b2"], position, again := io.StringIO(), err)
    0
    >>> again.getvalue().splitlines()[1]
    'Freecells:  6C      4H  JS'

    """
    parser = _parser()
    try:
        args = parser.parse(argv)
        position, what = _start(args.deal, stdin, parser)
    except (Answered, UsageError, DealNumberError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    on_stdin = not (args.moves or args.deal == _STDIN)
    words: Iterable[tuple[int, str]]
    if on_stdin:
        words = numbered_move_words(stdin)
    else:
        words = ((0, w) for arg in args.moves for w in _SEPARATORS.split(arg) if w)
    index = 0
    try:
        # Only the position is kept, not the moves: a million moves take no more memory than one.
        for index, (line, word) in enumerate(words, start=1):
            try:
                position = position.apply(word)
            except (IllegalMoveError, InvalidMoveError) as error:
                fault = "illegal" if isinstance(error, IllegalMoveError) else "malformed"
                where = f" on line {line}" if on_stdin else ""
                problem = f"move {index} {quoted(word)}{where} is {fault}: {reason(error)}"
                return _failed(stderr, problem, index, what, position)
    except DamagedLineError as error:
        problem = f"line {error.line} of standard input is damaged: {error.detail}"
        return _failed(stderr, problem, index + 1, what, position)
    if on_stdin and index == 0:  # nothing to check: not a replay that held, whatever it was
        return _failed(stderr, _NO_MOVE, 1, what, position)
    stdout.write(f"{position}\n")
    if position.is_won():
        stdout.write(f"{SOLVED_LINE}\n")
    return EXIT_OK


def _failed(stderr: TextIO, problem: str, index: int, what: str, position: Position) -> int:
    """Say what stopped the replay and the position it met; return the exit status."""
    stderr.write(
        f"{_PROG}: {problem}\n"
        f"position before move {index} ({what}, {index - 1} moves played):\n"
        f"{position}\n"
    )
    return EXIT_FAILURE
