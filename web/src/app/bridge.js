// The page's side of the worker protocol (see worker.js): start, request, restart.
import { serviceWorkers, takeWorker } from "./boot.js";

const BOOT_TIMEOUT_MS = 120_000; // loadPyodide may never settle if WebAssembly cannot start

let registered = false;

// The service worker is registered once Python is ready, so a first visit's downloads have the
// network to themselves.
function registerServiceWorker() {
  if (!serviceWorkers || registered) return;
  registered = true;
  serviceWorkers
    .register(new URL("../sw.js", import.meta.url), { scope: new URL("../", import.meta.url).href })
    .catch(() => {
      // no offline copy then; the page itself works on
    });
}

export class PythonBridge {
  /** @param {{onStatus(stage: string): void, onReady(): void, onFailed(message: string): void}} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    this.worker = null;
    this.waiting = new Map();
    this.nextId = 1;
    this.timer = 0;
  }

  /** Start (or restart) the worker. Requests still unanswered are sent again. */
  start() {
    this.stop();
    const { worker, early } = takeWorker();
    this.worker = worker;
    this.timer = setTimeout(
      () => this.fail("Python did not start within two minutes."),
      BOOT_TIMEOUT_MS,
    );
    worker.onmessage = ({ data }) => {
      if (worker !== this.worker) return;
      if (data.type === "status") this.hooks.onStatus(data.stage);
      else if (data.type === "ready") {
        clearTimeout(this.timer);
        this.hooks.onReady();
        registerServiceWorker();
      } else if (data.type === "failed") this.fail(data.message);
      else if (data.type === "reply") {
        const waiting = this.waiting.get(data.id);
        this.waiting.delete(data.id);
        waiting?.resolve(data.reply);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) this.fail(event.message || "the Python worker could not start");
    };
    for (const event of early) {
      if (event.type === "error") worker.onerror(event);
      else worker.onmessage(event);
    }
    // The worker queues requests until Python is ready.
    for (const [id, { request }] of this.waiting) worker.postMessage({ id, ...request });
  }

  stop() {
    clearTimeout(this.timer);
    this.worker?.terminate();
    this.worker = null;
  }

  fail(message) {
    this.stop();
    this.hooks.onFailed(message);
  }

  /** Send a request; resolves with freecell._web's reply once Python has answered. */
  request(request) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, { resolve, request });
      this.worker?.postMessage({ id, ...request });
    });
  }
}
