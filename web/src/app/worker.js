// The Python side of the page: a module worker that boots Pyodide, installs our wheel with
// micropip and answers the page's requests with one freecell._web.Session.
//
// Protocol, page -> worker: {id, op, args}, where op names the Session method it calls:
//   new_game {text, moves, step, faces, history}  opens the session's game (`step` deals on
//                                        from the one in `text`), replaying a link's moves with
//                                        the history the tab kept of them (kept.js)
//   play {source, target, card, auto, longest}  a move (places 1-8, a-d, h; card optional;
//                                        longest: a click's move of a run to an empty cascade)
//   play_card {card, auto}               a double click's best move
//   auto_moves                           the safe moves home there are (auto-move turned on)
//   undo | redo | restart                the history
//   position_text                        the position in fc-solve's format (Copy text)
//   play_move {move}                     one move in notation, no automatic moves (Solve)
//   hint                                 a solution from here, or that there is none: answered
//                                        when the search ends ({cancelled} if the game moved on)
//   targets {source}                     where a selection could go
// worker -> page: {type: "status", stage: "downloading" | "starting" | "installing"}
//                 {type: "ready"} | {type: "failed", message}
//                 {type: "reply", id, reply}   (reply is the method's JSON, parsed)
// Game replies: {ok, error?, code?, params?, notice?, game, steps?, ...}; game is the state
// after the request (see freecell._web).
// Boot, as parallel as it can be: the manifest and the runtime module are fetched at once. The
// first boot of a build in a browser: loadPyodide downloads the WebAssembly, the standard
// library (compiled to bytecode at build time, see build.py) and micropip's wheel together
// while the runtime starts, our wheel downloads meanwhile, micropip installs it, and Python's
// memory is then saved (snapshot.js). Later boots resume from that snapshot instead: no
// interpreter start, no micropip, no install.
const here = new URL(".", import.meta.url);
const root = new URL("../", here);

let booted = false; // once Python is ready (or failed), loading stages are no news

function status(stage) {
  if (!booted) postMessage({ type: "status", stage });
}

function fetchOk(url, what = url.pathname.split("/").pop()) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${what} could not be downloaded (HTTP ${response.status})`);
    return response;
  });
}

// The build's cache, which the service worker serves from (its PREFIX + the build's id).
function cacheName(build) {
  return `freecell-${build}`;
}

// When no service worker controls the page yet (bridge.js names this worker "fill-cache"), a
// copy of each file this worker downloads goes into the build's cache, which the service worker
// then serves: a first visit downloads the runtime once, not twice.
function fillCache(manifest) {
  if (self.name !== "fill-cache" || !self.caches) return;
  const cache = manifest.then((files) => caches.open(cacheName(files.build)));
  cache.catch(() => {});
  const download = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const response = await download(input, init);
    const url = response.url.split("?")[0];
    if (response.ok && response.type === "basic" && url.startsWith(root.href)) {
      const copy = response.clone();
      cache.then((open) => open.put(url, copy)).catch(() => {});
    }
    return response;
  };
}

const START_TIMEOUT_MS = 45_000; // after the downloads, Python starts in a few seconds

// Watches the downloads: a runtime file that answers with an HTTP error fails the boot at once
// (loadPyodide may never settle when its WebAssembly is missing), and once the two big files
// are in, Python is starting and must be ready within START_TIMEOUT_MS.
function watchDownloads() {
  const pending = new Set(["pyodide.asm.wasm", "python_stdlib.zip"]);
  let reject;
  const failure = new Promise((_, fail) => {
    reject = fail;
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const name = entry.name.split("?")[0].split("/").pop();
      if (entry.name.startsWith(root.href) && entry.responseStatus >= 400) {
        reject(new Error(`${name} could not be downloaded (HTTP ${entry.responseStatus})`));
      }
      pending.delete(name);
    }
    if (pending.size === 0) {
      observer.disconnect();
      status("starting");
      setTimeout(() => reject(new Error("Python did not start")), START_TIMEOUT_MS);
    }
  });
  observer.observe({ type: "resource", buffered: true });
  return failure;
}

async function boot() {
  status("downloading");
  const failure = watchDownloads();
  let downloadFailed = false;
  failure.catch(() => {
    downloadFailed = true;
  });
  const manifest = fetchOk(new URL("manifest.json", root)).then((response) => response.json());
  fillCache(manifest);
  // Imported here, not at the top, so that it downloads alongside the rest.
  const snapshots = import("./snapshot.js");
  snapshots.catch(() => {});
  const saved = Promise.all([snapshots, manifest]).then(
    ([{ findSnapshot }, files]) => findSnapshot(root, cacheName(files.build)),
    () => null,
  );
  const runtime = import("../pyodide/pyodide.mjs");
  const [{ loadPyodide }, files, snapshot] = await Promise.race([
    Promise.all([runtime, manifest, saved]),
    failure,
  ]);
  performance.mark("runtime-module");
  const options = {
    indexURL: new URL("pyodide/", root).href,
    stdLibURL: new URL(files.stdlib, root).href,
  };
  if (snapshot) {
    const { forgetSnapshot, readSnapshot, restoreFiles } = await snapshots;
    let restored = null;
    try {
      // The snapshot's bytes are read while the WebAssembly compiles.
      restored = readSnapshot(snapshot);
      restored.filled.catch(() => {});
      const pyodide = await Promise.race([
        loadPyodide({ ...options, _loadSnapshot: restored.memory, fsInit: restoreFiles(restored) }),
        failure,
      ]);
      performance.mark("python-started");
      const web = pyodide.pyimport("freecell._web");
      performance.mark("dealer-imported");
      warmUp(web);
      return web;
    } catch {
      // A snapshot that cannot be restored is forgotten. (A failed download fails the boot
      // below as well, at once.)
      if (!downloadFailed) await forgetSnapshot(root, cacheName(files.build));
    } finally {
      restored?.release();
    }
  }
  return bootAndSave(loadPyodide, options, files, failure, snapshots);
}

// After a snapshot, the WebAssembly engine runs Python's interpreter on unoptimised code until
// it has seen it busy for a while. So the worker keeps it busy on throwaway games
// (freecell._web.warm_up) for about WARM_UP_MS, in slices between the page's requests, and
// the user's first moves run as fast as later ones.
const WARM_UP_MS = 400;
const SLICE_MS = 4;

function warmUp(web, spent = 0, number = 1) {
  if (spent >= WARM_UP_MS) return;
  setTimeout(() => {
    const start = performance.now();
    let next = number;
    try {
      while (performance.now() - start < SLICE_MS) web.warm_up(next++);
    } catch {
      return; // only a warm-up: the page's own requests report their errors
    }
    warmUp(web, spent + performance.now() - start, next);
  }, 0);
}

// A build's first boot here: micropip installs our wheel, then Python's state is saved for
// the next visits (snapshot.js).
async function bootAndSave(loadPyodide, options, files, failure, snapshots) {
  const dealer = fetchOk(new URL(files.dealer, root)).then(async (response) => {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { name: files.dealer.split("/").pop(), bytes };
  });
  dealer.catch(() => {});
  const pyodide = await Promise.race([
    loadPyodide({
      ...options,
      // By URL: the runtime's lockfile names a micropip build whose hash differs from ours.
      packages: [new URL(files.micropip, root).href],
      _makeSnapshot: Boolean(self.caches),
    }),
    failure,
  ]);
  performance.mark("python-started");
  if (!pyodide.loadedPackages.micropip) throw new Error("micropip could not be loaded");
  status("installing");
  const wheel = await Promise.race([dealer, failure]);
  const path = `/tmp/${wheel.name}`;
  pyodide.FS.writeFile(path, wheel.bytes);
  const micropip = pyodide.pyimport("micropip");
  performance.mark("micropip-imported");
  await micropip.install(`emfs:${path}`);
  micropip.destroy();
  pyodide.FS.unlink(path);
  performance.mark("dealer-installed");
  const web = pyodide.pyimport("freecell._web");
  performance.mark("dealer-imported");
  const tools = self.caches ? await snapshots.catch(() => null) : null;
  if (tools) {
    // One turn of the event loop first, in which micropip's finished install lets go of its
    // promises. The memory is copied before any request changes it; storing it waits until
    // the first board is out.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { storeSnapshot, takeSnapshot } = tools;
    const snapshot = takeSnapshot(pyodide);
    performance.mark("snapshot-taken");
    const store = () => storeSnapshot(pyodide, snapshot, root, cacheName(files.build));
    if (snapshot) setTimeout(store, 0);
  }
  return web;
}

const api = boot();
api.then(
  () => {
    booted = true;
    postMessage({ type: "ready" });
  },
  (error) => {
    booted = true;
    postMessage({ type: "failed", message: String(error?.message ?? error) });
  },
);

// Each operation calls the Session method of its name, with its arguments as Python's types.
const operations = {
  new_game: (session, { text, moves = "", step = 0, faces = true, history = "" }) =>
    session.new_game(
      String(text),
      String(moves),
      Number(step) || 0,
      Boolean(faces),
      String(history),
    ),
  play: (session, { source, target, card = "", auto = true, longest = false }) =>
    session.play(
      String(source),
      String(target),
      String(card ?? ""),
      Boolean(auto),
      Boolean(longest),
    ),
  play_card: (session, { card, auto = true }) => session.play_card(String(card), Boolean(auto)),
  auto_moves: (session) => session.auto_moves(),
  position_text: (session) => session.position_text(),
  play_move: (session, { move }) => session.play_move(String(move)),
  hint: (session) => session.hint(),
  undo: (session) => session.undo(),
  redo: (session) => session.redo(),
  restart: (session) => session.restart(),
  targets: (session, { source }) => session.targets(String(source)),
};

const session = api.then((web) => web.Session());
session.catch(() => {}); // a failed boot is reported above

function call(python, op, args) {
  const operation = Object.hasOwn(operations, op) ? operations[op] : null;
  try {
    return operation
      ? JSON.parse(operation(python, args ?? {}))
      : { ok: false, error: `unknown request ${String(op)}` };
  } catch (error) {
    return { ok: false, error: `Python failed: ${String(error?.message ?? error)}` };
  }
}

// A hint that needs a search is answered when the search ends. The search runs in slices of
// THINK_MS, each a task of its own, so that the page's other requests are answered between two
// slices; one that changes the game ends the search, and the waiting hints get {cancelled}.
const THINK_MS = 5;
const waiting = []; // ids of hint requests waiting for the search
const slices = new MessageChannel(); // a task at once, without setTimeout's 4 ms clamp
let thinking = false;

function think(python) {
  let state;
  try {
    state = python.think(THINK_MS / 1000);
  } catch (error) {
    state = "idle";
  }
  if (state === "thinking") {
    slices.port2.postMessage(null);
    return;
  }
  thinking = false;
  const answer = state === "done" ? call(python, "hint") : { ok: false, cancelled: true };
  for (const id of waiting.splice(0)) postMessage({ type: "reply", id, reply: answer });
}

session.then((python) => {
  slices.port1.onmessage = () => think(python);
});

self.onmessage = async ({ data }) => {
  const python = await session;
  const reply = call(python, data.op, data.args);
  if (data.op === "hint" && reply.pending) {
    waiting.push(data.id);
    if (!thinking) {
      thinking = true;
      slices.port2.postMessage(null);
    }
    return;
  }
  postMessage({ type: "reply", id: data.id, reply });
};
