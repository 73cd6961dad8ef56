// Par: the deal's shortest known solution as the player's target, counted as a player counts
// moves (those whose target is not a foundation, a run moved as one counting one: Python's
// freecell player_moves, the game's player_moves). Python searches it (Session.par, the count
// of freecell.solve(number, short=True)) in the worker's slices that no other search wants,
// once the deal has settled and the guard has answered (settle.js): a tap, a deal change, a
// hint or the guard always go first. The bar shows it beside the move count (#par and
// #board[data-par]; "…" while searching); input#show-par (in the menu, remembered) hides it.
//
// Each deal's par is remembered in this browser (localStorage freecell.par), so a deal played
// again shows it at once; a win under par makes the player's count the deal's par here. A deal
// that cannot be won has no par. The win is measured against the par known before it
// (state.winPar), and the statistics keep each won deal's par (stats.js).
import { isCount, isDealKey } from "./identity.js";
import { readSwitch, writeSetting } from "./settings.js";
import { local } from "./storage.js";

const KEY = "freecell.par";
const KEPT = 5000; // the latest deals' pars remembered

/** Whether a value is a par: a whole number of moves, a count (at most MAX_COUNT). */
export const isPar = isCount;

/** The pars remembered: a Map of deal key ("617") to par, the latest last. */
function readPars() {
  const stored = local.readJson(KEY, []);
  const pars = new Map();
  if (!Array.isArray(stored)) return pars; // not ours
  for (const entry of stored) {
    if (Array.isArray(entry) && isDealKey(entry[0]) && isPar(entry[1])) pars.set(...entry);
  }
  return pars;
}

/** The par remembered for deal `number`, or null. */
export function knownPar(number) {
  return readPars().get(String(number)) ?? null;
}

/**
 * Remember pars ({deal key: par}): each deal's is the lower of the one remembered and the new
 * one. Returns the pars remembered now, as an object.
 */
export function rememberPars(found) {
  const pars = readPars();
  for (const [key, par] of Object.entries(found)) {
    if (!isDealKey(key) || !isPar(par)) continue;
    const before = pars.get(key) ?? Infinity;
    pars.delete(key); // the latest go last
    pars.set(key, Math.min(before, par));
  }
  const kept = [...pars].slice(-KEPT);
  local.writeJson(KEY, kept); // storage off or full: the par lasts as long as the page
  return Object.fromEntries(kept);
}

/** Every par remembered, {deal key: par} (archive.js exports them). */
export function allPars() {
  return Object.fromEntries(readPars());
}

/** Forget every par (a reset of the statistics). */
export function forgetPars() {
  local.writeJson(KEY, []);
}

/**
 * The par of the deals opened on a state: opened(number) when deal `number` is opened,
 * settled(number) once it has settled and the guard has answered, moved(game, {assisted})
 * after each change of the game (it returns the deal's par after a win, for the statistics),
 * set(on) for the menu's switch. `call(op)` asks Python; `stats` keeps a par found after a win.
 */
export function createPar({ state, view, call, stats }) {
  state.showPar = readSwitch("showPar"); // as stored: on unless turned off
  let ticket = 0; // the latest ask: an earlier one's reply is no longer wanted
  let lastWin = null; // {game, assisted}: the win a par found later still measures

  /** Measure a win against the par known now; a line under par is the deal's new par. */
  function measure(game) {
    const par = state.par;
    if (!isPar(par) || state.winPar?.game === game) return;
    const moves = game.player_moves;
    state.winPar = { game, par, moves };
    if (moves < par) state.par = rememberPars({ [String(game.deal)]: moves })[String(game.deal)];
  }

  function ask(number) {
    const mine = ++ticket;
    call("par").then((reply) => {
      if (mine !== ticket || state.deal !== number) return; // another deal, or asked again
      state.parPending = false;
      if (reply.ok && isPar(reply.par)) {
        state.par = rememberPars({ [String(number)]: reply.par })[String(number)];
        if (lastWin && lastWin.game === state.game && !lastWin.assisted) {
          measure(state.game);
          stats.parFound(number, state.par);
        }
      }
      // A deal with no par (it cannot be won), or a search that failed: none is shown.
      view.render(state);
    });
  }

  return {
    /** Deal `number` was opened: its remembered par at once, else "…" until Python's. */
    opened(number) {
      ticket += 1;
      lastWin = null;
      state.winPar = null;
      state.par = knownPar(number);
      state.parPending = state.par === null;
    },

    /** Deal `number` has settled and the guard has answered: Python searches its par. */
    settled(number) {
      if (state.deal === number && state.parPending) ask(number);
    },

    /**
     * The game changed. A win of the player's (not Solve's) is measured against the par known
     * before it; returns the deal's par after it (null while none is known).
     */
    moved(game, { assisted = false } = {}) {
      if (!game.won) {
        lastWin = null;
        state.winPar = null;
        return null;
      }
      if (lastWin?.game !== game) lastWin = { game, assisted };
      if (!assisted) measure(game);
      return isPar(state.par) ? state.par : null;
    },

    /** Show par or not (remembered); its search goes on either way. */
    set(on) {
      state.showPar = on;
      writeSetting("showPar", on);
      view.render(state);
    },
  };
}
