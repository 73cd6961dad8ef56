// Statistics, as every desktop FreeCell keeps them: games played and won, the current and best
// winning streaks, and per deal whether it was won, in how few moves, its best time and its par,
// and how many deals were won at or under par. One versioned record in localStorage, shared by
// the site's tabs; a bad value in it costs only that value, never the rest.
//
// Moves are counted as a player counts them (the game's player_moves: moves home are free, a
// run moved as one is one), since version 2 of the record. A version-1 record's fewest moves
// counted every move, those home too: they are read as they are (never fewer than the player's
// count of the same game), and a win in fewer moves replaces them.
//
// A game counts as played once its first move is made, and as won once. A game belongs to the
// tab that plays it (its game in progress and the games it left are the tab's own, in
// sessionStorage): another tab playing another deal neither leaves it nor counts it again.
// Leaving a game that is not won for another deal breaks the streak (Back brings the game back,
// and a reload resumes it: neither counts it twice). The daily streak counts the consecutive
// UTC dates, up to today (or yesterday, while today's is not won yet), whose daily deal was won
// on that date (not by Solve).
//
// Tabs never overwrite each other's counts: each change is a few events about games, keyed by
// the game's id (started, won, left), applied to the record as it is in storage right before
// it is written, under a Web Lock where the browser has them (navigator.locks). The record
// remembers the latest games' ids, so an event applied twice counts once; and for a while after
// a change, each write another tab makes is checked for this tab's games, which are added
// again if that write did not hold them (a tab that wrote from a copy older than this change).
import { MAX_COUNT, isCount, isDate, isDeal, isDealKey, isId, newId, utcDate } from "./identity.js";
import { local, session } from "./storage.js";

const KEY = "freecell.stats";
const TAB_KEY = "freecell.stats.tab"; // this tab's game in progress and the games it left
const VERSION = 2;
const LEFT = 50; // games left unfinished that Back may bring back, remembered
const DAILY_KEPT = 400; // the latest dates whose daily deal was won, remembered
const GAMES_KEPT = 200; // the latest games' ids, by which an event is counted once
const CHECKED_MS = 10_000; // how long this tab's events are checked in other tabs' writes

/** How many consecutive dates up to `today` (or the day before) are among `dates`. */
export function dailyStreak(dates, today) {
  const won = new Set(dates);
  const day = new Date(`${today}T00:00:00Z`);
  if (!won.has(today)) day.setUTCDate(day.getUTCDate() - 1);
  let streak = 0;
  while (won.has(utcDate(day))) {
    streak += 1;
    day.setUTCDate(day.getUTCDate() - 1);
  }
  return streak;
}

function count(value) {
  return isCount(value) ? value : 0;
}

const isRecord = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** A game as stored ({id, deal, won}), or null if it is not one. */
function game(value) {
  if (!isRecord(value) || !isId(value.id) || !isDeal(value.deal)) return null;
  return { id: value.id, deal: value.deal, won: value.won === true };
}

/** Read the shared record, keeping every value that is sound. */
function read() {
  const raw = local.readJson(KEY, null);
  const record = isRecord(raw) ? raw : {};
  const deals = {};
  if (isRecord(record.deals)) {
    for (const [deal, entry] of Object.entries(record.deals)) {
      if (!isDealKey(deal) || !isRecord(entry)) continue;
      const fewest = count(entry.fewest);
      deals[deal] = { won: entry.won === true && fewest > 0, fewest };
      if (count(entry.seconds) > 0) deals[deal].seconds = entry.seconds; // the best time
      if (isCount(entry.par)) deals[deal].par = entry.par;
    }
  }
  const daily = Array.isArray(record.daily)
    ? record.daily.filter(isDate)
    : [];
  const games = Array.isArray(record.games)
    ? record.games
        .filter((entry) => isRecord(entry) && isId(entry.id))
        .map((entry) => ({ id: entry.id, won: entry.won === true }))
    : [];
  const stats = {
    version: VERSION,
    played: count(record.played),
    won: count(record.won),
    streak: count(record.streak),
    best: count(record.best),
    deals,
    daily: daily.slice(-DAILY_KEPT),
    games: games.slice(-GAMES_KEPT),
    epoch: typeof record.epoch === "string" ? record.epoch : "",
  };
  stats.won = Math.min(stats.won, stats.played);
  stats.best = Math.max(stats.best, stats.streak);
  return stats;
}

/** Store the record; false if storage is off or full (the statistics last as the page does). */
function write(stats) {
  return local.writeJson(KEY, stats);
}

/**
 * Apply an event to a record; return whether it changed it. `start` counts game `id` played,
 * `win` counts it won (its `start` counted it played), `leave` ends the streak unless it was
 * won. A game already started or won is not counted again.
 */
function apply(s, event) {
  if (event.type === "par") return lowerPar(s.deals[String(event.deal)], event.par);
  let entry = s.games.find((known) => known.id === event.id);
  if (event.type === "leave") {
    if (entry?.won || s.streak === 0) return false;
    s.streak = 0;
    return true;
  }
  if (entry?.won || (entry && event.type === "start")) return false;
  if (!entry) {
    entry = { id: event.id, won: false };
    s.games = [...s.games, entry].slice(-GAMES_KEPT);
    // A win whose start is gone (a Reset in between) is a game played too. Every count stops
    // at MAX_COUNT: one beyond would be read back as no count, and refused in an export.
    s.played = Math.min(s.played + 1, MAX_COUNT);
    if (event.type === "start") return true;
  }
  entry.won = true; // the game is over, whoever won it
  if (event.assisted) return true;
  s.won = Math.min(s.won + 1, s.played);
  s.streak = Math.min(s.streak + 1, MAX_COUNT);
  s.best = Math.max(s.best, s.streak);
  const key = String(event.deal);
  const before = s.deals[key];
  const seconds = bestTime(before?.seconds, event.seconds);
  s.deals[key] = { won: true, fewest: Math.min(before?.fewest || Infinity, event.moves), ...seconds };
  if (before?.par !== undefined) s.deals[key].par = before.par;
  lowerPar(s.deals[key], event.par);
  if (event.daily && !s.daily.includes(event.daily)) {
    s.daily = [...s.daily, event.daily].sort().slice(-DAILY_KEPT);
  }
  return true;
}

/** The best of two times in whole seconds (either may be missing) as {seconds}, or {}. */
export function bestTime(one, other) {
  const times = [one, other].filter((value) => count(value) > 0);
  return times.length ? { seconds: Math.min(...times) } : {};
}

/** Lower a won deal's par to `par` (a number, or null: none known); whether it changed. */
function lowerPar(entry, par) {
  if (!entry?.won || !isCount(par)) return false;
  if (entry.par !== undefined && entry.par <= par) return false;
  entry.par = par;
  return true;
}

/** How many deals of `deals` ({key: {won, fewest, par}}) were won at or under their par. */
export function wonAtPar(deals) {
  return Object.values(deals).filter(
    (entry) => entry.won !== false && entry.par !== undefined && entry.fewest <= entry.par,
  ).length;
}

/** Run `task` alone among the site's tabs (a Web Lock), or at once where there are none. */
function exclusively(task) {
  const locks = globalThis.navigator?.locks;
  if (!locks) {
    task();
    return;
  }
  let ran = false;
  const run = () => {
    ran = true;
    task();
  };
  locks.request(KEY, run).catch(() => ran || run()); // refused (an opaque origin): at once
}

/** The statistics: what they are now, and the events that change them. */
export function createStats() {
  // The record as this tab last read or wrote it; read again only after another tab wrote it,
  // so that a deal change costs no parsing of a record that grows with every deal won.
  let stats = null;
  const record = () => (stats ??= read());
  // This tab's events of the last CHECKED_MS: {event, at, epoch}.
  let recent = [];

  // This tab's own: its game in progress ({id, deal, won} or null) and the games it left.
  const stored = session.readJson(TAB_KEY, null);
  const tab = {
    current: game(stored?.current),
    left: Array.isArray(stored?.left) ? stored.left.map(game).filter(Boolean).slice(-LEFT) : [],
  };
  const keepTab = () => session.writeJson(TAB_KEY, tab);

  // The writes still waiting for the lock. A page that goes (a reload, a link followed right
  // after a move) writes them at once, as it goes: the lock's turn would never come. An event
  // applied twice counts once, so a page kept for Back that writes again changes nothing.
  const unwritten = new Set();
  addEventListener("pagehide", () => {
    for (const job of [...unwritten]) job();
  });

  /**
   * Apply events to the record as storage holds it now, and write it if they changed it.
   * `again`: events already applied once, applied only to the record of the same epoch (not
   * to one reset since).
   */
  function persist(events, again = false) {
    const job = () => {
      unwritten.delete(job);
      const fresh = read();
      let changed = false;
      for (const { event, epoch } of events) {
        if (again && epoch !== fresh.epoch) continue;
        changed = apply(fresh, event) || changed;
      }
      if (!changed) stats = fresh;
      else if (write(fresh)) stats = fresh; // else storage is off: this tab's copy is all
    };
    unwritten.add(job);
    exclusively(job);
  }

  /** Count events: at once in this tab's copy, then in storage. */
  function change(...events) {
    if (!events.length) return;
    const now = Date.now();
    const { epoch } = record();
    const made = events.map((event) => ({ event, at: now, epoch }));
    for (const { event } of made) apply(stats, event);
    recent = [...recent.filter(({ at }) => now - at < CHECKED_MS), ...made];
    persist(made);
  }

  addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    stats = null;
    // Another tab wrote: if it wrote from an older copy, this tab's recent games come back.
    const now = Date.now();
    recent = recent.filter(({ at }) => now - at < CHECKED_MS);
    const checked = recent.filter(({ event: { type } }) => type !== "leave");
    if (checked.length) persist(checked, true);
  });

  /** Leave the tab's game in progress: kept for Back; the streak ends if it was not won. */
  function leave() {
    const { current } = tab;
    tab.left = [...tab.left.filter((left) => left.deal !== current.deal), current].slice(-LEFT);
    tab.current = null;
    return current.won ? [] : [{ type: "leave", id: current.id }];
  }

  return {
    /**
     * The figures: {played, won, rate, streak, best, dailyStreak, atPar}, rate a fraction or
     * null; the daily streak as of `today` (a UTC date, by default the page clock's); atPar
     * the deals won at or under par.
     */
    figures(today = utcDate()) {
      const { played, won, streak, best, daily, deals } = record();
      const rate = played ? won / played : null;
      const atPar = wonAtPar(deals);
      return { played, won, streak, best, rate, dailyStreak: dailyStreak(daily, today), atPar };
    },

    /** The dates whose daily deal was won on its day (archive.js exports them). */
    dailyDates() {
      return [...record().daily];
    },

    /** Every deal won here: {deal: {won, fewest, seconds, par}}, the best time and par if known. */
    wonDeals() {
      return Object.fromEntries(Object.entries(record().deals).filter(([, entry]) => entry.won));
    },

    /** What this deal's record says: {won, fewest, seconds?, par?}, or null if never won. */
    deal(number) {
      const entry = record().deals[String(number)];
      return entry?.won ? entry : null;
    },

    /**
     * A game was opened. Another deal than the tab's game in progress leaves that game (if it
     * was not won, the streak ends). A game that comes with moves is resumed when this tab left
     * it before (Back), else it counts as played now (someone's link).
     */
    opened(opened) {
      const leaving = tab.current !== null && tab.current.deal !== opened.deal;
      const starting = (leaving || tab.current === null) && opened.move_count > 0;
      if (!leaving && !starting) return;
      const events = leaving ? leave() : [];
      if (starting) {
        const left = tab.left.find((known) => known.deal === opened.deal);
        tab.left = tab.left.filter((known) => known !== left);
        tab.current = left ?? { id: newId(), deal: opened.deal, won: opened.won };
        if (!left) events.push({ type: "start", id: tab.current.id });
      }
      keepTab();
      change(...events);
    },

    /** The game changed: its first move makes it played; a win counts once, not an
     * `assisted` one (Solve played it), which still ends the game. A win of the daily deal
     * of `daily` (a date) on that date (UTC) counts for the daily streak. A win's moves are
     * the player's count (player_moves); `par` is the deal's par after it, if known; its
     * `seconds` (the clock's, timer.js) is the deal's best time if it beats the one kept. */
    moved(played, { assisted = false, daily = null, seconds = null, par = null } = {}) {
      if (played.move_count === 0) return;
      const starting = !tab.current || tab.current.deal !== played.deal;
      const winning = played.won && (starting || !tab.current.won);
      if (!starting && !winning) return;
      const events = [];
      if (starting) {
        if (tab.current) events.push(...leave());
        tab.current = { id: newId(), deal: played.deal, won: false };
        events.push({ type: "start", id: tab.current.id });
      }
      if (winning) {
        tab.current.won = true;
        // Won on its own day (UTC): an old daily deal, or a later one, is a deal like any other.
        const today = daily && daily === utcDate() ? daily : null;
        const { id } = tab.current;
        const { deal, player_moves: moves } = played;
        const time = count(seconds) > 0 ? { seconds } : {}; // the clock's (timer.js)
        events.push({ type: "win", id, deal, moves, assisted, daily: today, par, ...time });
      }
      keepTab();
      change(...events);
    },

    /** Deal `number`'s par became known after it was won here: the deal keeps it. */
    parFound(number, par) {
      change({ type: "par", deal: number, par });
    },

    /** Forget everything (a new epoch: no tab's earlier game comes back). */
    reset() {
      const cleared = {
        played: 0,
        won: 0,
        streak: 0,
        best: 0,
        deals: {},
        daily: [],
        games: [],
        epoch: newId(),
      };
      recent = [];
      const next = { ...record(), ...cleared };
      stats = next;
      exclusively(() => write(next));
    },
  };
}
