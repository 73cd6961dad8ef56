// The player's actions: open a deal, pick up a card, move, undo... Each one asks Python (the
// bridge to freecell._web.Session), records the answer in the state and has the view draw it.
// Actions run one after another (queue.js); Hint and Solve are solve.js's, copying is
// clipboard.js's, and what screen readers hear is said by messages.js.
import { createClipboard } from "./clipboard.js";
import { createGuard } from "./guard.js";
import { formatNumber, fromPython, t } from "./i18n.js";
import { keep, kept } from "./kept.js";
import { saidMove, saidPicked, saidRefusal, shorten } from "./messages.js";
import { createQueue } from "./queue.js";
import rules from "./rules.js";
import { createSolve } from "./solve.js";
import { cardAt, cardsAt, isCascade } from "./state.js";
import { local } from "./storage.js";
import { utcDate } from "./stats.js";
import { readUrl, writeUrl } from "./url.js";

const AUTO_KEY = "freecell.auto-play";
const OLD_AUTO_KEY = "freecell.auto-move"; // the checkbox before: "off" stays off
const TAP_KEY = "freecell.tap-to-move";
const GRADE_KEY = "freecell.random-grade";
const SETTLE_MS = 100; // a deal's rest on the table before the worker searches it (settle)
const COARSE = matchMedia("(pointer: coarse)"); // the primary pointer is a finger
const MIN_CELLS = new Set(rules.min_cells); // what a deal's fewest free cells can be
// The requests that only play on: a game they leave lost was lost before them.
const FORWARD = new Set(["play", "play_card", "play_move", "auto_moves"]);

/** A random deal among Windows FreeCell's million. */
function randomDeal() {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value % rules.random_deals) + 1;
}

/** A seed for Python's search of a random deal of a grade: 64 random bits in hex. */
function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return Array.from(words, (word) => word.toString(16).padStart(8, "0")).join("");
}

/** Random's grade as stored: one of the grades, or null for any. */
export function storedGrade() {
  const stored = local.read(GRADE_KEY);
  return rules.grades.find((grade) => String(grade) === stored) ?? null;
}

/**
 * The auto-play choice as stored: one of rules.auto_play ("off", "safe", "all"); "safe" when
 * none is (or storage is off), "off" where the old checkbox was turned off.
 */
export function storedAuto() {
  const stored = local.read(AUTO_KEY);
  if (rules.auto_play.includes(stored)) return stored;
  return local.read(OLD_AUTO_KEY) === "off" ? "off" : "safe";
}

/**
 * The tap-to-move setting as stored; when none is, on where the primary pointer is coarse (a
 * touch screen) and off for a mouse.
 */
export function storedTapToMove() {
  const stored = local.read(TAP_KEY);
  return stored === null ? COARSE.matches : stored === "on";
}

/** The actions on a state, through a bridge, shown by a view, said by messages, counted. */
export function createPlay({ state, bridge, view, messages, stats }) {
  // Any action of the player stops Solve.
  const { enqueue, player } = createQueue(() => solving.stop());
  const call = (op, args = {}) => bridge.request({ op, args });
  const said = (made) => saidMove(made, state.faces);

  /**
   * The game changed: record it, keep its history for a reload, and have the guard check it.
   * `forward`: the change only played on (or changed nothing), so a lost game is still lost;
   * `replayed`: it went back or forth in the game's history (Undo, Redo, the slider), so a
   * loss it comes back to was said when its move was made, and is not said again.
   */
  function record(game, { forward = false, opened = false, replayed = false } = {}) {
    state.game = game;
    state.selection = null;
    state.targets = [];
    state.hint = null;
    const stillLost = forward && state.solvable === "no";
    state.solvable = stillLost ? "no" : null;
    if (!stillLost) state.lost = null;
    keep(game);
    if (!opened) guard.changed({ replayed });
  }

  // A deal just opened is checked, graded and looked up (its fewest free cells) once it has
  // stayed on the table SETTLE_MS: a held N leafs through deals without a search in the worker
  // for each deal it passes, so each change is answered at once. A move meanwhile is checked
  // at once, as always.
  let settling = 0;
  function settle(number, game) {
    clearTimeout(settling);
    state.difficulty = null;
    state.minCells = null;
    state.pending = { grade: true, minCells: true };
    settling = setTimeout(() => {
      if (state.deal !== number) return;
      if (state.game === game) guard.changed();
      grade(number);
      minCells(number);
    }, SETTLE_MS);
  }

  const guard = createGuard({ state, view, messages, call });

  const solving = createSolve({
    state,
    view,
    messages,
    call,
    enqueue,
    playMove: (move) => act("play_move", { move, auto: state.auto }, { assisted: true }),
  });
  const clipboard = createClipboard({ state, messages, call });

  // --- deals -------------------------------------------------------------------------------

  /**
   * Open a game (freecell._web.Session.new_game's arguments) and record it in the history.
   * `opening`: the game the page's address names, shown at once from a reply remembered from
   * the last visit (openings.js) if there is one; Python's own reply replaces it if the two
   * differ, before any later reply can arrive.
   */
  async function openGame(args, historyMode, opening = false, daily = null) {
    finding += 1; // a deal chosen: a search for another one is over
    const request = { op: "new_game", args: { ...args, faces: !state.faces } };
    if (!opening) return showOpened(await bridge.request(request), historyMode, daily);
    const { early, answer } = await bridge.opening(request);
    if (early) {
      answer.then((reply) => {
        if (state.game === early.game && JSON.stringify(reply) !== JSON.stringify(early)) {
          showOpened(reply, "replace");
        }
      });
      return showOpened(early, historyMode);
    }
    return showOpened(await answer, historyMode);
  }

  // Counts the deals asked for: a search for a deal (daily, random_deal) still counts only
  // while no other deal was asked for since it began.
  let finding = 0;

  /**
   * Ask Python for a deal, `op` "daily" {date} or "random_deal" {grade, seed}, and open it.
   * The search does not hold the queue: the player's actions go on meanwhile, and a deal
   * opened before the answer ends the search. A refusal (a link's bad date or grade) is said
   * over a random deal of any grade. Call it from the queue;
   * it resolves once the deal is open or the search is over.
   */
  function find(op, args, historyMode) {
    const token = ++finding;
    // Said before Python has read the link's date or grade: a date quoted as a refusal would
    // be, cut; a grade only if it is one (else Python's refusal comes at once).
    const grade = rules.grades.find((known) => String(known) === String(args.grade).trim());
    if (op === "daily") messages.say(() => t("daily.finding", { date: shorten(args.date) }));
    else if (grade) messages.say(() => t("grade.finding", { grade: formatNumber(grade) }));
    return call(op, args).then((reply) =>
      enqueue(async () => {
        if (token !== finding) return;
        if (reply.ok) {
          await openGame({ text: String(reply.number) }, historyMode, false, reply.date ?? null);
          return;
        }
        if (reply.cancelled) return;
        await openGame({ text: String(randomDeal()) }, historyMode);
        messages.say(saidRefusal(reply, state));
      }),
    );
  }

  /**
   * A link names a daily date beside its deal: Python says whether that is the date's daily
   * deal. Only then is it shown as one; else the page says so and the URL loses the date.
   */
  function confirmDaily(date, number) {
    const token = ++finding;
    return call("daily", { date }).then((reply) =>
      enqueue(() => {
        if (token !== finding || state.deal !== number || reply.cancelled) return;
        if (reply.ok && reply.number === number) state.daily = reply.date;
        else if (reply.ok) {
          messages.say(() => t("daily.not-daily", { number: String(number), date: reply.date }));
        } else messages.say(saidRefusal(reply, state));
        writeUrl(state);
        view.render(state);
      }),
    );
  }

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

  // What Python said of the last deal it refused to open (showOpened), for a link's refusal.
  let refusal = null;

  /**
   * A link's deal was refused (`said`: why): say it over a random deal, as a link's bad date
   * or grade is, and point the URL at the deal shown.
   */
  async function refusedLink(said) {
    await openGame({ text: String(randomDeal()) }, "replace");
    messages.say(said);
  }

  /**
   * Show a game Python opened (new_game's reply), the daily deal of `daily` (a date) if it was
   * found as one; false if Python refused.
   */
  function showOpened(reply, historyMode, daily = null) {
    if (reply.faces) state.faces = reply.faces;
    if (!reply.ok) {
      refusal = saidRefusal(reply, state);
      messages.say(refusal);
      view.render(state);
      return false;
    }
    state.deal = reply.number;
    // What the field asked for is now the deal shown: a number typed after Next or Random is
    // typing, even the one asked for before (view.js renderField).
    state.asked = String(reply.number);
    state.daily = daily;
    state.neighbours = { previous: reply.previous, next: reply.next };
    record(reply.game, { opened: true });
    settle(reply.number, state.game);
    stats.opened(state.game);
    const notice = { code: reply.notice_code, params: reply.notice_params };
    const before = stats.deal(state.deal);
    // (At an end of the deals the disabled button shows it; Prev or Next pressed there says why.)
    if (reply.notice) messages.say(() => fromPython(reply.notice, notice, state.faces));
    else if (daily) messages.say(() => t("daily.opened", { date: daily }));
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

  /** The deal Prev (`by` -1) or Next (1) opens; null at that end of the deals. */
  function neighbour(by) {
    return by < 0 ? state.neighbours.previous : state.neighbours.next;
  }

  /** Why Prev (`by` -1) or Next (1) opens nothing: the deal shown is the first or the last. */
  function endOfDeals(by) {
    const params = { number: String(state.deal) };
    return by < 0 ? t("deal.first", params) : t("deal.last", params);
  }

  /**
   * Open the deal `by` places from the one shown (deal 1 when no deal was shown yet); at an end
   * of the deals, say so and keep the game.
   */
  function step(by) {
    return enqueue(() => {
      if (state.deal === null) return openGame({ text: "1" }, "push");
      if (neighbour(by) === null) return messages.note(() => endOfDeals(by));
      return openGame({ text: String(state.deal), step: by }, "push");
    });
  }

  /**
   * Open what the URL names: a deal, the daily deal of a date (`daily`, today's UTC date when
   * empty), a random deal of a grade (`deal=random&grade=4`), else a random deal. A link's bad
   * deal (or more than one), like a bad date or grade, is said over a random deal. Resolves
   * once the deal is open (after the search for it, which does not hold the queue).
   */
  function fromUrl(historyMode) {
    let search = null;
    const opened = enqueue(async () => {
      const { deal, moves, daily, grade } = readUrl();
      if (deal.kind === "many") {
        const params = { min: String(rules.min_deal), max: String(rules.max_deal) };
        await refusedLink(() => t("link.many-deals", params));
        return;
      }
      const anyDeal = deal.kind === "none" || deal.text.trim().toLowerCase() === "random";
      if (anyDeal && daily !== null) {
        search = find("daily", { date: daily || utcDate() }, "replace");
        return;
      }
      if (anyDeal && grade !== null) {
        search = find("random_deal", { grade, seed: randomSeed() }, "replace");
        return;
      }
      const linked = !anyDeal;
      const text = linked ? deal.text : String(randomDeal());
      state.asked = text;
      const opened = await openGame(
        { text, moves: linked ? moves : "", history: linked ? kept(text, moves) : "" },
        linked ? historyMode : "replace",
        true,
      );
      if (!opened && linked) {
        await refusedLink(refusal);
        return;
      }
      // A language chosen earlier stays in the URL of the entry gone back to.
      if (opened && state.languageChosen && !readUrl().language) writeUrl(state);
      if (opened && linked && daily !== null) search = confirmDaily(daily || utcDate(), state.deal);
    });
    return opened.then(() => search);
  }

  /** Open a random deal: of Random's grade (the menu's, remembered) if one is chosen. */
  function random() {
    return enqueue(() => {
      if (state.grade === null) {
        const text = String(randomDeal());
        state.asked = text;
        return openGame({ text }, "push");
      }
      find("random_deal", { grade: String(state.grade), seed: randomSeed() }, "push");
      return undefined;
    });
  }

  // --- moves -------------------------------------------------------------------------------

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
    stats.moved(state.game, { assisted, daily: state.daily });
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
    messages.announce(saidPicked(card, count, state.faces));
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
    return enqueue(() => chosen(place, card, again));
  }

  async function chosen(place, card, again) {
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
  }

  /**
   * A tap (or a click) on a place and the card there, if any. With tap-to-move on and nothing
   * picked up, a card goes to its best place (Python's choice: Session.play_card); one with no
   * move shakes, and screen readers hear why. Otherwise as choose(): pick up, put down.
   */
  function tap(place, card = null) {
    return enqueue(() => {
      if (!state.tapToMove || !card || state.selection || place === rules.foundation) {
        return chosen(place, card, "drop");
      }
      const refused = (reply) => {
        messages.announce(saidRefusal(reply, state)());
        view.shake(card);
      };
      return act("play_card", { card, auto: state.auto }, { refused });
    });
  }

  // --- the history slider --------------------------------------------------------------------

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

  /** One move back (`by` -1) or forward (1) from where the slider is, or is going. */
  function seekBy(by) {
    if (!state.game) return undefined;
    return seek((state.seeking ?? state.game.move_count) + by, { say: true });
  }

  /** Drop the picked-up card, if any. */
  function cancel() {
    return enqueue(() => (state.selection ? select(null) : undefined));
  }

  return {
    hint: solving.hint,
    solve: solving.solve,
    stop: solving.stop,
    open: player(open),
    step: player(step),
    fromUrl: player(fromUrl),
    choose: player(choose),
    tap: player(tap),
    /** Pick up a card and those below it (a long press), whatever was picked up before. */
    pickUp: player((place, card) => enqueue(() => (state.game ? select({ place, card }) : null))),
    cancel: player(cancel),
    random: player(random),
    /** Open today's daily deal (the page's clock's UTC date). */
    daily: player(() =>
      enqueue(() => {
        find("daily", { date: utcDate() }, "push");
      }),
    ),
    /** Choose Random's grade (remembered): one of the grades, or null for any. */
    setGrade(grade) {
      state.grade = rules.grades.find((known) => known === grade) ?? null;
      local.write(GRADE_KEY, state.grade === null ? "any" : String(state.grade));
    },
    /** A drag's move: exactly the cards dragged. Resolves true if it was played. */
    move: player((source, target, card) =>
      enqueue(() => act("play", { source, target, card, auto: state.auto, longest: false })),
    ),
    playCard: player((card) => enqueue(() => act("play_card", { card, auto: state.auto }))),
    undo: player(() =>
      enqueue(() => (state.game?.can_undo ? act("undo", {}, { announce: () => t("say.undone") }) : undefined)),
    ),
    redo: player(() =>
      enqueue(() => (state.game?.can_redo ? act("redo", {}, { announce: () => t("say.redone") }) : undefined)),
    ),
    restart: player(() =>
      enqueue(() =>
        state.game?.can_undo ? act("restart", {}, { announce: () => t("say.restarted") }) : undefined,
      ),
    ),
    seek: player(seek),
    seekBy: player(seekBy),
    /** Take the game back to the last position the guard found winnable. */
    undoToWinnable: player(() =>
      enqueue(() =>
        state.lost ? act("undo_to_winnable", {}, { announce: () => t("say.back-to-winnable") }) : undefined,
      ),
    ),
    copyLink: () => enqueue(clipboard.copyLink),
    /** Copy the position on the table in fc-solve's format (what `freecell solve -` reads). */
    copyText: () => enqueue(clipboard.copyText),
    /**
     * Choose which cards go home by themselves (remembered): "off", "safe" or "all"; the
     * moves the new choice makes now are played at once (automatic moves of the last turn).
     */
    setAuto(mode) {
      if (!rules.auto_play.includes(mode)) return;
      state.auto = mode;
      local.write(AUTO_KEY, mode); // storage may be off: it lasts as long as the page
      if (mode !== "off") enqueue(() => act("auto_moves", { auto: mode }));
    },
    /** Turn the live guard on or off (remembered). */
    setLiveCheck: (on) => guard.set(on),
    /** Turn tap-to-move on or off (remembered): whether one tap on a card plays it. */
    setTapToMove(on) {
      state.tapToMove = on;
      local.write(TAP_KEY, on ? "on" : "off");
    },
  };
}
