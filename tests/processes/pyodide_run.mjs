// Run a Python script in Pyodide under Node.js with our wheel installed; print what it prints.
// Usage: node tests/processes/pyodide_run.mjs RUNTIME_OR_SITE WHEEL SCRIPT [INPUT...]
// RUNTIME_OR_SITE is the npm package's folder (the stock runtime and standard library) or a built
// site's (dist/: the runtime, WebAssembly and standard library, both zips, that the page's
// worker loads).
// The wheel is unpacked into site-packages (the page installs it with micropip: see
// pyodide_snapshot.mjs; the scripts here test the library, not its install).
// Each INPUT file is copied to /tmp/inputs/ in Pyodide's file system for the script to read.
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { addLaterStdlib } from "../../web/src/app/worker/stdlib.js";
import { siteRuntime } from "./site_runtime.mjs";

const [runtime, wheel, script, ...inputs] = process.argv.slice(2);
const site = existsSync(join(runtime, "manifest.json")) ? await siteRuntime(runtime) : null;
const { loadPyodide } = site ?? (await import(pathToFileURL(join(runtime, "pyodide.mjs")).href));
let sitePackages;
const pyodide = await loadPyodide({
  ...(site?.options ?? { indexURL: `${resolve(runtime)}/` }),
  fsInit: async (_, info) => {
    sitePackages = info.sitePackages;
  },
});
if (site) addLaterStdlib(pyodide, site.laterStdlib);
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
pyodide.FS.mkdirTree("/tmp/inputs");
for (const input of inputs) {
  pyodide.FS.writeFile(`/tmp/inputs/${basename(input)}`, readFileSync(input));
}
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.runPython(readFileSync(script, "utf8"), { filename: basename(script) });
