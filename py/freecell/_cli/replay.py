"""The ``freecell replay`` command: play moves in standard notation from a deal, check each.

``freecell replay N MOVE...`` plays the moves from deal N with no automatic moves and prints the
final position in fc-solve's format, then ``# solved`` (a comment line of the format) when all 52
cards are home, so that ``freecell solve -`` and fc-solve read the output back. With no MOVE
arguments the moves come from standard input, which may be the whole output of
``fc-solve -m -snx``: lines with no move on them are skipped. Moves may be separated by spaces,
commas or newlines. ``freecell replay - MOVE...`` starts from a position in fc-solve's format
on standard input instead (what ``freecell N``, ``freecell replay`` and the page's "Copy text"
print). Exit status: 0 when every move was legal, 1 at the first illegal or
malformed move (stderr names it and shows the position it met), 2 for a bad command line;
:func:`freecell._cli.guard.run_command` adds the streams' own (1 when one fails, 2 for standard
input that is not text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final, TextIO

from freecell._cli.guard import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, quoted
from freecell._cli.options import Answered, Parser, UsageError
from freecell._deal import VALID_DEALS_TEXT, DealNumberError, parse_deal_number
from freecell._errors import reason
from freecell._history import Game
from freecell._notation import MOVE_PATTERN, InvalidMoveError
from freecell._rules import IllegalMoveError, PositionError

_PROG: Final = "freecell replay"
_DESCRIPTION: Final = f"""\
Play moves in standard notation (1a, a3, 2h, 36, 36v3, and fc-solve's hex counts
such as 82vc) from a deal, with no automatic moves, and print the final position
in fc-solve's format, then `# solved` if all 52 cards are home.

With no MOVE arguments the moves are read from standard input, which may be
the whole output of `fc-solve -m -snx`: lines without moves are skipped. Moves
may be separated by spaces, commas or newlines.

A DEAL is {VALID_DEALS_TEXT} (617, #617, -1), or - for a position in
fc-solve's format on standard input (what `freecell N` and `freecell replay`
print); the moves then come from the arguments.
"""
_EPILOG: Final = """\
Exit status: 0 if every move was legal; 1 at the first illegal or malformed
move, or when standard input cannot be read or the output cannot be written; 2
for a bad command line or standard input that is not text (in the locale's
encoding).
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
_STDIN: Final = "-"
SOLVED_LINE: Final = "# solved"
"""The line after a won game's position: a comment in fc-solve's format, which reads past it."""


def move_words(lines: Iterable[str]) -> Iterator[str]:
    """Yield the move words of text such as fc-solve's output, skipping lines with no move.

    A line counts as moves when one of its words, split at spaces and commas, looks like a
    move; then every word is yielded, so a typo is reported rather than skipped. A leading
    ``Move:`` (as in fc-solve's ``-sam`` output) or a deal's label (``617:``, as ``freecell
    solve`` prints) is dropped.

    >>> list(move_words(["-=-=-=-", "5a 5b,5c", "", "This game is solveable.", "Move: 78v5"]))
    ['5a', '5b', '5c', '78v5']
    >>> list(move_words(["617: 83 2a"]))
    ['83', '2a']
    >>> list(move_words(["1a 2x"]))
    ['1a', '2x']
    """
    for line in lines:
        words = [w for w in _SEPARATORS.split(_MOVE_PREFIX.sub("", line)) if w]
        if any(_MOVE_LIKE.fullmatch(w) for w in words):
            yield from words


def _start(text: str | None, stdin: TextIO, parser: Parser) -> tuple[Game, str]:
    """Return the game to replay and what it is for messages (``deal 617``).

    Raises UsageError when there is no deal or the position on stdin is bad, or DealNumberError.
    """
    if text is None:
        msg = f"give a deal number or - ({parser.format_usage().strip()})"
        raise UsageError(msg)
    if text != _STDIN:
        number = parse_deal_number(text)
        return Game.from_deal_number(number), f"deal {number}"
    try:
        return Game.from_text(stdin.read()), "the position on standard input"
    except PositionError as error:
        msg = f"invalid position on standard input: {error}"
        raise UsageError(msg) from None


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
        game, what = _start(args.deal, stdin, parser)
    except Answered as answer:
        stdout.write(answer.text)
        return EXIT_OK
    except (UsageError, DealNumberError) as error:
        stderr.write(f"{_PROG}: {error}\n")
        return EXIT_BAD_INPUT
    if args.moves or args.deal == _STDIN:
        words: Iterable[str] = [w for arg in args.moves for w in _SEPARATORS.split(arg) if w]
    else:
        words = move_words(stdin)
    for index, word in enumerate(words, start=1):
        try:
            game.push(word)
        except (IllegalMoveError, InvalidMoveError) as error:
            fault = "illegal" if isinstance(error, IllegalMoveError) else "malformed"
            stderr.write(
                f"{_PROG}: move {index} {quoted(word)} is {fault}: {reason(error)}\n"
                f"position before move {index} ({what}, {index - 1} moves played):\n"
                f"{game}\n"
            )
            return EXIT_FAILURE
    stdout.write(f"{game}\n")
    if game.is_won():
        stdout.write(f"{SOLVED_LINE}\n")
    return EXIT_OK
