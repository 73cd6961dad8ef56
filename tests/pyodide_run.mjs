// Run a Python script in Pyodide under Node.js with our wheel installed; print what it prints.
// Usage: node tests/pyodide_run.mjs RUNTIME_OR_SITE WHEEL SCRIPT [INPUT...]
// RUNTIME_OR_SITE is the npm package's folder (the stock runtime and standard library) or a built
// site's (dist/: the runtime, WebAssembly and standard library, both zips, that the page's
// worker loads).
// The wheel is unpacked into site-packages (the page installs it with micropip: see
// pyodide_snapshot.mjs; the scripts here test the library, not its install).
// Each INPUT file is copied to /tmp/inputs/ in Pyodide's file system for the script to read.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { addLaterStdlib } from "../web/src/app/stdlib.js";

const [runtime, wheel, script, ...inputs] = process.argv.slice(2);
const site = existsSync(join(runtime, "manifest.json"));
const manifest = site ? JSON.parse(readFileSync(join(runtime, "manifest.json"), "utf8")) : null;
const glue = site ? join(runtime, "pyodide") : runtime;
const { loadPyodide } = await import(pathToFileURL(join(glue, "pyodide.mjs")).href);
let options = { indexURL: `${resolve(runtime)}/` };
if (site) {
  // As pyodide_snapshot.mjs (and the page's worker) has it.
  options = {
    indexURL: `${resolve(runtime, dirname(manifest.wasm))}/`,
    createPyodideModule: (await import(pathToFileURL(join(glue, "pyodide.asm.mjs")).href)).default,
    stdLibURL: resolve(runtime, manifest.stdlib),
    lockFileContents: { info: manifest.lockfile_info, packages: {} },
  };
}
let sitePackages;
const pyodide = await loadPyodide({
  ...options,
  fsInit: async (_, info) => {
    sitePackages = info.sitePackages;
  },
});
if (site) {
  addLaterStdlib(pyodide, new Uint8Array(readFileSync(join(runtime, manifest.stdlib_later))));
}
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
pyodide.FS.mkdirTree("/tmp/inputs");
for (const input of inputs) {
  pyodide.FS.writeFile(`/tmp/inputs/${basename(input)}`, readFileSync(input));
}
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.runPython(readFileSync(script, "utf8"), { filename: basename(script) });
