"""Write a bench's figures into docs/performance.md, between that bench's markers."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def write_section(script: str, text: str, heading: str) -> None:
    """Put `text` between `<!-- script: begin -->` and `<!-- script: end -->` in the doc.

    Without those markers, the text goes at the end under `heading`, markers and all.
    """
    begin, end = f"<!-- {script}: begin -->", f"<!-- {script}: end -->"
    doc = DOC.read_text()
    block = f"{begin}\n{text}\n{end}"
    if begin in doc and end in doc:
        doc = doc[: doc.index(begin)] + block + doc[doc.index(end) + len(end) :]
    else:
        doc = doc.rstrip("\n") + f"\n\n### {heading}\n\n{block}\n"
    DOC.write_text(doc)
