"""Deals as intervals, and the chunks of ``freecell analyze``: plain Python, no dependency.

An interval is ``(first, last)``, both included; a request is a sorted list of them without
overlaps. A chunk is the block of ``size`` deal numbers a deal belongs to (-2 and -1 share one
of their own): the unit of work of ``freecell analyze`` and the file of its dataset. Both the
command (:mod:`freecell._cli.analyze`) and the dataset (:mod:`freecell._cli.analyze.dataset`) count
with these.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Final

from freecell._deal import MAX_DEAL, parse_deal_spec

Interval = tuple[int, int]
"""Deals ``first`` to ``last``, both included."""

DEFAULT_CHUNK: Final = 250
"""Deals a chunk (a task, a file). A chunk of 250 deals takes 3 to 4 s to solve and 2 ms to
write; the workers' last chunks end unevenly, by about half a chunk (1 to 2 s, under 1% of
1..32000 on two cores), and 1..1,000,000 makes 4,000 files of 30 KB (docs/analyze.md)."""
MAX_CHUNK: Final = 100_000
"""The most deals a chunk: a task of 100,000 deals holds a worker for about half an hour (on
the 2-core machine), its rows in the command's memory (about 40 MB) and a file of 12 MB."""


def deal_intervals(text: str) -> list[Interval]:
    """Return the deals of one argument as intervals; raise DealNumberError if it is bad.

    >>> deal_intervals("617"), deal_intervals("1..1000"), deal_intervals("-2..3")
    ([(617, 617)], [(1, 1000)], [(-2, -2), (-1, -1), (1, 3)])
    >>> deal_intervals("-1..8589934591"), deal_intervals("-2..-1")
    ([(-1, -1), (1, 8589934591)], [(-2, -2), (-1, -1)])
    """
    numbers = parse_deal_spec(text)
    if isinstance(numbers, range):
        return [(numbers.start, numbers.stop - 1)]
    if isinstance(numbers, tuple):
        return [(number, number) for number in numbers]
    # A range from -2 or -1: the special deals first, then 1..LAST, which its length tells
    # (lazy: LAST may be 2**33 - 1, and a command line runs on a 64-bit Python).
    specials = [n for n in islice(numbers, 2) if n < 0]
    last = len(numbers) - len(specials)  # type: ignore[arg-type]  # a range's deals are sized
    return [*((n, n) for n in specials), *([(1, last)] if last > 0 else [])]


def merged(intervals: Iterable[Interval]) -> list[Interval]:
    """Return intervals sorted, overlapping or touching ones made one.

    >>> merged([(5, 9), (1, 3), (4, 4), (8, 12), (-1, -1), (-2, -2)])
    [(-2, -1), (1, 12)]
    """
    result: list[Interval] = []
    for first, last in sorted(intervals):
        if result and first <= result[-1][1] + 1:
            result[-1] = (result[-1][0], max(last, result[-1][1]))
        else:
            result.append((first, last))
    return result


def subtract(wanted: Iterable[Interval], done: Iterable[Interval]) -> list[Interval]:
    """Return the parts of ``wanted`` outside ``done`` (both sorted, without overlaps).

    >>> subtract([(1, 10), (20, 30)], [(3, 4), (9, 21)])
    [(1, 2), (5, 8), (22, 30)]
    """
    result = []
    done = list(done)
    for first, last in wanted:
        start = first
        for a, b in done:
            if b < start or a > last:
                continue
            if a > start:
                result.append((start, a - 1))
            start = b + 1
        if start <= last:
            result.append((start, last))
    return result


def count(intervals: Iterable[Interval]) -> int:
    """Return how many deals the intervals hold.

    >>> count([(-2, -1), (1, 1000)])
    1002
    """
    return sum(last - first + 1 for first, last in intervals)


def chunk_of(number: int, size: int) -> Interval:
    """Return the chunk of a deal: its block of ``size`` numbers; -2 and -1 share their own.

    >>> chunk_of(1, 1000), chunk_of(1000, 1000), chunk_of(1001, 1000), chunk_of(-1, 1000)
    ((1, 1000), (1, 1000), (1001, 2000), (-2, -1))
    """
    if number < 0:
        return (-2, -1)
    first = (number - 1) // size * size + 1
    return first, min(first + size - 1, MAX_DEAL)


def chunks(intervals: Iterable[Interval], size: int) -> Iterator[tuple[Interval, list[Interval]]]:
    """Yield each chunk that sorted intervals touch, in order, with their parts inside it.

    >>> list(chunks([(-2, -1), (5, 12), (14, 25)], 10))
    [((-2, -1), [(-2, -1)]), ((1, 10), [(5, 10)]), ((11, 20), [(11, 12), (14, 20)]), ((21, 30), [(21, 25)])]
    """  # noqa: E501 - a doctest's output is one line
    current: Interval | None = None
    parts: list[Interval] = []
    for first, last in intervals:
        start = first
        while start <= last:
            chunk = chunk_of(start, size)
            end = min(last, chunk[1])
            if chunk != current:
                if current is not None:
                    yield current, parts
                current, parts = chunk, []
            parts.append((start, end))
            start = end + 1
    if current is not None:
        yield current, parts
