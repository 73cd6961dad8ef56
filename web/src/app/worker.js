// The Python side of the page: a module worker that boots Pyodide, installs our wheel and
// answers the page's requests with one freecell._web.Session.
//
// Protocol, page -> worker:
//   {type: "start", controlled, preloaded}  first, from boot.js: whether a service worker serves
//                                        the site, and the URLs of the downloads the page
//                                        started (its preloads) and hands over
//   {type: "manifest", files} | {type: "manifest", error}
//                                        the site's manifest.json, which boot.js fetches as it
//                                        starts the worker (the worker would ask later)
//   {type: "preloaded", url, status, statusText, headers, body}
//                                        one of them: the response, its body a transferred
//                                        ReadableStream; without `status`, the worker fetches
//                                        the URL itself (the browser cannot transfer streams)
//   {id, op, args}                       a request; op names the Session method it calls:
//     new_game {text, moves, step, faces, history}  opens the session's game (`step` deals on
//                                        from the one in `text`), replaying a link's moves with
//                                        the history the tab kept of them (kept.js)
//     play {source, target, card, auto, longest}  a move (places 1-8, a-d, h; card optional;
//                                        longest: a click's move of a run to an empty cascade)
//     play_card {card, auto}             a double click's best move
//     auto_moves                         the safe moves home there are (auto-move turned on)
//     undo | redo | restart              the history
//     position_text                      the position in fc-solve's format (Copy text)
//     play_move {move}                   one move in notation, no automatic moves (Solve)
//     hint                               a solution from here, or that there is none: answered
//                                        when the search ends ({cancelled} if the game moved on)
//     targets {source}                   where a selection could go
// worker -> page: {type: "status", stage: "downloading" | "starting"}
//                 {type: "progress", loaded, total}   while downloading (a visit that no service
//                                        worker serves): bytes of the runtime files (the
//                                        WebAssembly, the standard library, our wheel) received
//                                        so far and in all, as files (decompressed); at most
//                                        every PROGRESS_MS, and once all are in
//                 {type: "ready"} | {type: "failed", message}
//                 {type: "reply", id, reply}   (reply is the method's JSON, parsed)
// Game replies: {ok, error?, code?, params?, notice?, game, steps?, ...}; game is the state
// after the request (see freecell._web).
//
// Boot, as parallel as it can be. The page's preloads start the standard library's, micropip's
// and our wheel's downloads with the page (build.py writes them into index.html), and boot.js hands
// them over. The worker starts the runtime's two modules, the manifest and snapshot.js at once,
// then the WebAssembly, which it compiles while it streams (see "the runtime's WebAssembly").
// The first boot of a build in a browser: Python starts with the standard library (compiled to
// bytecode at build time, see build.py), micropip installs our wheel, and Python's memory is
// then saved (snapshot.js). Later boots resume from that snapshot instead: no
// interpreter start, no install.
const here = new URL(".", import.meta.url);
const root = new URL("../", here);

let booted = false; // once Python is ready (or failed), loading stages are no news

function status(stage) {
  if (!booted) postMessage({ type: "status", stage });
}

// Fails the boot at once, whatever it is waiting for: a runtime file that answers with an HTTP
// error (loadPyodide may never settle without its WebAssembly), or Python not starting in time.
let failed = false;
let reject;
const failure = new Promise((_, settle) => {
  reject = settle;
});
failure.catch(() => {});

function fail(error) {
  failed = true;
  reject(error);
}

function race(promise) {
  return Promise.race([promise, failure]);
}

// Once the boot has failed (and the page has been told why), what the abandoned boot still had
// under way (Pyodide's own downloads, our wheel's) rejects with nobody left to listen: the same
// failure, already reported, not an uncaught error of its own.
self.addEventListener("unhandledrejection", (event) => {
  if (failed) event.preventDefault();
});

// --- what the page says first, and the downloads it hands over ---------------------------------

let hello;
const started = new Promise((resolve) => {
  hello = resolve;
});
let named;
const manifest = new Promise((resolve, reject) => {
  named = { resolve, reject };
});
manifest.catch(() => {});
const handed = new Map(); // url -> {promise, resolve, reject}: a handed-over Response

function onBootMessage(data) {
  if (data.type === "start") {
    for (const url of data.preloaded ?? []) {
      const entry = {};
      entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
      entry.promise.catch(() => {});
      handed.set(url, entry);
    }
    begin(data);
    hello(data);
  } else if (data.type === "manifest") {
    if (data.files) named.resolve(data.files);
    else named.reject(new Error(data.error));
  } else if (data.type === "preloaded") {
    const entry = handed.get(data.url);
    if (!entry) return;
    if (data.status === undefined) {
      handed.delete(data.url); // fetch it here instead
      entry.resolve(null);
      return;
    }
    const { status, statusText, headers } = data;
    entry.resolve(new Response(data.body, { status, statusText, headers }));
  }
}

// --- every download of the boot goes through here ------------------------------------------------

const PROGRESS_MS = 200;
const network = self.fetch.bind(self);
const watched = new Map(); // url -> {size, loaded, done}: the runtime files counted
let progressTimer = 0;
let counting = false; // downloading (no service worker serves the site): count and report
let fillCache = null; // the build's cache, to copy the downloads into (see observe)
let sized = false; // the watched files' sizes are known (from the manifest)

function reportProgress() {
  progressTimer = 0;
  if (!sized) return;
  let loaded = 0;
  let total = 0;
  for (const file of watched.values()) {
    loaded += Math.min(file.loaded, file.size);
    total += file.size;
  }
  if (!booted) postMessage({ type: "progress", loaded, total });
}

function allIn() {
  if (sized && [...watched.values()].every((each) => each.done)) startingSoon();
}

// Counts a download's bytes on a copy of it (the response itself goes on untouched, so that
// the browser can still cache the WebAssembly's compiled code with it). When no service worker
// serves the site yet (a first visit), another copy goes into the build's cache, which the
// service worker then checks and serves: a first visit downloads the runtime once, not twice.
async function observe(url, response) {
  const file = watched.get(url);
  if (fillCache) {
    const copy = response.clone();
    fillCache.then((cache) => cache.put(url, copy)).catch(() => {});
  }
  try {
    const reader = response.clone().body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      file.loaded += value.byteLength;
      progressTimer ||= setTimeout(reportProgress, PROGRESS_MS);
    }
  } catch {
    return; // the download itself fails, and says why
  }
  file.done = true;
  clearTimeout(progressTimer);
  reportProgress();
  allIn();
}

self.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input, self.location.href).href;
  if (url === PYODIDE_WASM) return compiledEarly;
  const name = url.split("/").pop();
  let response;
  try {
    response = (await handed.get(url)?.promise) ?? (await network(input, init));
  } catch (error) {
    // loadPyodide waits forever for a WebAssembly that failed to download
    if (watched.has(url)) fail(new Error(`${name} could not be downloaded (${error.message})`));
    throw error;
  } finally {
    handed.delete(url);
  }
  if (!watched.has(url)) return response;
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    const error = new Error(`${name} could not be downloaded (HTTP ${response.status})`);
    fail(error);
    throw error;
  }
  if (counting) observe(url, response);
  return response;
};

function fetchOk(url, what = url.pathname.split("/").pop()) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${what} could not be downloaded (HTTP ${response.status})`);
    return response;
  });
}

/** Start downloading url now; the boot's own fetch of it (Pyodide's, say) then takes it. */
function prefetch(url) {
  if (handed.has(url)) return;
  const promise = network(url);
  promise.catch(() => {});
  handed.set(url, { promise });
}

// --- the runtime's WebAssembly -----------------------------------------------------------------

// The worker compiles the runtime's WebAssembly itself, from the moment the manifest names it
// (its folder is named by its content), while it streams: loadPyodide's own download of it
// (at pyodide/pyodide.asm.wasm, where it never is) is answered with a stand-in, and its
// instantiation with the module compiled here. On a repeat visit the browser's HTTP cache
// serves it if it can (cache: "only-if-cached", never the network; the service worker lets
// those requests through): Chromium keeps the compiled code of a module that came from its
// HTTP cache, as the first visit's download does, and a later visit then skips compiling the
// functions the first one ran. A module from the service worker's cache gets no such code, so
// that copy only stands in when the HTTP cache has none.
const PYODIDE_WASM = new URL("pyodide/pyodide.asm.wasm", root).href;
let runtimeModule = null; // Promise of the WebAssembly.Module
const compiledEarly = new Response(null, { headers: { "content-type": "application/wasm" } });
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  if ((await source) !== compiledEarly) return instantiateStreaming(source, imports);
  const module = await runtimeModule;
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

async function downloadRuntime(url) {
  if (!counting) {
    try {
      const cached = await network(url, { cache: "only-if-cached", mode: "same-origin" });
      if (cached.ok) return cached;
    } catch {
      // not in the HTTP cache: the service worker's copy
    }
  }
  return fetch(url);
}

function compileRuntime(url) {
  watched.set(url, watched.get(url) ?? { loaded: 0 });
  runtimeModule = WebAssembly.compileStreaming(downloadRuntime(url));
  runtimeModule.catch((error) => fail(new Error(`pyodide.asm.wasm: ${error.message}`)));
}

// What the worker starts once the page has said whether it downloads.
function begin({ controlled }) {
  counting = !controlled;
  if (counting) status("downloading");
  if (counting && self.caches) {
    fillCache = manifest.then((files) => caches.open(cacheName(files.build)));
    fillCache.catch(() => {});
  }
}

// --- the boot ----------------------------------------------------------------------------------

// The build's cache, which the service worker serves from (its PREFIX + the build's id).
function cacheName(build) {
  return `freecell-${build}`;
}

const START_TIMEOUT_MS = 45_000; // after the downloads, Python starts in a few seconds
let startTimer = 0;

function startingSoon() {
  if (startTimer) return;
  status("starting");
  startTimer = setTimeout(() => fail(new Error("Python did not start")), START_TIMEOUT_MS);
}

// Started at once: the runtime's two modules (the second is the bulk of its JavaScript, which
// loadPyodide would only ask for after the first) and snapshot.js.
const runtime = import("../pyodide/pyodide.mjs");
const glue = import("../pyodide/pyodide.asm.mjs");
const snapshots = import("./snapshot.js");
for (const promise of [runtime, glue]) promise.catch(fail);
snapshots.catch(() => {}); // without it, Python boots each time as on a first visit

async function boot() {
  await started;
  const files = await race(manifest);
  compileRuntime(new URL(files.wasm, root).href);
  const stdlib = new URL(files.stdlib, root).href;
  prefetch(stdlib);
  const tools = await snapshots.catch(() => null);
  const saved = await tools?.findSnapshot(root, cacheName(files.build));
  // The snapshot's bytes are read from now on, while the runtime loads and compiles.
  let restored = null;
  try {
    restored = saved ? tools.readSnapshot(saved) : null;
    restored?.filled.catch(() => {});
  } catch {
    await tools.forgetSnapshot(root, cacheName(files.build)); // its layout cannot be read
  }
  const dealer = new URL(files.dealer, root).href;
  const micropip = new URL(files.micropip, root).href;
  for (const url of [stdlib, ...(restored ? [] : [micropip, dealer])]) {
    watched.set(url, watched.get(url) ?? { loaded: 0 });
  }
  for (const [url, file] of watched) {
    file.size = files.files[url.slice(root.href.length)]?.size ?? 0;
  }
  sized = true;
  allIn();
  if (restored) {
    // the page's preloads of the wheels are not needed: Python resumes with ours installed
    for (const url of [micropip, dealer]) {
      handed.get(url)?.promise.then((response) => response?.body?.cancel()).catch(() => {});
      handed.delete(url);
    }
  } else {
    prefetch(micropip); // for loadPackage, once Python has started
  }
  // Our wheel downloads alongside the runtime's files.
  const wheel = () => fetchOk(new URL(dealer)).then((response) => response.arrayBuffer());
  const firstWheel = restored ? null : wheel();
  firstWheel?.catch(() => {});
  const [{ loadPyodide }, { default: createPyodideModule }] = await race(
    Promise.all([runtime, glue]),
  );
  performance.mark("runtime-module");
  if (!counting) startingSoon(); // the files are at hand
  const options = {
    indexURL: new URL("pyodide/", root).href,
    stdLibURL: stdlib,
    createPyodideModule,
    // The page loads no Pyodide package: an empty lock file (with the runtime's info, which
    // loadPyodide checks) instead of downloading pyodide-lock.json.
    lockFileContents: { info: files.lockfile_info, packages: {} },
  };
  if (!restored) return bootAndSave(loadPyodide, options, files, firstWheel);
  try {
    const pyodide = await race(
      loadPyodide({
        ...options,
        _loadSnapshot: restored.memory,
        fsInit: tools.restoreFiles(restored),
      }),
    );
    performance.mark("python-started");
    const web = pyodide.pyimport("freecell._web");
    performance.mark("dealer-imported");
    warmUp(web);
    return web;
  } catch (error) {
    // A snapshot that cannot be restored is forgotten, and Python boots as on a first visit.
    // A failed download fails the boot.
    if (failed) throw error;
    await tools.forgetSnapshot(root, cacheName(files.build));
  } finally {
    restored.release();
  }
  prefetch(micropip);
  return bootAndSave(loadPyodide, options, files, wheel());
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

// A build's first boot here: Python starts, micropip (by URL: the runtime's lock file names a
// build of it whose hash differs from PyPI's) installs our wheel, then Python's state is saved
// for the next visits.
async function bootAndSave(loadPyodide, options, files, wheel) {
  const pyodide = await race(loadPyodide({ ...options, _makeSnapshot: Boolean(self.caches) }));
  performance.mark("python-started");
  const installer = new URL(files.micropip, root).href;
  const quiet = { messageCallback: () => {}, errorCallback: () => {} };
  await race(pyodide.loadPackage(installer, quiet));
  if (!pyodide.loadedPackages.micropip) throw new Error("micropip could not be loaded");
  const path = `/tmp/${files.dealer.split("/").pop()}`;
  pyodide.FS.writeFile(path, new Uint8Array(await race(wheel)));
  const micropip = pyodide.pyimport("micropip");
  performance.mark("micropip-imported");
  await race(micropip.install(`emfs:${path}`));
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
api.finally(() => clearTimeout(startTimer)).catch(() => {});
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
  if (["start", "manifest", "preloaded"].includes(data?.type)) {
    onBootMessage(data);
    return;
  }
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
