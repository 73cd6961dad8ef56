// The page's languages: choosing one, its catalogue (web/src/i18n/<code>.js), and saying things
// with it. Every text on the page goes through t(), list() or fill() called with a literal key,
// or a data-i18n attribute in index.html, so tests/library/test_i18n.py can check that each catalogue
// has exactly the keys the sources use.
import en from "../../i18n/en.js";

/** The languages, by the code used in ?lang= and localStorage: own name and BCP 47 tag. */
export const LANGUAGES = {
  en: { name: "English", tag: "en" },
  pt: { name: "Português", tag: "pt-BR" },
  es: { name: "Español", tag: "es" },
  it: { name: "Italiano", tag: "it" },
  ru: { name: "Русский", tag: "ru" },
  "zh-Hant": { name: "中文（繁體）", tag: "zh-Hant" },
};

const CATALOGUES = {
  en: async () => en,
  pt: async () => (await import("../../i18n/pt.js")).default,
  es: async () => (await import("../../i18n/es.js")).default,
  it: async () => (await import("../../i18n/it.js")).default,
  ru: async () => (await import("../../i18n/ru.js")).default,
  "zh-Hant": async () => (await import("../../i18n/zh-Hant.js")).default,
};

/** Codes whose numbers are deal numbers: written in plain digits, as they are typed. */
const PLAIN_NUMBERS = new Set(["deal-number", "deal-missing"]);
const CARD_PARAMS = new Set(["card", "need", "onto"]);

let code = "en";
let catalogue = en;
let numbers = new Intl.NumberFormat("en");
let percents = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 });
let plurals = new Intl.PluralRules("en");

/**
 * Return the language code a tag such as "pt-BR", "zh-TW" or "ru" means, or null.
 * Every Chinese tag (zh, zh-CN, zh-Hans, zh-TW, zh-HK, zh-Hant) maps to zh-Hant, the only
 * Chinese the page speaks: Traditional Chinese is closer to what a zh reader wants than English.
 */
export function matchLanguage(tag) {
  const lower = String(tag ?? "").trim().toLowerCase();
  if (!lower) return null;
  const [primary] = lower.split(/[-_]/);
  if (primary === "zh") return "zh-Hant";
  return Object.hasOwn(LANGUAGES, primary) ? primary : null;
}

/** The language's code ("en", "pt", ..., "zh-Hant"). */
export function language() {
  return code;
}

/** Switch to a language: load its catalogue (English is always loaded), set its formats. */
export async function useLanguage(wanted) {
  const chosen = Object.hasOwn(LANGUAGES, wanted) ? wanted : "en";
  const loaded = await CATALOGUES[chosen]();
  code = chosen;
  catalogue = loaded;
  const { tag } = LANGUAGES[chosen];
  numbers = new Intl.NumberFormat(tag);
  percents = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 0 });
  plurals = new Intl.PluralRules(tag);
  return chosen;
}

function lookup(key) {
  return Object.hasOwn(catalogue, key) ? catalogue[key] : en[key];
}

function text(value, params) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const count = typeof params.count === "number" ? params.count : 0;
    return value[plurals.select(count)] ?? value.other;
  }
  return value;
}

function show(value) {
  return typeof value === "number" ? numbers.format(value) : String(value);
}

/** Fill a template's {name} placeholders; numbers are formatted for the language. */
function format(template, params) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? show(params[name]) : whole,
  );
}

/** Say `key` in the language; params fill its {placeholders} (a number `count` picks a plural). */
export function t(key, params = {}) {
  const value = lookup(key);
  if (value === undefined) return key;
  return format(text(value, params), params);
}

/** Return a list the catalogue holds, such as "card.ranks". */
export function list(key) {
  return lookup(key);
}

/**
 * Fill an element with a template whose placeholders are elements (such as <code>): the
 * template's text goes in as text nodes, never as HTML.
 */
export function fill(element, key, nodes) {
  const parts = String(text(lookup(key), {})).split(/\{(\w+)\}/);
  element.replaceChildren(
    ...parts.map((part, index) =>
      index % 2 ? (nodes[part]?.cloneNode(true) ?? `{${part}}`) : part,
    ),
  );
}

/**
 * Format a number for the language: 1234567 is "1,234,567" in English. `options` are
 * Intl.NumberFormat's (such as a number of decimals).
 */
export function formatNumber(value, options) {
  if (!options) return numbers.format(value);
  return new Intl.NumberFormat(LANGUAGES[code].tag, options).format(value);
}

/** Join texts as the language lists them: ["a", "b", "c"] is "a, b, and c" in English. */
export function formatList(items) {
  return new Intl.ListFormat(LANGUAGES[code].tag, { type: "conjunction" }).format(items);
}

/** Format a fraction as a whole percentage for the language: 0.5 is "50%" in English. */
export function formatPercent(fraction) {
  return percents.format(fraction);
}

/** A card's full name in the language, from its face (freecell._web): "Jack of Diamonds". */
export function cardName(face) {
  return t("card.name", {
    rank: list("card.ranks")[face.rank_index],
    suit: list("card.suits")[face.suit_index],
  });
}

/** A card's short label, as its corner shows it: "J♦", "10♦". */
export function cardLabel(face) {
  return face.rank + face.suit;
}

/** The label of a card code, with the faces from Python; the code itself if there is no face. */
function labelOf(code, faces) {
  const face = faces?.[code];
  return face ? cardLabel(face) : String(code);
}

/** The name of a suit (0 clubs, 1 diamonds, 2 hearts, 3 spades), as the card names use it. */
export function suitName(index) {
  return list("card.suits")[index];
}

/**
 * A sentence that follows a colon, in every language: it starts in lower case if its first
 * word is an ordinary capitalised word ("Free cell A is empty" becomes "free cell A is
 * empty"); a card ("Q♥", "10♦"), a quotation or a word in capitals stays as it is.
 */
function afterColon(sentence) {
  if (!/^\p{Lu}\p{Ll}*(?![\p{L}\p{N}\p{S}])/u.test(sentence)) return sentence;
  return sentence.charAt(0).toLocaleLowerCase(LANGUAGES[code].tag) + sentence.slice(1);
}

function errorParams(errorCode, params, faces) {
  const out = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name === "reason") {
      const reason = describe(value, faces);
      if (reason === null) return null;
      out.reason = afterColon(reason); // "… was not played: illegal move …"
    } else if (CARD_PARAMS.has(name)) out[name] = labelOf(value, faces);
    else if (name === "cards" && Array.isArray(value)) {
      out[name] = value.map((code) => labelOf(code, faces)).join(" ");
    }
    else if (name === "cell") out[name] = String(value).toUpperCase();
    else if (typeof value === "number" && PLAIN_NUMBERS.has(errorCode)) out[name] = String(value);
    else out[name] = value;
  }
  return out;
}

/** Say a coded error ({code, params}) in the language, or return null if it cannot. */
function describe(error, faces) {
  const key = `error.${error?.code}`;
  if (!error?.code || !Object.hasOwn(catalogue, key)) return null;
  const params = errorParams(error.code, error.params, faces);
  return params === null ? null : t(key, params);
}

/**
 * Say a message from Python in the language: {code, params} is what went wrong, as data, and
 * `faces` the cards' faces for naming the cards it mentions. Anything the catalogue has no
 * words for is Python's own English text, `english`.
 */
export function fromPython(english, coded, faces) {
  return describe(coded, faces) ?? english;
}
