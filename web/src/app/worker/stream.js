// The "stream" layer of Python's start (docs/architecture.md, "The start-up in layers"): the
// worker compiles the runtime's WebAssembly itself, from the moment the manifest names it (its
// folder is named by its content), while it streams: loadPyodide's own download of it (at
// pyodide/pyodide.asm.wasm, where it never is then) is answered with a stand-in, and its
// instantiation with the module compiled here. On a repeat visit the browser's HTTP cache
// serves it if it can (cache: "only-if-cached", never the network; the service worker lets
// those requests through): Chromium keeps the compiled code of a module that came from its HTTP
// cache, as the first visit's download does, and a later visit then skips compiling the
// functions the first one ran. A module from the service worker's cache gets no such code, so
// that copy only stands in when the HTTP cache has none. Without the layer, loadPyodide
// downloads and compiles it.

/**
 * The runtime's WebAssembly, streamed: {compile(url), compiled()}. `root`: the site's URL;
 * `downloads`: downloads.js's; `fail(error)` fails the boot.
 */
export function streamRuntime({ root, downloads, fail }) {
  const compiledEarly = new Response(null, { headers: { "content-type": "application/wasm" } });
  let runtimeModule = null; // Promise of the WebAssembly.Module, once compile() has started

  async function download(url) {
    if (!downloads.counting()) {
      try {
        const cached = await downloads.network(url, {
          cache: "only-if-cached",
          mode: "same-origin",
        });
        if (cached.ok) return cached;
      } catch {
        // not in the HTTP cache: the service worker's copy
      }
    }
    return fetch(url);
  }

  return {
    /** Start downloading and compiling the WebAssembly at `url`; loadPyodide then takes it. */
    compile(url) {
      downloads.standIn(new URL("pyodide/pyodide.asm.wasm", root).href, compiledEarly);
      const instantiateStreaming = WebAssembly.instantiateStreaming;
      WebAssembly.instantiateStreaming = async (source, imports) => {
        if ((await source) !== compiledEarly) return instantiateStreaming(source, imports);
        const module = await runtimeModule;
        return { module, instance: await WebAssembly.instantiate(module, imports) };
      };
      downloads.watch(url);
      runtimeModule = WebAssembly.compileStreaming(download(url));
      runtimeModule.then(
        () => performance.mark("runtime-compiled"),
        (error) => fail(new Error(`pyodide.asm.wasm: ${error.message}`)),
      );
    },

    /** The promise of the compiled WebAssembly.Module, or null if compile() was not called. */
    compiled: () => runtimeModule,
  };
}
