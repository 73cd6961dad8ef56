// Python's plain boot, the one the worker, the build (web/tools/compile_python.mjs) and the tests
// (tests/processes/pyodide_snapshot.mjs) all run: start Pyodide, have micropip install our wheel, import
// freecell._web. Everything else in Python's start is a speed-up layered around it, each with
// its own module and switch (docs/architecture.md, "The start-up in layers").
//
// It runs in a browser's worker and under Node.js alike: `micropip` is where micropip's wheel
// is (a URL, or a file's path under Node.js) and `wheel` our wheel's bytes (or a promise of
// them), written into Python's file system and installed from there (`emfs:`).

const quiet = { messageCallback: () => {}, errorCallback: () => {} };

/**
 * Install our wheel into a started Pyodide with micropip, and import it: resolves with the
 * module freecell._web. `wheel`: its bytes, a promise of them, or a function that returns
 * either once micropip is in; `name`: the wheel's file name (micropip reads the version from
 * it); `race(promise)`: what each wait goes through (the worker's fails as soon as the boot
 * does).
 */
export async function installWheel(pyodide, { micropip, wheel, name, race = (p) => p }) {
  await race(pyodide.loadPackage(micropip, quiet));
  if (!pyodide.loadedPackages.micropip) throw new Error("micropip could not be loaded");
  const path = `/tmp/${name}`;
  const bytes = typeof wheel === "function" ? wheel() : wheel;
  pyodide.FS.writeFile(path, new Uint8Array(await race(bytes)));
  const installer = pyodide.pyimport("micropip");
  performance.mark("micropip-imported");
  try {
    await race(installer.install(`emfs:${path}`));
  } finally {
    installer.destroy();
  }
  pyodide.FS.unlink(path);
  performance.mark("wheel-installed");
  const web = pyodide.pyimport("freecell._web");
  performance.mark("wheel-imported");
  return web;
}

/**
 * Boot Python and install our wheel: resolves with {pyodide, web}, `web` the module
 * freecell._web. `loadPyodide` and its `options` start the runtime; `afterStart(pyodide)`, if
 * given, runs between Python's start and the install (a layer's hook: the standard library's
 * second zip, stdlib.js); the rest as installWheel's.
 */
export async function bootPython(boot) {
  const { loadPyodide, options = {}, afterStart, race = (p) => p, ...wheel } = boot;
  const pyodide = await race(loadPyodide(options));
  performance.mark("python-started");
  await afterStart?.(pyodide);
  const web = await installWheel(pyodide, { ...wheel, race });
  return { pyodide, web };
}
