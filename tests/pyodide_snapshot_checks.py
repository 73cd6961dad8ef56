"""What tests/pyodide_snapshot.mjs asks the resumed runtime; evaluates to a JSON string.

Not a test module of its own: it runs inside Pyodide, after Python's memory was restored from
a snapshot, and its last expression is the result.
"""

import json
import sys
from importlib.metadata import version
from pathlib import Path

import freecell

result = {
    "version": list(sys.version_info[:2]),
    "dealer_version": version("freecell-deals"),
    "dealer_file_exists": Path(freecell.__file__).exists(),
    "micropip_imported": any(name.partition(".")[0] == "micropip" for name in sys.modules),
}
json.dumps(result)
