// Starts the Python worker as the page begins. Python's start is the page's longest wait, so
// index.html loads this module (it has no imports) with `async`: the worker starts while the
// page's other modules are still downloading. bridge.js then adopts this first worker, with the
// messages it sent before being adopted.

// The service worker (../sw.js) makes repeat visits fast and the site work offline. A worker
// started while no service worker controls the page copies the runtime files it downloads into
// the build's cache (worker.js, named "fill-cache" for that), so the service worker need not
// download them again. Without service workers (or on plain http) the page works the same.
export const serviceWorkers = globalThis.isSecureContext ? navigator.serviceWorker : undefined;

/** Start a Python worker: {worker, early}, early holding its events until someone listens. */
function startWorker() {
  const name = serviceWorkers && !serviceWorkers.controller ? "fill-cache" : "python";
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name });
  const early = [];
  worker.onmessage = (event) => early.push(event);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push(event);
  };
  return { worker, early };
}

let first = startWorker();

/** The worker started with the page, the first time; a new one after that (a retry). */
export function takeWorker() {
  const started = first ?? startWorker();
  first = null;
  return started;
}
