// Run a Python script in Pyodide under Node.js with our wheel installed; print what it prints.
// Usage: node tests/pyodide_run.mjs RUNTIME_DIR WHEEL SCRIPT [--stdlib ZIP] [INPUT...]
// The wheel is unpacked into site-packages (the page installs it with micropip: see
// pyodide_snapshot.mjs; the scripts here test the library, not its install). With --stdlib,
// Python has that standard library instead of the runtime's own (the site's compiled one, say).
// Each INPUT file is copied to /tmp/inputs/ in Pyodide's file system for the script to read.
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, wheel, script, ...rest] = process.argv.slice(2);
const at = rest.indexOf("--stdlib");
const stdlib = at === -1 ? null : rest.splice(at, 2)[1];
const inputs = rest;
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
let sitePackages;
const pyodide = await loadPyodide({
  indexURL: `${resolve(runtime)}/`,
  ...(stdlib ? { stdLibURL: resolve(stdlib) } : {}),
  fsInit: async (_, info) => {
    sitePackages = info.sitePackages;
  },
});
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
pyodide.FS.mkdirTree("/tmp/inputs");
for (const input of inputs) {
  pyodide.FS.writeFile(`/tmp/inputs/${basename(input)}`, readFileSync(input));
}
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.runPython(readFileSync(script, "utf8"), { filename: basename(script) });
