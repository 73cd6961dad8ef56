// Starts the Python worker as the page begins. Python's start is the page's longest wait, so
// index.html loads this module (it has no imports) with `async`: the worker starts while the
// page's other modules are still downloading. bridge.js then adopts this first worker, with the
// messages it sent before being adopted.
//
// Downloads of the runtime start even earlier, with the page itself: build.py writes them into
// index.html as preloads. The worker takes them from the browser's HTTP cache (a worker cannot
// use the page's preloads); this module reads each one, so that the browser sees it used. It
// also fetches the site's manifest for the worker, which would ask for it only once it has
// started (worker.js: "start", then "manifest").

// The service worker (../sw.js) serves repeat visits from its cache and makes the site work
// offline. A worker started while no service worker serves the page downloads the runtime,
// reports the progress and copies the files into the build's cache (worker.js). Without service
// workers (or on plain http) the page works the same.
export const serviceWorkers = globalThis.isSecureContext ? navigator.serviceWorker : undefined;

/** Read a preloaded download to its end: the worker takes it from the HTTP cache. */
function take(url) {
  fetch(url)
    .then((response) => response.body?.pipeTo(new WritableStream()))
    .catch(() => {}); // the worker's own request of it says what fails
}

/** Start a Python worker: {worker, early}, early holding its events until someone listens. */
function startWorker() {
  const worker = new Worker(new URL("../worker/worker.js", import.meta.url), {
    type: "module",
    name: "python",
  });
  const early = [];
  worker.onmessage = (event) => early.push(event);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push(event);
  };
  const controlled = Boolean(serviceWorkers?.controller);
  worker.postMessage({ type: "start", controlled });
  latest = fetchManifest();
  latest.then(
    (files) => worker.postMessage({ type: "manifest", files }),
    (error) => worker.postMessage({ type: "manifest", error: String(error?.message ?? error) }),
  );
  return { worker, early };
}

function fetchManifest() {
  return fetch(new URL("../../manifest.json", import.meta.url)).then((response) => {
    if (!response.ok) {
      throw new Error(`manifest.json could not be downloaded (HTTP ${response.status})`);
    }
    return response.json();
  });
}

let latest = null;
let first = startWorker();
for (const link of document.querySelectorAll("link[rel=preload][as=fetch]")) take(link.href);

/** The site's manifest, as the latest worker got it (a promise). */
export function manifest() {
  return latest;
}

/** The worker started with the page, the first time; a new one after that (a retry). */
export function takeWorker() {
  const started = first ?? startWorker();
  first = null;
  return started;
}
