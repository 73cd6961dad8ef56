// The game lives in the URL: ?deal=617&moves=5a,5b,2h,36v3&lang=pt (every move made, automatic
// ones included, in fc-solve's standard notation; the language when one was chosen), with
// &daily=2026-11-30 after the deal while it is that date's daily deal (Python confirmed it).
// Links may ask: ?daily (today's daily deal, UTC), ?daily=DATE, ?deal=random&grade=4. The page
// only reads text from it and hands that to Python; nothing from the URL is inserted as HTML.
import { MOVE } from "./state.js";

/**
 * What the URL asks for: {deal, moves, language, daily, grade}, where deal is {kind: "none"},
 * {kind: "one", text} or {kind: "many"}, moves the comma-joined `moves` values, language
 * the `lang` value or null, daily the `daily` value ("" for today) or null, and grade the
 * `grade` value or null.
 */
export function readUrl(search = location.search) {
  const params = new URLSearchParams(search);
  const deals = params.getAll("deal");
  let deal = { kind: "none" };
  if (deals.length === 1) deal = { kind: "one", text: deals[0] };
  else if (deals.length > 1) deal = { kind: "many" };
  return {
    deal,
    moves: params.getAll("moves").join(","),
    language: params.get("lang"),
    daily: params.get("daily"),
    grade: params.get("grade"),
  };
}

/**
 * Point the URL at what the state shows: the deal, its daily date if it is a daily deal, and
 * its moves, then the language if one was chosen, then any other parameters as they were (a
 * link's `grade` is gone once a deal is shown). `replace` replaces the history entry instead
 * of adding one. Before a deal is shown, the URL's own deal and moves stay as they are. The
 * moves go in as they are (their characters need no escaping), so commas stay commas.
 */
export function writeUrl(state, { replace = true } = {}) {
  const url = new URL(location.href);
  const params = new URLSearchParams(url.search);
  const parts = [];
  if (state.deal === null) {
    for (const value of params.getAll("deal")) parts.push(`deal=${encodeURIComponent(value)}`);
    for (const value of params.getAll("moves")) {
      parts.push(`moves=${value.split(",").map(encodeURIComponent).join(",")}`);
    }
  } else {
    parts.push(`deal=${encodeURIComponent(String(state.deal))}`);
    if (state.daily) parts.push(`daily=${encodeURIComponent(state.daily)}`);
    const moves = (state.game?.moves ?? []).filter((move) => MOVE.test(move));
    if (moves.length) parts.push(`moves=${moves.join(",")}`);
  }
  if (state.languageChosen) parts.push(`lang=${encodeURIComponent(state.language)}`);
  const shown = state.deal === null ? [] : ["daily", "grade"];
  for (const name of ["deal", "moves", "lang", ...shown]) params.delete(name);
  const rest = params.toString();
  url.search = [...parts, ...(rest ? [rest] : [])].join("&");
  if (url.href === location.href) return;
  const entry = { deal: state.deal, moves: state.game?.moves.length ?? 0 };
  if (replace) history.replaceState(entry, "", url);
  else history.pushState(entry, "", url);
}
