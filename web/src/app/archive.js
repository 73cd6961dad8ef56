// Your games and statistics in a file (docs/archive.md has the format): [data-action=export]
// downloads one JSON file, [data-action=import] reads one back and merges it, and the
// statistics dialog lists "My games", each a link that opens it again.
//
// The statistics (stats.js) stay this device's own; what came from other devices' files is kept
// beside them, per device, as each device's counts (played, won, best streak), and the figures
// add them up. A merge takes the larger count of each device, the union of the daily dates
// and games, the fewest moves and the lowest par of each deal, so importing a file twice (or a file that holds
// this device's own counts, passed back) counts nothing twice. A file is checked whole before
// anything changes: a bad one is refused with the reason, and nothing is lost. Nothing from a
// file is ever read as HTML: every text goes in as text, and every value is checked against
// what it may be.
import { t } from "./i18n.js";
import { isDate, isDeal, isDealKey, isId, newId, utcDate } from "./identity.js";
import { allPars, forgetPars, isPar, rememberPars } from "./par.js";
import { MOVE } from "./state.js";
import { SETTINGS } from "./settings.js";
import { dailyStreak, wonAtPar } from "./stats.js";
import { local } from "./storage.js";
import { gameLink, openLinksInPlace } from "./url.js";

export const FORMAT = "freecell-deals";
export const VERSION = 1;
export const MAX_BYTES = 2_000_000; // a file larger than this is no export of ours
const GAMES_KEY = "freecell.games";
const IMPORTED_KEY = "freecell.imported";
const DEVICE_KEY = "freecell.device";
const GAMES_KEPT = 300; // the latest games, kept and exported
const LISTED = 50; // the latest games in "My games"
const MOST = { devices: 1000, daily: 5000, deals: 100_000, games: 5000, moves: 5000 };
const RESULTS = ["playing", "won", "solved"];
const RESULT_WORDS = {
  playing: () => t("games.playing"),
  won: () => t("games.won"),
  solved: () => t("games.solved"),
};

/** The settings a file carries (settings.js), by their localStorage key. */
const FILED = Object.fromEntries(Object.values(SETTINGS).map((setting) => [setting.key, setting]));

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;

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

function need(ok, field) {
  if (!ok) throw new Refusal(() => t("archive.bad-field", { field }));
}

function tally(value, field) {
  need(isObject(value), field);
  for (const name of ["played", "won", "best"]) need(isCount(value[name]), `${field}.${name}`);
  need(value.won <= value.played, `${field}.won`);
  return { played: value.played, won: value.won, best: value.best };
}

function game(value, field) {
  need(isObject(value), field);
  const { id, deal, date, result, moves, daily, player_moves: counted } = value;
  need(isId(id), `${field}.id`);
  need(isDeal(deal), `${field}.deal`);
  const when = typeof date === "string" && date.length <= 40 ? Date.parse(date) : Number.NaN;
  need(!Number.isNaN(when), `${field}.date`);
  need(RESULTS.includes(result), `${field}.result`);
  need(typeof moves === "string" && moves.length <= MOST.moves * 5, `${field}.moves`);
  const tokens = moves ? moves.split(",") : [];
  need(tokens.length <= MOST.moves && tokens.every((move) => MOVE.test(move)), `${field}.moves`);
  const dated = isDate(daily);
  need(daily === null || daily === undefined || dated, `${field}.daily`);
  // The player's count of the moves (since 2026-11-29; older games have none).
  const countable = counted === undefined || (isCount(counted) && counted <= tokens.length);
  need(countable, `${field}.player_moves`);
  const entry = { id, deal, date: new Date(date).toISOString(), result, moves, daily: daily ?? null };
  if (counted !== undefined) entry.player_moves = counted;
  return entry;
}

/** A deal's entry in a file: {fewest, par}, par where known. */
function dealEntry(value, field) {
  need(isObject(value) && isCount(value.fewest) && value.fewest > 0, field);
  need(value.par === undefined || isPar(value.par), `${field}.par`);
  return value.par === undefined ? { fewest: value.fewest } : { fewest: value.fewest, par: value.par };
}

/** Two entries of a deal as one ({fewest, par}): the fewest moves and the lowest par. */
function lower(one, other) {
  const entry = { fewest: Math.min(one?.fewest ?? Infinity, other.fewest) };
  const par = Math.min(one?.par ?? Infinity, other.par ?? Infinity);
  if (par !== Infinity) entry.par = par;
  return entry;
}

/**
 * Read a file's text: the archive it holds, every value checked, or a Refusal (thrown) that
 * says what is wrong. Unknown fields are left out (a later version's), unknown settings too.
 */
export function parseArchive(text) {
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
  need(isCount(value.statistics.streak), "statistics.streak");
  need(isObject(value.imported) && Object.keys(value.imported).length <= MOST.devices, "imported");
  const imported = {};
  for (const [device, counts] of Object.entries(value.imported)) {
    need(isId(device), "imported");
    imported[device] = tally(counts, `imported.${device}`);
  }
  need(Array.isArray(value.daily) && value.daily.length <= MOST.daily, "daily");
  need(value.daily.every(isDate), "daily");
  need(isObject(value.deals) && Object.keys(value.deals).length <= MOST.deals, "deals");
  const deals = {};
  for (const [deal, entry] of Object.entries(value.deals)) {
    need(isDealKey(deal), "deals");
    deals[deal] = dealEntry(entry, `deals.${deal}`);
  }
  // Each deal's par known there (since 2026-11-29; older files have none).
  const par = value.par ?? {};
  need(isObject(par) && Object.keys(par).length <= MOST.deals, "par");
  for (const [deal, moves] of Object.entries(par)) need(isDealKey(deal) && isPar(moves), "par");
  need(isObject(value.settings), "settings");
  const settings = {};
  for (const [key, setting] of Object.entries(value.settings)) {
    if (!Object.hasOwn(FILED, key)) continue; // another version's setting
    need(FILED[key].values.includes(setting), `settings.${key}`);
    settings[key] = setting;
  }
  need(Array.isArray(value.games) && value.games.length <= MOST.games, "games");
  const games = value.games.map((entry, index) => game(entry, `games[${index}]`));
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
  const empty = { devices: {}, daily: [], deals: {} };
  if (!isObject(value)) return empty;
  const devices = {};
  for (const [id, counts] of Object.entries(isObject(value.devices) ? value.devices : {})) {
    try {
      if (isId(id)) devices[id] = tally(counts, id);
    } catch {
      // an unsound entry costs only itself
    }
  }
  const daily = Array.isArray(value.daily) ? value.daily.filter(isDate) : [];
  const deals = {};
  for (const [deal, entry] of Object.entries(isObject(value.deals) ? value.deals : {})) {
    try {
      if (isDealKey(deal)) deals[deal] = dealEntry(entry, deal);
    } catch {
      // an unsound entry costs only itself
    }
  }
  return { devices, daily, deals };
}

function readGames() {
  const value = local.readJson(GAMES_KEY, []);
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, index) => {
    try {
      return [game(entry, String(index))];
    } catch {
      return [];
    }
  });
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
    gamesRead = games.slice(-GAMES_KEPT);
    local.writeJson(GAMES_KEY, gamesRead); // storage off or full: they last as long as the page
  }
  function saveImported(imported) {
    importedRead = imported;
    local.writeJson(IMPORTED_KEY, imported);
  }

  /** Log the game: a new entry for a game begun, the latest one of its deal played on. */
  function log(game, { assisted = false, daily = null } = {}) {
    if (!game.move_count || game.deal === null) return;
    const moves = game.moves.join(",");
    const counted = game.player_moves;
    const games = [...loadGames()];
    const index = games.findLastIndex((entry) => entry.deal === game.deal);
    const entry = games[index];
    const result = game.won ? (assisted ? "solved" : "won") : "playing";
    if (entry && related(entry.moves, moves)) {
      if (entry.result !== "playing" || (entry.moves === moves && entry.result === result)) return;
      games[index] = { ...entry, moves, result, player_moves: counted };
    } else {
      const date = new Date().toISOString();
      games.push({ id: newId(), deal: game.deal, date, result, moves, daily, player_moves: counted });
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
    const deals = { ...loadImported().deals };
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
      deals[key] = lower(deals[key], { fewest: entry.player_moves });
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
      games: loadGames(),
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

  /** Merge an archive (parseArchive's); return how many games were new. */
  function merge(archive) {
    const self = deviceId();
    const imported = loadImported();
    const devices = { ...imported.devices };
    const take = (id, counts) => {
      if (id === self) return; // this device's own counts, passed back: counted already
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
    const deals = { ...imported.deals };
    for (const [deal, entry] of Object.entries(archive.deals)) deals[deal] = lower(deals[deal], entry);
    rememberPars(archive.pars);
    const games = loadGames();
    const known = new Set(games.map((entry) => entry.id));
    const added = archive.games.filter((entry) => !known.has(entry.id));
    const merged = [...games, ...added].sort((a, b) => a.date.localeCompare(b.date));
    saveImported({ devices, daily, deals });
    saveGames(merged);
    const kept = new Set(loadGames().map((entry) => entry.id)); // the latest are kept
    const counted = added.filter((entry) => kept.has(entry.id));
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
    }
    return counted.length;
  }

  /**
   * Read a chosen file and merge it; resolves with what to say: {say, refused}, `say()` the
   * games it added, that nothing was new, or why the file is refused (then nothing changed).
   */
  async function importFile(file) {
    try {
      if (file.size > MAX_BYTES) throw new Refusal(REFUSALS.tooLarge);
      const count = merge(parseArchive(await file.text()));
      const say = count ? () => t("archive.imported", { count }) : () => t("archive.nothing-new");
      return { say, refused: false };
    } catch (error) {
      return { say: error instanceof Refusal ? error.say : REFUSALS.notJson, refused: true };
    }
  }

  return {
    ...stats,
    figures,
    /** What this deal's record says ({won, fewest, par}), other devices' wins included. */
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
      saveImported({ devices: {}, daily: [], deals: {} });
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
