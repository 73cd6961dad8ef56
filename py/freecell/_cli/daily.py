"""The ``freecell daily`` command: print the daily deal of a UTC date, and its grade.

``freecell daily [DATE...]`` prints, for each date (YYYY-MM-DD; today's UTC date when none is
given), a line ``DEAL grade G DATE WEEKDAY``: the deal :func:`freecell.daily_deal` picks, first,
so that ``freecell daily | cut -d' ' -f1`` is the number. Every date is checked before the first
deal is searched; a bad one is one line on stderr and exit status 2.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Final, TextIO

from freecell._cli.options import Answered, Parser, UsageError, answered_or_refused
from freecell._cli.streams import EXIT_OK
from freecell._search import DateError, daily_deal, daily_grade, parse_date

_PROG: Final = "freecell daily"
_WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DESCRIPTION: Final = """\
Print the daily deal of a UTC date: the same deal everywhere, chosen from the
date alone. Its grade rises through the week: Monday 1, Tuesday and Wednesday
2, Thursday and Friday 3, Saturday 4, Sunday 5. The deal is the first of a
sequence of candidates seeded by the date (SHA-256 of "DATE:i", i = 0, 1, ...,
modulo 1,000,000, plus 1) whose grade is the day's.

Each line is `DEAL grade G DATE WEEKDAY`.
"""
_EPILOG: Final = """\
Exit status: 0 done; 1 when the output cannot be written; 2 for a bad command
line (a date that is not YYYY-MM-DD).
"""


def _parser() -> Parser:
    parser = Parser(_PROG, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument(
        "dates", nargs="*", metavar="DATE", help="a date YYYY-MM-DD (default: today, UTC)"
    )
    return parser


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def daily_main(
    argv: list[str],
    stdin: TextIO,  # noqa: ARG001 - every command takes stdin
    stdout: TextIO,
    stderr: TextIO,
    today: Callable[[], dt.date] = _today,
) -> int:
    r"""Run ``freecell daily [DATE...]``: a line per date; return the exit status.

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> daily_main(["2026-11-30", "2026-12-06"], io.StringIO(), out, err)
    0
    >>> from freecell import daily_deal
    >>> out.getvalue() == f"{daily_deal('2026-11-30')} grade 1 2026-11-30 Monday\n" + (
    ...     f"{daily_deal('2026-12-06')} grade 5 2026-12-06 Sunday\n"
    ... )
    True
    >>> daily_main(["30/11/2026"], io.StringIO(), out, err), err.getvalue()
    (2, "freecell daily: invalid date '30/11/2026': write a date YYYY-MM-DD, such as 2026-11-30\n")
    """
    try:
        args = _parser().parse(argv)
        days = [parse_date(text) for text in args.dates] or [today()]
    except (Answered, UsageError, DateError) as stop:
        return answered_or_refused(_PROG, stop, stdout, stderr)
    for day in days:
        number = daily_deal(day)
        stdout.write(
            f"{number} grade {daily_grade(day)} {day.isoformat()} {_WEEKDAYS[day.weekday()]}\n"
        )
        stdout.flush()
    return EXIT_OK
