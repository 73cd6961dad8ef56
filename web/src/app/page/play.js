// The player's actions, wired together: each asks Python (the bridge to freecell._web.Session),
// records the answer in the state and has the view draw it, one after another (queue.js), and
// each of them stops Solve. One module per concern: opening deals (deals.js) and the searches
// of a deal that has settled (settle.js); moves and the one place the game changes (moves.js);
// picking up a card and its targets (selection.js); Undo, Redo and the history slider
// (undo.js). Hint and Solve are solve.js's, the live guard guard.js's, copying clipboard.js's,
// and what screen readers hear is said by messages.js.
import { createClipboard } from "./clipboard.js";
import { createDeals } from "./deals.js";
import { createGuard } from "./guard.js";
import { createMoves } from "./moves.js";
import { createPar } from "./par.js";
import { createQueue } from "./queue.js";
import { createSelection } from "./selection.js";
import { createSettle } from "./settle.js";
import { createSolve } from "./solve.js";
import { createUndo } from "./undo.js";

/** The actions on a state, through a bridge, shown by a view, said by messages, counted. */
export function createPlay({ state, bridge, view, messages, stats }) {
  // Any action of the player stops Solve.
  const { enqueue, player } = createQueue(() => solving.stop());
  const call = (op, args = {}) => bridge.request({ op, args });
  const guard = createGuard({ state, view, messages, call });
  const par = createPar({ state, view, call, stats });
  const moves = createMoves({ state, call, view, messages, stats, guard, par, enqueue });
  const { act, record } = moves;
  const solving = createSolve({
    state,
    view,
    messages,
    call,
    enqueue,
    playMove: (move) => act("play_move", { move, auto: state.auto }, { assisted: true }),
    guard,
  });
  const settle = createSettle({ state, view, call, guard, par });
  const deals = createDeals({
    state,
    bridge,
    call,
    view,
    messages,
    stats,
    enqueue,
    record,
    settle,
    par,
  });
  const selection = createSelection({ state, call, view, messages, enqueue, act });
  // What goes with the game on the table: a change takes the picked-up card and the hint away.
  moves.heard(selection.forget);
  moves.heard(solving.forget);
  const undo = createUndo({ state, enqueue, act });
  const clipboard = createClipboard({ state, messages, call });

  return {
    hint: solving.hint,
    solve: solving.solve,
    stop: solving.stop,
    open: player(deals.open),
    step: player(deals.step),
    fromUrl: player(deals.fromUrl),
    random: player(deals.random),
    daily: player(deals.daily),
    setGrade: deals.setGrade,
    choose: player(selection.choose),
    tap: player(selection.tap),
    pickUp: player(selection.pickUp),
    cancel: player(selection.cancel),
    setTapToMove: selection.setTapToMove,
    move: player(moves.move),
    playCard: player(moves.playCard),
    setAuto: moves.setAuto,
    undo: player(undo.undo),
    redo: player(undo.redo),
    restart: player(undo.restart),
    undoToWinnable: player(undo.undoToWinnable),
    seek: player(undo.seek),
    seekBy: player(undo.seekBy),
    copyLink: () => enqueue(clipboard.copyLink),
    /** Copy the position on the table in fc-solve's format (what `freecell solve -` reads). */
    copyText: () => enqueue(clipboard.copyText),
    /** Turn the live guard on or off (remembered). */
    setLiveCheck: (on) => guard.set(on),
    /** Show the deal's par or not (remembered). */
    setShowPar: (on) => par.set(on),
  };
}
