"""What tests/processes/pyodide_snapshot.mjs asks the resumed runtime; evaluates to a JSON string.

Not a test module of its own: it runs inside Pyodide, after Python's memory was restored from
a snapshot, with the site's own standard library (which has only what the page imports: no
importlib.metadata, so the wheel's METADATA is read as a file), and its last expression is the
result.
"""

import importlib
import json
import sys
from pathlib import Path

import freecell

site_packages = Path(freecell.__file__).parent.parent
(metadata,) = site_packages.glob("freecell_deals-*.dist-info/METADATA")
fields = dict(line.split(": ", 1) for line in metadata.read_text().splitlines() if ": " in line)
# The standard library's second zip (stdlib.js) came back with the snapshot's files: a module
# of it imports afresh.
sys.modules.pop("tarfile")
tarfile = importlib.import_module("tarfile")

result = {
    "later_stdlib": str(tarfile.__file__).partition(".zip/")[0] + ".zip",
    "version": list(sys.version_info[:2]),
    "dealer_version": fields["Version"],
    "dealer_file_exists": Path(freecell.__file__).exists(),
    "micropip_imported": any(name.partition(".")[0] == "micropip" for name in sys.modules),
}
json.dumps(result)
