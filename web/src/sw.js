// The service worker: fast repeat visits and offline play. bridge.js registers it once the page
// is ready (so it never competes with a first visit's downloads), relative to the site, so the
// site works from any subpath.
//
// - The runtime (pyodide/, the compiled stdlib/, wheels/) is cache-first: it is versioned by the
//   build, and a build's cache holds exactly that build's files. The first visit's worker copies
//   what it downloads into this cache (worker.js), so installing downloads only what is missing.
// - Everything else (the page, app/, styles/, manifest.json) is network-first, so an update
//   arrives on the next visit; the cache answers when the network does not.
// - A request that asks to bypass caches (`cache: "no-store"` or `"reload"`) goes to the network.
//
// build.py writes the build's id and its file list in place of the two placeholders below; a new
// build thus changes this file, the browser installs it, and it deletes the older caches.
const BUILD = "BUILD";
const FILES = [/* FILES */];
const PREFIX = "freecell-";
const CACHE = `${PREFIX}${BUILD}`;
const scope = new URL("./", self.location.href);
const RUNTIME = ["pyodide/", "stdlib/", "wheels/"].map((folder) => new URL(folder, scope).href);

function isRuntime(url) {
  return RUNTIME.some((folder) => url.startsWith(folder));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const missing = [];
      for (const file of FILES) {
        const url = new URL(file, scope).href;
        if (!(await cache.match(url))) missing.push(url);
      }
      // Revalidated, not blindly taken from the HTTP cache: pyodide/'s names carry no version.
      await cache.addAll(missing.map((url) => new Request(url, { cache: "no-cache" })));
      const page = await cache.match(new URL("index.html", scope).href);
      if (page) await cache.put(scope.href, page);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
    })(),
  );
});

// Responses are stored while they are answered, not before (event.waitUntil keeps the service
// worker alive until the copy is in).
async function cacheFirst(event, request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  return response;
}

async function networkFirst(event, request) {
  const cache = await caches.open(CACHE);
  // A page's address carries the deal (?deal=617): one cached copy of the page serves them all.
  const url = new URL(request.url);
  const key = request.mode === "navigate" ? url.origin + url.pathname : request.url;
  try {
    const response = await fetch(request);
    if (response.ok) event.waitUntil(cache.put(key, response.clone()).catch(() => {}));
    return response;
  } catch (error) {
    const cached =
      (await cache.match(key)) ??
      (await caches.match(key)) ??
      (request.mode === "navigate" ? await cache.match(new URL("index.html", scope).href) : null);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  if (request.cache === "no-store" || request.cache === "reload") return;
  event.respondWith(
    isRuntime(request.url) ? cacheFirst(event, request) : networkFirst(event, request),
  );
});
