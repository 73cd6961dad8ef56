// Build the page's standard library: the modules the page imports compiled to bytecode, the rest
// as the stock sources, without the developer tools the page never runs.
//
// Usage: node web/tools/compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP
//            [EXCLUDED_PREFIX...]
//
// The stock python_stdlib.zip holds only sources, so every boot compiles each module it imports.
// This runs the page's own boot inside the same Pyodide under Node.js (micropip installs the
// dealer's wheel from the in-memory file system, then the page's API deals and plays a little),
// records which standard library modules that imported, and compiles exactly those, here, by
// the runtime's own CPython: the magic number and bytecode are what the browser's runtime
// expects. The `.pyc` files use the legacy sourceless layout (`foo.pyc` where `foo.py` was), which
// zipimport loads directly; modules not imported stay sources, so they still work, just slower.
// Members whose path starts with an excluded prefix are left out, unless the boot imported them.
// The zip is deterministic: sorted members, fixed timestamps, no source mtimes in the headers.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, micropipWheel, dealerWheel, out, ...excluded] = process.argv.slice(2);
if (!out) {
  console.error(
    "usage: node compile_stdlib.mjs RUNTIME_DIR MICROPIP_WHEEL DEALER_WHEEL OUT_ZIP [PREFIX...]",
  );
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${resolve(runtime)}/` });
await pyodide.loadPackage(resolve(micropipWheel), { messageCallback: () => {} });
if (!pyodide.loadedPackages.micropip) throw new Error(`could not load ${micropipWheel}`);
const wheel = `/tmp/${basename(dealerWheel)}`;
pyodide.FS.writeFile(wheel, readFileSync(dealerWheel));
// The page's boot and a short session (worker.js): every module they import gets compiled.
await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:${wheel}")
from freecell import _web
_web.new_game("617", "", 0)
_web.new_game("617", "", 1)
_web.targets("1")
_web.play("1", "a", "", True)
_web.play("1", "9", "", True)
_web.play_card("AS", True)
_web.undo(True)
_web.redo(True)
_web.restart()
_web.new_game("x")
`);
pyodide.globals.set("excluded", pyodide.toPy(excluded));
const summary = pyodide.runPython(`
import marshal
import sys
import zipfile
from importlib.util import MAGIC_NUMBER

stock = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
imported = set()
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith(stock + "/"):
        imported.add(origin.removeprefix(stock + "/"))
header = MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: no source to check against
compiled = sources = 0
with zipfile.ZipFile(stock) as source, zipfile.ZipFile("/tmp/stdlib.zip", "w") as target:
    for name in sorted(source.namelist()):
        if name.endswith("/"):
            continue
        if name not in imported and any(name.startswith(prefix) for prefix in excluded):
            continue
        data = source.read(name)
        if name in imported:
            # The file name tracebacks show: where the source is in the stock zip.
            code = compile(data, f"{stock}/{name}", "exec", dont_inherit=True, optimize=0)
            name, data = name.removesuffix(".py") + ".pyc", header + marshal.dumps(code)
            compiled += 1
        else:
            sources += 1
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        target.writestr(info, data, compresslevel=9)
f"{compiled} modules compiled, {sources} other files kept, by Python {sys.version.split()[0]}"
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/stdlib.zip"));
console.log(summary);
