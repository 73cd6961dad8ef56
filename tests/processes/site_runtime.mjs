// The site's Python under Node.js, started as the page's worker starts it (runtime.js): the
// runtime's JavaScript given, the WebAssembly from its own folder (named by its content), the
// site's standard library, an empty lock file. The site serves the standard library's two zips
// gzipped (build.py's gzipped), which the worker inflates as they download: here they are
// inflated into a temporary folder.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

/**
 * For a built site `dist`: {manifest, loadPyodide, options, laterStdlib}: loadPyodide's options
 * as the worker has them, and the second zip's bytes for stdlib.js's addLaterStdlib.
 */
export async function siteRuntime(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
  const glue = join(dist, "pyodide");
  const { loadPyodide } = await import(pathToFileURL(join(glue, "pyodide.mjs")).href);
  const inflated = (path) => new Uint8Array(gunzipSync(readFileSync(join(dist, path))));
  const folder = mkdtempSync(join(tmpdir(), "site-stdlib-"));
  process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  const stdLibURL = join(folder, "python_stdlib.zip");
  writeFileSync(stdLibURL, inflated(manifest.stdlib));
  const options = {
    indexURL: `${resolve(dist, dirname(manifest.wasm))}/`,
    createPyodideModule: (await import(pathToFileURL(join(glue, "pyodide.asm.mjs")).href)).default,
    stdLibURL,
    lockFileContents: { info: manifest.lockfile_info, packages: {} },
  };
  return { manifest, loadPyodide, options, laterStdlib: inflated(manifest.stdlib_later) };
}
