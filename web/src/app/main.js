// Wires the page: URL state, controls and keys, the Python bridge and the board view.
import { PythonBridge } from "./bridge.js";
import { renderDeal } from "./board.js";
import { randomDeal, readDeal, writeDeal } from "./url.js";

const root = document.documentElement;
const board = document.getElementById("board");
const form = document.getElementById("deal-form");
const input = document.getElementById("deal");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const retry = document.querySelector("[data-action=retry]");
const help = document.getElementById("help");
const helpButton = document.querySelector("[data-action=help]");

const STAGES = {
  downloading: "Downloading Python…",
  starting: "Starting Python…",
  installing: "Installing the dealer…",
};

let shown = null; // the deal on the board, as freecell._web returned it
let base = ""; // the deal that prev/next step from: the latest one asked for
let latest = 0; // only the reply to the latest request is shown

function say(text) {
  message.textContent = text;
}

/** Ask Python for a deal and show it, unless a later request has been made meanwhile. */
async function show(request, historyMode) {
  const token = ++latest;
  const reply = await bridge.request(request);
  if (token !== latest) return;
  if (!reply.ok) {
    say(reply.error);
    base = shown ? String(shown.number) : base;
    return;
  }
  shown = reply;
  base = String(reply.number);
  renderDeal(board, reply);
  document.title = `FreeCell deal #${reply.number}`;
  if (document.activeElement !== input || historyMode !== "none") input.value = base;
  if (historyMode !== "none") writeDeal(reply.number, { replace: historyMode === "replace" });
  say("");
}

function open(text, historyMode = "push") {
  base = text;
  return show({ op: "open", text }, historyMode);
}

function step(by) {
  return show({ op: "step", text: base, step: by }, "push");
}

function openFromUrl(historyMode) {
  const wanted = readDeal();
  if (wanted.kind === "one") return open(wanted.text, historyMode);
  if (wanted.kind === "many") {
    say("The link names more than one deal: give one deal number, 1 to 8589934591, or -1 or -2.");
    return undefined;
  }
  return open(String(randomDeal()), "replace");
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    if (!copied) {
      say("Copying is blocked in this browser: select and copy the address bar instead.");
      return;
    }
  }
  say(done);
}

function toggleHelp(open = help.hidden) {
  help.hidden = !open;
  helpButton.setAttribute("aria-expanded", String(open));
}

const actions = {
  prev: () => step(-1),
  next: () => step(1),
  random: () => open(String(randomDeal())),
  "copy-link": () => copy(location.href, "Copied the link to this deal."),
  "copy-text": () =>
    shown
      ? copy(shown.text, `Copied deal #${shown.number} as text (fc-solve format).`)
      : say("No deal is shown yet."),
  help: () => toggleHelp(),
  retry: () => startPython(),
};

const keys = { n: "next", p: "prev", r: "random", l: "copy-link", t: "copy-text", "?": "help" };

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (button) actions[button.dataset.action]?.();
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape" && !help.hidden) {
    toggleHelp(false);
    helpButton.focus();
    return;
  }
  if (event.target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.key === "/") {
    event.preventDefault();
    input.focus();
    input.select();
    return;
  }
  const action = keys[event.key] ?? keys[event.key.toLowerCase()];
  if (action) {
    event.preventDefault();
    actions[action]();
  }
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  open(input.value);
});

window.addEventListener("popstate", () => openFromUrl("none"));

const bridge = new PythonBridge({
  onStatus: (stage) => {
    statusLine.textContent = STAGES[stage] ?? stage;
  },
  onReady: () => {
    root.dataset.state = "ready";
    statusLine.textContent = "";
  },
  onFailed: (reason) => {
    root.dataset.state = "error";
    statusLine.textContent = "";
    say(`Python could not be loaded (${reason}). Check your connection, then retry.`);
    retry.hidden = false;
  },
});

function startPython() {
  root.dataset.state = "loading";
  retry.hidden = true;
  say("");
  statusLine.textContent = STAGES.downloading;
  bridge.start();
}

startPython();
openFromUrl("replace");
