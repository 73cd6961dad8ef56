"""The ``freecell find`` command: which deal numbers have this layout, or begin with these cards.

``freecell find CARD...`` reads the cards from its arguments, ``freecell find -`` a layout from
standard input in any format the dealer prints (fcs, rows, unicode, json) or fc-solve's position
text; it prints a deal number a line, ascending, as :func:`freecell.identify` finds them.
"""

from __future__ import annotations

from itertools import islice
from typing import Final, TextIO

from freecell._cards import CardError
from freecell._cli.options import Answered, Parser, UsageError, answered_or_refused, bounded_int
from freecell._cli.streams import EXIT_FAILURE, EXIT_OK, read_limited
from freecell._deal import MAX_DEAL, SPECIAL_DEALS
from freecell._fcs import MAX_POSITION_TEXT
from freecell._identify import LayoutError, identify, no_deal, parse_layout

_PROG: Final = "freecell find"
_STDIN: Final = "-"
_DESCRIPTION: Final = f"""\
Print the number of every deal whose layout begins with the given cards, one a
line, ascending, over the deals -2, -1 and 1 to {MAX_DEAL}.

Give the whole layout or its first cards in dealing order, row by row, left to
right, as the task prints them (deal 1 begins JD 2D 9H JC 5D 7H 7C 5H): as
arguments, or - to read them from standard input. A card is a rank (A 2-9 T or
10 J Q K) then a suit (C D H S or the symbols), in any case. Standard input may
hold any board the dealer prints (fcs, rows, unicode, json) or fc-solve's
position text; 8 lines are read as columns. A whole layout or a first row of 8
cards takes about a second; fewer than 5 cards begin millions of deals (see
--limit).
"""
_EPILOG: Final = """\
Exit status: 0 one deal or more printed; 1 no deal begins with the cards (one
line on stderr); 2 bad input (a word that is no card, a card twice, more than
52 cards, a board that is no deal's start); 130 on Ctrl-C.
"""


MAX_LIMIT: Final = MAX_DEAL + len(SPECIAL_DEALS)
"""The ceiling of ``--limit``: every deal there is (-2, -1 and 1 to MAX_DEAL)."""


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument(
        "--limit",
        type=_limit,
        default=None,
        metavar="N",
        help=f"print at most N deal numbers (1 to {MAX_LIMIT:,})",
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="a card, or - for stdin")
    return parser


def _limit(text: str) -> int:
    """Read ``--limit``: a whole number from 1 to the number of deals (an argparse ``type``).

    >>> _limit("99999999999999999999999999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: write a whole number from 1 to 8,589,934,593 (the number of deals), not '99999999999999999999999999'
    """  # noqa: E501 - a doctest's output is one line
    return bounded_int(
        text, 1, MAX_LIMIT, f"a whole number from 1 to {MAX_LIMIT:,} (the number of deals)"
    )


def _cards(words: list[str], stdin: TextIO) -> tuple[int, ...]:
    """Return the cards of the arguments, or of stdin for ``-``; raise UsageError if bad."""
    if not words:
        msg = "give the layout's cards (e.g. JD 2D 9H JC) or - to read a layout on stdin"
        raise UsageError(msg)
    if words == [_STDIN]:
        text, where = read_limited(stdin, MAX_POSITION_TEXT, "a layout"), " on standard input"
    elif _STDIN in words:
        msg = "give the cards as arguments or - alone for standard input, not both"
        raise UsageError(msg)
    else:
        text, where = " ".join(words), ""
    try:
        return parse_layout(text)
    except (LayoutError, CardError) as error:
        msg = f"{error}{where}"
        raise UsageError(msg) from None


def find_main(argv: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    r"""Run ``freecell find``: print the deal numbers found; return the exit status.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> find_main(["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"], io.StringIO(), out, err)
    0
    >>> out.getvalue()
    '1\n'
    >>> find_main(["JD", "ZZ"], io.StringIO(), out, err), err.getvalue()  # doctest: +ELLIPSIS
    (2, "freecell find: invalid card 'ZZ': write a rank (A 2-9 T or 10 J Q K) then a suit ...\n")
    """
    try:
        args = _parser().parse(argv)
        cards = _cards(args.cards, stdin)
    except (Answered, UsageError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    found = 0
    for number in islice(identify(cards), args.limit):
        stdout.write(f"{number}\n")
        stdout.flush()
        found += 1
    if not found:
        stderr.write(f"{_PROG}: {no_deal(len(cards))}\n")
        return EXIT_FAILURE
    return EXIT_OK
