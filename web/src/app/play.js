// The player's actions: open a deal, pick up a card, move, undo... Each one asks Python (the
// bridge to freecell._web.Session), records the answer in the state and has the view draw it.
// Actions run one after another in the order they were asked for, so no key press or click is
// lost or overtaken, even while Python is still starting.
import { fromPython, t } from "./i18n.js";
import rules from "./rules.js";
import { cardAt } from "./state.js";
import { readUrl, writeUrl } from "./url.js";

const AUTO_KEY = "freecell.auto-move";

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

/** The actions on a state, through a bridge, shown by a view and a message line. */
export function createPlay({ state, bridge, view, messages }) {
  let queue = Promise.resolve();

  /** Run a task after every task asked for before it; resolves when it is done. */
  function enqueue(task) {
    const done = queue.then(task);
    queue = done.catch((error) => console.error(error));
    return queue;
  }

  const call = (op, args = {}, options = {}) => bridge.request({ op, args }, options);
  const pythonError = (reply) => () => fromPython(reply.error, reply, state.faces);
  const render = (steps) => view.render(state, steps);

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
      return false;
    }
    state.deal = reply.number;
    state.text = reply.text;
    state.game = reply.game;
    state.selection = null;
    state.targets = [];
    const notice = { code: reply.notice_code, params: reply.notice_params };
    messages.say(reply.notice ? () => fromPython(reply.notice, notice, state.faces) : "");
    // A link whose moves were cut short is corrected to the moves that were played.
    const mode = historyMode === "none" && reply.notice ? "replace" : historyMode;
    if (mode !== "none") writeUrl(state, { replace: mode === "replace" });
    render();
    return true;
  }

  function open(text, historyMode = "push", moves = "") {
    return enqueue(() => {
      state.asked = text;
      return openGame({ text, moves }, historyMode);
    });
  }

  /** Open the deal `by` places from the one shown (from deal 1 when none is). */
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
      const text = deal.kind === "one" ? deal.text : String(randomDeal());
      const opened = await openGame(
        { text, moves: deal.kind === "one" ? moves : "" },
        deal.kind === "one" ? historyMode : "replace",
        true,
      );
      // A language chosen earlier stays in the URL of the entry gone back to.
      if (opened && state.languageChosen && !readUrl().language) writeUrl(state);
    });
  }

  // --- moves -------------------------------------------------------------------------------

  /** Ask Python for a change of the game and show it; a refusal changes nothing. */
  async function act(op, args = {}) {
    if (!state.game) return;
    const reply = await call(op, args);
    state.selection = null;
    state.targets = [];
    if (reply.game) state.game = reply.game;
    if (!reply.ok) {
      messages.note(pythonError(reply));
      render();
      return;
    }
    messages.say("");
    writeUrl(state);
    render(reply.steps);
  }

  async function select(selection) {
    state.selection = selection;
    state.targets = [];
    render();
    if (!selection) return;
    const reply = await call("targets", { source: selection.place });
    if (reply.ok && state.selection === selection) {
      state.targets = reply.targets;
      render();
    }
  }

  /**
   * A card or a place was chosen (click, tap, key): pick it up, or put the picked-up card
   * there. `again` says what choosing the picked-up place again does: "drop" it, or play its
   * "best" move.
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
        } else if (rules.freecells.includes(place)) {
          messages.note(() => t("pick.empty-freecell", { cell: place.toUpperCase() }));
        } else messages.note(() => t("pick.empty-cascade", { cascade: place }));
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

  return {
    open,
    step,
    fromUrl,
    choose,
    cancel,
    random: () => open(String(randomDeal())),
    move: (source, target, card) =>
      enqueue(() => act("play", { source, target, card, auto: state.auto })),
    playCard: (card) => enqueue(() => act("play_card", { card, auto: state.auto })),
    undo: () => enqueue(() => (state.game?.can_undo ? act("undo") : undefined)),
    redo: () => enqueue(() => (state.game?.can_redo ? act("redo") : undefined)),
    restart: () => enqueue(() => (state.game?.can_undo ? act("restart") : undefined)),
    copyLink: () =>
      enqueue(() =>
        copy(
          location.href,
          state.game?.moves.length ? () => t("copy.link-game") : () => t("copy.link-deal"),
        ),
      ),
    copyText: () =>
      enqueue(() => {
        if (state.deal === null) return messages.say(() => t("copy.nothing"));
        const number = String(state.deal);
        return copy(state.text, () => t("copy.text", { number }));
      }),
    setAuto(on) {
      state.auto = on;
      try {
        localStorage.setItem(AUTO_KEY, on ? "on" : "off");
      } catch {
        // storage may be off; the setting then lasts as long as the page
      }
    },
  };
}
