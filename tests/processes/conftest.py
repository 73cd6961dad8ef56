"""The tests that start real processes: the command, fc-solve, Node.js with Pyodide, Dask."""

collect_ignore_glob = ["pyodide_*.py"]
"""Scripts that run inside Pyodide (see test_pyodide.py): pytest must not import them, not even
for --doctest-modules (pyodide_web_checks.py runs the page's API as it is imported)."""
