// The page's side of the worker protocol (see worker.js): start, request, restart; and the
// service worker: registering it, and a new build of the site (see ../sw.js).
import { manifest, serviceWorkers, takeWorker } from "./boot.js";
import { rememberedOpening, rememberOpening } from "./openings.js";

const BOOT_TIMEOUT_MS = 120_000; // loadPyodide may never settle if WebAssembly cannot start
const UPDATE_CHECK_MS = 60 * 60 * 1000; // a page left open asks for a new build hourly at most

let registered = false;

// A page that a service worker serves reloads whenever another build takes over (the visitor
// took it here or in another tab, see registerServiceWorker), from the page's start on: one
// page never mixes two builds' files. Its address keeps the game.
const served = Boolean(serviceWorkers?.controller);
serviceWorkers?.addEventListener("controllerchange", () => {
  if (served) window.location.reload();
});

/**
 * Register the service worker, once Python is ready (so a first visit's downloads have the
 * network to themselves), and call `onUpdate(apply)` when a new build of the site is ready:
 * `apply()` switches to it, and every open page of the site then reloads.
 */
function registerServiceWorker(onUpdate) {
  if (!serviceWorkers || registered) return;
  registered = true;
  const offer = (registration) => {
    const waiting = registration.waiting;
    if (waiting && served) onUpdate(() => waiting.postMessage({ type: "activate" }));
  };
  const watch = (registration, installing) => {
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed") offer(registration);
    });
  };
  serviceWorkers
    .register(new URL("../../sw.js", import.meta.url), { scope: new URL("../../", import.meta.url).href })
    .then((registration) => {
      offer(registration);
      watch(registration, registration.installing);
      registration.addEventListener("updatefound", () =>
        watch(registration, registration.installing),
      );
      // The browser checks for a new build on each visit; a page left open checks now and then.
      let checked = Date.now();
      document.addEventListener("visibilitychange", () => {
        const due = Date.now() - checked >= UPDATE_CHECK_MS;
        if (document.visibilityState !== "visible" || !due) return;
        checked = Date.now();
        registration.update().catch(() => {}); // offline, say: the next check asks again
      });
    })
    .catch(() => {
      // no offline copy then; the page itself works on
    });
}

export class PythonBridge {
  /**
   * @param {{onStatus(stage: string): void, onProgress(loaded: number, total: number): void,
   *   onReady(): void, onFailed(message: string): void, onUpdate(apply: () => void): void}} hooks
   */
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
      else if (data.type === "progress") this.hooks.onProgress(data.loaded, data.total);
      else if (data.type === "ready") {
        clearTimeout(this.timer);
        this.hooks.onReady();
        registerServiceWorker(this.hooks.onUpdate);
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

  /**
   * Send the page's opening request (see openings.js); resolves with {early, answer}: `answer`
   * resolves with Python's reply (remembered for the next visit of this build), `early` is a
   * reply remembered from an earlier visit of this build, checked, or null. A speed-up of the
   * start, the layer "openings" (build.py's LAYERS): without it, the page waits for Python.
   */
  async opening(request) {
    const answer = this.request(request);
    let build;
    let layers;
    try {
      ({ build, layers } = await manifest());
    } catch {
      return { early: null, answer }; // no manifest: the worker fails and says why
    }
    if (!layers?.includes("openings")) return { early: null, answer };
    const key = JSON.stringify(request);
    answer.then((reply) => {
      if (reply.ok) rememberOpening(build, key, reply);
    });
    return { early: rememberedOpening(build, key, request), answer };
  }
}
