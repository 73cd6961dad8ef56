// The worker's downloads: every fetch of the boot goes through here (it replaces self.fetch).
// A download started early (a prefetch) answers the requests for its URL. The runtime's files
// that the boot watches (the WebAssembly, the standard library, the wheels) fail the boot when
// they fail. On a visit that no service worker serves (the downloads are "counted"), their
// bytes are counted for the progress bar and a copy of each goes into the build's cache, which
// the service worker then checks and serves: a first visit downloads the runtime once, not
// twice.

const PROGRESS_MS = 200; // at most one progress report this often

/**
 * A gzipped file of the site (build.py's gzipped), inflated as it arrives. A host that sent it
 * with `Content-Encoding: gzip` had the browser inflate it already: a body that starts as a zip
 * does ("PK") passes as it came.
 */
async function inflated(response) {
  const reader = response.body.getReader();
  const start = await reader.read();
  const body = new ReadableStream({
    start(controller) {
      if (start.done) controller.close();
      else controller.enqueue(start.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const zipped = start.value?.[0] === 0x50; // "P"; a gzip stream starts with 0x1f
  const { status, statusText, headers } = response;
  return new Response(zipped ? body : body.pipeThrough(new DecompressionStream("gzip")), {
    status,
    statusText,
    headers,
  });
}

/** The build's cache, which the service worker serves from (its PREFIX + the build's id). */
export function cacheName(build) {
  return `freecell-${build}`;
}

/**
 * Take over the worker's fetch. `manifest`: a promise of the site's manifest; `fail(error)`
 * fails the boot; `progress(loaded, total)` reports the bytes counted; `allIn()` is called
 * when every watched file is in (once their sizes are known).
 */
export function createDownloads({ manifest, fail, progress, allIn }) {
  const network = self.fetch.bind(self); // the browser's own fetch, past this module
  const prefetched = new Map(); // url -> the promise of its response
  const standIns = new Map(); // url -> the Response its fetch gets instead of a download
  const watched = new Map(); // url -> {size, loaded, done}: the runtime files counted
  const gzipped = new Set(); // urls whose bodies the boot takes inflated
  let counting = false; // downloading (no service worker serves the site): count and report
  let fillCache = null; // the build's cache, to copy the downloads into (see observe)
  let sized = false; // the watched files' sizes are known (from the manifest)
  let timer = 0;

  function report() {
    timer = 0;
    if (!sized) return;
    let loaded = 0;
    let total = 0;
    for (const file of watched.values()) {
      loaded += Math.min(file.loaded, file.size);
      total += file.size;
    }
    progress(loaded, total);
  }

  function checkAllIn() {
    if (sized && [...watched.values()].every((each) => each.done)) allIn();
  }

  // Counts a download's bytes on a copy of it (the response itself goes on untouched, so that
  // the browser can still cache the WebAssembly's compiled code with it), and puts another
  // copy into the build's cache when there is one to fill.
  async function observe(url, response) {
    const file = watched.get(url);
    if (fillCache) {
      const copy = response.clone();
      // Not copied: the service worker then downloads the file itself when it installs.
      fillCache.then((cache) => cache.put(url, copy)).catch(() => {});
    }
    try {
      const reader = response.clone().body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        file.loaded += value.byteLength;
        timer ||= setTimeout(report, PROGRESS_MS);
      }
    } catch {
      return; // the download itself fails, and says why
    }
    file.done = true;
    clearTimeout(timer);
    report();
    checkAllIn();
  }

  self.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, self.location.href).href;
    if (standIns.has(url)) return standIns.get(url);
    const name = url.split("/").pop();
    let response;
    try {
      response = await (prefetched.get(url) ?? network(input, init));
    } catch (error) {
      // loadPyodide waits forever for a WebAssembly that failed to download
      if (watched.has(url)) fail(new Error(`${name} could not be downloaded (${error.message})`));
      throw error;
    } finally {
      prefetched.delete(url);
    }
    const inflate = () => (gzipped.has(url) ? inflated(response) : response);
    if (!watched.has(url)) return response.ok ? inflate() : response;
    if (!response.ok) {
      // The boot fails here, and says why: the body of the error page is of no use.
      response.body?.cancel().catch(() => {});
      const error = new Error(`${name} could not be downloaded (HTTP ${response.status})`);
      fail(error);
      throw error;
    }
    if (counting) observe(url, response); // its bytes as they came, gzipped or not
    return inflate();
  };

  return {
    network,

    /** Whether a service worker serves the site; if none does, count and fill its cache. */
    begin(controlled) {
      counting = !controlled;
      if (counting && self.caches) {
        fillCache = manifest.then((files) => caches.open(cacheName(files.build)));
        // No cache to fill (the manifest failed, and so does the boot; or storage is off).
        fillCache.catch(() => {});
      }
    },

    /**
     * Put a copy of a site file fetched after the boot (the table of the fewest free cells)
     * into the build's cache, as the boot's downloads are, if a first visit fills it.
     */
    keep(url, response) {
      fillCache?.then((cache) => cache.put(url, response)).catch(() => {});
    },

    /** Whether the downloads are counted: no service worker serves the site. */
    counting: () => counting,

    /** Watch a runtime file: a failure fails the boot, and its bytes are counted. */
    watch(url) {
      watched.set(url, watched.get(url) ?? { loaded: 0 });
    },

    /** The watched files' sizes, from the manifest's `files` (the site's paths under root). */
    size(files, root) {
      for (const [url, file] of watched) {
        file.size = files[url.slice(root.href.length)]?.size ?? 0;
      }
      sized = true;
      checkAllIn();
    },

    /** Inflate url's body for the boot: the site serves the file gzipped (build.py). */
    gunzip(url) {
      gzipped.add(url);
    },

    /** Answer every fetch of url with this response instead (see runtime.js). */
    standIn(url, response) {
      standIns.set(url, response);
    },

    /** Start downloading url now; the boot's own fetch of it (Pyodide's, say) then takes it. */
    prefetch(url) {
      if (prefetched.has(url)) return;
      const promise = network(url);
      promise.catch(() => {}); // the fetch that takes it gets the same failure, and reports it
      prefetched.set(url, promise);
    },

    /** Fetch url; rejects, naming the file, on an HTTP error. */
    fetchOk(url, what = url.pathname.split("/").pop()) {
      return fetch(url).then((response) => {
        if (!response.ok) {
          throw new Error(`${what} could not be downloaded (HTTP ${response.status})`);
        }
        return response;
      });
    },
  };
}
