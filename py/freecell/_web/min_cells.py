"""The site's table of the fewest free cells, read by the page's session when first needed.

The site ships the table of :data:`~freecell._min_cells.MIN_CELLS_DEALS` as a file
(:data:`~freecell._min_cells.MIN_CELLS_FILE`); Python asks the page for its text the first
time a deal of that range wants its figure, and checks that it is that table.
"""

from typing import Any

from freecell._min_cells import MIN_CELLS_DEALS, MIN_CELLS_FILE, MinCells, parse_min_cells


def site_table(text: str) -> dict[int, MinCells]:
    r"""Read the site's table of the fewest free cells: exactly the deals of MIN_CELLS_DEALS.

    Raises ValueError, saying what is wrong, for anything else.

    >>> site_table("# freecell min-cells 1..3\n123\n")
    Traceback (most recent call last):
    ...
    ValueError: the table holds deals 1..3, not the site's 1..32000
    """
    table = parse_min_cells(text)
    deals = MIN_CELLS_DEALS
    if list(table) != list(deals):
        first, last = min(table, default=None), max(table, default=None)
        msg = f"the table holds deals {first}..{last}, not the site's {deals[0]}..{deals[-1]}"
        raise ValueError(msg)
    return table


class SiteMinCells:
    r"""The fewest free cells of the site's deals, from the site's table once it is read.

    >>> cells = SiteMinCells()
    >>> cells.fields(617, None), cells.fields(40000, None)
    ({'table': 'data/min-cells.txt'}, {'min_cells': None})
    >>> cells.fields(617, "# freecell min-cells 1..32000\n" + "4" * 32000)
    {'min_cells': 4}
    """

    def __init__(self) -> None:
        self._table: dict[int, MinCells] | None = None

    def fields(self, number: int | None, text: str | None) -> dict[str, Any]:
        """Return a reply's fields for deal ``number``, given the table's ``text`` if sent.

        ``{"min_cells": ...}`` (``None`` for a deal outside the table's range), or, until the
        table is read, ``{"table": path}``: the caller asks again with the text of the file at
        that path. Raises ValueError, its message led by the path, for text that is not the
        table (and the table is asked for again the next time).
        """
        if number is None or number not in MIN_CELLS_DEALS:
            return {"min_cells": None}
        if self._table is None:
            if text is None:
                return {"table": MIN_CELLS_FILE}
            try:
                self._table = site_table(text)
            except ValueError as error:
                msg = f"{MIN_CELLS_FILE}: {error}"
                raise ValueError(msg) from error
        return {"min_cells": self._table[number]}
