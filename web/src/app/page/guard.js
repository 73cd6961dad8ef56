// The live guard: after every change of the game, Python checks in the background whether the
// game can still be won (Session.check: time-sliced in the worker like Hint, its answers kept,
// and dropped by the next change), and the table says so: #board[data-solvable] and the
// indicator beside the move count. The move that lost a game is named on the message line, and
// [data-action=undo-to-winnable] takes the game back to the last winnable position. The setting
// input#live-check (in the "more" menu, remembered, on by default) turns it off.
import { t } from "./i18n.js";
import { saidMove } from "./messages.js";
import { readSwitch, writeSetting } from "./settings.js";

/**
 * The guard on a state, the one writer of whether the game can be won (state.solvable, from
 * its own check, a hint's or Solve's search: learned()), how it was lost and the live-check
 * setting: recorded() and changed() after each change of the game ask Python about it, and
 * set(on) turns it on or off. `call(op)` asks Python. The setting starts as stored: on unless
 * turned off (on too when storage is off).
 */
export function createGuard({ state, view, messages, call }) {
  state.liveCheck = readSwitch("liveCheck");

  /** Say how the game was lost: the move that lost it, or that the deal cannot be won. */
  function sayLost(reply) {
    if (reply.deal_lost) messages.say(() => t("hint.cannot-win-deal"));
    else if (reply.lost) {
      const made = reply.lost.made;
      messages.say(() => t("guard.lost", { move: saidMove(made, state.faces) }));
    }
  }

  /**
   * Ask Python whether the game on the table can still be won, and show the answer. The move
   * that lost is said once, when it is made (or the game is opened or the guard turned on),
   * not again when the change `replayed` the history (Undo, Redo, the slider) back to it; a
   * deal that cannot be won is said whenever the guard finds it. Resolves once the guard
   * has answered (at once with the guard off).
   */
  function changed({ replayed = false } = {}) {
    if (!state.liveCheck || !state.game) return Promise.resolve();
    const asked = state.game;
    state.checking = state.solvable === null;
    return call("check").then((reply) => {
      if (state.game !== asked) return; // a later change has its own check
      state.checking = false;
      if (reply.ok) {
        // Said when the game becomes lost; a lost game stays lost as it goes on (play.js).
        const lost = reply.solvable === "no";
        if (lost && !state.lost && (!replayed || reply.deal_lost)) sayLost(reply);
        state.solvable = reply.solvable;
        state.lost = lost ? { move: reply.lost, deal: reply.deal_lost } : null;
      }
      view.render(state);
    });
  }

  /**
   * A game was recorded: its verdict is not known yet, unless the change only played on
   * (`forward`) from a game already lost, which stays lost.
   */
  function recorded({ forward = false } = {}) {
    const stillLost = forward && state.solvable === "no";
    state.solvable = stillLost ? "no" : null;
    if (!stillLost) state.lost = null;
  }

  /** A search (a hint's, Solve's) found whether the game on the table can be won. */
  function learned(solvable) {
    state.solvable = solvable;
  }

  /** Turn the guard on (and check the game now) or off (remembered). */
  function set(on) {
    state.liveCheck = on;
    writeSetting("liveCheck", on); // storage may be off: it lasts as long as the page
    if (on) changed();
    else {
      // No spoilers: what the guard said goes too (a hint's answer comes back with a hint).
      state.checking = false;
      state.solvable = null;
      state.lost = null;
    }
    view.render(state);
  }

  return { changed, recorded, learned, set };
}
