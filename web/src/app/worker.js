// The Python side of the page: a module worker that boots Pyodide, installs our wheel with
// micropip and answers the page's requests by calling freecell._web.
//
// Protocol, page -> worker: {id, op: "open", text} | {id, op: "step", text, step}
// worker -> page: {type: "status", stage: "downloading" | "starting" | "installing"}
//                 {type: "ready"} | {type: "failed", message}
//                 {type: "reply", id, reply}   (reply is freecell._web's JSON, parsed)
// ("step" takes the deal to step from as text, the way the user or the URL gave it.)
import { loadPyodide } from "../pyodide/pyodide.mjs";

const here = new URL(".", import.meta.url);
const root = new URL("../", here);

function status(stage) {
  postMessage({ type: "status", stage });
}

// The runtime's two big files finishing their download is our sign that Python is starting.
function watchDownloads() {
  const pending = new Set(["pyodide.asm.wasm", "python_stdlib.zip"]);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pending.delete(entry.name.split("/").pop());
    }
    if (pending.size === 0) {
      observer.disconnect();
      status("starting");
    }
  });
  observer.observe({ type: "resource", buffered: true });
}

async function boot() {
  status("downloading");
  watchDownloads();
  const manifest = fetch(new URL("manifest.json", root)).then((response) => {
    if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
    return response.json();
  });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", root).href });
  const files = await manifest;
  status("installing");
  // By URL: the runtime's lockfile names a micropip build whose hash differs from PyPI's.
  const problems = [];
  await pyodide.loadPackage(new URL(files.micropip, root).href, {
    checkIntegrity: false,
    messageCallback: () => {},
    errorCallback: (message) => problems.push(message),
  });
  if (problems.length) throw new Error(`micropip could not be loaded: ${problems.join(" ")}`);
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(new URL(files.dealer, root).href);
  micropip.destroy();
  return pyodide.pyimport("freecell._web");
}

const api = boot();
api.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", message: String(error?.message ?? error) }),
);

const operations = {
  open: (web, { text }) => web.open_deal(String(text)),
  step: (web, { text, step }) => web.step_deal(String(text), step),
};

self.onmessage = async ({ data }) => {
  const web = await api;
  const operation = operations[data.op];
  const reply = operation
    ? JSON.parse(operation(web, data))
    : { ok: false, error: `unknown request ${String(data.op)}` };
  postMessage({ type: "reply", id: data.id, reply });
};
