// Python's start in the worker: the plain boot (python.js: loadPyodide, micropip installs our
// wheel) and the layers over it that the build switched on (manifest.json's `layers`: here
// "stream", "compile" and "snapshot"; each described in docs/architecture.md, "The start-up in
// layers"). Without them, loadPyodide downloads the runtime's files from pyodide/, and every
// visit boots Python as a first visit does.
import { cacheName } from "./downloads.js";
import { bootPython } from "./python.js";
import { addLaterStdlib, LATER_STDLIB } from "./stdlib.js";
import { streamRuntime } from "./stream.js";

const START_TIMEOUT_MS = 45_000; // after the downloads, Python starts in a few seconds

/**
 * Python's start: {startingSoon, start}. `root`: the site's URL; `downloads`: downloads.js's;
 * `status(stage)` tells the page a loading stage; `fail(error)` fails the boot at once,
 * `race(promise)` rejects as soon as it fails, and `failed()` says whether it has.
 */
export function createRuntime({ root, downloads, status, fail, race, failed }) {
  const stream = streamRuntime({ root, downloads, fail });
  let startTimer = 0;
  let saveSoon = null; // a first boot's memory snapshot, to take once (see save)

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
    const layers = new Set(files.layers ?? []);
    const url = (path) => new URL(path, root).href;
    const [stdlib, micropip, wheel] = [files.stdlib, files.micropip, files.wheel].map(url);
    const later = files.stdlib_later ? url(files.stdlib_later) : null; // "compile"
    if (layers.has("stream")) {
      stream.compile(url(files.wasm));
      downloads.prefetch(stdlib);
    } else {
      downloads.watch(url(files.wasm)); // loadPyodide downloads it
    }
    const kept = layers.has("snapshot") && self.caches; // a snapshot needs a cache to live in
    const tools = kept ? await snapshots.catch(() => null) : null;
    const saved = await tools?.findSnapshot(root, cacheName(files.build));
    if (saved) performance.mark("snapshot-found");
    // The memory snapshot's bytes are read from now on, while the runtime loads and compiles.
    let restored = null;
    try {
      restored = saved ? tools.readSnapshot(saved) : null;
      // Awaited by restoreFiles, which turns a failure into a snapshot Pyodide rejects.
      restored?.filled.then(() => performance.mark("snapshot-read")).catch(() => {});
    } catch {
      await tools.forgetSnapshot(root, cacheName(files.build)); // its layout cannot be read
    }
    for (const each of [stdlib, later]) {
      if (each?.endsWith(".gz")) downloads.gunzip(each); // see build.py's gzipped
    }
    for (const each of [stdlib, ...(restored ? [] : [later, micropip, wheel])]) {
      if (each) downloads.watch(each);
    }
    downloads.size(files.files, root);
    // What only the boot after Python's start needs (the standard library's second zip, the
    // wheels; a resumed Python needs none) downloads once the WebAssembly is in, which has the
    // link to itself until then: on a slow link Python's start would wait for their bytes.
    // Without "stream", when the boot asks for it.
    const bytesOf = (each) =>
      downloads.fetchOk(new URL(each)).then((response) => response.arrayBuffer());
    const afterStartIn = () => {
      if (layers.has("stream")) downloads.prefetch(micropip); // for loadPackage
      const bytes = { later: later && bytesOf(later), wheel: bytesOf(wheel) };
      // Awaited by bootAndSave, which fails the boot with their failure.
      for (const promise of Object.values(bytes)) promise?.catch(() => {});
      return bytes;
    };
    const runtimeIn = stream.compiled()?.catch(() => {}); // its failure fails the boot already
    const firstDownloads = restored || !runtimeIn ? null : runtimeIn.then(afterStartIn);
    const [{ loadPyodide }, { default: createPyodideModule }] = await race(
      Promise.all([runtime, glue]),
    );
    performance.mark("runtime-module");
    if (!downloads.counting()) startingSoon(); // the files are at hand
    const options = { indexURL: new URL("pyodide/", root).href, stdLibURL: stdlib };
    if (layers.has("stream")) {
      options.createPyodideModule = createPyodideModule;
      // The page loads no Pyodide package: an empty lock file (with the runtime's info, which
      // loadPyodide checks) instead of downloading pyodide-lock.json.
      options.lockFileContents = { info: files.lockfile_info, packages: {} };
    }
    const first = { loadPyodide, options, files, tools, afterStartIn };
    if (!restored) return bootAndSave({ ...first, afterStart: firstDownloads });
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
      performance.mark("wheel-imported");
      return web;
    } catch (error) {
      // A memory snapshot that cannot be restored is forgotten, and Python boots as on a first
      // visit. A failed download fails the boot.
      if (failed()) throw error;
      await tools.forgetSnapshot(root, cacheName(files.build));
    } finally {
      restored.release();
    }
    return bootAndSave({ ...first, afterStart: Promise.resolve(afterStartIn()) });
  }

  // A build's first boot here (every boot, without "snapshot"): Python starts, the standard
  // library's second zip joins its path ("compile": stdlib.js), micropip (by URL: the runtime's
  // lock file names a build of it whose hash differs from PyPI's) installs our wheel
  // (python.js), and with "snapshot" Python's state is saved for the next visits once it has
  // answered (save).
  async function bootAndSave(first) {
    const { loadPyodide, options, files, tools, afterStartIn, afterStart } = first;
    let downloaded = afterStart; // under way since the WebAssembly came in ("stream")
    const { pyodide, web } = await bootPython({
      loadPyodide,
      options: { ...options, _makeSnapshot: Boolean(tools) },
      race,
      async afterStart(python) {
        downloaded = Promise.resolve(downloaded ?? afterStartIn());
        const { later } = await downloaded;
        if (!later) return;
        addLaterStdlib(python, new Uint8Array(await race(later)));
      },
      micropip: new URL(files.micropip, root).href,
      wheel: () => downloaded.then(({ wheel }) => wheel),
      name: files.wheel.split("/").pop(),
    });
    if (tools) {
      // Taking the memory snapshot (about 80 ms) waits until Python has answered the first request,
      // so that the first board does not wait for it (see save); and storing it, until the
      // next task. Python is ready one turn of the event loop from now, in which micropip's
      // finished install lets go of its promises, which a snapshot cannot hold.
      const { storeSnapshot, takeSnapshot } = tools;
      const kept = files.stdlib_later ? [LATER_STDLIB] : [];
      saveSoon = () => {
        const snapshot = takeSnapshot(pyodide);
        performance.mark("snapshot-taken");
        const store = () => storeSnapshot(pyodide, snapshot, kept, root, cacheName(files.build));
        if (snapshot) setTimeout(store, 0);
      };
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return web;
  }

  return {
    startingSoon,

    /**
     * Take the memory snapshot of a build's first boot here, if it is due: call it once Python has
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
