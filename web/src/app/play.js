// The player's actions: open a deal, pick up a card, move, undo... Each one asks Python (the
// bridge to freecell._web.Session), records the answer in the state and has the view draw it.
// Actions run one after another in the order they were asked for, so no key press or click is
// lost or overtaken, even while Python is still starting.
import { reducedMotion } from "./board.js";
import { cardLabel, fromPython, t } from "./i18n.js";
import { keep, kept } from "./kept.js";
import rules from "./rules.js";
import { cardAt, cardsAt, isCascade, isFreecell } from "./state.js";
import { readUrl, writeUrl } from "./url.js";

const AUTO_KEY = "freecell.auto-move";
const SOLVE_MS = 420; // between two moves of Solve: a pace a person can follow
const THINKING_MS = 250; // a hint that takes longer says that it is looking

/** A random deal among Windows FreeCell's million. */
function randomDeal() {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value % rules.random_deals) + 1;
}

/** The auto-move setting as stored, on unless turned off. */
export function storedAuto() {
  try {
    return localStorage.getItem(AUTO_KEY) !== "off";
  } catch {
    return true; // storage may be off
  }
}

/** The actions on a state, through a bridge, shown by a view, said by messages, counted. */
export function createPlay({ state, bridge, view, messages, stats }) {
  let queue = Promise.resolve();

  /** Run a task after every task asked for before it; resolves with its result when done. */
  function enqueue(task) {
    const done = queue.then(task);
    queue = done.catch((error) => console.error(error));
    return done.catch(() => undefined);
  }

  const call = (op, args = {}, options = {}) => bridge.request({ op, args }, options);
  const pythonError = (reply) => () => fromPython(reply.error, reply, state.faces);
  const label = (code) => (state.faces?.[code] ? cardLabel(state.faces[code]) : code);

  /** Say one move for screen readers, from Python's description of it (Session._made). */
  function said({ cards, target, onto }) {
    const card = label(cards[0]);
    const count = cards.length;
    if (target === rules.foundation) return t("say.home", { card });
    if (isFreecell(target)) return t("say.to-cell", { card, cell: target.toUpperCase() });
    if (onto) {
      return count === 1
        ? t("say.onto", { card, onto: label(onto) })
        : t("say.run-onto", { count, onto: label(onto) });
    }
    return count === 1
      ? t("say.to-empty", { card, cascade: target })
      : t("say.run-to-empty", { count, cascade: target });
  }

  /** The game changed: record it, keep its history for a reload, count it. */
  function record(game) {
    state.game = game;
    state.selection = null;
    state.targets = [];
    state.hint = null;
    state.solvable = null;
    keep(game);
  }

  // --- hints and solving -------------------------------------------------------------------

  let solving = null; // while Solve plays: {timer} of its next move

  function stopSolving() {
    if (!solving) return;
    clearTimeout(solving.timer);
    solving = null;
    state.solving = false;
    view.render(state);
  }

  /** Ask Python for a solution from the position now; resolves with its answer, or null if
   * the game moved on before it came. Says it is looking when that takes a while. */
  function search() {
    const asked = state.game;
    const slow = setTimeout(() => {
      if (state.game === asked) messages.say(() => t("hint.thinking"));
    }, THINKING_MS);
    return call("hint").then((reply) => {
      clearTimeout(slow);
      if (reply.cancelled || state.game !== asked) return null;
      if (!reply.ok) {
        messages.note(pythonError(reply));
        return null;
      }
      state.solvable = { solved: "yes", impossible: "no" }[reply.result] ?? "unknown";
      if (reply.result === "impossible") {
        messages.say(() => (reply.start ? t("hint.cannot-win-deal") : t("hint.cannot-win")));
      } else if (reply.result === "unknown") messages.say(() => t("hint.unknown"));
      else if (!reply.hint) messages.say("");
      return reply;
    });
  }

  /** Show the next move of a solution: marked on the table and said in the message line. */
  function hint() {
    stopSolving();
    return enqueue(() => {
      if (!state.game || state.game.won) return;
      search().then((reply) => {
        if (!reply?.hint) {
          view.render(state);
          return;
        }
        state.hint = { card: reply.hint.cards[0], target: reply.hint.target };
        const move = said(reply.hint);
        messages.say(() => t("hint.move", { move }));
        messages.announce(t("hint.move", { move }));
        view.render(state);
      });
    });
  }

  /** Play the rest of the game, one move at a time; again (or any other action) stops it. */
  function solve() {
    if (solving) {
      stopSolving();
      return undefined;
    }
    return enqueue(() => {
      if (!state.game || state.game.won) return;
      const run = { timer: 0 };
      solving = run;
      state.solving = true;
      view.render(state);
      search().then((reply) => {
        if (solving !== run) return;
        if (!reply?.moves?.length) {
          stopSolving();
          return;
        }
        messages.say("");
        const moves = [...reply.moves];
        const next = () => {
          if (solving !== run) return;
          const move = moves.shift();
          if (!move) {
            stopSolving();
            return;
          }
          const play = () => (solving === run ? act("play_move", { move }, null, true) : false);
          enqueue(play).then((played) => {
            if (!played) stopSolving(); // a game that changed meanwhile: no more of this solution
            if (solving !== run) return;
            state.solvable = "yes"; // on the way of the solution
            view.render(state);
            run.timer = setTimeout(next, reducedMotion() ? 0 : SOLVE_MS);
          });
        };
        next();
      });
    });
  }

  // --- deals -------------------------------------------------------------------------------

  /**
   * Open a game (freecell._web.Session.new_game's arguments) and record it in the history.
   * `opening`: the game the page's address names (see bridge.js).
   */
  async function openGame(args, historyMode, opening = false) {
    const reply = await call("new_game", { ...args, faces: !state.faces }, { opening });
    if (reply.faces) state.faces = reply.faces;
    if (!reply.ok) {
      messages.say(pythonError(reply));
      view.render(state);
      return false;
    }
    state.deal = reply.number;
    record(reply.game);
    stats.opened(state.game);
    const notice = { code: reply.notice_code, params: reply.notice_params };
    const before = stats.deal(state.deal);
    if (reply.notice) messages.say(() => fromPython(reply.notice, notice, state.faces));
    else if (before) messages.say(() => t("stats.won-before", { count: before.fewest }));
    else messages.say("");
    // A link whose moves were cut short is corrected to the moves that were played.
    const mode = historyMode === "none" && reply.notice ? "replace" : historyMode;
    if (mode !== "none") writeUrl(state, { replace: mode === "replace" });
    view.render(state);
    return true;
  }

  function open(text, historyMode = "push", moves = "") {
    return enqueue(() => {
      state.asked = text;
      return openGame({ text, moves }, historyMode);
    });
  }

  /** Open the deal `by` places from the one shown (deal 1 when no deal was shown yet). */
  function step(by) {
    return enqueue(() =>
      state.deal === null
        ? openGame({ text: "1" }, "push")
        : openGame({ text: String(state.deal), step: by }, "push"),
    );
  }

  /** Open what the URL names (a random deal when it names none). */
  function fromUrl(historyMode) {
    return enqueue(async () => {
      const { deal, moves } = readUrl();
      if (deal.kind === "many") {
        messages.say(() =>
          t("link.many-deals", { min: String(rules.min_deal), max: String(rules.max_deal) }),
        );
        return;
      }
      const linked = deal.kind === "one";
      const text = linked ? deal.text : String(randomDeal());
      state.asked = text;
      const opened = await openGame(
        { text, moves: linked ? moves : "", history: linked ? kept(text, moves) : "" },
        linked ? historyMode : "replace",
        true,
      );
      // A language chosen earlier stays in the URL of the entry gone back to.
      if (opened && state.languageChosen && !readUrl().language) writeUrl(state);
    });
  }

  // --- moves -------------------------------------------------------------------------------

  /**
   * Ask Python for a change of the game and show it; a refusal changes nothing. Screen readers
   * hear each move made, or `announce()` for a change that makes none (undo, redo, restart).
   * An `assisted` move (Solve's) wins no statistics.
   */
  async function act(op, args = {}, announce = null, assisted = false) {
    if (!state.game) return false;
    const reply = await call(op, args);
    if (reply.game) record(reply.game);
    if (!reply.ok) {
      messages.note(pythonError(reply));
      view.render(state);
      return false;
    }
    messages.say("");
    writeUrl(state);
    stats.moved(state.game, { assisted });
    const saying = reply.made?.map(said) ?? (announce ? [announce()] : []);
    if (saying.length) messages.announce(saying.join("; "));
    view.render(state, reply.steps, { glide: true });
    return true;
  }

  async function select(selection) {
    state.selection = selection;
    state.targets = [];
    view.render(state);
    if (!selection) return;
    const codes = cardsAt(state.game, selection.place);
    const card = selection.card ?? codes.at(-1);
    const count = codes.length - codes.indexOf(card);
    messages.announce(
      count > 1
        ? t("say.picked-run", { count, card: label(card) })
        : t("say.picked", { card: label(card) }),
    );
    const reply = await call("targets", { source: selection.place });
    if (reply.ok && state.selection === selection) {
      state.targets = reply.targets;
      view.render(state);
    }
  }

  /**
   * A card or a place was chosen (click, tap, key): pick it up, or put the picked-up card
   * there. `again` says what choosing the picked-up place again does: "drop" it, or play its
   * "best" move. A click's move onto an empty cascade takes as much of a run as may go.
   */
  function choose(place, card = null, again = "drop") {
    return enqueue(async () => {
      const { game, selection } = state;
      if (!game || !place) return;
      if (!selection) {
        if (place === rules.foundation) messages.note(() => t("pick.foundation"));
        else if (cardAt(game, place) !== null) {
          messages.say("");
          await select({ place, card });
        } else if (isCascade(place)) {
          messages.note(() => t("pick.empty-cascade", { cascade: place }));
        } else messages.note(() => t("pick.empty-freecell", { cell: place.toUpperCase() }));
        return;
      }
      if (selection.place === place) {
        if (card && card !== selection.card) await select({ place, card });
        else if (again === "best") {
          const picked = selection.card ?? cardAt(game, place);
          await act("play_card", { card: picked, auto: state.auto });
        } else await select(null);
        return;
      }
      await act("play", {
        source: selection.place,
        target: place,
        card: selection.card ?? "",
        auto: state.auto,
        longest: true,
      });
    });
  }

  /** Drop the picked-up card, if any. */
  function cancel() {
    return enqueue(() => (state.selection ? select(null) : undefined));
  }

  async function copy(text, done) {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      document.body.append(area);
      area.select();
      const copied = document.execCommand("copy");
      area.remove();
      if (!copied) {
        messages.say(() => t("copy.blocked"));
        return;
      }
    }
    messages.say(done);
  }

  // Any action of the player stops Solve.
  const player =
    (action) =>
    (...args) => {
      stopSolving();
      return action(...args);
    };

  return {
    hint,
    solve,
    stop: stopSolving,
    open: player(open),
    step: player(step),
    fromUrl: player(fromUrl),
    choose: player(choose),
    cancel: player(cancel),
    random: player(() => open(String(randomDeal()))),
    /** A drag's move: exactly the cards dragged. Resolves true if it was played. */
    move: player((source, target, card) =>
      enqueue(() => act("play", { source, target, card, auto: state.auto, longest: false })),
    ),
    playCard: player((card) => enqueue(() => act("play_card", { card, auto: state.auto }))),
    undo: player(() =>
      enqueue(() => (state.game?.can_undo ? act("undo", {}, () => t("say.undone")) : undefined)),
    ),
    redo: player(() =>
      enqueue(() => (state.game?.can_redo ? act("redo", {}, () => t("say.redone")) : undefined)),
    ),
    restart: player(() =>
      enqueue(() =>
        state.game?.can_undo ? act("restart", {}, () => t("say.restarted")) : undefined,
      ),
    ),
    copyLink: () =>
      enqueue(() =>
        copy(
          location.href,
          state.game?.moves.length ? () => t("copy.link-game") : () => t("copy.link-deal"),
        ),
      ),
    /** Copy the position on the table in fc-solve's format (what `freecell solve -` reads). */
    copyText: () =>
      enqueue(async () => {
        if (!state.game) return messages.say(() => t("copy.nothing"));
        const reply = await call("position_text");
        if (!reply.ok) return messages.note(pythonError(reply));
        return copy(reply.text, () => t("copy.text"));
      }),
    /** Turn safe automatic moves on or off; turning them on plays the safe moves there are. */
    setAuto(on) {
      state.auto = on;
      try {
        localStorage.setItem(AUTO_KEY, on ? "on" : "off");
      } catch {
        // storage may be off; the setting then lasts as long as the page
      }
      if (on) enqueue(() => act("auto_moves"));
    },
  };
}
