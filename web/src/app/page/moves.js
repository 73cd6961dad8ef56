// Moves: each asks Python for a change of the game (a move, a card to its best place, Undo's
// kind through undo.js), records the game it reports and shows it; a refusal changes nothing
// and is said. record() is the one place where the game on the table changes: the modules
// whose state goes with it (the selection, the hint, the guard's verdict) hear of it, and its
// history is kept for a reload (history.js). The auto-play setting is this module's.
import { keepHistory } from "./history.js";
import { saidMove, saidRefusal } from "./messages.js";
import rules from "./rules.js";
import { readSetting, writeSetting } from "./settings.js";
import { writeUrl } from "./url.js";

// The requests that only play on: a game they leave lost was lost before them.
const FORWARD = new Set(["play", "play_card", "play_move", "auto_moves"]);

/**
 * The moves on a state: {record, heard, act, move, playCard, setAuto}; `call(op, args)` asks
 * Python, `guard` checks each change (guard.js), `stats` counts the games, `par` measures a
 * win (par.js), `enqueue` queues an action. The auto-play choice starts as stored: one of
 * rules.auto_play ("off", "safe", "all"); "safe" when none is (or storage is off), "off" where
 * the old checkbox was turned off.
 */
export function createMoves({ state, call, view, messages, stats, guard, par, enqueue }) {
  const said = (made) => saidMove(made, state.faces);
  const listeners = []; // called with each game recorded, before the guard checks it
  state.auto = readSetting("auto");

  /**
   * The game changed: record it, keep its history for a reload, and have the guard check it.
   * `forward`: the change only played on (or changed nothing), so a lost game is still lost;
   * `replayed`: it went back or forth in the game's history (Undo, Redo, the slider), so a
   * loss it comes back to was said when its move was made, and is not said again; `opened`: a
   * deal just opened, which the guard checks once it has settled (settle.js).
   */
  function record(game, { forward = false, opened = false, replayed = false } = {}) {
    state.game = game;
    for (const hear of listeners) hear(game);
    guard.recorded({ forward });
    keepHistory(game);
    if (!opened) guard.changed({ replayed });
  }

  /**
   * Ask Python for a change of the game and show it; a refusal changes nothing. Screen readers
   * hear each move made, or `announce()` for a change that makes none (undo, redo, restart).
   * An `assisted` move (Solve's) wins no statistics. A refusal is said on the message line, or
   * handed to `refused(reply)` after the render.
   */
  async function act(
    op,
    args = {},
    { announce = null, assisted = false, refused = null, url = true } = {},
  ) {
    if (!state.game) return false;
    const reply = await call(op, args);
    const forward = FORWARD.has(op) || !reply.ok;
    if (reply.game) record(reply.game, { forward, replayed: !forward });
    if (!reply.ok) {
      if (!refused) messages.note(saidRefusal(reply, state));
      view.render(state);
      refused?.(reply);
      return false;
    }
    messages.say("");
    if (url) writeUrl(state);
    const dealPar = par.moved(state.game, { assisted });
    stats.moved(state.game, { assisted, daily: state.daily, par: dealPar });
    const saying = reply.made?.map(said) ?? (announce ? [announce()] : []);
    if (saying.length) messages.announce(saying.join("; "));
    view.render(state, reply.steps, { glide: true });
    return true;
  }

  return {
    record,
    /** Have `listener(game)` called with each game recorded (what goes with the game). */
    heard: (listener) => listeners.push(listener),
    act,
    /** A drag's move: exactly the cards dragged. Resolves true if it was played. */
    move: (source, target, card) =>
      enqueue(() => act("play", { source, target, card, auto: state.auto, longest: false })),
    /** A card to its best place (a double click). */
    playCard: (card) => enqueue(() => act("play_card", { card, auto: state.auto })),
    /**
     * Choose which cards go home by themselves (remembered): "off", "safe" or "all"; the
     * moves the new choice makes now are played at once (automatic moves of the last turn).
     */
    setAuto(mode) {
      if (!rules.auto_play.includes(mode)) return;
      state.auto = mode;
      writeSetting("auto", mode);
      if (mode !== "off") enqueue(() => act("auto_moves", { auto: mode }));
    },
  };
}
