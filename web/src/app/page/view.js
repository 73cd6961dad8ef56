// The page's view: draws everything the state says, in one place, once a frame however many
// modules ask for it in between (chessground's batching). A move's steps (the move, then each
// automatic move) are shown one after another as their cards glide; the next move's render
// cuts that short, so showing never holds up the next input.
import { reducedMotion } from "./board.js";
import { formatNumber, t } from "./i18n.js";
import { clockSeconds, clockShown, formatTime } from "./timer.js";

const STEP_MS = 190; // between a move and each automatic move after it: one glide each

/**
 * The win message's sentences, in one place: the deal won, and the player's moves against
 * the par the win was measured against (par.js), if any. A sentence more (the time, say) is
 * one more entry.
 */
export function winSentences(state) {
  const { game, winPar } = state;
  const deal = String(game.deal);
  if (!winPar || winPar.game !== game) {
    return [t("win.text", { deal, count: game.player_moves })];
  }
  const { moves: count, par } = winPar;
  const params = { count, par, by: Math.abs(count - par) };
  let against = t("win.over-par", params);
  if (count === par) against = t("win.at-par", params);
  else if (count < par) against = t("win.under-par", params);
  return [t("win.won", { deal }), against];
}

// The guard's verdicts (#guard[data-verdict]), said in the language.
const VERDICTS = {
  checking: () => t("guard.checking"),
  yes: () => t("guard.yes"),
  no: () => t("guard.no"),
  unknown: () => t("guard.unknown"),
};

/**
 * The view of the page's elements (see main.js) and the table's board (board.js):
 * render(state, steps) draws the state in the next frame; shake(code) shakes a card that
 * cannot move.
 */
export function createView(dom, board) {
  let timer = 0;
  const LATE_MS = 250; // a frame later than this is not waited for (see render)
  let asked = null; // the render asked for the next frame: {state, steps, glide}
  let late = null; // the timer that draws if that frame is later than LATE_MS
  let written = ""; // what the view last put in the deal field

  function renderCounts(game) {
    dom.movesCount.textContent = formatNumber(game.player_moves);
    dom.undo.disabled = !game.can_undo;
    dom.redo.disabled = !game.can_redo;
    dom.restart.disabled = !game.can_undo;
  }

  // The history slider: 0 to the moves played and the moves to redo, at the moves played, or
  // where the player is taking it while Python catches up (state.seeking).
  function renderHistory(state, game) {
    const slider = dom.history;
    const total = game.move_count + game.redo.length;
    const value = state.seeking ?? game.move_count;
    if (slider.max !== String(total)) slider.max = String(total);
    if (slider.value !== String(value)) slider.value = String(value);
    slider.disabled = total === 0;
    // The track's filled part: the moves played (a custom property, as the CSP allows).
    slider.style.setProperty("--played", `${total ? (100 * value) / total : 0}%`);
    slider.setAttribute("aria-valuetext", t("history.value", { played: value, total }));
  }

  function renderWin(state) {
    const won = Boolean(state.game?.won);
    const already = dom.root.dataset.won === "true";
    dom.win.hidden = !won;
    if (!won) {
      delete dom.root.dataset.won;
      return;
    }
    dom.root.dataset.won = "true";
    const sentences = winSentences(state);
    // The time, where the bar shows the clock (timer.js): not for a game Solve finished.
    const { clock } = state;
    const timed = state.showTimer && clockShown(clock, state.game) && clock.done;
    if (timed) sentences.push(t("win.time", { time: formatTime(clockSeconds(clock)) }));
    dom.winText.textContent = sentences.join(" ");
    if (!already) {
      dom.playNext.focus({ preventScroll: true });
      board.celebrate();
    }
  }

  // The field shows the deal (or the one being opened), unless the player is typing another.
  function renderField(state) {
    const value = state.deal === null ? state.asked : String(state.deal);
    const field = dom.dealField;
    const typing =
      document.activeElement === field && field.value !== written && field.value !== state.asked;
    if (!typing && field.value !== value) field.value = value;
    written = value;
  }

  // The guard's verdict: an icon named in the language (hidden with the guard off).
  function renderGuard(state) {
    const verdict = state.liveCheck ? (state.checking ? "checking" : state.solvable) : null;
    dom.guard.hidden = !verdict;
    if (verdict) {
      const label = VERDICTS[verdict]();
      dom.guard.dataset.verdict = verdict;
      dom.guard.setAttribute("aria-label", label);
      dom.guard.title = label;
    }
    dom.lost.hidden = !state.lost?.move || state.game.won;
  }

  // The deal's par beside the move count (#par, #board[data-par]): "…" while Python searches
  // it, nothing for a deal that has none, or with the menu's input#show-par off.
  function renderPar(state) {
    const { par } = state;
    if (par === null) delete dom.board.dataset.par;
    else dom.board.dataset.par = String(par);
    const shown = state.showPar && (par !== null || state.parPending);
    dom.par.hidden = !shown;
    dom.par.classList.toggle("pending", par === null);
    if (!shown) return;
    dom.parValue.textContent = par === null ? "…" : formatNumber(par);
    dom.par.title = par === null ? t("par.searching") : t("par.title");
  }

  // The daily deal's date (#board[data-daily]), beside the grade; Random's grades named.
  function renderDaily(state) {
    if (state.daily) dom.board.dataset.daily = state.daily;
    else delete dom.board.dataset.daily;
    dom.daily.hidden = !state.daily;
    if (state.daily) dom.daily.textContent = t("daily.tag", { date: state.daily });
    for (const option of dom.randomGrade.options) {
      const label = option.value ? t("grade.option", { grade: formatNumber(Number(option.value)) }) : null;
      if (label && option.textContent !== label) option.textContent = label;
    }
  }

  // The deal's grade (#board[data-difficulty]) once Python has graded it, and the fewest free
  // cells it needs (#board[data-min-cells]) once Python has looked them up. An impossible deal
  // shows no figure: the guard tells (or, turned off, keeps the secret). While a deal's figure
  // is on its way, the last deal's keeps its room, unseen, so that the bar does not shift
  // under the pointer with every deal (Next held down) and again when the figure comes.
  function renderDifficulty(state) {
    renderDaily(state);
    const grade = state.difficulty;
    const cells = state.minCells;
    const counted = Number.isInteger(cells);
    const { pending } = state;
    dom.grade.classList.toggle("pending", pending.grade);
    dom.minCells.classList.toggle("pending", pending.minCells);
    if (!pending.grade) dom.grade.hidden = grade === null;
    if (!pending.minCells) dom.minCells.hidden = !counted;
    dom.difficulty.hidden = dom.grade.hidden && dom.minCells.hidden;
    if (grade === null) delete dom.board.dataset.difficulty;
    else {
      dom.board.dataset.difficulty = String(grade);
      dom.difficultyValue.textContent = t("difficulty.value", { grade: formatNumber(grade) });
      dom.grade.title = t("difficulty.title");
    }
    if (cells === null) delete dom.board.dataset.minCells;
    else dom.board.dataset.minCells = String(cells);
    if (counted) {
      dom.minCellsCount.textContent = formatNumber(cells);
      dom.minCellsLabel.textContent = cells
        ? t("min-cells.value", { count: cells })
        : t("min-cells.none");
      dom.minCells.title = t("min-cells.title");
    }
  }

  function renderSolving(state) {
    if (state.solvable) dom.board.dataset.solvable = state.solvable;
    else delete dom.board.dataset.solvable;
    renderGuard(state);
    dom.solve.setAttribute("aria-pressed", String(state.solving));
    dom.solveLabel.textContent = state.solving ? t("action.stop") : t("action.solve");
    dom.searching.hidden = !state.searching;
    dom.hint.disabled = dom.solve.disabled = state.game.won && !state.solving;
  }

  function renderAll(state, glide) {
    dom.root.dataset.state = state.boot;
    document.title =
      state.deal === null
        ? t("page.title")
        : t("page.title-deal", { number: String(state.deal) });
    renderField(state);
    // At an end of the deals its button is off (the keys say why: play.js).
    dom.prev.disabled = state.deal !== null && state.neighbours.previous === null;
    dom.next.disabled = state.deal !== null && state.neighbours.next === null;
    if (!state.game || !state.faces) return;
    board.render(state, state.game, { glide });
    renderCounts(state.game);
    renderPar(state);
    renderHistory(state, state.game);
    renderSolving(state);
    renderDifficulty(state);
    renderWin(state);
  }

  /** Draw the state asked for: its steps one after another, then the state itself. */
  function draw() {
    if (!asked) return;
    const { state, steps, glide } = asked;
    asked = null;
    clearTimeout(late);
    clearTimeout(timer);
    // The last step is the game itself.
    const shown = reducedMotion() ? [] : steps.slice(0, -1);
    const next = () => {
      const step = shown.shift();
      if (!step) {
        renderAll(state, glide);
        return;
      }
      board.render(state, step, { glide });
      renderCounts(step);
      renderHistory(state, step);
      timer = setTimeout(next, STEP_MS);
    };
    next();
  }

  /**
   * Draw the state in the next frame (in a tab out of sight, where frames wait, in the next
   * task); `steps` are games to show first, one after another, gliding. Asked again before
   * then, the frame draws once: the latest steps asked for, gliding if any ask did. A frame
   * that has not come after LATE_MS (asked for in sight, then the tab hidden, where frames wait)
   * is not waited for: a timer draws instead, so that no later ask is held behind it.
   */
  function render(state, steps = [], { glide = false } = {}) {
    const waiting = asked !== null;
    asked = {
      state,
      steps: steps.length ? steps : (asked?.steps ?? []),
      glide: glide || Boolean(asked?.glide),
    };
    if (waiting) return;
    if (document.visibilityState === "hidden") {
      setTimeout(draw);
    } else {
      requestAnimationFrame(draw);
      late = setTimeout(draw, LATE_MS);
    }
  }

  return {
    render,
    /** Shake a card that cannot move (a tap's refusal). */
    shake: board.shake,
  };
}
