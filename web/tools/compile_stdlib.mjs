// Build the page's standard library: the modules the page imports compiled to bytecode, the rest
// as the stock sources, without the developer tools the page never runs.
//
// Usage: node web/tools/compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP
//            [EXCLUDED_PREFIX...]
//
// The stock python_stdlib.zip holds only sources, so every boot compiles each module it imports.
// This runs the page's own boot inside the same Pyodide under Node.js (micropip installs the
// dealer's wheel from the in-memory file system, then every request of the page's API runs
// once), and compile_stdlib.py compiles exactly the standard library modules that imported.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, micropipWheel, dealerWheel, out, ...excluded] = process.argv.slice(2);
if (!out) {
  console.error(
    "usage: node compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP [PREFIX...]",
  );
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${resolve(runtime)}/` });
await pyodide.loadPackage(resolve(micropipWheel), { messageCallback: () => {} });
if (!pyodide.loadedPackages.micropip) throw new Error(`could not load ${micropipWheel}`);
const wheel = `/tmp/${basename(dealerWheel)}`;
pyodide.FS.writeFile(wheel, readFileSync(dealerWheel));
// The page's boot (micropip installs the dealer) and every request of its API: each module
// they import gets compiled, by compile_stdlib.py.
const micropip = pyodide.pyimport("micropip");
await micropip.install(`emfs:${wheel}`);
pyodide.pyimport("freecell._web").warm_up(617, 60); // a hint's whole search too
const compiler = readFileSync(new URL("./compile_stdlib.py", import.meta.url));
pyodide.FS.writeFile("/tmp/compile_stdlib.py", compiler);
pyodide.pyimport("sys").path.insert(0, "/tmp");
const build = pyodide.pyimport("compile_stdlib").build;
const summary = build(pyodide.toPy(excluded), "/tmp/stdlib.zip");
writeFileSync(out, pyodide.FS.readFile("/tmp/stdlib.zip"));
console.log(summary);
