// Wires the page: URL state, controls and keys, the Python bridge and the board view.
// JavaScript renders and reads input; Python (freecell._web) decides every move's legality.
import { PythonBridge } from "./bridge.js";
import { placeElement, placeOf, renderGame, showSelection, showTargets } from "./board.js";
import {
  LANGUAGES,
  fill,
  formatNumber,
  fromPython,
  language,
  matchLanguage,
  t,
  useLanguage,
} from "./i18n.js";
import { randomDeal, readDeal, readLanguage, writeGame, writeLanguage } from "./url.js";

const root = document.documentElement;
const table = document.getElementById("table");
const board = document.getElementById("board");
const form = document.getElementById("deal-form");
const input = document.getElementById("deal");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const retry = document.querySelector("[data-action=retry]");
const help = document.getElementById("help");
const helpButton = document.querySelector("[data-action=help]");
const autoBox = document.getElementById("auto");
const movesCount = document.getElementById("moves-count");
const win = document.getElementById("win");
const winText = document.getElementById("win-text");
const undoButton = document.querySelector("[data-action=undo]");
const redoButton = document.querySelector("[data-action=redo]");
const restartButton = document.querySelector("[data-action=restart]");
const languageMenu = document.getElementById("language");

const STAGES = {
  downloading: () => t("status.downloading"),
  starting: () => t("status.starting"),
  installing: () => t("status.installing"),
};
const AUTO_KEY = "freecell.auto-move";
const LANGUAGE_KEY = "freecell.language";
const MIN_DEAL = 1;
const MAX_DEAL = 8589934591; // 2**33 - 1, as freecell.MAX_DEAL
const STEP_MS = 110; // the pause between a move and each automatic move after it
const NOTE_MS = 6000; // how long a refused move's reason stays up

let shown = null; // {number, text} of the game on the board
let game = null; // the game's state as Python last reported it
let faces = null; // card code -> face, from Python
let base = ""; // the deal that prev/next step from: the latest one asked for
let latest = 0; // only the reply to the latest request is shown
let selection = null; // {place, card}: the picked-up card(s), waiting for a target
let showing = 0; // the current run of steps being shown; a newer reply stops an older run
let noteTimer = 0;
let opening = 0; // how many deals are being opened: moves wait until the board is the new deal
let saying = () => ""; // what the message line says, as a function: a new language re-says it
let stage = null; // the status line's loading stage, or null
let languageInUrl = false; // whether the language was chosen (link, menu, storage), so links keep it

/** Say something in the message line: text, or a function that says it in the language. */
function say(text) {
  clearTimeout(noteTimer);
  saying = typeof text === "function" ? text : () => text;
  message.textContent = saying();
}

/** Say something that goes away by itself, such as why a move was refused. */
function note(text) {
  say(text);
  const said = saying;
  noteTimer = setTimeout(() => {
    if (saying === said) say("");
  }, NOTE_MS);
}

/** Say a reply's error in the language (Python's English text when there is nothing better). */
function pythonError(reply) {
  return () => fromPython(reply.error, reply);
}

function showStage(next) {
  stage = next;
  statusLine.textContent = next === null ? "" : (STAGES[next]?.() ?? next);
}

function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function autoOn() {
  return autoBox.checked;
}

function loadAutoSetting() {
  try {
    autoBox.checked = localStorage.getItem(AUTO_KEY) !== "off";
  } catch {
    autoBox.checked = true;
  }
}

// --- showing the game ----------------------------------------------------------------------

function select(next) {
  selection = next;
  showSelection(table, selection);
  showTargets(table, []);
  if (!selection) return;
  const asked = selection;
  bridge.request({ op: "targets", source: asked.place }).then((reply) => {
    if (reply.ok && selection === asked) showTargets(table, reply.targets);
  });
}

function renderState(state) {
  renderGame(table, state, faces);
  movesCount.textContent = formatNumber(state.move_count);
  undoButton.disabled = !state.can_undo;
  redoButton.disabled = !state.can_redo;
  restartButton.disabled = !state.can_undo;
  if (selection) showSelection(table, selection);
}

function showWin(state) {
  if (state.won) {
    const already = root.dataset.won === "true";
    root.dataset.won = "true";
    winText.textContent = t("win.text", { deal: String(state.deal), count: state.move_count });
    win.hidden = false;
    if (!already) win.querySelector("[data-action=play-next]").focus();
  } else {
    delete root.dataset.won;
    win.hidden = true;
  }
}

/** Show a game reply: its steps one by one (a move, then each automatic move), then the game. */
async function showGame(reply, historyMode) {
  const run = ++showing;
  if (selection) select(null);
  const steps = reply.steps?.length ? reply.steps : [reply.game];
  for (const [index, state] of steps.entries()) {
    if (run !== showing) return;
    if (index > 0 && !reducedMotion()) await new Promise((done) => setTimeout(done, STEP_MS));
    if (run !== showing) return;
    renderState(state);
  }
  game = reply.game;
  if (steps.at(-1) !== game) renderState(game);
  showWin(game);
  if (historyMode !== "none") {
    writeGame(game.deal, game.moves, { replace: historyMode === "replace" });
  }
}

// --- deals ---------------------------------------------------------------------------------

/** Ask Python for a game and show it, unless a later request has been made meanwhile. */
async function show(request, historyMode) {
  const token = ++latest;
  opening += 1;
  const reply = await bridge.request(request).finally(() => {
    opening -= 1;
  });
  if (reply.faces) faces = reply.faces;
  if (token !== latest) return;
  if (!reply.ok) {
    say(pythonError(reply));
    base = shown ? String(shown.number) : base;
    return;
  }
  shown = { number: reply.number, text: reply.text };
  base = String(reply.number);
  selection = null;
  showTitle();
  // The field shows the deal, unless the user is typing something else in it meanwhile.
  if (document.activeElement !== input || input.value === (request.text ?? input.value)) {
    input.value = base;
  }
  say(reply.notice ? () => fromPython(reply.notice, noticeOf(reply)) : "");
  // A link whose moves were cut short is corrected to the moves that were played.
  const mode = historyMode === "none" && reply.notice ? "replace" : historyMode;
  await showGame(reply, mode);
}

function noticeOf(reply) {
  return { code: reply.notice_code, params: reply.notice_params };
}

function showTitle() {
  document.title = shown
    ? t("page.title-deal", { number: String(shown.number) })
    : t("page.title");
}

function open(text, historyMode = "push", moves = "") {
  base = text;
  return show({ op: "game", text, moves, faces: !faces }, historyMode);
}

function step(by) {
  return show({ op: "game", text: base, step: by, faces: !faces }, "push");
}

function openFromUrl(historyMode) {
  const wanted = readDeal();
  if (wanted.kind === "one") return open(wanted.text, historyMode, wanted.moves);
  if (wanted.kind === "many") {
    say(() => t("link.many-deals", { min: String(MIN_DEAL), max: String(MAX_DEAL) }));
    return undefined;
  }
  return open(String(randomDeal()), "replace");
}

// --- moves ---------------------------------------------------------------------------------

/** Send a move request to Python and show what it answers; a refusal changes nothing. */
async function act(request) {
  if (!game || opening) return;
  const token = ++latest;
  const reply = await bridge.request(request);
  if (token !== latest) return;
  if (!reply.ok) {
    note(pythonError(reply));
    if (reply.game) {
      game = reply.game;
      renderState(game);
    }
    return;
  }
  if (!win.hidden || message.textContent) say("");
  await showGame(reply, "replace");
}

function placeIsEmpty(place) {
  return !placeElement(table, place)?.querySelector("[data-card]");
}

/**
 * A card or a place was chosen (click, tap, key): pick it up, or put the picked-up card there.
 * `again` says what choosing the picked-up place again does: "drop" it or play its "best" move.
 */
function choose(place, card = null, again = "drop") {
  if (!game || !place || opening) return;
  if (!selection) {
    if (place === "h") {
      note(() => t("pick.foundation"));
      return;
    }
    if (placeIsEmpty(place)) {
      if ("abcd".includes(place)) note(() => t("pick.empty-freecell", { cell: place.toUpperCase() }));
      else note(() => t("pick.empty-cascade", { cascade: place }));
      return;
    }
    say("");
    select({ place, card });
    return;
  }
  if (selection.place === place) {
    if (card && card !== selection.card) select({ place, card });
    else if (again === "best") {
      const picked = selection.card ?? bottomCard(place);
      select(null);
      if (picked) act({ op: "card", card: picked, auto: autoOn() });
    } else select(null);
    return;
  }
  const from = selection;
  select(null);
  act({ op: "play", source: from.place, target: place, card: from.card ?? "", auto: autoOn() });
}

function bottomCard(place) {
  const cards = placeElement(table, place)?.querySelectorAll("[data-card]") ?? [];
  return cards.length ? cards[cards.length - 1].dataset.card : null;
}

function undo() {
  if (game?.can_undo) act({ op: "undo", auto: autoOn() });
}

function redo() {
  if (game?.can_redo) act({ op: "redo", auto: autoOn() });
}

// --- clicks, double clicks, drags ----------------------------------------------------------

let suppressClick = false;

table.addEventListener("click", (event) => {
  if (suppressClick) {
    suppressClick = false;
    return;
  }
  const place = placeOf(event.target);
  if (!place) return;
  const card = event.target.closest("[data-card]");
  choose(place, card && place !== "h" ? card.dataset.card : null);
});

table.addEventListener("dblclick", (event) => {
  const card = event.target.closest("[data-card]");
  if (!card || placeOf(card) === "h") return;
  event.preventDefault();
  select(null);
  act({ op: "card", card: card.dataset.card, auto: autoOn() });
});

let drag = null; // {id, card, place, x, y, ghost, moved}
const DRAG_START_PX = 6;

table.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || !game || drag) return;
  const card = event.target.closest("[data-card]");
  const place = placeOf(card);
  if (!card || !place || place === "h") return;
  drag = { id: event.pointerId, card, place, x: event.clientX, y: event.clientY, ghost: null };
});

function startDrag(event) {
  const { card } = drag;
  const cards = [];
  for (let item = card; item; item = item.nextElementSibling) cards.push(item);
  const ghost = document.createElement(card.tagName === "LI" ? "ol" : "div");
  ghost.className = "cascade drag-ghost";
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.setProperty("--n", card.parentElement.style.getPropertyValue("--n") || "1");
  for (const item of cards) {
    const copy = item.cloneNode(true);
    delete copy.dataset.card;
    copy.removeAttribute("aria-label");
    copy.removeAttribute("aria-current");
    ghost.append(copy);
    item.classList.add("dragging");
  }
  const box = card.getBoundingClientRect();
  drag.dx = drag.x - box.left;
  drag.dy = drag.y - box.top;
  drag.cards = cards;
  drag.ghost = ghost;
  document.body.append(ghost);
  try {
    card.setPointerCapture(event.pointerId);
  } catch {
    // the pointer may already be gone; the drag still ends on pointerup or pointercancel
  }
  select(null);
}

function moveGhost(event) {
  drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
}

function endDrag() {
  if (!drag) return;
  drag.ghost?.remove();
  for (const item of drag.cards ?? []) item.classList.remove("dragging");
  drag = null;
}

document.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
    startDrag(event);
  }
  event.preventDefault();
  moveGhost(event);
});

document.addEventListener("pointerup", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.ghost) {
    drag = null; // a plain click: the click handler picks the card up
    return;
  }
  drag.ghost.hidden = true;
  const target = placeOf(document.elementFromPoint(event.clientX, event.clientY));
  const { place, card } = drag;
  endDrag();
  suppressClick = true;
  setTimeout(() => {
    suppressClick = false;
  }, 0);
  if (target && target !== place) {
    act({ op: "play", source: place, target, card: card.dataset.card, auto: autoOn() });
  }
});

document.addEventListener("pointercancel", (event) => {
  if (drag && event.pointerId === drag.id) endDrag();
});

// --- controls and keys ---------------------------------------------------------------------

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
      say(() => t("copy.blocked"));
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
  "play-next": () => step(1),
  random: () => open(String(randomDeal())),
  "copy-link": () =>
    copy(location.href, game?.moves.length ? () => t("copy.link-game") : () => t("copy.link-deal")),
  "copy-text": () => {
    if (!shown) return say(() => t("copy.nothing"));
    const { number, text } = shown;
    return copy(text, () => t("copy.text", { number: String(number) }));
  },
  help: () => toggleHelp(),
  retry: () => startPython(),
  undo,
  redo,
  restart: () => {
    if (game?.can_undo) act({ op: "restart" });
  },
};

const keys = { n: "next", p: "prev", r: "random", l: "copy-link", t: "copy-text", "?": "help" };
const PLACE_KEYS = "12345678abcdh";

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (button) actions[button.dataset.action]?.();
});

autoBox.addEventListener("change", () => {
  try {
    localStorage.setItem(AUTO_KEY, autoBox.checked ? "on" : "off");
  } catch {
    // storage may be off; the setting then lasts as long as the page
  }
});

function inField(event) {
  return event.target.closest("input:not([type=checkbox]), textarea, select, [contenteditable]");
}

document.addEventListener("keydown", (event) => {
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !inField(event)) {
    if (key === "z" && !event.shiftKey) {
      event.preventDefault();
      undo();
    } else if (key === "y" || (key === "z" && event.shiftKey)) {
      event.preventDefault();
      redo();
    }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") {
    if (!help.hidden) {
      toggleHelp(false);
      helpButton.focus();
    } else if (selection) select(null);
    return;
  }
  if (inField(event)) return;
  if (
    (event.key === "Enter" || event.key === " ") &&
    event.target.matches("[data-column], [data-freecell], .foundations")
  ) {
    event.preventDefault();
    choose(placeOf(event.target), null, "best");
    return;
  }
  if (event.key === "/") {
    event.preventDefault();
    input.focus();
    input.select();
    return;
  }
  if (key.length === 1 && PLACE_KEYS.includes(key)) {
    event.preventDefault();
    choose(key, null, "best");
    return;
  }
  const action = keys[event.key] ?? keys[key];
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
  onStatus: (next) => showStage(next),
  onReady: () => {
    root.dataset.state = "ready";
    showStage(null);
  },
  onFailed: (reason) => {
    root.dataset.state = "error";
    showStage(null);
    say(() => t("python.failed", { reason }));
    retry.hidden = false;
  },
});

function startPython() {
  root.dataset.state = "loading";
  retry.hidden = true;
  say("");
  showStage("downloading");
  bridge.start();
}

// --- languages -----------------------------------------------------------------------------

/** Put the page's fixed text in the language: every [data-i18n] element and attribute. */
function translatePage() {
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-title]")) {
    element.title = t(element.dataset.i18nTitle);
  }
  for (const element of document.querySelectorAll("[data-i18n-aria-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAriaLabel));
  }
  document.querySelector("meta[name=description]").content = t("page.description");
  document.getElementById("deal-hint").textContent = t("deal.hint", {
    min: String(MIN_DEAL),
    max: String(MAX_DEAL),
  });
  document.getElementById("help-range").textContent = t("help.range", {
    min: MIN_DEAL,
    max: MAX_DEAL,
  });
  const code = (text) => Object.assign(document.createElement("code"), { textContent: text });
  const share = document.getElementById("help-share");
  fill(share, "help.share", {
    deal: code("?deal=617"),
    moves: code("?deal=617&moves=5a,5b,2h"),
  });
}

/** Speak a language: the fixed text, the board, the messages, the title; the game stays. */
async function applyLanguage(wanted) {
  const code = await useLanguage(wanted);
  root.lang = LANGUAGES[code].tag;
  languageMenu.value = code;
  translatePage();
  showTitle();
  if (stage !== null) showStage(stage);
  message.textContent = saying();
  if (game) {
    renderState(game);
    showWin(game);
  }
  return code;
}

function storedLanguage() {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The language to start in: the link's ?lang=, else the one chosen before (localStorage), else
 * the browser's preferred languages, else English. A chosen one stays in the URL.
 */
function startingLanguage() {
  for (const chosen of [readLanguage(), storedLanguage()]) {
    const code = matchLanguage(chosen);
    if (code) return { code, chosen: true };
  }
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const code = matchLanguage(tag);
    if (code) return { code, chosen: false };
  }
  return { code: "en", chosen: false };
}

languageMenu.addEventListener("change", async () => {
  const code = await applyLanguage(languageMenu.value);
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // storage may be off; the URL still keeps the language
  }
  languageInUrl = true;
  writeLanguage(code);
});

window.addEventListener("popstate", () => {
  const code = matchLanguage(readLanguage());
  if (code && code !== language()) applyLanguage(code);
  else if (languageInUrl && !readLanguage()) writeLanguage(language());
});

async function start() {
  loadAutoSetting();
  startPython();
  const { code, chosen } = startingLanguage();
  try {
    await applyLanguage(code);
  } catch {
    await applyLanguage("en"); // a catalogue that cannot load: English, which always can
  }
  languageInUrl = chosen;
  if (chosen) writeLanguage(language());
  openFromUrl("replace");
}

start();
