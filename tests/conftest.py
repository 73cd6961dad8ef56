"""Fixtures and markers every test shares: the tiers' markers set by folder, fc-solve.

The tests sit in folders by what they need (docs/architecture.md, "The tests"): library/ runs
the library in this process, processes/ starts real processes (the command, fc-solve, Node.js
with Pyodide, a Dask cluster), page/ drives the page in a real Chromium. Each folder's tests get
its marker here; `slow` marks a test that costs more than a second, which the quick tier skips.
"""

from __future__ import annotations

import shutil

import pytest
from hypothesis import settings

from helpers import NO_FC_SOLVE

FOLDER_MARKERS = {"processes": "processes", "page": "browser"}
"""The marker each folder's tests carry (pyproject.toml declares them)."""

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
"""No time limit per example: the suite runs two processes beside browsers on two cores, where
an example that takes 6 ms alone once took 356 ms (Hypothesis's default limit is 200 ms)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add `--screenshots`: save the page tests' screenshots in test-results/ to look at."""
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="save the page tests' screenshots in test-results/ (for a person to look at)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register this suite's own marker (the tiers' markers are declared in pyproject.toml)."""
    config.addinivalue_line(
        "markers", "console_errors_expected: the test causes console errors on purpose"
    )


SLOW_DOCTESTS = frozenset(
    {
        "freecell._cli.daily.daily_main",
        "freecell._search.short.ShortSolver",
        "freecell._search.short.ShortSolver.final",
        "freecell._search.short.solve",
        "freecell._web.advice.Advice.check",
        "freecell._web.advice.Advice.solve",
        "freecell._web.advice.Advice.undo_to_winnable",
    }
)
"""The library's examples that cost more than a second (real searches): marked `slow` here,
as a docstring cannot carry a marker."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test its folder's marker: `browser` in page/, `processes` in processes/.

    A test marked `screenshots` (it checks nothing another test does not) runs only with
    `--screenshots`: without it, it is deselected.
    """
    for item in items:
        folder = item.path.parent.name
        if folder in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[folder])
        if isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS:
            item.add_marker("slow")
    if not config.getoption("screenshots"):
        shots = [item for item in items if item.get_closest_marker("screenshots")]
        if shots:
            config.hook.pytest_deselected(items=shots)
            items[:] = [item for item in items if not item.get_closest_marker("screenshots")]


@pytest.fixture(scope="session")
def fc_solve() -> str:
    """Return the path of fc-solve; fail (never skip), saying what to install, if it is missing."""
    found = shutil.which("fc-solve")
    if found is None:
        pytest.fail(NO_FC_SOLVE, pytrace=False)
    return found
