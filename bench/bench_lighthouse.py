"""Score the page with Lighthouse as a phone sees it: performance, accessibility, and the rest.

    .venv/bin/python -m bench.bench_lighthouse [NAME=DIST ...]   (default: now=dist)

Lighthouse (the npm package pinned in web/package.json) runs with its mobile settings (a Moto G
Power's 412 x 823 screen, touch, slow 4G and CPU simulated) in the Chromium the tests use, against
each build served on loopback as a CDN serves it (gzip: build.py's `Cdn`) at `?deal=617`; a
build is any dist/ (an older one: see bench_builds.py). It prints each build's category scores
(performance the median of RUNS runs, with that run's largest contentful paint and total blocking
time: issue 23) and the audits issue 19 names: legible font sizes (`font-size`, the share of
legible text), form labels (`label`), touch target sizes (`target-size`). `python3 build.py
bench` runs it on dist/ and writes the table into docs/performance.md. About a minute a build.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.performance_doc import write_section
from devtools.chromium import chromium_executable
from devtools.paths import ROOT, WEB
from devtools.site_server import Cdn, serve

LIGHTHOUSE = WEB / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
AUDITS = ["largest-contentful-paint", "total-blocking-time", "font-size", "label", "target-size"]
RUNS = 3
"""Lighthouse runs per build: performance moves by a few points from one run to the next."""
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"


def lighthouse(url: str) -> dict[str, Any]:
    """Run Lighthouse's mobile audit of `url`; return its report (JSON)."""
    chromium = chromium_executable()
    if chromium is None:
        sys.exit(
            "bench_lighthouse.py: no Chromium (install Debian's chromium or set FREECELL_CHROMIUM)"
        )
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [
                "node", LIGHTHOUSE, url, "--form-factor=mobile", "--quiet", "--output=json",
                f"--output-path={report}", f"--only-categories={','.join(CATEGORIES)}",
                f"--chrome-flags={CHROME_FLAGS}",
            ],
            check=True,
            env={**os.environ, "CHROME_PATH": chromium},
        )  # fmt: skip
        result: dict[str, Any] = json.loads(report.read_text())
        return result


def audit_text(audit: dict[str, Any]) -> str:
    """Say an audit's result: passed or failed, with its figure (the share of legible text)."""
    score = audit.get("score")
    figure = audit.get("displayValue")
    if score not in (0, 1):  # a metric: its figure says it
        return str(figure)
    verdict = "passed" if score == 1 else "failed"
    return f"{verdict} ({figure})" if figure else verdict


def main() -> None:
    """Score each build and print a Markdown table; for dist/ alone, write it into the doc."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="*", metavar="NAME=DIST", help="a name and a dist/")
    args = parser.parse_args()
    builds = dict(item.split("=", 1) for item in args.builds) or {"now": str(ROOT / "dist")}
    rows = []
    version = ""
    for name, folder in builds.items():
        with serve(Path(folder), cdn=Cdn()) as base:
            runs = [lighthouse(f"{base}?deal=617") for _ in range(RUNS)]
        runs.sort(key=lambda run: run["categories"]["performance"]["score"])
        report = runs[len(runs) // 2]  # the median run's performance and its figures
        version = report["lighthouseVersion"]
        scores = [round(100 * report["categories"][c]["score"]) for c in CATEGORIES]
        audits = [audit_text(report["audits"][a]) for a in AUDITS]
        rows.append(f"| {name} | " + " | ".join(map(str, scores + audits)) + " |")
    header = "| build | " + " | ".join(CATEGORIES + AUDITS) + " |"
    table = "\n".join([header, "|---" * (1 + len(CATEGORIES) + len(AUDITS)) + "|", *rows])
    text = f"Lighthouse {version}, mobile, `?deal=617`, Chromium {chromium_version()}.\n\n{table}"
    print(text)
    if not args.builds:
        write_section("bench_lighthouse.py", text, "Lighthouse on a phone (issue 19)")


def chromium_version() -> str:
    """Return the version of the Chromium Lighthouse drives."""
    chromium = chromium_executable() or "chromium"
    output = subprocess.run([chromium, "--version"], capture_output=True, text=True, check=False)
    return output.stdout.split()[1] if output.stdout.split()[1:] else "?"


if __name__ == "__main__":
    main()
