// Starts the Python worker as the page begins. Python's start is the page's longest wait, so
// index.html loads this module (it has no imports) with `async`: the worker starts while the
// page's other modules are still downloading. bridge.js then adopts this first worker, with the
// messages it sent before being adopted.
//
// Downloads of the runtime start even earlier, with the page itself: build.py writes them into
// index.html as preloads. A worker cannot use the page's preloads, so this module takes each
// one (fetching a preloaded URL takes its response) and hands its body over to the worker as a
// stream, as it arrives. It also fetches the site's manifest for the worker, which would ask
// for it only once it has started (worker.js: "start", "manifest", one "preloaded" a file).

// The service worker (../sw.js) serves repeat visits from its cache and makes the site work
// offline. A worker started while no service worker serves the page downloads the runtime,
// reports the progress and copies the files into the build's cache (worker.js). Without service
// workers (or on plain http) the page works the same.
export const serviceWorkers = globalThis.isSecureContext ? navigator.serviceWorker : undefined;

/** Hand a preloaded download over to the worker: its response, the body as a stream. */
async function handOver(worker, url) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    worker.postMessage({ type: "preloaded", url }); // the worker fetches it, and says what fails
    return;
  }
  const { status, statusText } = response;
  const message = { type: "preloaded", url, status, statusText, headers: [...response.headers] };
  try {
    worker.postMessage({ ...message, body: response.body }, [response.body]);
  } catch {
    // A browser that cannot transfer streams: the worker fetches the URL again, from the HTTP
    // cache, which the preload has filled.
    response.body?.cancel().catch(() => {});
    worker.postMessage({ type: "preloaded", url });
  }
}

/**
 * Start a Python worker: {worker, early}, early holding its events until someone listens.
 * `preloads`: hand the page's preloads over (only the first worker: a preload is taken once).
 */
function startWorker(preloads) {
  const worker = new Worker(new URL("./worker.js", import.meta.url), {
    type: "module",
    name: "python",
  });
  const early = [];
  worker.onmessage = (event) => early.push(event);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push(event);
  };
  const preloaded = preloads
    ? Array.from(document.querySelectorAll("link[rel=preload][as=fetch]"), (link) => link.href)
    : [];
  const controlled = Boolean(serviceWorkers?.controller);
  worker.postMessage({ type: "start", controlled, preloaded });
  latest = fetchManifest();
  latest.then(
    (files) => worker.postMessage({ type: "manifest", files }),
    (error) => worker.postMessage({ type: "manifest", error: String(error?.message ?? error) }),
  );
  for (const url of preloaded) handOver(worker, url);
  return { worker, early };
}

function fetchManifest() {
  return fetch(new URL("../manifest.json", import.meta.url)).then((response) => {
    if (!response.ok) {
      throw new Error(`manifest.json could not be downloaded (HTTP ${response.status})`);
    }
    return response.json();
  });
}

let latest = null;
let first = startWorker(true);

/** The site's manifest, as the latest worker got it (a promise). */
export function manifest() {
  return latest;
}

/** The worker started with the page, the first time; a new one after that (a retry). */
export function takeWorker() {
  const started = first ?? startWorker(false);
  first = null;
  return started;
}
