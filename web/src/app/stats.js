// Statistics, as every desktop FreeCell keeps them: games played and won, the current and best
// winning streaks, and per deal whether it was won and in how few moves. One versioned record
// in localStorage; a bad value in it costs only that value, never the rest.
//
// A game counts as played once its first move is made, and as won once. Leaving a game that is
// not won for another deal breaks the streak (Back brings the game back, and a reload resumes
// it: neither counts it twice). The daily streak counts the consecutive UTC dates, up to today
// (or yesterday, while today's is not won yet), whose daily deal was won on that date (not by
// Solve).
import { local } from "./storage.js";

const KEY = "freecell.stats";
const VERSION = 1;
const LEFT = 50; // games left unfinished that Back may bring back, remembered
const DAILY_KEPT = 400; // the latest dates whose daily deal was won, remembered
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC date of a moment (now by default) as YYYY-MM-DD: the day of the daily deal. */
export function utcDate(moment = new Date()) {
  return moment.toISOString().slice(0, 10);
}

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
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** Read the record, keeping every value that is sound. */
function read() {
  const raw = local.readJson(KEY, null);
  const record = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
  const deals = {};
  if (record.deals && typeof record.deals === "object" && !Array.isArray(record.deals)) {
    for (const [deal, entry] of Object.entries(record.deals)) {
      if (!/^-?\d{1,10}$/.test(deal) || !entry || typeof entry !== "object") continue;
      const fewest = count(entry.fewest);
      deals[deal] = { won: entry.won === true && fewest > 0, fewest };
    }
  }
  const current =
    record.current && typeof record.current === "object"
      ? {
          deal: Number.isSafeInteger(record.current.deal) ? record.current.deal : null,
          won: record.current.won === true,
        }
      : null;
  const left = Array.isArray(record.left) ? record.left.filter(Number.isSafeInteger) : [];
  const daily = Array.isArray(record.daily)
    ? record.daily.filter((date) => typeof date === "string" && DATE.test(date))
    : [];
  const stats = {
    version: VERSION,
    played: count(record.played),
    won: count(record.won),
    streak: count(record.streak),
    best: count(record.best),
    deals,
    current: current?.deal === null ? null : current,
    left: left.slice(-LEFT),
    daily: daily.slice(-DAILY_KEPT),
  };
  stats.won = Math.min(stats.won, stats.played);
  stats.best = Math.max(stats.best, stats.streak);
  return stats;
}

function write(stats) {
  local.writeJson(KEY, stats); // storage off or full: the statistics last as long as the page
}

/** The statistics: what they are now, and the events that change them. */
export function createStats() {
  // The record as this tab last read or wrote it; read again only after another tab wrote it,
  // so that a deal change costs no parsing of a record that grows with every deal won.
  let stats = null;
  addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) stats = null;
  });
  const record = () => (stats ??= read());

  /** Apply `update` to the record; it returns false when it changed nothing (then no write). */
  function change(update) {
    if (update(record()) !== false) write(stats);
  }

  return {
    /**
     * The figures: {played, won, rate, streak, best, dailyStreak}, rate a fraction or null;
     * the daily streak as of `today` (a UTC date, by default the page clock's).
     */
    figures(today = utcDate()) {
      const { played, won, streak, best, daily } = record();
      const rate = played ? won / played : null;
      return { played, won, streak, best, rate, dailyStreak: dailyStreak(daily, today) };
    },

    /** The dates whose daily deal was won on its day (archive.js exports them). */
    dailyDates() {
      return [...record().daily];
    },

    /** What this deal's record says: {won, fewest}, or null if it was never won. */
    deal(number) {
      const entry = record().deals[String(number)];
      return entry?.won ? entry : null;
    },

    /**
     * A game was opened. Another deal than the game in progress leaves that game (if it was
     * not won, the streak ends). A game that comes with moves is resumed when this page left
     * it before (Back), else it counts as played now (someone's link).
     */
    opened(game) {
      change((s) => {
        const leaving = s.current !== null && s.current.deal !== game.deal;
        const starting = (leaving || s.current === null) && game.move_count > 0;
        if (!leaving && !starting) return false;
        if (leaving) {
          if (!s.current.won) s.streak = 0;
          s.left = [...s.left.filter((deal) => deal !== s.current.deal), s.current.deal];
          s.left = s.left.slice(-LEFT);
          s.current = null;
        }
        if (starting) {
          if (!s.left.includes(game.deal)) s.played += 1;
          s.left = s.left.filter((deal) => deal !== game.deal);
          s.current = { deal: game.deal, won: game.won };
        }
        return true;
      });
    },

    /** The game changed: its first move makes it played; a win counts once, not an
     * `assisted` one (Solve played it), which still ends the game. A win of the daily deal
     * of `daily` (a date) on that date (UTC) counts for the daily streak. */
    moved(game, { assisted = false, daily = null } = {}) {
      if (game.move_count === 0) return;
      change((s) => {
        const starting = !s.current || s.current.deal !== game.deal;
        const winning = game.won && (starting || !s.current.won);
        if (!starting && !winning) return false;
        if (starting) {
          if (s.current && !s.current.won) s.streak = 0;
          s.current = { deal: game.deal, won: false };
          s.played += 1;
        }
        if (winning) {
          s.current.won = true;
          if (assisted) return true;
          s.won = Math.min(s.won + 1, s.played);
          s.streak += 1;
          s.best = Math.max(s.best, s.streak);
          const key = String(game.deal);
          const before = s.deals[key]?.fewest || Infinity;
          s.deals[key] = { won: true, fewest: Math.min(before, game.move_count) };
          // Won on its own day (UTC): an old daily deal, or a later one, is a deal like any other.
          if (daily && daily === utcDate() && !s.daily.includes(daily)) {
            s.daily = [...s.daily, daily].sort().slice(-DAILY_KEPT);
          }
        }
        return true;
      });
    },

    /** Forget everything. */
    reset() {
      const cleared = {
        played: 0,
        won: 0,
        streak: 0,
        best: 0,
        deals: {},
        current: null,
        left: [],
        daily: [],
      };
      stats = { ...record(), ...cleared };
      write(stats);
    },
  };
}
