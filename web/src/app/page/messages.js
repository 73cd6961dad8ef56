// What the page says: the message line (#message, an alert), the status line (#status) with the
// download's progress bar (#progress), the new-version notice (#update) and the screen readers'
// announcements (#announcer). Each text is kept as a function that says it in the page's
// language, so that switching language says it again. The sentences about the game that the
// page says (a move, a picked-up card, Python's refusals) are made here too.
import { SUIT_CLASSES } from "./board.js";
import { cardLabel, formatNumber, fromPython, t } from "./i18n.js";
import rules from "./rules.js";
import { isFreecell } from "./state.js";

const SUIT_SYMBOL = new RegExp(`([${rules.suit_symbols}])`, "u"); // kept by split()
const NOTE_MS = 6000; // how long a note, such as why a move was refused, stays up
// A progress bar without a size moves: the browser draws it anew every frame, on the CPU that
// Python's start needs (some 90 ms of it in a repeat visit's start, docs/performance-log.md). So it
// moves only once such a wait has lasted this long: until then it stays as it was, hidden at
// first, full after a download. A repeat visit's start, shorter than that, shows no bar.
const STILL_BAR_MS = 1000;

const STAGES = {
  loading: () => t("status.loading"),
  downloading: () => t("status.downloading"),
  starting: () => t("status.starting"),
};

const MB = 1e6;
const TENTHS = { minimumFractionDigits: 1, maximumFractionDigits: 1 };

/** "Downloading Python… 42% (2.9 of 6.1 MB)": the worker's progress ({loaded, total} bytes). */
function downloaded({ loaded, total }) {
  const megabytes = (bytes) => formatNumber(bytes / MB, TENTHS);
  const percent = total > 0 ? Math.floor((100 * loaded) / total) : 0;
  return t("status.progress", { percent, loaded: megabytes(loaded), total: megabytes(total) });
}

/**
 * The page's lines: say(text) and note(text) on the message line; status(stage) and
 * progress(loaded, total) on the status line and its bar; offerUpdate(apply) for a new
 * version; announce(text) for screen readers only (a polite live region).
 */
/**
 * Put text in an element, each suit symbol in a span of its suit's class (the four-colour deck
 * colours it, cards.css). Text nodes only: nothing is ever read as HTML.
 */
export function showText(element, text) {
  const parts = String(text).split(SUIT_SYMBOL);
  element.replaceChildren(
    ...parts.map((part, index) => {
      if (index % 2 === 0) return part;
      const span = document.createElement("span");
      span.className = `suit ${SUIT_CLASSES[rules.suit_symbols.indexOf(part)]}`;
      span.textContent = part;
      return span;
    }).filter((part) => part !== ""),
  );
}

export function createMessages({ messageLine, statusLine, progressBar, updateNotice, announcer }) {
  let saying = () => "";
  let stage = null;
  let timer = 0;
  let barTimer = 0;

  /** Say something on the message line: text, or a function that says it in the language. */
  function say(text) {
    clearTimeout(timer);
    saying = typeof text === "function" ? text : () => text;
    showText(messageLine, saying());
  }

  /** Say something that goes away by itself. */
  function note(text) {
    say(text);
    const said = saying;
    timer = setTimeout(() => {
      if (saying === said) say("");
    }, NOTE_MS);
  }

  /**
   * Show a loading stage ("loading", "downloading", "starting"), the download's progress
   * ({loaded, total}) or nothing (null) on the status line; the bar shows the fraction
   * downloaded, and moves without one once no size has been known for STILL_BAR_MS.
   */
  function status(next) {
    stage = next;
    const counting = typeof next === "object" && next !== null;
    // While the downloads run, screen readers wait for the stage after them (aria-busy).
    statusLine.toggleAttribute("aria-busy", counting);
    clearTimeout(barTimer);
    if (counting && next.total > 0) {
      progressBar.value = Math.min(1, next.loaded / next.total);
      progressBar.hidden = false;
    } else if (next !== null) {
      barTimer = setTimeout(() => {
        progressBar.removeAttribute("value");
        progressBar.hidden = false;
      }, STILL_BAR_MS);
    }
    if (next === null) statusLine.textContent = "";
    else if (counting) statusLine.textContent = downloaded(next);
    else statusLine.textContent = STAGES[next]?.() ?? next;
  }

  /** Show how much of the runtime has downloaded: bytes loaded of total. */
  function progress(loaded, total) {
    status({ loaded, total });
  }

  /** Show the new-version notice; its button calls `apply` (which reloads the page). */
  function offerUpdate(apply) {
    const button = updateNotice.querySelector("button");
    updateNotice.hidden = false;
    button.onclick = () => {
      button.disabled = true;
      apply();
    };
  }

  /** Say both lines again, in the language now in use. */
  function refresh() {
    showText(messageLine, saying());
    if (stage !== null) status(stage);
  }

  /** Tell screen readers what happened (a move, a selection), politely. */
  function announce(text) {
    announcer.textContent = "";
    announcer.textContent = text;
  }

  return { say, note, status, progress, offerUpdate, refresh, announce };
}

// --- the game, said -----------------------------------------------------------------------------

/** A card (its code) by its name in the page's language, given the game's faces. */
function label(code, faces) {
  return faces?.[code] ? cardLabel(faces[code]) : code;
}

/** One move, said for screen readers from Python's description of it (_web_replies.made). */
export function saidMove({ cards, target, onto }, faces) {
  const card = label(cards[0], faces);
  const count = cards.length;
  if (target === rules.foundation) return t("say.home", { card });
  if (isFreecell(target)) return t("say.to-cell", { card, cell: target.toUpperCase() });
  if (onto) {
    return count === 1
      ? t("say.onto", { card, onto: label(onto, faces) })
      : t("say.run-onto", { count, onto: label(onto, faces) });
  }
  return count === 1
    ? t("say.to-empty", { card, cascade: target })
    : t("say.run-to-empty", { count, cascade: target });
}

/** A card picked up, said for screen readers: the card, or the run of `count` cards from it. */
export function saidPicked(card, count, faces) {
  return count > 1
    ? t("say.picked-run", { count, card: label(card, faces) })
    : t("say.picked", { card: label(card, faces) });
}

/**
 * Text to quote in a message, cut as Python's messages cut it (freecell._errors.shorten): at
 * most rules.quote_limit characters, then an ellipsis.
 */
export function shorten(text) {
  const characters = Array.from(String(text));
  const limit = rules.quote_limit;
  return characters.length <= limit ? String(text) : `${characters.slice(0, limit).join("")}…`;
}

/**
 * Python's refusal or error in a reply ({error, code, params}), as a text for say() or note():
 * said in the language in use, with the cards of the state's faces.
 */
export function saidRefusal(reply, state) {
  return () => fromPython(reply.error, reply, state.faces);
}
