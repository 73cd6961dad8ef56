"""Write a bench's figures into docs/performance.md (or another page), between its markers."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
WATERFALLS = DOC.with_name("waterfalls.md")
"""bench_network.py's two waterfalls: a picture of where a visit spends its time, 70 lines."""


def write_section(script: str, text: str, heading: str, doc_path: Path = DOC) -> None:
    """Put `text` between `<!-- script: begin -->` and `<!-- script: end -->` in the doc.

    Without those markers, the text goes at the end under `heading`, markers and all.
    """
    begin, end = f"<!-- {script}: begin -->", f"<!-- {script}: end -->"
    doc = doc_path.read_text()
    block = f"{begin}\n{text}\n{end}"
    if begin in doc and end in doc:
        doc = doc[: doc.index(begin)] + block + doc[doc.index(end) + len(end) :]
    else:
        doc = doc.rstrip("\n") + f"\n\n### {heading}\n\n{block}\n"
    doc_path.write_text(doc)
