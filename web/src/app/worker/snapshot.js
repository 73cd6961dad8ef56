// Python's memory snapshot, saved once our wheel is imported, so that later visits skip Python's
// start: the "snapshot" layer of the start (docs/architecture.md, "The start-up in layers").
//
// A build's first boot in a browser runs as usual (micropip installs our wheel into site-packages,
// freecell._web is imported), then takes a snapshot: Pyodide's memory (pyodide.makeMemorySnapshot),
// stored with the files in site-packages and the second zip of the standard library (stdlib.js),
// which live outside that memory. It goes into the build's cache (the service worker's, see
// ../sw.js), so it lives and dies with the build. Later visits give it to
// loadPyodide({_loadSnapshot}) and write the files back before Python resumes: Python is then where
// the first visit left it, freecell._web imported, without starting the interpreter or installing
// anything. Memory snapshots are an experimental Pyodide feature; the worker boots without one
// whenever restoring fails.
//
// A cache entry: the body is the memory snapshot's pages that hold anything but zeros (about 13
// of its 31 MB), then the files' bytes; its header x-snapshot-layout says how to cut it:
// {memory: size, pages: [[offset, size], ...], files: [[path, size], ...]}. Reading fewer
// bytes back is what a repeat visit waits for.

const KEY = "snapshot.bin"; // resolved against the site's root; never on the server
const LAYOUT = "x-snapshot-layout";
const PAGE = 65536; // WebAssembly's page: the zeros left out are whole pages

/** The snapshot saved in the build's cache, as a Response whose body is unread, or null. */
export async function findSnapshot(root, cacheName) {
  if (!self.caches) return null;
  try {
    const response = await caches.match(new URL(KEY, root).href, { cacheName });
    return response?.headers.has(LAYOUT) ? response : null;
  } catch {
    return null;
  }
}

/** Forget a snapshot (in the build's cache) that could not be restored. */
export async function forgetSnapshot(root, cacheName) {
  try {
    const cache = await caches.open(cacheName);
    await cache.delete(new URL(KEY, root).href);
  } catch {
    // nothing to forget
  }
}

/**
 * Start reading a snapshot found by findSnapshot into memory of its final size, at once:
 * {memory, files: [[path, bytes]], filled, release}, the arrays filling until the promise
 * `filled` settles. loadPyodide needs only the memory's size to start; its bytes are read
 * meanwhile. `release()` frees them once Python has resumed.
 */
export function readSnapshot(response) {
  const layout = JSON.parse(response.headers.get(LAYOUT));
  const filesSize = layout.files.reduce((sum, [, size]) => sum + size, 0);
  const bytes = new Uint8Array(layout.memory + filesSize); // zeros, but where the body says
  let offset = layout.memory;
  const files = layout.files.map(([path, size]) => {
    offset += size;
    return [path, bytes.subarray(offset - size, offset)];
  });
  // Where the body's bytes go, in order: the memory's pages, then the files.
  const parts = [...(layout.pages ?? [[0, layout.memory]]), [layout.memory, filesSize]];
  const expected = parts.reduce((sum, [, size]) => sum + size, 0);
  const filled = (async () => {
    const reader = response.body.getReader();
    let received = 0;
    let part = 0;
    let at = 0; // within parts[part]
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > expected) throw new Error("the saved snapshot is too long");
      for (let taken = 0; taken < value.length; ) {
        while (at === parts[part][1]) [part, at] = [part + 1, 0];
        const [start, size] = parts[part];
        const count = Math.min(size - at, value.length - taken);
        bytes.set(value.subarray(taken, taken + count), start + at);
        taken += count;
        at += count;
      }
    }
    if (received !== expected) throw new Error("the saved snapshot is incomplete");
  })();
  // Pyodide keeps its options, the snapshot among them: once restored, the buffer is detached
  // so that it can be freed (ArrayBuffer.prototype.transfer, where the browser has it).
  const release = () => bytes.buffer.transfer?.(0);
  return { memory: bytes.subarray(0, layout.memory), files, filled, release };
}

/**
 * loadPyodide's fsInit hook, which runs after the WebAssembly has started and before Python's
 * memory is restored: wait for the snapshot's bytes, then write its files back. A snapshot
 * that cannot be read has its first bytes cleared, so that Pyodide's own check of the snapshot
 * rejects it and loadPyodide fails (the worker then boots without it).
 */
export function restoreFiles({ memory, files, filled }) {
  return async (FS) => {
    try {
      await filled;
    } catch {
      memory.fill(0, 0, 16);
      return;
    }
    for (const [path, bytes] of files) {
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, bytes);
    }
  };
}

/** Every file under a folder of Pyodide's file system, as [path, bytes]. */
function filesUnder(FS, folder) {
  const found = [];
  for (const name of FS.readdir(folder)) {
    if (name === "." || name === "..") continue;
    const path = `${folder}/${name}`;
    if (FS.isDir(FS.stat(path).mode)) found.push(...filesUnder(FS, path));
    else found.push([path, FS.readFile(path)]);
  }
  return found;
}

/**
 * Take Python's state now, for the build's later visits: {memory} for storeSnapshot, or null.
 * Pyodide can snapshot only a runtime that holds no JavaScript objects it cannot name again,
 * so micropip, which keeps some, is dropped from sys.modules first, and the package registry
 * is emptied, as a fresh runtime's is (the restored runtime never loads packages). Call it a
 * turn of the event loop after micropip's install, which lets go of its promises then.
 */
export function takeSnapshot(pyodide) {
  try {
    const plumbing = pyodide.pyimport("freecell._web.pyodide");
    plumbing.forget_installer();
    plumbing.destroy();
    for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
    return { memory: pyodide.makeMemorySnapshot() };
  } catch {
    return null;
  }
}

/** The runs of pages of memory that hold anything but zeros, as [[offset, size], ...]. */
function usedPages(memory) {
  const runs = [];
  for (let start = 0; start < memory.length; start += PAGE) {
    const end = Math.min(start + PAGE, memory.length);
    let used = false;
    for (let at = start; at < end && !used; at++) used = memory[at] !== 0;
    if (!used) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === start) last[1] += end - start;
    else runs.push([start, end - start]);
  }
  return runs;
}

/**
 * A snapshot from takeSnapshot as a Response to cache, with the files in site-packages and the
 * files at `paths`.
 */
export function snapshotResponse(pyodide, { memory }, paths = []) {
  const files = [
    ...filesUnder(pyodide.FS, pyodide._api.sitePackages),
    ...paths.map((path) => [path, pyodide.FS.readFile(path)]),
  ];
  const pages = usedPages(memory);
  const layout = {
    memory: memory.length,
    pages,
    files: files.map(([path, bytes]) => [path, bytes.length]),
  };
  const kept = pages.map(([start, size]) => memory.subarray(start, start + size));
  const body = new Blob([...kept, ...files.map(([, bytes]) => bytes)]);
  const headers = { "content-type": "application/octet-stream", [LAYOUT]: JSON.stringify(layout) };
  return new Response(body, { headers });
}

/**
 * Store a snapshot from takeSnapshot, with the files at `paths` (see snapshotResponse), in the
 * build's cache; one that cannot be is not there.
 */
export async function storeSnapshot(pyodide, snapshot, paths, root, cacheName) {
  try {
    const cache = await caches.open(cacheName);
    await cache.put(new URL(KEY, root).href, snapshotResponse(pyodide, snapshot, paths));
  } catch {
    // no snapshot then; the next visit takes one
  }
}
