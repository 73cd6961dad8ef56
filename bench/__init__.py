"""The benchmarks: each a module run from the repository's root, `python -m bench.bench_web`.

They import one another and devtools/ as packages of the root; docs/performance.md says what
each measures and holds its latest figures.
"""
