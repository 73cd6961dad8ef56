// Run a Python script in Pyodide under Node.js with our wheel installed; print what it prints.
// Usage: node tests/pyodide_run.mjs RUNTIME_DIR WHEEL SCRIPT [INPUT...]
// Each INPUT file is copied to /tmp/inputs/ in Pyodide's file system for the script to read.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, wheel, script, ...inputs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
const [sitePackages] = pyodide.pyimport("site").getsitepackages().toJs();
const wheelBytes = new Uint8Array(readFileSync(wheel));
pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
pyodide.FS.mkdirTree("/tmp/inputs");
for (const input of inputs) {
  pyodide.FS.writeFile(`/tmp/inputs/${basename(input)}`, readFileSync(input));
}
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.runPython(readFileSync(script, "utf8"), { filename: basename(script) });
