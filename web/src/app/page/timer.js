// The game's clock (#timer in the bar, its whole seconds in data-seconds): it starts at the
// game's first move, pauses while the page is hidden (another tab, the window minimised, a
// phone's browser in the background) and stops at the win; Undo, Restart and the history
// slider never turn it back. A game that Solve finished shows no time, and its time counts
// for nothing. The menu's input#show-timer hides it (remembered; it still counts).
//
// This module is the only one that writes the clock (state.clock). It hears the game's events
// as the statistics do (opened, moved: `timed` wraps them) and hands them the time of a win,
// which they keep per deal as its best time (stats.js, archive.js). Each tab keeps its clocks
// of the games it played (sessionStorage), so that a reload, or Back to a game left, finds the
// game's time again; a game opened so holds its clock until its next move, as a new one does.
import { t } from "./i18n.js";
import { readSwitch, writeSetting } from "./settings.js";
import { session } from "./storage.js";

const KEY = "freecell.timer"; // this tab's clocks: {deal: {ms, started, done, solved, whole}}
const KEPT = 50; // the latest deals' clocks a tab keeps

/** A time in whole seconds as the clock shows it: "m:ss", or "h:mm:ss" from an hour on. */
export function formatTime(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor(whole / 60) % 60;
  const pad = (value) => String(value).padStart(2, "0");
  const rest = `${pad(whole % 60)}`;
  return hours ? `${hours}:${pad(minutes)}:${rest}` : `${minutes}:${rest}`;
}

/**
 * A new clock of a deal: not started (it waits for a move). `whole`: it times the whole game,
 * from its first move (not a game opened half-played from someone's link, whose time counts
 * for no best time).
 */
function newClock(deal, whole = true) {
  return { deal, ms: 0, since: null, started: false, done: false, solved: false, whole };
}

/** A clock's whole seconds at `now` (performance.now()'s time). */
export function clockSeconds(clock, now = performance.now()) {
  const running = clock.since === null ? 0 : Math.max(0, now - clock.since);
  return Math.floor((clock.ms + running) / 1000);
}

/**
 * Whether the clock has a time to show: not for a game Solve finished, nor for a game won
 * before this tab had a clock of it (a link to a won game). Before the first move it shows
 * 0:00, so that the bar does not shift when the clock starts.
 */
export function clockShown(clock, game) {
  return Boolean(clock) && !clock.solved && !(game?.won && !clock.done);
}

const isCount = (value) => Number.isFinite(value) && value >= 0;

/** A clock as this tab stored it, or null if it is not one. */
function storedClock(deal, value) {
  if (!value || typeof value !== "object" || !isCount(value.ms)) return null;
  const clock = newClock(deal);
  clock.ms = value.ms;
  clock.started = value.started === true;
  clock.done = value.done === true;
  clock.solved = value.solved === true;
  clock.whole = value.whole === true;
  return clock;
}

/**
 * The clock of a state (`state.clock`), shown in `element` (#timer, whose `#timer-value` holds
 * the time): {opened, moved, render}. `hidden()` says whether the page is hidden
 * (document.hidden; tests pass their own).
 */
export function createTimer({ state, element, toggle, hidden = () => document.hidden }) {
  const value = element.querySelector("#timer-value");
  let tick = 0;
  let shownText = "";
  state.clock = newClock(null);
  state.showTimer = readSwitch("showTimer");
  toggle.checked = state.showTimer;

  const now = () => performance.now();
  const running = () => state.clock.since !== null;

  /** This tab's clocks as stored: {deal: clock}. */
  function keptClocks() {
    const clocks = session.readJson(KEY, {});
    return clocks && typeof clocks === "object" && !Array.isArray(clocks) ? clocks : {};
  }

  /** Keep this tab's clock of the deal on the table (and the other deals' it played). */
  function keep() {
    const { deal, ms, since, started, done, solved, whole } = state.clock;
    if (deal === null || !started) return;
    const kept = keptClocks();
    delete kept[deal];
    const total = ms + (since === null ? 0 : now() - since);
    kept[deal] = { ms: Math.round(total), started, done, solved, whole };
    const latest = Object.entries(kept).slice(-KEPT);
    session.writeJson(KEY, Object.fromEntries(latest));
  }

  function pause() {
    const clock = state.clock;
    if (!running()) return;
    clock.ms += Math.max(0, now() - clock.since);
    clock.since = null;
  }

  function resume() {
    const clock = state.clock;
    if (running() || !clock.started || clock.done || hidden()) return;
    clock.since = now();
  }

  /** Show the clock: its time (on the next whole second again while it runs), or nothing. */
  function render() {
    clearTimeout(tick);
    const clock = state.clock;
    const show = state.showTimer && clockShown(clock, state.game);
    element.hidden = !show;
    if (!show) return;
    const seconds = clockSeconds(clock);
    const text = formatTime(seconds);
    if (text !== shownText) {
      value.textContent = text;
      shownText = text;
    }
    element.dataset.seconds = String(seconds);
    element.dataset.running = String(running());
    element.setAttribute("aria-label", t("timer.value", { time: text }));
    if (running()) {
      const total = clock.ms + (now() - clock.since);
      tick = setTimeout(render, 1000 - (total % 1000) + 5);
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (hidden()) {
      pause();
      keep();
    } else resume();
    render();
  });
  addEventListener("pagehide", keep);
  toggle.addEventListener("change", () => {
    state.showTimer = toggle.checked;
    writeSetting("showTimer", toggle.checked);
    render();
  });

  return {
    /**
     * A game was opened: a new game of its deal gets a new clock; one with moves (a reload,
     * Back, a link) finds the clock this tab kept of it, held until its next move.
     */
    opened(game) {
      if (state.clock.deal !== null && state.clock.deal !== game.deal) keep();
      if (game.deal !== state.clock.deal || game.move_count === 0) {
        const kept = keptClocks();
        const fresh = game.move_count === 0;
        const stored = fresh ? null : storedClock(game.deal, kept[game.deal]);
        state.clock = stored ?? newClock(game.deal, fresh);
        if (fresh && Object.hasOwn(kept, game.deal)) {
          delete kept[game.deal]; // a new game of the deal: its last game's time is gone
          session.writeJson(KEY, kept);
        }
      }
      pause();
      render();
    },

    /**
     * The game changed: its first move starts the clock, its win stops it (a win that Solve
     * played, `assisted`, hides it for good). Returns the time of a win, in whole seconds, or
     * null (no win now, or no whole game's time to give).
     */
    moved(game, { assisted = false } = {}) {
      if (game.deal !== state.clock.deal) state.clock = newClock(game.deal, false);
      if (state.clock.done || game.move_count === 0) {
        render();
        return null;
      }
      state.clock.started = true;
      resume();
      let seconds = null;
      if (game.won) {
        pause();
        state.clock.done = true;
        state.clock.solved = assisted;
        if (!assisted && state.clock.whole) seconds = Math.max(1, clockSeconds(state.clock));
      }
      keep();
      render();
      return seconds;
    },

    render,
  };
}

/**
 * The statistics (stats.js or archive.js) with the clock hearing their events: a game opened
 * or changed reaches the clock first, and a win reaches them with its time (`seconds`).
 */
export function timed(stats, timer) {
  return {
    ...stats,
    opened(game) {
      timer.opened(game);
      stats.opened(game);
    },
    moved(game, options = {}) {
      const seconds = timer.moved(game, options);
      stats.moved(game, seconds === null ? options : { ...options, seconds });
    },
  };
}
