// The service worker: the whole site from the cache, one build at a time, and offline play.
// bridge.js registers it once Python is ready (so it never competes with a first visit's
// downloads), relative to the site, so the site works from any subpath.
//
// - One cache per build ("freecell-" + the build's id), holding exactly the files of that
//   build's manifest.json, each checked against its hash. A file the manifest marks `lazy`
//   (the table of the fewest free cells) is not downloaded at install: it is kept the first
//   time the page asks for it (or copied at install from an older build's cache, or from the
//   cache a first visit's worker fills). Every request of the site is answered
//   from it, the page included (without its preloads: the worker reads those files from here
//   itself), so a repeat visit asks the network for nothing; a file missing from the cache (the
//   browser may evict) comes from the network.
// - Updates: the browser checks this file in the background on each visit. A new build is a
//   new sw.js (build.py writes the build's id below), which installs the new build's files
//   into a cache of its own, copying the ones it already has, and then waits: the open pages
//   keep their build until the visitor takes the new one (the page's "new version" notice, or
//   closing every tab of the site). Taking it activates it, deletes the older caches, and
//   every open page reloads (bridge.js): no page ever runs files of two builds.
// - The first visit's worker copies what it downloads into the build's cache (worker.js), so
//   installing downloads only the small files again; the first build activates at once.
// - A request the fetch handler sees that asks to bypass caches (`cache: "no-store"` or
//   `"reload"`) goes to the network, and one that asks only the browser's HTTP cache
//   (`"only-if-cached"`: the WebAssembly's) goes there.
const BUILD = "BUILD";
const PREFIX = "freecell-";
const CACHE = `${PREFIX}${BUILD}`;
const scope = new URL("./", self.location.href);
const MANIFEST = new URL("manifest.json", scope).href;
const PAGE = new URL("index.html", scope).href;

async function download(request) {
  const response = await fetch(request);
  if (!response.ok) throw new Error(`${request.url}: HTTP ${response.status}`);
  return response;
}

/** A response's SHA-256 in the form of a manifest's `integrity`. */
async function integrity(response) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  return `sha256-${btoa(String.fromCharCode(...hash))}`;
}

/** A copy of url with the wanted hash from the site's caches: {name, response}, or null. */
async function cachedCopy(url, wanted) {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX));
  names.sort((a, b) => (b === CACHE) - (a === CACHE)); // this build's own first
  for (const name of names) {
    const response = await (await caches.open(name)).match(url);
    if (response && (await integrity(response.clone())) === wanted) return { name, response };
  }
  return null;
}

/** The page as the cache serves it: without the preloads, whose files the worker reads itself. */
async function appShell(response) {
  const page = (await response.text()).replace(/^ *<link rel="preload"[^>]*>\n/gm, "");
  return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
}

async function install(event) {
  const listed = await download(new Request(MANIFEST, { cache: "no-cache" }));
  const manifest = await listed.clone().json();
  // A deployment caught halfway (a new sw.js, an older manifest): no install, the next check
  // tries again.
  if (manifest.build !== BUILD) throw new Error(`manifest.json is build ${manifest.build}`);
  const cache = await caches.open(CACHE);
  await Promise.all(
    Object.entries(manifest.files).map(async ([name, file]) => {
      const url = new URL(name, scope).href;
      const copy = await cachedCopy(url, file.integrity);
      if (copy?.name === CACHE || (file.lazy && !copy)) return;
      const response =
        copy?.response ??
        (await download(new Request(url, { cache: "no-cache", integrity: file.integrity })));
      await cache.put(url, url === PAGE ? await appShell(response) : response);
    }),
  );
  await cache.put(MANIFEST, listed);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    install(event).then(() => {
      // The first build takes over at once; a later one waits for the visitor (see above).
      if (!self.registration.active) return self.skipWaiting();
      return undefined;
    }),
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

// The page's "reload" on its new-version notice: take over from the build in use.
self.addEventListener("message", (event) => {
  if (event.data?.type === "activate") self.skipWaiting();
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  // A page's address carries the deal (?deal=617): the one cached page serves them all.
  const url = request.url.split(/[?#]/)[0];
  const page = request.mode === "navigate" && (url === scope.href || url === PAGE);
  const cached = await cache.match(page ? PAGE : request, { ignoreSearch: true });
  return cached ?? (page ? fetch(request) : fromNetwork(cache, request, url));
}

/** A file the cache lacks: a lazy one of this build is downloaded and kept; others just fetched. */
async function fromNetwork(cache, request, url) {
  const listed = await cache.match(MANIFEST);
  const files = listed ? (await listed.json()).files : {};
  const name = url.slice(scope.href.length);
  if (!Object.hasOwn(files, name) || !files[name].lazy) return fetch(request);
  const { integrity } = files[name];
  const response = await fetch(new Request(url, { cache: "no-cache", integrity }));
  try {
    await cache.put(url, response.clone());
  } catch {
    // not kept (storage full): served all the same
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  // The worker asks the browser's HTTP cache for the WebAssembly first (worker.js), and so do
  // requests that bypass caches: these go past this worker.
  if (["no-store", "reload", "only-if-cached"].includes(request.cache)) return;
  event.respondWith(fromCache(request));
});
