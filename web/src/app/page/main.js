// Wires the page together: the state, the Python bridge, the view and the input modules.
// JavaScript renders and reads input; Python (freecell._web) decides every move's legality.
// See docs/architecture.md for the modules and how a click becomes a move.
import { createBoard } from "./board.js";
import { PythonBridge } from "./bridge.js";
import { createDialogs } from "./dialogs.js";
import { createFind } from "./find.js";
import { bindDrag } from "./drag.js";
import { keepBarFitted } from "./fit.js";
import { t } from "./i18n.js";
import { bindInput } from "./input.js";
import { createLanguage } from "./language.js";
import { bindLook } from "./look.js";
import { createMessages } from "./messages.js";
import { createPlay } from "./play.js";
import rules from "./rules.js";
import { createState } from "./state.js";
import { createStats } from "./stats.js";
import { bindArchive, createArchive } from "./archive.js";
import { bindShare } from "./share.js";
import { createTimer, timed } from "./timer.js";
import { createView } from "./view.js";

const $ = (selector) => document.querySelector(selector);
const dom = {
  root: document.documentElement,
  bar: $("header.bar"),
  table: $("#table"),
  board: $("#board"),
  form: $("#deal-form"),
  dealField: $("#deal"),
  help: $("#help"),
  stats: $("#stats"),
  statsConfirm: $("#stats-confirm"),
  myGames: $("#my-games"),
  importFile: $("#import-file"),
  archiveMessage: $("#archive-message"),
  moreToggle: $(".more-toggle"),
  auto: $("#auto"),
  deck: $("#deck"),
  leftHanded: $("#left-handed"),
  tapToMove: $("#tap-to-move"),
  liveCheck: $("#live-check"),
  guard: $("#guard"),
  difficulty: $("#difficulty"),
  difficultyValue: $("#difficulty-value"),
  grade: $("#grade"),
  minCells: $("#min-cells"),
  minCellsCount: $("#min-cells-count"),
  minCellsLabel: $("#min-cells-label"),
  daily: $("#daily"),
  randomGrade: $("#random-grade"),
  lost: $("#lost"),
  movesCount: $("#moves-count"),
  timer: $("#timer"),
  showTimer: $("#show-timer"),
  par: $("#par"),
  parValue: $("#par-value"),
  showPar: $("#show-par"),
  history: $("#history"),
  win: $("#win"),
  winText: $("#win-text"),
  playNext: $("[data-action=play-next]"),
  prev: $("[data-action=prev]"),
  next: $("[data-action=next]"),
  undo: $("[data-action=undo]"),
  hint: $("[data-action=hint]"),
  solve: $("[data-action=solve]"),
  solveLabel: $("[data-action=solve] .label"),
  searching: $("#searching"),
  redo: $("[data-action=redo]"),
  restart: $("[data-action=restart]"),
  retry: $("[data-action=retry]"),
  languageMenu: $("#language"),
  find: $("#find"),
  layout: $("#layout"),
  findResult: $("#find-result"),
};

const state = createState();
const messages = createMessages({
  messageLine: $("#message"),
  statusLine: $("#status"),
  progressBar: $("#progress"),
  updateNotice: $("#update"),
  announcer: $("#announcer"),
});
bindLook(dom); // before the first board: the cards come in their colours
const board = createBoard(dom.table);
const view = createView(dom, board);
keepBarFitted(dom.bar);
// Ready once Python answers and the first board is out: input from then on acts at once.
const boot = { python: false, firstBoard: false };

function maybeReady() {
  if (boot.python && boot.firstBoard && state.boot === "loading") {
    state.boot = "ready";
    view.render(state);
  }
}

const bridge = new PythonBridge({
  onStatus: (stage) => messages.status(stage),
  onProgress: (loaded, total) => messages.progress(loaded, total),
  onUpdate: (apply) => messages.offerUpdate(apply),
  onReady: () => {
    messages.status(null);
    boot.python = true;
    maybeReady();
  },
  onFailed: (reason) => {
    state.boot = "error";
    messages.status(null);
    messages.say(() => t("python.failed", { reason }));
    dom.retry.hidden = false;
    view.render(state);
  },
});

function startPython() {
  state.boot = "loading";
  boot.python = false;
  dom.retry.hidden = true;
  messages.say("");
  messages.status("loading");
  view.render(state);
  bridge.start();
}

const timer = createTimer({ state, element: dom.timer, toggle: dom.showTimer });
const stats = timed(createArchive(createStats()), timer);
const play = createPlay({ state, bridge, view, messages, stats });
const dialogs = createDialogs(dom, stats, state);
const call = (op, args = {}) => bridge.request({ op, args });
const find = createFind({ dom, call, open: play.open, dialogs, state, messages });
bindArchive(dom, stats, {
  refresh: dialogs.refresh,
  open: (deal, moves) => play.open(deal, "push", moves),
});
const windows = {
  ...dialogs,
  refresh() {
    dialogs.refresh();
    find.refresh();
  },
};
const language = createLanguage({ state, dom, view, messages, dialogs: windows });
const drag = bindDrag(board, state, play);
const actions = { ...play, retry: startPython, find: find.show, findDeal: find.find };
bindShare({ button: $("[data-action=share]"), state, copyLink: play.copyLink });
bindInput(dom, state, actions, dialogs, drag);

// Back and Forward: the address is read as the event finds it, since an action still under way
// when it came (a move, a setting's automatic moves) writes its own game's address as it ends;
// the entry is then written again for the game opened (nothing changes when it names it).
window.addEventListener("popstate", async () => {
  const search = location.search;
  await language.fromUrl(search);
  play.fromUrl("replace", search);
});

async function start() {
  // The settings as their owners read them from storage (play.js).
  dom.auto.value = state.auto;
  dom.tapToMove.checked = state.tapToMove;
  dom.liveCheck.checked = state.liveCheck;
  dom.showPar.checked = state.showPar;
  // Random's grades, from the facts shared with Python (the view names them in the language).
  for (const grade of rules.grades) dom.randomGrade.add(new Option(String(grade), String(grade)));
  dom.randomGrade.value = state.grade === null ? "" : String(state.grade);
  startPython();
  await language.start();
  await play.fromUrl("replace");
  boot.firstBoard = true;
  maybeReady();
}

start();
