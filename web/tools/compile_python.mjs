// Build the page's Python: exactly the modules the page imports, compiled to bytecode, and
// check that it is enough.
//
// Usage: node web/tools/compile_python.mjs RUNTIME_DIR MICROPIP_WHEEL WHEEL OUT_DIR
// Writes OUT_DIR/python_stdlib.zip (what Python's start imports), OUT_DIR/python_stdlib_later.zip
// (what the page's boot imports after it: see ../src/app/worker/stdlib.js) and the two wheels,
// compiled, under their own names.
//
// The stock python_stdlib.zip and the wheels hold only sources, which a page would compile on
// every first visit, and most of which it never imports. This runs the page's own boot inside
// the same Pyodide under Node.js (../src/app/worker/python.js, the worker's: micropip installs our
// wheel; then every request of the page's API runs once: freecell._web.warm_up), and
// compile_python.py compiles what was imported, in a second runtime. Then a third, with only
// the results, runs the same boot again: a module the page needs but they lack fails the build
// here, not in a visitor's browser.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, micropipWheel, ourWheel, out, ...rest] = process.argv.slice(2);
if (!out || rest.length) {
  console.error("usage: node compile_python.mjs RUNTIME_DIR MICROPIP_WHEEL WHEEL OUT_DIR");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const { takeSnapshot } = await import("../src/app/worker/snapshot.js");
const { addLaterStdlib } = await import("../src/app/worker/stdlib.js");
const { bootPython, installWheel } = await import("../src/app/worker/python.js");
const indexURL = `${resolve(runtime)}/`;

/**
 * The page's boot after loadPyodide (python.js, as the worker runs it): micropip (from
 * `installer`) installs our wheel (`wheel`), which is imported and runs every request once.
 */
async function pageBoot(pyodide, installer, wheel) {
  const web = await installWheel(pyodide, {
    micropip: resolve(installer),
    wheel: readFileSync(wheel),
    name: basename(wheel),
  });
  web.warm_up(617, 60); // a hint's whole search too
}

/** A runtime with compile_python.py importable. */
function withCompiler(pyodide) {
  const compiler = readFileSync(new URL("./compile_python.py", import.meta.url));
  pyodide.FS.mkdirTree("/tools");
  pyodide.FS.writeFile("/tools/compile_python.py", compiler);
  pyodide.pyimport("sys").path.insert(0, "/tools");
  return pyodide.pyimport("compile_python");
}

// Python's start imports ssl only if it is there (asyncio does), and the page never uses it:
// TLS is the browser's business. Left out, the start skips ssl and its C module's setup, and
// asyncio runs as on a CPython built without ssl.
const LEFT_OUT = ["ssl"];

// What the page imports: at Python's start, and after it (leave_out.py, this runtime's own
// sitecustomize, which site imports at Python's start, makes the modules LEFT_OUT unimportable
// here, as they are in the page).
const leaveOut = readFileSync(new URL("./leave_out.py", import.meta.url));
const page = await loadPyodide({
  indexURL,
  env: { LEFT_OUT: LEFT_OUT.join(" ") },
  fsInit(FS, { sitePackages }) {
    FS.mkdirTree(sitePackages);
    FS.writeFile(`${sitePackages}/sitecustomize.py`, leaveOut);
  },
});
const pageCompiler = withCompiler(page);
const atStart = pageCompiler.imported().toJs({ dict_converter: Object.fromEntries }).stdlib;
await pageBoot(page, micropipWheel, ourWheel);
const imported = pageCompiler.imported().toJs({ dict_converter: Object.fromEntries });
const { stdlib, packages } = imported;
// By top-level package: a package's submodules are found only where the package is (its
// __path__), so a package Python's start imported keeps all its modules in the first zip.
const topLevel = (name) => name.split("/")[0].replace(/\.py$/, "");
const started = new Set(atStart.map(topLevel));
const first = stdlib.filter((name) => started.has(topLevel(name)));
const later = stdlib.filter((name) => !started.has(topLevel(name)));
const ofMicropip = packages.filter((name) => name.startsWith("micropip/"));

// Compiled in a fresh runtime, without column positions in the code objects
// (PYTHONNODEBUGRANGES): a quarter fewer bytes; tracebacks then show no ^^^ markers under the
// failing expression, only its line.
const compiling = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
const compiler = withCompiler(compiling);
const results = {
  stdlib: join(out, "python_stdlib.zip"),
  later: join(out, "python_stdlib_later.zip"),
  micropip: join(out, basename(micropipWheel)),
  wheel: join(out, basename(ourWheel)),
};
const summary = [
  compiler.build_stdlib(compiling.toPy(first), "/tmp/python_stdlib.zip"),
  compiler.build_stdlib(compiling.toPy(later), "/tmp/python_stdlib_later.zip"),
];
for (const [wheel, only, lines] of [
  [micropipWheel, compiling.toPy(ofMicropip), false],
  [ourWheel, undefined, true], // every module, with its lines: our tracebacks say where
]) {
  const from = `/tmp/in-${basename(wheel)}`;
  compiling.FS.writeFile(from, new Uint8Array(readFileSync(wheel)));
  const to = `/tmp/${basename(wheel)}`;
  summary.push(compiler.build_wheel.callKwargs(from, to, only, { lines }));
}
for (const path of Object.values(results)) {
  writeFileSync(path, compiling.FS.readFile(`/tmp/${basename(path)}`));
}

// The check: the page's boot in a fresh runtime that has only the results, memory snapshot
// included (the worker takes one on a first visit).
try {
  const later = new Uint8Array(readFileSync(results.later));
  const { pyodide: fresh, web } = await bootPython({
    loadPyodide,
    options: { indexURL, stdLibURL: resolve(results.stdlib), _makeSnapshot: true },
    afterStart: (python) => addLaterStdlib(python, later),
    micropip: resolve(results.micropip),
    wheel: readFileSync(results.wheel),
    name: basename(results.wheel),
  });
  web.warm_up(617, 60); // as pageBoot
  await new Promise((resolve) => setTimeout(resolve, 0)); // as the worker does
  if (!takeSnapshot(fresh)) throw new Error("no memory snapshot could be taken");
} catch (error) {
  console.error(`The compiled Python is not enough for the page's boot:\n${error}`);
  process.exit(1);
}
console.log(summary.join("\n"));
