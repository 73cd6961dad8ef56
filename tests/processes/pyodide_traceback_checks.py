"""A traceback through the site's compiled standard library, printed as JSON (pyodide_run.mjs).

The site's standard library keeps one line a function (web/tools/compile_python.py): each
frame must still have its file, its function and a line, and a traceback must format.
"""

import json
import traceback

try:
    json.loads("{")
except ValueError as error:
    frames = traceback.extract_tb(error.__traceback__)
    print(
        json.dumps(
            {
                "frames": [[frame.filename, frame.name, frame.lineno] for frame in frames],
                "formatted": "".join(traceback.format_exception(error)),
            }
        )
    )
