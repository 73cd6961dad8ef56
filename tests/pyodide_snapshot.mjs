// Round-trip a memory snapshot through web/src/app/snapshot.js under Node.js, as the page's
// worker does: boot, install the wheel with micropip, take the snapshot, turn it into the
// cached Response, read that back and resume a second runtime from it. Prints one JSON line.
// Usage: node tests/pyodide_snapshot.mjs DIST_DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const snapshots = await import(pathToFileURL(join(dist, "app", "snapshot.js")).href);
const options = { indexURL: join(dist, "pyodide") + "/", stdLibURL: join(dist, manifest.stdlib) };

const first = await loadPyodide({
  ...options,
  packages: [join(dist, manifest.micropip)],
  _makeSnapshot: true,
});
const wheel = `/tmp/${manifest.dealer.split("/").pop()}`;
first.FS.writeFile(wheel, readFileSync(join(dist, manifest.dealer)));
const micropip = first.pyimport("micropip");
await micropip.install(`emfs:${wheel}`);
micropip.destroy();
first.pyimport("freecell._web").destroy();
await new Promise((resolve) => setTimeout(resolve, 0));
const taken = snapshots.takeSnapshot(first);
const response = snapshots.snapshotResponse(first, taken);

const restored = snapshots.readSnapshot(response);
const second = await loadPyodide({
  ...options,
  _loadSnapshot: restored.memory,
  fsInit: snapshots.restoreFiles(restored),
});
restored.release();
const web = second.pyimport("freecell._web");
const reply = JSON.parse(web.new_game("617", "5a", 0, false));
web.warm_up(1);
const after = JSON.parse(web.targets("1"));
const python = second.runPython(`
import json, sys
from importlib.metadata import version
import freecell
json.dumps({
    "version": list(sys.version_info[:2]),
    "dealer_version": version("freecell-deals"),
    "dealer_file_exists": __import__("os").path.exists(freecell.__file__),
    "micropip_imported": any(name.partition(".")[0] == "micropip" for name in sys.modules),
})
`);
console.log(
  JSON.stringify({
    ...JSON.parse(python),
    taken: taken !== null,
    files: restored.files.map(([path]) => path),
    first_cascade: reply.game.cascades?.[0] ?? null,
    moves: after.game.moves,
  }),
);
