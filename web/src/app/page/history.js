// A game's history beyond its moves, which a reload would lose: which moves were automatic (for
// Undo) and the moves waiting for Redo. The URL carries only the moves, so this tab keeps the
// rest in sessionStorage, per game (its deal and moves), and hands it back to Python as
// Session.new_game's `history`, which checks it before using it (freecell._web.link.PageHistory).
import { session } from "./storage.js";

const KEY = "freecell.kept"; // its name from before: a reload after an update keeps it
const MOST = 30; // games kept per tab

function load() {
  const value = session.readJson(KEY, []);
  return Array.isArray(value) ? value : []; // a value that is not ours: nothing kept
}

function name(deal, moves) {
  return `${deal}|${moves}`;
}

// This tab's kept games, read once: sessionStorage belongs to the tab, so no one else writes it.
let entries = null;

function all() {
  return (entries ??= load());
}

/**
 * Keep a game's history (from its state): its automatic flags and its redo moves. A game
 * whose moves were all the player's, with nothing to redo, needs none: it is not written.
 */
export function keepHistory(game) {
  const key = name(game.deal, game.moves.join(","));
  const needed = game.auto.includes(true) || game.redo.length > 0;
  const others = all().filter((entry) => entry?.key !== key);
  if (!needed && others.length === entries.length) return; // nothing to keep, nothing stale
  const history = { auto: game.auto, redo: game.redo, redo_auto: game.redo_auto };
  entries = needed ? [...others, { key, history }].slice(-MOST) : others;
  // Storage may be off or full: a reload then loses only the redo moves.
  session.writeJson(KEY, entries);
}

/** The history kept for a game given by its deal's text and its moves (as JSON), or "". */
export function keptHistory(deal, moves) {
  const key = name(deal, moves);
  const entry = all().find((item) => item?.key === key);
  return entry ? JSON.stringify(entry.history) : "";
}
