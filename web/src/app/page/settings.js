// The settings of the "⋯" menu, declared once: each one's localStorage key, its control, the
// values it may be stored as and the value it has while none is stored. Each module reads and
// writes its own through this list (look.js the deck and the hand, moves.js auto-play,
// selection.js tap-to-move, guard.js the live check, timer.js the clock, par.js par shown,
// deals.js Random's grade, language.js the language), and an export file carries them all
// (archive.js).
import { LANGUAGES } from "./i18n.js";
import rules from "./rules.js";
import { local } from "./storage.js";

const ON_OFF = ["on", "off"];
const OLD_AUTO_KEY = "freecell.auto-move"; // auto-play's checkbox before: "off" stays off
const COARSE = matchMedia("(pointer: coarse)"); // the primary pointer is a finger

/**
 * The settings by name: {key, control, values, initial()}, `control` the selector of its
 * control in the menu, `values` what it may be stored as, `initial()` its value while none is
 * stored (or storage is off).
 */
export const SETTINGS = {
  auto: {
    key: "freecell.auto-play",
    control: "#auto",
    values: rules.auto_play,
    initial: () => (local.read(OLD_AUTO_KEY) === "off" ? "off" : "safe"),
  },
  deck: {
    key: "freecell.deck",
    control: "#deck",
    values: ["two-colour", "four-colour"],
    initial: () => "two-colour",
  },
  leftHanded: {
    key: "freecell.left-handed",
    control: "#left-handed",
    values: ON_OFF,
    initial: () => "off",
  },
  // On where the primary pointer is coarse (a touch screen), off for a mouse.
  tapToMove: {
    key: "freecell.tap-to-move",
    control: "#tap-to-move",
    values: ON_OFF,
    initial: () => (COARSE.matches ? "on" : "off"),
  },
  liveCheck: {
    key: "freecell.live-check",
    control: "#live-check",
    values: ON_OFF,
    initial: () => "on",
  },
  // The game's clock in the bar (timer.js): on unless turned off.
  showTimer: {
    key: "freecell.show-timer",
    control: "#show-timer",
    values: ON_OFF,
    initial: () => "on",
  },
  // The deal's par beside the move count (par.js).
  showPar: {
    key: "freecell.show-par",
    control: "#show-par",
    values: ON_OFF,
    initial: () => "on",
  },
  // Random's grade: "any", or one of the grades.
  randomGrade: {
    key: "freecell.random-grade",
    control: "#random-grade",
    values: ["any", ...rules.grades.map(String)],
    initial: () => "any",
  },
  // The language chosen (language.js reads it as a language tag: matchLanguage).
  language: {
    key: "freecell.language",
    control: "#language",
    values: Object.keys(LANGUAGES),
    initial: () => null,
  },
};

/** A setting's stored value, one of its values; its initial value when none is stored. */
export function readSetting(name) {
  const { key, values, initial } = SETTINGS[name];
  const stored = local.read(key);
  return values.includes(stored) ? stored : initial();
}

/** An on/off setting as stored: true for "on". */
export function readSwitch(name) {
  return readSetting(name) === "on";
}

/** Remember a setting's value (storage may be off: it then lasts as long as the page). */
export function writeSetting(name, value) {
  local.write(SETTINGS[name].key, typeof value === "boolean" ? (value ? "on" : "off") : value);
}
