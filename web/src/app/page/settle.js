// A deal just opened settles before the worker searches it: once it has stayed on the table
// SETTLE_MS, the guard checks it, Python grades it and looks up its fewest free cells; once
// the guard has answered, Python searches its par (par.js) in the slices no other search wants. A held N
// leafs through deals without a search in the worker for each deal it passes, so each change
// is answered at once. A move meanwhile is checked at once, as always.
import rules from "./rules.js";

const SETTLE_MS = 100; // a deal's rest on the table before the worker searches it
const MIN_CELLS = new Set(rules.min_cells); // what a deal's fewest free cells can be

/**
 * The settling of the deals opened on a state: settle(number, game) for deal `number`, opened
 * as `game`. `call(op)` asks Python; `guard` checks the game (guard.js), `par` searches the
 * deal's par (par.js).
 */
export function createSettle({ state, view, call, guard, par }) {
  let settling = 0;

  /**
   * Ask Python for the grade of deal `number` (its search is the one the guard starts); settle
   * has cleared the last one and marked it pending. A move made meanwhile ends the search
   * ({cancelled}, after the move's reply): the grade is the deal's, so it is asked again. A
   * search that fails is cancelled with the game unchanged, and not asked again.
   */
  function grade(number) {
    const asked = state.game;
    call("grade").then((reply) => {
      if (state.deal !== number) return; // another deal opened
      if (reply.cancelled && state.game !== asked) {
        grade(number);
        return;
      }
      state.difficulty = reply.ok ? reply.difficulty : null;
      state.pending.grade = false;
      view.render(state);
    });
  }

  /**
   * Ask Python for the fewest free cells deal `number` needs (the worker fetches the site's
   * table the first time: offline and not kept, there is no figure, and the next deal tries).
   */
  function minCells(number) {
    call("min_cells").then((reply) => {
      if (state.deal !== number) return; // another deal opened
      // Anything but a value (the table failed, or a reply without one) shows nothing.
      state.minCells = reply.ok && MIN_CELLS.has(reply.min_cells) ? reply.min_cells : null;
      state.pending.minCells = false;
      view.render(state);
    });
  }

  /** Deal `number` was opened as `game`: its figures are on their way once it settles. */
  return function settle(number, game) {
    clearTimeout(settling);
    state.difficulty = null;
    state.minCells = null;
    state.pending = { grade: true, minCells: true };
    settling = setTimeout(() => {
      if (state.deal !== number) return;
      const checked = state.game === game ? guard.changed() : Promise.resolve();
      grade(number);
      minCells(number);
      checked.then(() => par.settled(number));
    }, SETTLE_MS);
  };
}
