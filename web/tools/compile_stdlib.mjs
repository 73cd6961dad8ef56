// Build the page's standard library: exactly the modules the page imports, compiled to bytecode,
// and check that it is enough.
//
// Usage: node web/tools/compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP
//
// The stock python_stdlib.zip holds only sources, most of which a page never imports. This runs
// the page's own boot inside the same Pyodide under Node.js (micropip installs the dealer's
// wheel, as the worker does, then every request of the page's API runs once:
// freecell._web.warm_up), and compile_stdlib.py compiles exactly the standard library modules
// that were imported, in a second runtime. Then a third, with only that zip, runs the same boot
// again: a module the page needs but the zip lacks fails the build here, not in a visitor's
// browser.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, micropipWheel, dealerWheel, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const { takeSnapshot } = await import("../src/app/snapshot.js");
const indexURL = `${resolve(runtime)}/`;
const wheel = new Uint8Array(readFileSync(dealerWheel));

/**
 * The page's boot after loadPyodide (worker.js): micropip installs the dealer, which is
 * imported and runs every request once.
 */
async function pageBoot(pyodide) {
  await pyodide.loadPackage(resolve(micropipWheel), { messageCallback: () => {} });
  if (!pyodide.loadedPackages.micropip) throw new Error(`could not load ${micropipWheel}`);
  const path = `/tmp/${basename(dealerWheel)}`;
  pyodide.FS.writeFile(path, wheel);
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(`emfs:${path}`);
  micropip.destroy();
  pyodide.pyimport("freecell._web").warm_up(617, 60); // a hint's whole search too
}

/** A runtime with compile_stdlib.py importable. */
function withCompiler(pyodide) {
  const compiler = readFileSync(new URL("./compile_stdlib.py", import.meta.url));
  pyodide.FS.mkdirTree("/tools");
  pyodide.FS.writeFile("/tools/compile_stdlib.py", compiler);
  pyodide.pyimport("sys").path.insert(0, "/tools");
  return pyodide.pyimport("compile_stdlib");
}

// What the page imports.
const page = await loadPyodide({ indexURL });
await pageBoot(page);
const names = withCompiler(page).imported().toJs();

// Compiled in a fresh runtime, without column positions in the code objects
// (PYTHONNODEBUGRANGES): a quarter fewer bytes; tracebacks then show no ^^^ markers under the
// failing expression, only its line.
const compiling = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
const summary = withCompiler(compiling).build(compiling.toPy(names), "/tmp/stdlib.zip");
writeFileSync(out, compiling.FS.readFile("/tmp/stdlib.zip"));

// The check: the page's boot in a fresh runtime that has only the new zip, memory snapshot
// included (the worker takes one on a first visit).
try {
  const fresh = await loadPyodide({
    indexURL,
    stdLibURL: resolve(out),
    _makeSnapshot: true,
  });
  await pageBoot(fresh);
  await new Promise((resolve) => setTimeout(resolve, 0)); // as the worker does
  if (!takeSnapshot(fresh)) throw new Error("no memory snapshot could be taken");
} catch (error) {
  console.error(`The compiled standard library is not enough for the page's boot:\n${error}`);
  process.exit(1);
}
console.log(summary);
