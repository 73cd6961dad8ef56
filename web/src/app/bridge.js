// The page's side of the worker protocol (see worker.js): start, request, restart; and the
// service worker: registering it, and a new build of the site (see ../sw.js).
import { manifest, serviceWorkers, takeWorker } from "./boot.js";
import { local } from "./storage.js";

const BOOT_TIMEOUT_MS = 120_000; // loadPyodide may never settle if WebAssembly cannot start
const UPDATE_CHECK_MS = 60 * 60 * 1000; // a page left open asks for a new build hourly at most

// The replies to the pages' opening requests (the game their address names), remembered for
// the next visit of the same build: that visit shows its board at once, from the reply, while
// Python starts and opens the same game (the same build answers the same request the same
// way). The last few, in localStorage.
const OPENINGS_KEY = "freecell.openings";
const OPENINGS_KEPT = 4;

function openings() {
  const kept = local.readJson(OPENINGS_KEY, []);
  return Array.isArray(kept) ? kept : []; // not ours otherwise
}

function rememberOpening(build, key, reply) {
  const kept = openings().filter((entry) => entry?.build === build && entry.key !== key);
  // Full or off: the next visit waits for Python.
  local.writeJson(OPENINGS_KEY, [{ build, key, reply }, ...kept].slice(0, OPENINGS_KEPT));
}

/** A remembered reply to the request, of this build, or null (also if it is not one). */
function rememberedOpening(build, key) {
  const reply = openings().find((entry) => entry?.build === build && entry.key === key)?.reply;
  const game = reply?.game;
  const shaped =
    reply?.ok === true &&
    Array.isArray(game?.cascades) &&
    game.cascades.length === 8 &&
    game.cascades.every(Array.isArray) &&
    Array.isArray(game.freecells) &&
    Array.isArray(game.foundations) &&
    Array.isArray(game.moves);
  return shaped ? reply : null;
}

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
    .register(new URL("../sw.js", import.meta.url), { scope: new URL("../", import.meta.url).href })
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

  /**
   * Send a request; resolves with freecell._web's reply once Python has answered. With
   * `opening`, the page's opening request: a reply remembered from an earlier visit of this
   * build resolves it at once (Python still gets the request, and its reply is remembered).
   */
  request(request, { opening = false } = {}) {
    const id = this.nextId++;
    const reply = new Promise((resolve) => {
      this.waiting.set(id, { resolve, request });
      this.worker?.postMessage({ id, ...request });
    });
    return opening ? this.opening(request, reply) : reply;
  }

  async opening(request, reply) {
    let build;
    try {
      ({ build } = await manifest());
    } catch {
      return reply; // no manifest: the worker fails and says why
    }
    const key = JSON.stringify(request);
    reply.then((answer) => {
      if (answer.ok) rememberOpening(build, key, answer);
    });
    return rememberedOpening(build, key) ?? reply;
  }
}
