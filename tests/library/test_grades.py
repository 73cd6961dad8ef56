"""The difficulty grade (`freecell.difficulty`): deterministic, budget-free, five grades."""

from __future__ import annotations

import pytest

from freecell import (
    DEFAULT_MAX_STATES,
    DIFFICULTY_GRADES,
    DIFFICULTY_THRESHOLDS,
    Solution,
    difficulty,
    solve,
)


class TestGrade:
    """A solution's states fall in one of five bands, cut at the thresholds."""

    def test_every_band_and_its_edges(self) -> None:
        """Each threshold is the most states of its grade; one more is the next grade."""
        assert list(DIFFICULTY_GRADES) == [1, 2, 3, 4, 5]
        assert list(DIFFICULTY_THRESHOLDS) == sorted(DIFFICULTY_THRESHOLDS)
        assert difficulty(Solution("solved", states=1)) == 1
        for grade, most in enumerate(DIFFICULTY_THRESHOLDS, start=1):
            assert difficulty(Solution("solved", states=most)) == grade
            assert difficulty(Solution("solved", states=most + 1)) == grade + 1
        assert difficulty(Solution("solved", states=DEFAULT_MAX_STATES)) == 5

    @pytest.mark.parametrize("result", ["impossible", "unknown"])
    def test_no_grade_without_a_solution(self, result: str) -> None:
        """An impossible or unknown deal has no grade, whatever its states."""
        assert difficulty(Solution(result, states=1000)) is None  # type: ignore[arg-type]


class TestMeasure:
    """The measure is the solver's states: the same under any budget that solves the deal."""

    @pytest.mark.parametrize("number", [1, 2, 5, 617])
    def test_a_bigger_budget_gives_the_same_grade(self, number: int) -> None:
        """A deal solved within a small budget is solved after the same states with any other."""
        small = solve(number, max_states=100_000)
        assert small.result == "solved"
        large = solve(number, max_states=DEFAULT_MAX_STATES * 4)
        assert (large.states, large.moves) == (small.states, small.moves)
        assert difficulty(large) == difficulty(small)
