// Opening deals: a number typed, Prev and Next, Random (of a grade), the daily deal, and what
// the page's address names. Each opens a game through Python (Session.new_game), shows it,
// writes the URL and has the deal settle (settle.js); a link's refusal is said over a random
// deal. The searches for a deal (daily, random_deal) do not hold the queue.
import { keptHistory } from "./history.js";
import { formatNumber, fromPython, t } from "./i18n.js";
import { utcDate } from "./identity.js";
import { saidRefusal, shorten } from "./messages.js";
import rules from "./rules.js";
import { readSetting, writeSetting } from "./settings.js";
import { readUrl, writeUrl } from "./url.js";

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
function storedGrade() {
  const stored = readSetting("randomGrade");
  return rules.grades.find((grade) => String(grade) === stored) ?? null;
}

/**
 * Opening deals on a state: {open, step, fromUrl, random, daily, setGrade}, each to be called
 * from the queue (`enqueue`) as the player's action. `record(game, {opened})` records a game
 * opened, `settle(number, game)` starts the deal's settling, `par.opened(number)` shows the
 * par remembered for it (par.js); `bridge` asks Python (its opening
 * request too: openings.js), `call(op, args)` too. An `entry` is how a deal opened writes the
 * URL: "push" (a new entry of the browser's history) or "replace" (the entry shown: Back and
 * Forward's too, which then names the game already, unless an action that ended meanwhile
 * wrote its own, or a link's moves were cut short). `fromUrl(entry, address)` opens what
 * `address` (a query, the URL's by default) names.
 */
export function createDeals({
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
}) {
  // Counts the deals asked for: a search for a deal (daily, random_deal) still counts only
  // while no other deal was asked for since it began.
  let finding = 0;
  // What Python said of the last deal it refused to open (showOpened), for a link's refusal.
  let refusal = null;
  state.grade = storedGrade();
  state.asked = readUrl().deal.text ?? ""; // the field shows it while the page starts

  /**
   * Open a game (freecell._web.Session.new_game's arguments) and point the URL at it (`entry`).
   * `opening`: the game the page's address names, shown at once from a reply remembered from
   * the last visit (openings.js) if there is one; Python's own reply replaces it if the two
   * differ, before any later reply can arrive.
   */
  async function openGame(args, entry, opening = false, daily = null) {
    finding += 1; // a deal chosen: a search for another one is over
    const request = { op: "new_game", args: { ...args, faces: !state.faces } };
    if (!opening) return showOpened(await bridge.request(request), entry, daily);
    const { early, answer } = await bridge.opening(request);
    if (early) {
      answer.then((reply) => {
        if (state.game === early.game && JSON.stringify(reply) !== JSON.stringify(early)) {
          showOpened(reply, "replace");
        }
      });
      return showOpened(early, entry);
    }
    return showOpened(await answer, entry);
  }

  /**
   * Ask Python for a deal, `op` "daily" {date} or "random_deal" {grade, seed}, and open it.
   * The search does not hold the queue: the player's actions go on meanwhile, and a deal
   * opened before the answer ends the search. A refusal (a link's bad date or grade) is said
   * over a random deal of any grade. Call it from the queue;
   * it resolves once the deal is open or the search is over.
   */
  function find(op, args, entry) {
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
          await openGame({ text: String(reply.number) }, entry, false, reply.date ?? null);
          return;
        }
        if (reply.cancelled) return;
        await openGame({ text: String(randomDeal()) }, entry);
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
  function showOpened(reply, entry, daily = null) {
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
    par.opened(reply.number);
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
    writeUrl(state, { replace: entry === "replace" });
    view.render(state);
    return true;
  }

  /**
   * Open a deal's text (typed, or a link's), and its `moves` with the history this tab kept
   * of them (history.js), as a link to them opens them.
   */
  function open(text, entry = "push", moves = "") {
    return enqueue(() => {
      state.asked = text;
      const history = moves ? keptHistory(text, moves) : "";
      return openGame({ text, moves, history }, entry);
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
   * deal (or more than one), a parameter given twice, like a bad date or grade, is said over a
   * random deal. Resolves once the deal is open (after the search for it, which does not hold
   * the queue).
   */
  function fromUrl(entry, address = location.search) {
    let search = null;
    const opened = enqueue(async () => {
      const { deal, moves, repeated, daily, grade } = readUrl(address);
      if (deal.kind === "many") {
        const params = { min: String(rules.min_deal), max: String(rules.max_deal) };
        await refusedLink(() => t("link.many-deals", params));
        return;
      }
      if (repeated) {
        await refusedLink(() => t("link.repeated", { name: repeated }));
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
        { text, moves: linked ? moves : "", history: linked ? keptHistory(text, moves) : "" },
        linked ? entry : "replace",
        true,
      );
      if (!opened && linked) {
        await refusedLink(refusal);
        return;
      }
      // A language chosen earlier stays in the URL of the entry gone back to.
      if (opened && state.languageChosen && !readUrl(address).language) writeUrl(state);
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

  return {
    open,
    step,
    fromUrl,
    random,
    /** Open today's daily deal (the page's clock's UTC date). */
    daily: () =>
      enqueue(() => {
        find("daily", { date: utcDate() }, "push");
      }),
    /** Choose Random's grade (remembered): one of the grades, or null for any. */
    setGrade(grade) {
      state.grade = rules.grades.find((known) => known === grade) ?? null;
      writeSetting("randomGrade", state.grade === null ? "any" : String(state.grade));
    },
  };
}
