// Python's start in the worker: the runtime's WebAssembly, compiled while it streams; then
// loadPyodide, either resuming from the memory snapshot of an earlier visit (snapshot.js) and
// warming up, or, on a build's first boot here, starting Python, installing our wheel with
// micropip and, once it has answered the page's first request, saving the snapshot for the next
// visits.
import { cacheName } from "./downloads.js";
import { addLaterStdlib, LATER_STDLIB } from "./stdlib.js";

const START_TIMEOUT_MS = 45_000; // after the downloads, Python starts in a few seconds

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

/**
 * Python's start: {startingSoon, start}. `root`: the site's URL; `downloads`: downloads.js's;
 * `status(stage)` tells the page a loading stage; `fail(error)` fails the boot at once,
 * `race(promise)` rejects as soon as it fails, and `failed()` says whether it has.
 */
export function createRuntime({ root, downloads, status, fail, race, failed }) {
  // --- the runtime's WebAssembly ---------------------------------------------------------------

  // The worker compiles the runtime's WebAssembly itself, from the moment the manifest names it
  // (its folder is named by its content), while it streams: loadPyodide's own download of it
  // (at pyodide/pyodide.asm.wasm, where it never is) is answered with a stand-in, and its
  // instantiation with the module compiled here. On a repeat visit the browser's HTTP cache
  // serves it if it can (cache: "only-if-cached", never the network; the service worker lets
  // those requests through): Chromium keeps the compiled code of a module that came from its
  // HTTP cache, as the first visit's download does, and a later visit then skips compiling the
  // functions the first one ran. A module from the service worker's cache gets no such code, so
  // that copy only stands in when the HTTP cache has none.
  const compiledEarly = new Response(null, { headers: { "content-type": "application/wasm" } });
  downloads.standIn(new URL("pyodide/pyodide.asm.wasm", root).href, compiledEarly);
  let runtimeModule = null; // Promise of the WebAssembly.Module
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if ((await source) !== compiledEarly) return instantiateStreaming(source, imports);
    const module = await runtimeModule;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };

  async function downloadRuntime(url) {
    if (!downloads.counting()) {
      try {
        const cached = await downloads.network(url, {
          cache: "only-if-cached",
          mode: "same-origin",
        });
        if (cached.ok) return cached;
      } catch {
        // not in the HTTP cache: the service worker's copy
      }
    }
    return fetch(url);
  }

  function compileRuntime(url) {
    downloads.watch(url);
    runtimeModule = WebAssembly.compileStreaming(downloadRuntime(url));
    runtimeModule.then(
      () => performance.mark("runtime-compiled"),
      (error) => fail(new Error(`pyodide.asm.wasm: ${error.message}`)),
    );
  }

  // --- the boot --------------------------------------------------------------------------------

  let startTimer = 0;
  let saveSoon = null; // a first boot's snapshot, to take once (see save)

  /** The downloads are in (or none is needed): Python starts, and must within the timeout. */
  function startingSoon() {
    if (startTimer) return;
    status("starting");
    startTimer = setTimeout(() => fail(new Error("Python did not start")), START_TIMEOUT_MS);
  }

  async function boot({ started, manifest, runtime, glue, snapshots }) {
    await started;
    const files = await race(manifest);
    performance.mark("manifest");
    compileRuntime(new URL(files.wasm, root).href);
    const stdlib = new URL(files.stdlib, root).href;
    downloads.prefetch(stdlib);
    const tools = await snapshots.catch(() => null);
    const saved = await tools?.findSnapshot(root, cacheName(files.build));
    if (saved) performance.mark("snapshot-found");
    // The snapshot's bytes are read from now on, while the runtime loads and compiles.
    let restored = null;
    try {
      restored = saved ? tools.readSnapshot(saved) : null;
      // Awaited by restoreFiles, which turns a failure into a snapshot Pyodide rejects.
      restored?.filled.then(() => performance.mark("snapshot-read")).catch(() => {});
    } catch {
      await tools.forgetSnapshot(root, cacheName(files.build)); // its layout cannot be read
    }
    const dealer = new URL(files.dealer, root).href;
    const micropip = new URL(files.micropip, root).href;
    const later = new URL(files.stdlib_later, root).href;
    for (const url of [stdlib, later]) downloads.gunzip(url); // see build.py's gzipped
    for (const url of [stdlib, ...(restored ? [] : [later, micropip, dealer])]) {
      downloads.watch(url);
    }
    downloads.size(files.files, root);
    // What only the boot after Python's start needs (the standard library's second zip, the
    // wheels; a resumed Python needs none) downloads once the WebAssembly is in, which has the
    // link to itself until then: on a slow link Python's start would wait for their bytes.
    const runtimeIn = runtimeModule.catch(() => {}); // its failure fails the boot already
    const bytesOf = (url) =>
      downloads.fetchOk(new URL(url)).then((response) => response.arrayBuffer());
    const afterStartIn = () => {
      downloads.prefetch(micropip); // for loadPackage
      const bytes = { later: bytesOf(later), wheel: bytesOf(dealer) };
      // Awaited by bootAndSave, which fails the boot with their failure.
      for (const promise of Object.values(bytes)) promise.catch(() => {});
      return bytes;
    };
    const firstDownloads = restored ? null : runtimeIn.then(afterStartIn);
    const [{ loadPyodide }, { default: createPyodideModule }] = await race(
      Promise.all([runtime, glue]),
    );
    performance.mark("runtime-module");
    if (!downloads.counting()) startingSoon(); // the files are at hand
    const options = {
      indexURL: new URL("pyodide/", root).href,
      stdLibURL: stdlib,
      createPyodideModule,
      // The page loads no Pyodide package: an empty lock file (with the runtime's info, which
      // loadPyodide checks) instead of downloading pyodide-lock.json.
      lockFileContents: { info: files.lockfile_info, packages: {} },
    };
    if (!restored) return bootAndSave(loadPyodide, options, files, firstDownloads, snapshots);
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
      if (failed()) throw error;
      await tools.forgetSnapshot(root, cacheName(files.build));
    } finally {
      restored.release();
    }
    return bootAndSave(loadPyodide, options, files, Promise.resolve(afterStartIn()), snapshots);
  }

  // A build's first boot here: Python starts, the standard library's second zip joins its path
  // (stdlib.js), micropip (by URL: the runtime's lock file names a build of it whose hash
  // differs from PyPI's) installs our wheel, and Python's state is saved for the next visits
  // once it has answered (save).
  async function bootAndSave(loadPyodide, options, files, afterStart, snapshots) {
    const pyodide = await race(loadPyodide({ ...options, _makeSnapshot: Boolean(self.caches) }));
    performance.mark("python-started");
    const { later, wheel } = await afterStart; // under way since the WebAssembly came in
    addLaterStdlib(pyodide, new Uint8Array(await race(later)));
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
      // Taking the snapshot (about 80 ms) waits until Python has answered the first request,
      // so that the first board does not wait for it (see save); and storing it, until the
      // next task. Python is ready one turn of the event loop from now, in which micropip's
      // finished install lets go of its promises, which a snapshot cannot hold.
      const { storeSnapshot, takeSnapshot } = tools;
      saveSoon = () => {
        const snapshot = takeSnapshot(pyodide);
        performance.mark("snapshot-taken");
        const store = () =>
          storeSnapshot(pyodide, snapshot, [LATER_STDLIB], root, cacheName(files.build));
        if (snapshot) setTimeout(store, 0);
      };
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return web;
  }

  return {
    startingSoon,

    /**
     * Take the snapshot of a build's first boot here, if it is due: call it once Python has
     * answered a request, before any search's first slice (requests.js), so that the snapshot
     * holds none of a search's work. It then holds the page's first session as well, which no
     * later visit uses (each makes its own): a few kilobytes of Python's memory, in pages that
     * are stored anyway.
     */
    save() {
      const save = saveSoon;
      saveSoon = null;
      if (save) performance.mark("answered"); // the first reply is on its way to the page
      save?.();
    },

    /**
     * Start Python: resolves with the module freecell._web, or rejects with why it failed.
     * `started`: the page's first message; `manifest`: the site's manifest; `runtime`, `glue`
     * and `snapshots`: the imports of pyodide.mjs, pyodide.asm.mjs and snapshot.js, under way.
     */
    async start(imports) {
      try {
        return await boot(imports);
      } finally {
        clearTimeout(startTimer);
      }
    },
  };
}
