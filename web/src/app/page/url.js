// The game lives in the URL: ?deal=617&moves=5a,5b,2h,36v3&lang=pt (every move made, automatic
// ones included, in fc-solve's standard notation; the language when one was chosen), with
// &daily=2026-11-30 after the deal while it is that date's daily deal (Python confirmed it).
// Links may ask: ?daily (today's daily deal, UTC), ?daily=DATE, ?deal=random&grade=4. The page
// only reads text from it and hands that to Python; nothing from the URL is inserted as HTML.
import { MOVE } from "./state.js";

// Another site's parameter (utm_source, fbclid) stays in the URL; a name of other characters
// (a NUL, a space, nothing) is no one's and goes.
const KEPT_NAME = /^[\w.~-]{1,64}$/;

// The page's own parameters: each is given once. A second `deal` is refused saying the deals
// a link may name; a second of another is refused saying which (they were joined, or the
// first was taken).
const ONCE = ["moves", "daily", "grade", "lang"];

/**
 * What the URL asks for: {deal, moves, repeated, language, daily, grade}, where deal is
 * {kind: "none"}, {kind: "one", text} or {kind: "many"}, moves the `moves` value ("" if none),
 * repeated the first of ONCE's names given more than once (refused as several deals are) or
 * null, language the `lang` value or null, daily the `daily` value ("" for today) or null, and
 * grade the `grade` value or null (a repeated one's value is none of them: null, or "").
 */
export function readUrl(search = location.search) {
  const params = new URLSearchParams(search);
  const deals = params.getAll("deal");
  let deal = { kind: "none" };
  if (deals.length === 1) deal = { kind: "one", text: deals[0] };
  else if (deals.length > 1) deal = { kind: "many" };
  const once = (name) => {
    const values = params.getAll(name);
    return values.length === 1 ? values[0] : null;
  };
  return {
    deal,
    moves: once("moves") ?? "",
    repeated: ONCE.find((name) => params.getAll(name).length > 1) ?? null,
    language: once("lang"),
    daily: once("daily"),
    grade: once("grade"),
  };
}

/** A game's parameters: the deal, its daily date if any, its moves (checked, commas kept). */
function gameParams(deal, daily, moves) {
  const parts = [`deal=${encodeURIComponent(String(deal))}`];
  if (daily) parts.push(`daily=${encodeURIComponent(daily)}`);
  const checked = moves.filter((move) => MOVE.test(move));
  if (checked.length) parts.push(`moves=${checked.join(",")}`);
  return parts;
}

/** The language's parameter while one was chosen (a link, the menu, a stored choice). */
function languageParams(state) {
  return state.languageChosen ? [`lang=${encodeURIComponent(state.language)}`] : [];
}

/**
 * The link that opens a game: its deal and its moves (comma-joined), and the page's language
 * if one was chosen. The Find dialog's deals and "My games" are such links.
 */
export function gameLink(state, deal, moves = "") {
  const parts = gameParams(deal, null, moves ? moves.split(",") : []);
  return `?${[...parts, ...languageParams(state)].join("&")}`;
}

/**
 * Open the game links (gameLink's) in `container` in place, as Back and Forward do: a click
 * calls `open(deal, moves)` (the deal's text, the moves comma-joined); a click that asks for
 * another tab or window (a modifier key, another button) is the browser's.
 */
export function openLinksInPlace(container, open) {
  container.addEventListener("click", (event) => {
    const anchor = event.target.closest("a[href]");
    if (!anchor || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    const { deal, moves, repeated } = readUrl(anchor.search);
    if (deal.kind !== "one" || repeated) return;
    event.preventDefault();
    open(deal.text, moves);
  });
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
  } else parts.push(...gameParams(state.deal, state.daily, state.game?.moves ?? []));
  parts.push(...languageParams(state));
  const shown = state.deal === null ? [] : ["daily", "grade"];
  for (const name of ["deal", "moves", "lang", ...shown]) params.delete(name);
  for (const name of new Set(params.keys())) if (!KEPT_NAME.test(name)) params.delete(name);
  const rest = params.toString();
  url.search = [...parts, ...(rest ? [rest] : [])].join("&");
  if (url.href === location.href) return;
  const entry = { deal: state.deal, moves: state.game?.moves.length ?? 0 };
  if (replace) history.replaceState(entry, "", url);
  else history.pushState(entry, "", url);
}
