// Input: clicks, double clicks and keys, turned into the player's actions (play.js) and the
// windows' (dialogs.js). Drags are drag.js's. Returns a function that unbinds everything.
import { placeOf } from "./board.js";
import rules from "./rules.js";

const KEYS = {
  n: "next",
  p: "prev",
  r: "random",
  l: "copy-link",
  t: "copy-text",
  i: "stats",
  "?": "help",
  H: "hint",
  S: "solve",
};
const PLACE_KEYS = rules.cascades + rules.freecells + rules.foundation;
const HISTORY_KEYS = { ",": -1, ".": 1 }; // the history slider: a move back, a move forward
// Two taps this close in time and place are a double tap: with tap-to-move on, its first tap
// plays the card, and its second does nothing (it would play the card uncovered there).
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_PX = 24;
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);

function inField(event) {
  return event.target.closest(
    "input:not([type=checkbox], [type=range]), textarea, select, [contenteditable]",
  );
}

/**
 * Bind the page's controls and keys to `actions` (play.js's and dialogs.js's); `state` says
 * whether a tap plays a card (state.tapToMove).
 */
export function bindInput(dom, state, actions, dialogs, drag) {
  const buttons = {
    prev: () => actions.step(-1),
    next: () => actions.step(1),
    "play-next": () => actions.step(1),
    random: actions.random,
    daily: actions.daily,
    "copy-link": actions.copyLink,
    "copy-text": actions.copyText,
    help: dialogs.toggleHelp,
    stats: dialogs.toggleStats,
    "stats-reset": dialogs.askReset,
    "stats-reset-yes": () => dialogs.reset(true),
    "stats-reset-no": () => dialogs.reset(false),
    retry: actions.retry,
    hint: actions.hint,
    solve: actions.solve,
    undo: actions.undo,
    redo: actions.redo,
    restart: actions.restart,
    "undo-to-winnable": actions.undoToWinnable,
    find: actions.find,
    "find-deal": actions.findDeal,
  };

  let lastTap = null; // {time, x, y} of the last click on the table

  /** Whether a click is the second of a double click or tap (then it is forgotten). */
  function secondTap(event) {
    const second =
      lastTap !== null &&
      event.timeStamp - lastTap.time < DOUBLE_TAP_MS &&
      Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < DOUBLE_TAP_PX;
    lastTap = second ? null : { time: event.timeStamp, x: event.clientX, y: event.clientY };
    return second;
  }

  // A click or a tap: with tap-to-move on, one on a card plays it (play.js's tap); the second
  // tap of a double tap then does nothing more, so that a double tap is one move.
  function onTableClick(event) {
    if (drag.justDropped()) return;
    if (secondTap(event) && state.tapToMove) return;
    const place = placeOf(event.target);
    if (!place) return;
    const card = event.target.closest("[data-card]");
    actions.tap(place, card && place !== rules.foundation ? card.dataset.card : null);
  }

  function onDoubleClick(event) {
    if (state.tapToMove) return; // its first click played the card already
    const card = event.target.closest("[data-card]");
    if (!card || placeOf(card) === rules.foundation) return;
    event.preventDefault();
    actions.playCard(card.dataset.card);
  }

  function onClick(event) {
    const button = event.target.closest("[data-action]");
    if (!button) return;
    if (button.dataset.action === "close") dialogs.close(button);
    else buttons[button.dataset.action]?.();
  }

  function onKey(event) {
    if (!MODIFIERS.has(event.key) && KEYS[event.key] !== "solve") actions.stop();
    if (dialogs.isOpen()) {
      // A window is open: Esc closes it (the browser does), ? and I toggle theirs.
      const key = event.key.toLowerCase();
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey && !inField(event);
      if (plain && (key === "?" || key === "i")) {
        event.preventDefault();
        buttons[KEYS[key]]();
      }
      return;
    }
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !inField(event)) {
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        actions.undo();
      } else if (key === "y" || (key === "z" && event.shiftKey)) {
        event.preventDefault();
        actions.redo();
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (!dialogs.closeAny()) actions.cancel();
      return;
    }
    if (inField(event)) return;
    if (
      (event.key === "Enter" || event.key === " ") &&
      event.target.matches("[data-column], [data-freecell], .foundations")
    ) {
      event.preventDefault();
      actions.choose(placeOf(event.target), null, "best");
      return;
    }
    if (event.key === "/") {
      event.preventDefault();
      dom.dealField.focus();
      dom.dealField.select();
      return;
    }
    if (Object.hasOwn(HISTORY_KEYS, event.key)) {
      event.preventDefault();
      actions.seekBy(HISTORY_KEYS[event.key]);
      return;
    }
    if (key.length === 1 && PLACE_KEYS.includes(key) && !event.shiftKey) {
      event.preventDefault();
      actions.choose(key, null, "best");
      return;
    }
    const action = KEYS[event.key] ?? (event.shiftKey ? undefined : KEYS[key]);
    if (action) {
      event.preventDefault();
      buttons[action]();
    }
  }

  function onSubmit(event) {
    event.preventDefault();
    actions.open(dom.dealField.value);
  }

  function onAuto() {
    actions.setAuto(dom.auto.value);
  }

  // Dragging the slider fires input after input: play.js keeps only the latest.
  function onHistory() {
    actions.seek(dom.history.valueAsNumber);
  }

  function onTapToMove() {
    actions.setTapToMove(dom.tapToMove.checked);
  }

  function onLiveCheck() {
    actions.setLiveCheck(dom.liveCheck.checked);
  }

  function onShowPar() {
    actions.setShowPar(dom.showPar.checked);
  }

  function onGrade() {
    actions.setGrade(dom.randomGrade.value ? Number(dom.randomGrade.value) : null);
  }

  const bindings = [
    [dom.table, "click", onTableClick],
    [dom.table, "dblclick", onDoubleClick],
    [document, "click", onClick],
    [document, "keydown", onKey],
    [dom.form, "submit", onSubmit],
    [dom.auto, "change", onAuto],
    [dom.tapToMove, "change", onTapToMove],
    [dom.history, "input", onHistory],
    [dom.liveCheck, "change", onLiveCheck],
    [dom.showPar, "change", onShowPar],
    [dom.randomGrade, "change", onGrade],
  ];
  for (const [target, type, listener] of bindings) target.addEventListener(type, listener);
  return () => {
    for (const [target, type, listener] of bindings) target.removeEventListener(type, listener);
  };
}
