// The replies to the pages' opening requests (the game their address names), remembered for
// the next visit of the same build: that visit shows its board at once, from the reply, while
// Python starts and opens the same game, and Python's own reply then replaces it if the two
// differ (play.js). The last few, in localStorage.
//
// Storage is input from outside the program, like a link: anyone (an extension, another
// program, a bug) may have written anything there. A remembered reply is used only if it is
// whole: the deal and moves it claims are the ones asked for, the game's shape is Python's
// (rules.snapshot: freecell.Snapshot's fields and their types, as the build writes them from
// Python), and its cards are the 52 cards, each once, where the foundations count as holding
// every card up to their top card.
import rules from "./rules.js";
import { MOVE } from "./state.js";
import { local } from "./storage.js";

const OPENINGS_KEY = "freecell.openings";
const OPENINGS_KEPT = 4;

const CODES = [...rules.ranks].flatMap((rank) => [...rules.suits].map((suit) => rank + suit));
const KNOWN = new Set(CODES);
const CASCADE_COUNT = rules.cascades.length;
const FREECELL_COUNT = rules.freecells.length;
const SUIT_COUNT = rules.suits.length;
const FACE_TEXT_MOST = 4; // "10", "♥": a face's rank and suit are short texts

function openings() {
  const kept = local.readJson(OPENINGS_KEY, []);
  return Array.isArray(kept) ? kept : []; // not ours otherwise
}

/** Remember Python's reply to an opening request of this build (nothing if storage is off). */
export function rememberOpening(build, key, reply) {
  const kept = openings().filter((entry) => entry?.build === build && entry.key !== key);
  local.writeJson(OPENINGS_KEY, [{ build, key, reply }, ...kept].slice(0, OPENINGS_KEPT));
}

/**
 * The reply remembered for this request (`key` is its JSON) of this build, if it passes every
 * check; else null, and the page waits for Python.
 */
export function rememberedOpening(build, key, request) {
  const reply = openings().find((entry) => entry?.build === build && entry.key === key)?.reply;
  try {
    return isWhole(reply, request.args) ? reply : null;
  } catch {
    return null; // a value no check foresaw: not used
  }
}

const isCode = (value) => typeof value === "string" && KNOWN.has(value);
const isMoves = (value) => value.every((move) => MOVE.test(move));

/** Whether `value` is of a type as rules.snapshot states one: a list of alternatives. */
function isOfType(value, type) {
  return type.some((kind) => {
    if (kind === "null") return value === null;
    if (kind === "int") return Number.isSafeInteger(value);
    if (kind === "str") return typeof value === "string";
    if (kind === "bool") return typeof value === "boolean";
    return Array.isArray(value) && value.every((item) => isOfType(item, kind.list));
  });
}

/** Whether `game` has Python's snapshot's fields, each of its type, and no other. */
function isSnapshot(game) {
  const fields = Object.entries(rules.snapshot);
  if (typeof game !== "object" || game === null || Array.isArray(game)) return false;
  if (Object.keys(game).length !== fields.length) return false;
  return fields.every(([name, type]) => Object.hasOwn(game, name) && isOfType(game[name], type));
}

/** Whether a remembered reply answers `args` (new_game's) and holds a whole, known game. */
function isWhole(reply, args) {
  if (reply?.ok !== true || !/^-?[0-9]{1,10}$/.test(args.text)) return false;
  const game = reply.game;
  const number = Number(args.text);
  if (!isSnapshot(game)) return false;
  if (reply.number !== number || game.deal !== number || typeof reply.text !== "string") {
    return false;
  }
  const isDeal = (value) => value === null || Number.isSafeInteger(value);
  if (!isDeal(reply.previous) || !isDeal(reply.next)) return false;
  return (
    claimsTheMoves(game, reply, args.moves) &&
    hasTheCards(game) &&
    (reply.faces === undefined || hasTheFaces(reply.faces))
  );
}

/**
 * Whether the game's moves are the ones asked for: all of them, or the first few when the
 * reply's notice says why the rest were not played.
 */
function claimsTheMoves(game, reply, asked) {
  const { moves, auto, redo } = game;
  if (!isMoves(moves) || auto.length !== moves.length || !isMoves(redo)) return false;
  if (game.redo_auto.length !== redo.length || game.move_count !== moves.length) return false;
  if (game.player_moves > moves.length || game.player_moves < 0) return false;
  if (game.can_undo !== moves.length > 0 || game.can_redo !== redo.length > 0) return false;
  const tokens = String(asked ?? "")
    .split(",")
    .map((token) => token.trim())
    .filter(Boolean);
  const prefix = moves.every((move, index) => move === tokens[index]);
  const notice = reply.notice;
  if (notice === undefined) return prefix && moves.length === tokens.length;
  const params = reply.notice_params;
  return (
    prefix &&
    typeof notice === "string" &&
    typeof reply.notice_code === "string" &&
    typeof params === "object" &&
    params !== null
  );
}

/** Whether the game holds each of the 52 cards once, in 8 cascades, 4 cells, 4 foundations. */
function hasTheCards(game) {
  const { cascades, freecells, foundations } = game;
  if (cascades.length !== CASCADE_COUNT || freecells.length !== FREECELL_COUNT) return false;
  if (foundations.length !== SUIT_COUNT) return false;
  const cards = [...cascades.flat(), ...freecells.filter((code) => code !== null)];
  for (const [suit, top] of foundations.entries()) {
    if (top === null) continue;
    if (!isCode(top) || top[1] !== rules.suits[suit]) return false;
    for (const rank of rules.ranks.slice(0, rules.ranks.indexOf(top[0]) + 1)) {
      cards.push(rank + rules.suits[suit]);
    }
  }
  const won = foundations.every((top) => top?.[0] === rules.ranks.at(-1));
  const each = cards.length === CODES.length && new Set(cards).size === CODES.length;
  return each && cards.every(isCode) && game.won === won;
}

/** Whether `faces` has every card's face, agreeing with its code. */
function hasTheFaces(faces) {
  if (typeof faces !== "object" || faces === null) return false;
  if (Object.keys(faces).length !== CODES.length) return false;
  return CODES.every((code) => {
    const face = faces[code];
    return (
      face?.rank_index === rules.ranks.indexOf(code[0]) &&
      face.suit_index === rules.suits.indexOf(code[1]) &&
      face.red === rules.red_suits.includes(code[1]) &&
      [face.rank, face.suit].every(
        (text) => typeof text === "string" && text.length > 0 && text.length <= FACE_TEXT_MOST,
      )
    );
  });
}
