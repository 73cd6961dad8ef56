// Leave out of the runtime's WebAssembly the exports that no JavaScript of the runtime uses, and
// the code only they reach.
//
// Usage: node web/tools/shrink_wasm.mjs RUNTIME_DIR OUT_WASM
//
// Pyodide's pyodide.asm.wasm is a dynamic-linking main module: it exports some 7,400 of its
// functions, so that packages' shared libraries can link against them. The page loads none
// (micropip installs one wheel, ours, of pure Python), so those exports only cost: bytes on the
// wire, compiling, and Pyodide's start, which enters each exported function in the function table
// (updateGOT). Kept: every export the runtime's JavaScript names (pyodide.asm.mjs, pyodide.mjs,
// read as text: a word of it, in a string or not, as `name` or as the `_name` it calls the export
// by, keeps the export); and every export that is not a function (the addresses of data, which the
// JavaScript reads at its start). What the page's own code asks of the runtime goes through
// Pyodide's API, never through these exports (a test checks that web/src never reaches for them).
// Binaryen's remove-unused-module-elements then drops whatever code nothing reaches any more: not
// from a kept export, the function table, the start function, or other code.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import binaryen from "binaryen";

const [runtime, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node shrink_wasm.mjs RUNTIME_DIR OUT_WASM");
  process.exit(2);
}

/** The runtime's JavaScript, without the two places that name every export it has. */
function runtimeScripts() {
  const glue = readFileSync(join(runtime, "pyodide.asm.mjs"), "utf8");
  // function assignWasmExports(wasmExports){_a=Module["_a"]=wasmExports["a"];...} and the
  // `var _a,_b,...;` that declares those names: neither uses an export.
  const assign = /function assignWasmExports\(wasmExports\)\{([^}]*)\}/.exec(glue);
  if (!assign) throw new Error("pyodide.asm.mjs has no assignWasmExports: update shrink_wasm.mjs");
  const first = /^(_\w+)=/.exec(assign[1]);
  const declaration = first && new RegExp(`var ${first[1]},[\\w$,]*;`).exec(glue);
  if (!declaration) throw new Error("pyodide.asm.mjs declares no exports: update shrink_wasm.mjs");
  const spans = [assign, declaration].sort((a, b) => a.index - b.index);
  let text = "";
  let from = 0;
  for (const span of spans) {
    text += glue.slice(from, span.index) + "\n";
    from = span.index + span[0].length;
  }
  return text + glue.slice(from) + "\n" + readFileSync(join(runtime, "pyodide.mjs"), "utf8");
}

const scripts = runtimeScripts();
const named = new Set(scripts.match(/[\w$]+/g));
const bytes = readFileSync(join(runtime, "pyodide.asm.wasm"));
// The WebAssembly features the package's module uses: without any one of them it does not
// validate, and Binaryen writes no instruction that needs another.
const module = binaryen.readBinary(
  bytes,
  binaryen.Features.MutableGlobals |
    binaryen.Features.NontrappingFPToInt |
    binaryen.Features.BulkMemory |
    binaryen.Features.BulkMemoryOpt |
    binaryen.Features.SignExt |
    binaryen.Features.ExceptionHandling |
    binaryen.Features.ReferenceTypes,
);
const functionsBefore = module.getNumFunctions();
const exports = [];
for (let i = 0; i < module.getNumExports(); i++) {
  exports.push(binaryen.getExportInfo(module.getExportByIndex(i)));
}
const dropped = exports.filter(
  ({ kind, name }) =>
    kind === binaryen.ExternalFunction &&
    !named.has(name) &&
    !named.has(`_${name}`),
);
for (const { name } of dropped) module.removeExport(name);
module.runPasses(["remove-unused-module-elements"]);
if (!module.validate()) throw new Error("the shrunk WebAssembly does not validate");
const shrunk = module.emitBinary();
writeFileSync(out, shrunk);
console.log(
  `pyodide.asm.wasm: ${dropped.length} of ${exports.length} exports left out, ` +
    `${functionsBefore - module.getNumFunctions()} of ${functionsBefore} functions with them; ` +
    `${(bytes.length / 1e6).toFixed(2)} -> ${(shrunk.length / 1e6).toFixed(2)} MB`,
);
module.dispose();
