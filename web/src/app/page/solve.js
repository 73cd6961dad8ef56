// Hints and Solve: ask Python for a solution from the position on the table, then show its
// next move (Hint) or play it all, one move at a time at a pace a person can follow (Solve).
// Solve plays a short solution (Python's `solve`: a search of some seconds, shown by
// #searching while it runs); Hint takes the short solution when Python knows one, else today's.
// The moves themselves are moves.js's: Solve plays each through it, queued like any action.
import { reducedMotion } from "./board.js";
import { t } from "./i18n.js";
import { saidMove, saidRefusal } from "./messages.js";

const SOLVE_MS = 420; // between two moves of Solve: a pace a person can follow
const THINKING_MS = 250; // a hint or a Solve that takes longer says that it is looking

/**
 * Hint and Solve on a state: {hint, solve, stop, forget}. `call(op)` asks Python, `enqueue(task)`
 * queues a task behind the player's actions, `playMove(move)` plays one move of a solution (an
 * assisted move) and resolves true if it was played, and `guard` hears whether the game can be
 * won (guard.js). The hint on the table (state.hint) is this module's.
 */
export function createSolve({ state, view, messages, call, enqueue, playMove, guard }) {
  // While Solve plays: {timer} of its next move, and {announced} once #searching was said.
  let solving = null;

  /** Show or hide #searching (Solve's run waits for the short search); screen readers hear it
   * once a run, though it shows again while Solve waits for the moves after those it played. */
  function searching(shown, run) {
    if (state.searching === shown) return;
    state.searching = shown;
    if (shown && !run.announced) messages.announce(t("solve.searching"));
    if (shown) run.announced = true;
    view.render(state);
  }

  function stop() {
    if (!solving) return;
    clearTimeout(solving.timer);
    // Python ends the short search (it may go on while Solve plays the moves it has settled),
    // keeping what it found for hints; the worker answers a waiting request {cancelled}.
    call("solve_stop");
    solving = null;
    state.solving = false;
    state.searching = false;
    view.render(state);
  }

  /** Ask Python for a solution from the position now (`hint`, or `solve` for Solve's run);
   * resolves with its answer, or null if the game moved on before it came. Says it is looking
   * when that takes a while: a hint on the message line, Solve with #searching. */
  function search(run = null) {
    const asked = state.game;
    const slow = setTimeout(() => {
      if (state.game !== asked) return;
      if (!run) messages.say(() => t("hint.thinking"));
      else if (solving === run) searching(true, run);
    }, THINKING_MS);
    return (run ? call("solve") : call("hint")).then((reply) => {
      clearTimeout(slow);
      if (run && solving === run) searching(false, run);
      if (reply.cancelled || state.game !== asked) return null;
      if (!reply.ok) {
        messages.note(saidRefusal(reply, state));
        return null;
      }
      guard.learned({ solved: "yes", impossible: "no" }[reply.result] ?? "unknown");
      if (reply.result === "impossible") {
        messages.say(() => (reply.start ? t("hint.cannot-win-deal") : t("hint.cannot-win")));
      } else if (reply.result === "unknown") messages.say(() => t("hint.unknown"));
      else if (!reply.hint) messages.say("");
      return reply;
    });
  }

  /** Show the next move of a solution: marked on the table and said in the message line. */
  function hint() {
    stop();
    return enqueue(() => {
      if (!state.game || state.game.won) return;
      search().then((reply) => {
        if (!reply?.hint) {
          view.render(state);
          return;
        }
        state.hint = { card: reply.hint.cards[0], target: reply.hint.target };
        const move = saidMove(reply.hint, state.faces);
        messages.say(() => t("hint.move", { move }));
        messages.announce(t("hint.move", { move }));
        view.render(state);
      });
    });
  }

  /**
   * Play the rest of the game, one move at a time; again (or any other action) stops it, and
   * the search with it. Each move is the first of a short solution from the position on the
   * table, and the automatic moves of the player's choice (playMove: moves.js's act) follow it:
   * Python knows the rest at once (every position on a solution's way is kept, and a position
   * that differs only in the cards already sent home is looked up by the one where every card
   * that can go home has gone).
   */
  function solve() {
    if (solving) {
      stop();
      return undefined;
    }
    return enqueue(() => {
      if (!state.game || state.game.won) return;
      const run = { timer: 0 };
      solving = run;
      state.solving = true;
      view.render(state);
      const next = () => {
        if (solving !== run) return;
        if (!state.game || state.game.won) {
          stop();
          return;
        }
        search(run).then((reply) => {
          if (solving !== run) return;
          const move = reply?.moves?.[0];
          if (!move) {
            stop();
            return;
          }
          const play = () => (solving === run ? playMove(move) : false);
          enqueue(play).then((played) => {
            if (!played) stop(); // a game that changed meanwhile: no more of this solution
            if (solving !== run) return;
            view.render(state);
            run.timer = setTimeout(next, reducedMotion() ? 0 : SOLVE_MS);
          });
        });
      };
      next();
    });
  }

  return {
    hint,
    solve,
    stop,
    /** The game changed (moves.js): the hint on the table goes; the caller renders. */
    forget() {
      state.hint = null;
    },
  };
}
