// Going back and forth in the game's history: Undo, Redo and Restart take a turn (a move and
// the automatic moves after it), Undo to winnable goes back to the last position the guard
// found winnable, and the history slider (and its keys) goes a move a step (Session.seek).
import { t } from "./i18n.js";
import { writeUrl } from "./url.js";

/**
 * Undo and its kin on a state: {undo, redo, restart, undoToWinnable, seek, seekBy};
 * `act(op, args, options)` asks Python for the change (moves.js), `enqueue` queues an action.
 */
export function createUndo({ state, enqueue, act }) {
  // Only the latest point asked for matters: a drag of the slider fires input after input, so
  // they wait as one (state.seeking, which the slider shows meanwhile) while one request is on
  // its way; the board follows at the pace Python answers, and the URL is written once the
  // slider rests (a browser refuses a flood of history entries).
  let seekQueued = false;

  /** Go to the game after `count` moves, one move a step, through Undo's and Redo's history. */
  function seek(count, { say = false } = {}) {
    const { game } = state;
    if (!game) return undefined;
    const total = game.move_count + game.redo.length;
    state.seeking = Math.min(Math.max(Math.trunc(Number(count)) || 0, 0), total);
    if (seekQueued) return undefined;
    seekQueued = true;
    return enqueue(async () => {
      seekQueued = false;
      const wanted = state.seeking;
      if (wanted === null || !state.game) {
        state.seeking = null;
        return;
      }
      const announce = () =>
        t("history.value", { played: wanted, total: state.game.move_count + state.game.redo.length });
      if (wanted !== state.game.move_count) {
        await act("seek", { moves: wanted }, { announce: say ? announce : null, url: false });
      }
      if (state.seeking !== wanted) return; // the slider moved on: the next seek is queued
      state.seeking = null;
      writeUrl(state);
    });
  }

  /** A change of the game's history when `allowed()`, said to screen readers by `announce()`. */
  const turn = (op, allowed, announce) => () =>
    enqueue(() => (allowed() ? act(op, {}, { announce }) : undefined));

  return {
    undo: turn("undo", () => state.game?.can_undo, () => t("say.undone")),
    redo: turn("redo", () => state.game?.can_redo, () => t("say.redone")),
    restart: turn("restart", () => state.game?.can_undo, () => t("say.restarted")),
    /** Take the game back to the last position the guard found winnable. */
    undoToWinnable: turn("undo_to_winnable", () => state.lost, () => t("say.back-to-winnable")),
    seek,
    /** One move back (`by` -1) or forward (1) from where the slider is, or is going. */
    seekBy(by) {
      if (!state.game) return undefined;
      return seek((state.seeking ?? state.game.move_count) + by, { say: true });
    },
  };
}
