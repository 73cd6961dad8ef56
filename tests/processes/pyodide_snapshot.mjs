// Round-trip a memory snapshot through web/src/app/worker/snapshot.js under Node.js, as the page's
// worker does, with the site's own files: boot, install the wheel with micropip (python.js, as
// the worker and the build do), answer the page's first request, take the snapshot, turn it
// into the cached Response, read that back and resume a second runtime from it. Prints one
// JSON line.
// Usage: node tests/processes/pyodide_snapshot.mjs DIST_DIR
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { siteRuntime } from "./site_runtime.mjs";

const [dist] = process.argv.slice(2);
// As the page's worker has it (site_runtime.mjs).
const { manifest, loadPyodide, options, laterStdlib } = await siteRuntime(dist);
const snapshots = await import(pathToFileURL(join(dist, "app", "worker", "snapshot.js")).href);
const { addLaterStdlib, LATER_STDLIB } = await import("../../web/src/app/worker/stdlib.js");
const { installWheel } = await import("../../web/src/app/worker/python.js"); // the worker's, bundled

const first = await loadPyodide({ ...options, _makeSnapshot: true });
addLaterStdlib(first, laterStdlib);
const firstWeb = await installWheel(first, {
  micropip: join(dist, manifest.micropip),
  wheel: readFileSync(join(dist, manifest.wheel)),
  name: basename(manifest.wheel),
});
await new Promise((resolve) => setTimeout(resolve, 0));
const firstSession = firstWeb.Session(); // the worker's, which answers before the snapshot
firstSession.new_game("617", "", 0, true, "");
const taken = snapshots.takeSnapshot(first);
const response = snapshots.snapshotResponse(first, taken, [LATER_STDLIB]);
const stored = (await response.clone().arrayBuffer()).byteLength;

const restored = snapshots.readSnapshot(response);
await restored.filled;
const sameMemory = Buffer.compare(Buffer.from(restored.memory), Buffer.from(taken.memory)) === 0;
const second = await loadPyodide({
  ...options,
  _loadSnapshot: restored.memory,
  fsInit: snapshots.restoreFiles(restored),
});
restored.release();
const web = second.pyimport("freecell._web");
const session = web.Session();
const reply = JSON.parse(session.new_game("617", "5a", 0, false));
web.warm_up(1);
const after = JSON.parse(session.targets("1"));
const checks = new URL("./pyodide_snapshot_checks.py", import.meta.url);
const python = second.runPython(readFileSync(checks, "utf8"));
console.log(
  JSON.stringify({
    ...JSON.parse(python),
    taken: taken !== null,
    memory: taken.memory.length,
    stored,
    same_memory: sameMemory,
    files: restored.files.map(([path]) => path),
    first_cascade: reply.game.cascades?.[0] ?? null,
    moves: after.game.moves,
  }),
);
