// Run Python code in Pyodide under Node.js with our wheel installed; print what it prints.
// Usage: node tests/pyodide_run.mjs RUNTIME_DIR WHEEL < script.py
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, wheel] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
pyodide.FS.writeFile("/tmp/dealer.whl", readFileSync(wheel));
pyodide.runPython(`
import site, zipfile
zipfile.ZipFile("/tmp/dealer.whl").extractall(site.getsitepackages()[0])
`);
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.runPython(readFileSync(0, "utf8"));
