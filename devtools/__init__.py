"""What building, testing and benchmarking FreeCell Deals share: no part of the library.

`paths` (where the site, the web sources and the runtime are), `chromium` (the Chromium the
tests, the benches and the drawing tools launch, and how), `site_server` (a built site served
as a static host or a CDN would), `page` (waiting on a page under its Content-Security-Policy),
and the tools that draw committed assets: `icons`, `pips`. The tests import it (pytest's
`pythonpath` holds the repository's root), the benches run as modules from the root
(`python -m bench.bench_web`), `build.py` sits beside it; standard library and Playwright only.
"""
