// The Python side of the page: a module worker that boots Pyodide, installs our wheel and
// answers the page's requests with one freecell._web.Session. This module holds the protocol
// and tells the page how the boot goes; downloads.js makes every download of the boot,
// runtime.js starts Python, and requests.js answers the requests.
//
// Protocol, page -> worker:
//   {type: "start", controlled}          first, from boot.js: whether a service worker serves
//                                        the site
//   {type: "manifest", files} | {type: "manifest", error}
//                                        the site's manifest.json, which boot.js fetches as it
//                                        starts the worker (the worker would ask later)
//   {id, op, args}                       a request: op names it, args are its arguments; the
//                                        requests, their arguments and their replies are one
//                                        table, freecell._web.protocol.REQUESTS (requests.js)
// worker -> page: {type: "status", stage: "downloading" | "starting"}
//                 {type: "progress", loaded, total}   while downloading (a visit that no service
//                                        worker serves): bytes of the runtime files (the
//                                        WebAssembly, the standard library, our wheel) received
//                                        so far and in all, as files (decompressed); at most
//                                        every PROGRESS_MS (downloads.js), and once all are in
//                 {type: "ready"} | {type: "failed", message}
//                 {type: "reply", id, reply}   (reply is Session.handle's JSON, parsed: its
//                                        shape is the request's in the table)
//
// The boot: runtime.js, the plain one with the layers over it (docs/architecture.md, "The
// start-up in layers").
import { deferred } from "./deferred.js";
import { createDownloads } from "./downloads.js";
import { createRequests } from "./requests.js";
import { createRuntime } from "./runtime.js";

const here = new URL(".", import.meta.url);
const root = new URL("../../", here);

let booted = false; // once Python is ready (or failed), loading stages are no news

function status(stage) {
  if (!booted) postMessage({ type: "status", stage });
}

// Fails the boot at once, whatever it is waiting for: a runtime file that answers with an HTTP
// error (loadPyodide may never settle without its WebAssembly), or Python not starting in time.
let failed = false;
const failure = deferred();
failure.promise.catch(() => {}); // it only ends the races below; the boot reports the error

function fail(error) {
  failed = true;
  failure.reject(error);
}

function race(promise) {
  return Promise.race([promise, failure.promise]);
}

// Once the boot has failed (and the page has been told why), what the abandoned boot still had
// under way (Pyodide's own downloads, our wheel's) rejects with nobody left to listen: the same
// failure, already reported, not an uncaught error of its own.
self.addEventListener("unhandledrejection", (event) => {
  if (failed) event.preventDefault();
});

// --- what the page says first ------------------------------------------------------------------

const started = deferred(); // the page's "start"
const manifest = deferred(); // the site's manifest, from boot.js
manifest.promise.catch(() => {}); // the boot waits for it, and fails with its error

const downloads = createDownloads({
  manifest: manifest.promise,
  fail,
  progress(loaded, total) {
    if (!booted) postMessage({ type: "progress", loaded, total });
  },
  allIn: () => runtime.startingSoon(),
});
const runtime = createRuntime({ root, downloads, status, fail, race, failed: () => failed });

function onBootMessage(data) {
  if (data.type === "start") {
    downloads.begin(data.controlled);
    if (downloads.counting()) status("downloading");
    started.resolve(data);
  } else if (data.type === "manifest") {
    if (data.files) manifest.resolve(data.files);
    else manifest.reject(new Error(data.error));
  }
}

// --- the boot ----------------------------------------------------------------------------------

// Started at once: the runtime's two modules (the second is the bulk of its JavaScript, which
// loadPyodide would only ask for after the first) and snapshot.js.
const pyodideModule = import("../../pyodide/pyodide.mjs");
const glue = import("../../pyodide/pyodide.asm.mjs");
const snapshots = import("./snapshot.js");
for (const promise of [pyodideModule, glue]) promise.catch(fail);
snapshots.catch(() => {}); // without it, Python boots each time as on a first visit

const api = runtime.start({
  started: started.promise,
  manifest: manifest.promise,
  runtime: pyodideModule,
  glue,
  snapshots,
});
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

const session = api.then((web) => web.Session());
session.catch(() => {}); // a failed boot is reported above
// A data file of the site that Python asks for (min_cells' table): fetched once (again after a
// failure, or once Python found it broken), and kept for the service worker on a first visit,
// as the boot's files are, once Python has read it: a broken copy is never kept.
const texts = new Map();
function siteText(path) {
  if (!texts.has(path)) {
    const url = new URL(path, root).href;
    const forget = () => texts.delete(path);
    const text = downloads.network(url).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const copy = response.clone();
      return { text: await response.text(), keep: () => downloads.keep(url, copy), forget };
    });
    text.catch(forget);
    texts.set(path, text);
  }
  return texts.get(path);
}

const answer = createRequests(session, siteText);

self.onmessage = ({ data }) => {
  if (["start", "manifest"].includes(data?.type)) onBootMessage(data);
  // A build's first boot saves Python's memory once it has answered (runtime.save): in a
  // microtask, so before the first slice of any search.
  else answer(data).then(runtime.save);
};
