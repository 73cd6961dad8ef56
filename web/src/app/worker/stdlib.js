// The page's standard library comes in two zips (build.py): the modules Python's start imports,
// which loadPyodide mounts (stdLibURL), and the few that only the page's boot imports after it
// (micropip's and our wheel's), which download with the wheels once the WebAssembly is in, so
// that Python's start does not wait for them on a slow link. This puts the second on Python's
// path; a memory snapshot keeps it with its files (runtime.js).

/** Where the second zip lives in Python's file system. */
export const LATER_STDLIB = "/lib/python_stdlib_later.zip";

/** Put the second zip (its bytes) on Python's path, right after the first. */
export function addLaterStdlib(pyodide, bytes) {
  pyodide.FS.writeFile(LATER_STDLIB, bytes);
  const sys = pyodide.pyimport("sys");
  const path = sys.path;
  try {
    const first = path.toJs().findIndex((entry) => entry.endsWith(".zip")); // the start's zip
    path.insert(first + 1, LATER_STDLIB);
  } finally {
    path.destroy();
    sys.destroy();
  }
}
