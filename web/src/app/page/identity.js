// What names the things the page keeps records of: a game, a device, an epoch (an id), a deal
// (its number, or the number as a record's key) and a day (a UTC date). The statistics
// (stats.js), the games log and an export file (archive.js) make them and check them here.
import rules from "./rules.js";

// An id this page made (newId: 16 hex digits), or an older one (a UUID, before ids were made
// without crypto.randomUUID), which a games log or a file may still hold.
const ID = /^[\w-]{1,64}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DEAL_KEY = /^-?\d{1,10}$/;

/**
 * The most any count may be (games played, won, a streak, a deal's fewest moves): far beyond a
 * lifetime of games, and small enough that the sum of the counts of every device a file may
 * name (archive.js) is still a whole number JavaScript counts exactly.
 */
export const MAX_COUNT = 10 ** 9;

/** A new id (a game's, a device's, an epoch's): 64 random bits in hex; randomUUID needs https. */
export function newId() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return Array.from(words, (word) => word.toString(16).padStart(8, "0")).join("");
}

/** Whether a value is an id. */
export function isId(value) {
  return typeof value === "string" && ID.test(value);
}

/** Whether a value is a count: a whole number from 0 to MAX_COUNT. */
export function isCount(value) {
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_COUNT;
}

/** Whether a value is a deal's number: from rules.min_deal to rules.max_deal, or special. */
export function isDeal(value) {
  return (
    Number.isSafeInteger(value) &&
    ((value >= rules.min_deal && value <= rules.max_deal) || rules.special_deals.includes(value))
  );
}

/** Whether a record's key ("617", "-1") names a deal. */
export function isDealKey(key) {
  return typeof key === "string" && DEAL_KEY.test(key) && isDeal(Number(key));
}

/** Whether a value is a date, YYYY-MM-DD. */
export function isDate(value) {
  return typeof value === "string" && DATE.test(value);
}

/** The UTC date of a moment (now by default) as YYYY-MM-DD: the day of the daily deal. */
export function utcDate(moment = new Date()) {
  return moment.toISOString().slice(0, 10);
}
