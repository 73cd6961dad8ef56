"""Differential tests against pysol-cards and fc-solve, two independent implementations."""

import hashlib
import random
import shutil
import subprocess

import pytest
from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped]
from pysol_cards.deal_game import Game  # type: ignore[import-untyped]
from pysol_cards.random import RandomBase  # type: ignore[import-untyped]

from freecell import MAX_DEAL, format_boards
from helpers import GOLDEN_1_32000

EDGES = [1, 2, 617, 11982, 32000, 32001, 1_000_000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, MAX_DEAL]


def pysol_board(number: int) -> str:
    """Return pysol-cards' fc-solve board text for a Microsoft deal."""
    game = Game("freecell", 1, RandomBase.DEALS_MS, 13)
    return str(game.calc_deal_string(number, CardRenderer(True)))


def spread_numbers(count: int) -> list[int]:
    """Return the edges, and numbers spread over every part of the range, in a fixed order."""
    rng = random.Random(20261126)
    spans = [(1, 32000), (32001, 2**31 - 1), (2**31, 2**32 - 1), (2**32, MAX_DEAL)]
    per_span = (count - len(EDGES)) // len(spans) + 1
    spread = [rng.randint(lo, hi) for lo, hi in spans for _ in range(per_span)]
    return EDGES + spread


class TestAgainstPysolCards:
    @pytest.mark.slow
    def test_twenty_thousand_numbers_over_the_whole_range(self) -> None:
        """Our fcs boards equal pysol-cards' for 20,000+ numbers spread over 1..2**33-1."""
        numbers = spread_numbers(20_000)
        assert len(numbers) >= 20_000
        mismatches = [
            n for n, ours in zip(numbers, format_boards(numbers), strict=True)
            if ours != pysol_board(n)
        ]  # fmt: skip
        assert mismatches == []

    @pytest.mark.parametrize("edge", EDGES)
    def test_edges_with_their_neighbours(self, edge: int) -> None:
        """Each edge of the range and its neighbours match pysol-cards, dealt as a batch."""
        numbers = [n for n in range(edge - 2, edge + 3) if 1 <= n <= MAX_DEAL]
        assert list(format_boards(numbers)) == [pysol_board(n) for n in numbers]

    def test_golden_digest_of_the_classic_deals(self) -> None:
        """The 32,000 classic deals hash to the digest computed once from pysol-cards."""
        h = hashlib.sha256()
        for board in format_boards(range(1, 32001)):
            h.update(board.encode())
        assert h.hexdigest() == GOLDEN_1_32000


class TestAgainstFcSolve:
    def test_fc_solve_board_generator(self) -> None:
        """Our boards equal fc-solve's `make-microsoft-freecell-board -t N` (Debian's C tool)."""
        tool = shutil.which("make-microsoft-freecell-board")
        if tool is None:
            pytest.fail("install Debian's freecell-solver-bin (`.ci/run` does) for this oracle")
        numbers = spread_numbers(400)
        theirs = [
            subprocess.run([tool, "-t", str(n)], capture_output=True, text=True, check=True).stdout
            for n in numbers
        ]
        assert list(format_boards(numbers)) == theirs
