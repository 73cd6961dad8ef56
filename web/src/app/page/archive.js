// Your games and statistics in a file (docs/archive.md has the format): [data-action=export]
// downloads one JSON file, [data-action=import] reads one back and merges it, and the
// statistics dialog lists "My games", each a link that opens it again.
//
// The statistics (stats.js) stay this device's own; what came from other devices' files is kept
// beside them, per device, as each device's counts (played, won, best streak), and the figures
// add them up. A merge takes the larger count of each device, the union of the daily dates
// and games, the fewest moves, best time and lowest par of each deal, so importing a file twice
// (or a file that holds this device's own counts, passed back) counts nothing twice. A file is
// checked whole before anything changes: a bad one is refused with the reason, and nothing is
// lost. Nothing from a file is ever read as HTML: every text goes in as text, and every value is
// checked against what it may be. An import never costs this device a game of its own: the log
// keeps the latest GAMES_KEPT games, this device's first, and a file's game dated after now is
// refused. Every record keyed by what a file names (a device's id may be "constructor" or
// "__proto__") is a map without a prototype (`dict`), so that no name reads what every object
// inherits.
import { formatList, formatNumber, t } from "./i18n.js";
import { MAX_COUNT, isCount, isDate, isDeal, isDealKey, isId, newId, utcDate } from "./identity.js";
import { shorten } from "./messages.js";
import { allPars, forgetPars, rememberPars } from "./par.js";
import { MOVE } from "./state.js";
import { SETTINGS } from "./settings.js";
import { bestTime, dailyStreak, wonAtPar } from "./stats.js";
import { local } from "./storage.js";
import { formatTime } from "./timer.js";
import { gameLink, openLinksInPlace } from "./url.js";

export const FORMAT = "freecell-deals";
export const VERSION = 1;
export const MAX_BYTES = 2_000_000; // a file larger than this is no export of ours
const GAMES_KEY = "freecell.games";
const IMPORTED_KEY = "freecell.imported";
const DEVICE_KEY = "freecell.device";
const GAMES_KEPT = 300; // the latest games, kept and exported: this device's own first
const LISTED = 50; // the latest games in "My games"
const MOST = { devices: 1000, daily: 5000, deals: 100_000, games: 5000, moves: 5000 };
// A file's game is dated from the page's first day (a game cannot be older) to now (a day
// later still passes: another device's clock may be ahead).
const FIRST_DAY = Date.parse("2026-11-26T00:00:00Z");
const CLOCK_AHEAD_MS = 86_400_000;
const RESULTS = ["playing", "won", "solved"];
/** What an import may change besides the games, as the message names it. */
const PARTS = {
  devices: () => t("archive.part-counts"),
  daily: () => t("archive.part-daily"),
  deals: () => t("archive.part-deals"),
  pars: () => t("archive.part-par"),
  settings: () => t("archive.part-settings"),
};
const RESULT_WORDS = {
  playing: () => t("games.playing"),
  won: () => t("games.won"),
  solved: () => t("games.solved"),
};

/** The settings a file carries (settings.js), by their localStorage key. */
const FILED = Object.fromEntries(Object.values(SETTINGS).map((setting) => [setting.key, setting]));

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
/** A record keyed by names a file gives: no key reads an inherited value. */
const dict = () => Object.create(null);
const isTime = (value) => isCount(value) && value > 0; // a best time, in whole seconds
/** A time field as a record spreads it: {seconds} if there is one, else nothing. */
const timeOf = (value) => (isTime(value) ? { seconds: value } : {});

/** Why a file is refused: `say()` says it in the language (our own words, never the file's). */
class Refusal extends Error {
  constructor(say) {
    super("refused");
    this.say = say;
  }
}

const REFUSALS = {
  tooLarge: () => t("archive.too-large", { max: MAX_BYTES / 1e6 }),
  notJson: () => t("archive.not-json"),
  notOurs: () => t("archive.not-ours"),
  version: () => t("archive.version", { version: VERSION }),
};

/** Refuse the file unless `ok`, naming the field (quoted as messages quote: 40 characters). */
function need(ok, field) {
  if (!ok) throw new Refusal(() => t("archive.bad-field", { field: shorten(field) }));
}

/** Check a count: a whole number, at most MAX_COUNT (the refusal says so). */
function needCount(value, field) {
  if (Number.isSafeInteger(value) && value > MAX_COUNT) {
    const params = { field: shorten(field), max: formatNumber(MAX_COUNT) };
    throw new Refusal(() => t("archive.too-many", params));
  }
  need(isCount(value), field);
}

function tally(value, field) {
  need(isObject(value), field);
  for (const name of ["played", "won", "best"]) needCount(value[name], `${field}.${name}`);
  need(value.won <= value.played, `${field}.won`);
  return { played: value.played, won: value.won, best: value.best };
}

/**
 * A game of the log, checked. One from a file (`now`: the time of the import) is dated from
 * FIRST_DAY to now; the log's own are taken as this device dated them.
 */
function game(value, field, now = null) {
  need(isObject(value), field);
  const { id, deal, date, result, moves, daily, seconds, player_moves: counted } = value;
  need(isId(id), `${field}.id`);
  need(isDeal(deal), `${field}.deal`);
  const when = typeof date === "string" && date.length <= 40 ? Date.parse(date) : Number.NaN;
  need(!Number.isNaN(when), `${field}.date`);
  need(now === null || (when >= FIRST_DAY && when <= now + CLOCK_AHEAD_MS), `${field}.date`);
  need(RESULTS.includes(result), `${field}.result`);
  need(typeof moves === "string" && moves.length <= MOST.moves * 5, `${field}.moves`);
  const tokens = moves ? moves.split(",") : [];
  need(tokens.length <= MOST.moves && tokens.every((move) => MOVE.test(move)), `${field}.moves`);
  const dated = isDate(daily);
  need(daily === null || daily === undefined || dated, `${field}.daily`);
  need(seconds === undefined || isTime(seconds), `${field}.seconds`);
  // The player's count of the moves (since 2026-11-29; older games have none).
  const countable = counted === undefined || (isCount(counted) && counted <= tokens.length);
  need(countable, `${field}.player_moves`);
  const began = new Date(date).toISOString();
  const entry = { id, deal, date: began, result, moves, daily: daily ?? null, ...timeOf(seconds) };
  if (counted !== undefined) entry.player_moves = counted;
  return entry;
}

/** A deal's entry in a file: {fewest, par, seconds}, par and the best time where known. */
function dealEntry(value, field) {
  need(isObject(value), field);
  needCount(value.fewest, `${field}.fewest`);
  need(value.fewest > 0, `${field}.fewest`);
  if (value.par !== undefined) needCount(value.par, `${field}.par`);
  need(value.seconds === undefined || isTime(value.seconds), `${field}.seconds`);
  const entry = { fewest: value.fewest, ...timeOf(value.seconds) };
  if (value.par !== undefined) entry.par = value.par;
  return entry;
}

/** Two entries of a deal as one: the fewest moves, the best time and the lowest par. */
function lower(one, other) {
  const fewest = Math.min(one?.fewest ?? Infinity, other.fewest);
  const entry = { fewest, ...bestTime(one?.seconds, other.seconds) };
  const par = Math.min(one?.par ?? Infinity, other.par ?? Infinity);
  if (par !== Infinity) entry.par = par;
  return entry;
}

/**
 * Read a file's text: the archive it holds, every value checked, or a Refusal (thrown) that
 * says what is wrong. Unknown fields are left out (a later version's), unknown settings too.
 */
export function parseArchive(text, now = Date.now()) {
  if (text.length > MAX_BYTES) throw new Refusal(REFUSALS.tooLarge);
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(REFUSALS.notJson);
  }
  if (!isObject(value) || value.format !== FORMAT) throw new Refusal(REFUSALS.notOurs);
  if (value.version !== VERSION) throw new Refusal(REFUSALS.version);
  need(isId(value.device), "device");
  need(isObject(value.statistics), "statistics");
  const own = tally(value.statistics, "statistics");
  needCount(value.statistics.streak, "statistics.streak");
  need(isObject(value.imported) && Object.keys(value.imported).length <= MOST.devices, "imported");
  const imported = dict();
  for (const [device, counts] of Object.entries(value.imported)) {
    need(isId(device), "imported");
    imported[device] = tally(counts, `imported.${device}`);
  }
  need(Array.isArray(value.daily) && value.daily.length <= MOST.daily, "daily");
  need(value.daily.every(isDate), "daily");
  need(isObject(value.deals) && Object.keys(value.deals).length <= MOST.deals, "deals");
  const deals = dict();
  for (const [deal, entry] of Object.entries(value.deals)) {
    need(isDealKey(deal), "deals");
    deals[deal] = dealEntry(entry, `deals.${deal}`);
  }
  // Each deal's par known there (since 2026-11-29; older files have none).
  const par = value.par ?? {};
  need(isObject(par) && Object.keys(par).length <= MOST.deals, "par");
  for (const [deal, moves] of Object.entries(par)) {
    need(isDealKey(deal), "par");
    needCount(moves, `par.${deal}`);
  }
  need(isObject(value.settings), "settings");
  const settings = dict();
  for (const [key, setting] of Object.entries(value.settings)) {
    if (!Object.hasOwn(FILED, key)) continue; // another version's setting
    need(FILED[key].values.includes(setting), `settings.${key}`);
    settings[key] = setting;
  }
  need(Array.isArray(value.games) && value.games.length <= MOST.games, "games");
  const games = value.games.map((entry, index) => game(entry, `games[${index}]`, now));
  const ids = new Set();
  games.forEach(({ id }, index) => {
    need(!ids.has(id), `games[${index}].id`); // a game is in a file once
    ids.add(id);
  });
  const { device, statistics } = value;
  const daily = [...value.daily];
  const pars = { ...par };
  return { device, own, streak: statistics.streak, imported, daily, deals, pars, settings, games };
}

/** This device's id, made once: a file names the device its own counts come from. */
function deviceId() {
  let id = local.read(DEVICE_KEY);
  if (!isId(id)) {
    id = newId();
    local.write(DEVICE_KEY, id);
  }
  return id;
}

/** What came from other devices: {devices: {id: tally}, daily: [dates], deals: {deal: {fewest, par}}} */
function readImported() {
  const value = local.readJson(IMPORTED_KEY, null);
  const empty = { devices: dict(), daily: [], deals: dict() };
  if (!isObject(value)) return empty;
  const devices = dict();
  for (const [id, counts] of Object.entries(isObject(value.devices) ? value.devices : {})) {
    try {
      if (isId(id)) devices[id] = tally(counts, id);
    } catch {
      // an unsound entry costs only itself
    }
  }
  const daily = Array.isArray(value.daily) ? value.daily.filter(isDate) : [];
  const deals = dict();
  for (const [deal, entry] of Object.entries(isObject(value.deals) ? value.deals : {})) {
    try {
      if (isDealKey(deal)) deals[deal] = dealEntry(entry, deal);
    } catch {
      // an unsound entry costs only itself
    }
  }
  return { devices, daily, deals };
}

/**
 * The games log, oldest first: each game as game() checks it, marked `imported: true` if it
 * came from a file (a log older than the mark holds this device's games only), each id once.
 */
function readGames() {
  const value = local.readJson(GAMES_KEY, []);
  if (!Array.isArray(value)) return [];
  const ids = new Set();
  return value.flatMap((entry, index) => {
    try {
      const checked = game(entry, String(index));
      if (ids.has(checked.id)) return [];
      ids.add(checked.id);
      return [entry.imported === true ? { ...checked, imported: true } : checked];
    } catch {
      return [];
    }
  });
}

/** Of games sorted by date, the latest GAMES_KEPT: this device's own first, then imported. */
function kept(games) {
  const own = games.filter((entry) => !entry.imported).length;
  let room = Math.max(0, GAMES_KEPT - own); // for the latest imported games
  let ownRoom = GAMES_KEPT;
  const chosen = [];
  for (let index = games.length - 1; index >= 0; index -= 1) {
    const entry = games[index];
    if (entry.imported ? room > 0 : ownRoom > 0) chosen.push(entry);
    if (entry.imported) room -= 1;
    else ownRoom -= 1;
  }
  return chosen.reverse();
}

/** Whether one list of moves begins with the other (a game undone, or played on). */
function related(one, other) {
  const [short, long] = one.length <= other.length ? [one, other] : [other, one];
  const whole = long.length === short.length || short === "" || long[short.length] === ",";
  return long.startsWith(short) && whole;
}

/**
 * The statistics with the games log and the other devices' counts: the same methods as
 * stats.js's (figures, deal, opened, moved, reset), plus games() and the file's export and
 * import. `controls` finds a setting's control (a selector) for an import to set.
 */
export function createArchive(stats, controls = (selector) => document.querySelector(selector)) {
  // The games and the imported counts as this tab last read or wrote them: read again only
  // after another tab wrote them, so that a move costs no parsing of the games.
  let gamesRead = null;
  let importedRead = null;
  addEventListener("storage", (event) => {
    if (event.key === GAMES_KEY || event.key === null) gamesRead = null;
    if (event.key === IMPORTED_KEY || event.key === null) importedRead = null;
  });
  const loadGames = () => (gamesRead ??= readGames());
  const loadImported = () => (importedRead ??= readImported());
  function saveGames(games) {
    gamesRead = kept(games);
    local.writeJson(GAMES_KEY, gamesRead); // storage off or full: they last as long as the page
  }
  function saveImported(imported) {
    importedRead = imported;
    local.writeJson(IMPORTED_KEY, imported);
  }

  /**
   * Log the game: a new entry for a game begun, the latest one of its deal played on; a win
   * with its time (`seconds`, the clock's) keeps it.
   */
  function log(game, { assisted = false, daily = null, seconds = null } = {}) {
    if (!game.move_count || game.deal === null) return;
    const moves = game.moves.join(",");
    const counted = game.player_moves;
    const games = [...loadGames()];
    const index = games.findLastIndex((entry) => entry.deal === game.deal);
    const entry = games[index];
    const result = game.won ? (assisted ? "solved" : "won") : "playing";
    if (entry && related(entry.moves, moves)) {
      if (entry.result !== "playing" || (entry.moves === moves && entry.result === result)) return;
      games[index] = { ...entry, moves, result, player_moves: counted, ...timeOf(seconds) };
    } else {
      const date = new Date().toISOString();
      const time = timeOf(seconds);
      const counts = { player_moves: counted, ...time };
      games.push({ id: newId(), deal: game.deal, date, result, moves, daily, ...counts });
    }
    saveGames(games);
  }

  function figures(today = utcDate()) {
    const own = stats.figures(today);
    const { devices, daily } = loadImported();
    const others = Object.values(devices);
    const played = own.played + others.reduce((sum, counts) => sum + counts.played, 0);
    const won = own.won + others.reduce((sum, counts) => sum + counts.won, 0);
    const best = Math.max(own.best, ...others.map((counts) => counts.best));
    const dates = [...stats.dailyDates(), ...daily];
    const streak = daily.length ? dailyStreak(dates, today) : own.dailyStreak;
    const atPar = wonAtPar(wonDeals());
    const rate = played ? won / played : null;
    return { ...own, played, won, best, rate, dailyStreak: streak, atPar };
  }

  /** Every deal won, here or on the devices whose files came in: {deal: {fewest, par}}. */
  function wonDeals() {
    const deals = Object.assign(dict(), loadImported().deals);
    for (const [key, entry] of Object.entries(stats.wonDeals())) deals[key] = lower(deals[key], entry);
    return deals;
  }

  /** The file's content now (see docs/archive.md). */
  function contents() {
    const own = stats.figures();
    const imported = loadImported();
    const deals = wonDeals();
    for (const entry of loadGames()) {
      // A game logged before 2026-11-29 has no player's count: the statistics hold its win.
      if (entry.result !== "won" || entry.player_moves === undefined) continue;
      const key = String(entry.deal);
      deals[key] = lower(deals[key], { fewest: entry.player_moves, ...timeOf(entry.seconds) });
    }
    const settings = {};
    for (const { key, values } of Object.values(SETTINGS)) {
      const value = local.read(key);
      if (values.includes(value)) settings[key] = value;
    }
    return {
      format: FORMAT,
      version: VERSION,
      exported: new Date().toISOString(),
      device: deviceId(),
      statistics: { played: own.played, won: own.won, streak: own.streak, best: own.best },
      imported: imported.devices,
      daily: [...new Set([...stats.dailyDates(), ...imported.daily])].sort(),
      deals,
      par: allPars(),
      settings,
      games: loadGames().map(({ imported: _, ...entry }) => entry),
    };
  }

  /** Download the file: freecell-deals-DATE.json. */
  function exportFile() {
    const blob = new Blob([JSON.stringify(contents(), null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `freecell-deals-${utcDate()}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }

  /**
   * Merge an archive (parseArchive's); return {count, changed}: how many games were new, and
   * what else changed, PARTS' names (devices' counts, daily dates, deals, pars, settings).
   */
  function merge(archive) {
    const self = deviceId();
    const imported = loadImported();
    const devices = Object.assign(dict(), imported.devices);
    const take = (id, counts) => {
      if (id === self) return; // this device's own counts, passed back: counted already
      if (!devices[id] && !counts.played && !counts.best) return; // no count: nothing to keep
      const before = devices[id] ?? { played: 0, won: 0, best: 0 };
      devices[id] = {
        played: Math.max(before.played, counts.played),
        won: Math.max(before.won, counts.won),
        best: Math.max(before.best, counts.best),
      };
    };
    take(archive.device, archive.own);
    for (const [id, counts] of Object.entries(archive.imported)) take(id, counts);
    const daily = [...new Set([...imported.daily, ...archive.daily])].sort().slice(-MOST.daily);
    const deals = Object.assign(dict(), imported.deals);
    for (const [deal, entry] of Object.entries(archive.deals)) deals[deal] = lower(deals[deal], entry);
    const parsBefore = allPars();
    const parsAfter = rememberPars(archive.pars);
    const games = loadGames();
    const known = new Set(games.map((entry) => entry.id));
    const added = archive.games
      .filter((entry) => !known.has(entry.id))
      .map((entry) => ({ ...entry, imported: true }));
    const merged = [...games, ...added].sort((a, b) => a.date.localeCompare(b.date));
    const next = { devices, daily, deals };
    const changed = Object.keys(next).filter(
      (part) => JSON.stringify(next[part]) !== JSON.stringify(imported[part]),
    );
    const pars = Object.entries(parsAfter).some(([key, par]) => parsBefore[key] !== par);
    if (pars) changed.push("pars");
    saveImported(next);
    saveGames(merged);
    const stayed = new Set(loadGames().map((entry) => entry.id)); // the latest are kept
    const counted = added.filter((entry) => stayed.has(entry.id));
    let settings = false;
    for (const [key, value] of Object.entries(archive.settings)) {
      const setting = FILED[key];
      const control = controls(setting.control);
      if (!control) continue;
      // A setting the file holds as it is here changes nothing (and plays no automatic move).
      if (control.type === "checkbox") {
        if (control.checked === (value === "on")) continue;
        control.checked = value === "on";
      } else {
        const wanted = setting === SETTINGS.randomGrade && value === "any" ? "" : value;
        if (control.value === wanted) continue;
        control.value = wanted;
      }
      control.dispatchEvent(new Event("change", { bubbles: true }));
      settings = true;
    }
    if (settings) changed.push("settings");
    return { count: counted.length, changed };
  }

  /**
   * Read a chosen file and merge it; resolves with what to say: {say, refused}, `say()` the
   * games it added and what else it changed, that nothing was new, or why the file is refused
   * (then nothing changed).
   */
  async function importFile(file) {
    try {
      if (file.size > MAX_BYTES) throw new Refusal(REFUSALS.tooLarge);
      const { count, changed } = merge(parseArchive(await file.text()));
      if (!count && !changed.length) return { say: () => t("archive.nothing-new"), refused: false };
      const say = () => {
        const games = count ? t("archive.imported", { count }) : t("archive.no-new-game");
        if (!changed.length) return games;
        const parts = formatList(changed.map((part) => PARTS[part]()));
        return `${games} ${t("archive.changed", { parts })}`;
      };
      return { say, refused: false };
    } catch (error) {
      return { say: error instanceof Refusal ? error.say : REFUSALS.notJson, refused: true };
    }
  }

  return {
    ...stats,
    figures,
    /** What this deal's record says ({won, fewest, seconds?, par?}), other devices' wins included. */
    deal(number) {
      const own = stats.deal(number);
      const other = loadImported().deals[String(number)];
      if (!other) return own;
      return { won: true, ...lower(own, other) };
    },
    opened(game) {
      stats.opened(game);
      log(game);
    },
    moved(game, options = {}) {
      stats.moved(game, options);
      log(game, options);
    },
    /** Forget everything: the statistics, the other devices' counts and the games. */
    reset() {
      stats.reset();
      forgetPars();
      saveImported({ devices: dict(), daily: [], deals: dict() });
      saveGames([]);
    },
    /** The latest games, newest first (at most LISTED). */
    games: () => loadGames().slice(-LISTED).reverse(),
    exportFile,
    importFile,
  };
}

/**
 * Fill the "My games" list (an <ol>) with the games, each a link (in the language of `state`
 * if one was chosen), in the language.
 */
export function renderGames(list, games, state) {
  const items = games.map((entry) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = gameLink(state, entry.deal, entry.moves);
    link.textContent = t("games.deal", { number: String(entry.deal) });
    const count = entry.player_moves ?? (entry.moves ? entry.moves.split(",").length : 0);
    const details = [
      new Date(entry.date).toLocaleDateString(document.documentElement.lang || "en"),
      RESULT_WORDS[entry.result](),
      t("games.moves", { count }),
      ...(entry.seconds ? [t("games.time", { time: formatTime(entry.seconds) })] : []),
    ];
    item.append(link, ` · ${details.join(" · ")}`);
    return item;
  });
  if (!items.length) {
    const empty = document.createElement("li");
    empty.textContent = t("games.none");
    items.push(empty);
  }
  list.replaceChildren(...items);
}

/**
 * Bind the statistics dialog's export and import: [data-action=export] downloads the file,
 * [data-action=import] asks for one (`dom.importFile`, an <input type=file>), and what came of
 * it is said in `dom.archiveMessage`; `refresh()` shows the statistics again. A game of "My
 * games" opens in place (`open(deal, moves)`), the dialog closed.
 */
export function bindArchive(dom, archive, { refresh, open }) {
  const say = ({ say: text, refused = false }) => {
    dom.archiveMessage.textContent = text();
    dom.archiveMessage.classList.toggle("refused", refused);
  };
  dom.stats.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action === "export") {
      archive.exportFile();
      say({ say: () => t("archive.exported") });
    } else if (action === "import") dom.importFile.click();
  });
  dom.importFile.addEventListener("change", async () => {
    const [file] = dom.importFile.files;
    dom.importFile.value = ""; // the same file may be chosen again
    if (!file) return;
    say(await archive.importFile(file));
    refresh();
  });
  dom.stats.addEventListener("close", () => {
    dom.archiveMessage.textContent = "";
  });
  openLinksInPlace(dom.myGames, (deal, moves) => {
    dom.stats.close();
    open(deal, moves);
  });
}
