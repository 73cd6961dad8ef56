// The message line (#message, an alert) and the status line (#status): what the page says.
// Each text is kept as a function that says it in the page's language, so that switching
// language says it again.
import { t } from "./i18n.js";

const NOTE_MS = 6000; // how long a note, such as why a move was refused, stays up

const STAGES = {
  downloading: () => t("status.downloading"),
  starting: () => t("status.starting"),
  installing: () => t("status.installing"),
};

/**
 * The page's lines: say(text) and note(text) on the message line, status(stage), and
 * announce(text) for screen readers only (a polite live region).
 */
export function createMessages(messageLine, statusLine, announcer) {
  let saying = () => "";
  let stage = null;
  let timer = 0;

  /** Say something on the message line: text, or a function that says it in the language. */
  function say(text) {
    clearTimeout(timer);
    saying = typeof text === "function" ? text : () => text;
    messageLine.textContent = saying();
  }

  /** Say something that goes away by itself. */
  function note(text) {
    say(text);
    const said = saying;
    timer = setTimeout(() => {
      if (saying === said) say("");
    }, NOTE_MS);
  }

  /** Show a loading stage ("downloading", "starting", "installing") on the status line, or null. */
  function status(next) {
    stage = next;
    statusLine.textContent = next === null ? "" : (STAGES[next]?.() ?? next);
  }

  /** Say both lines again, in the language now in use. */
  function refresh() {
    messageLine.textContent = saying();
    if (stage !== null) status(stage);
  }

  /** Tell screen readers what happened (a move, a selection), politely. */
  function announce(text) {
    announcer.textContent = "";
    announcer.textContent = text;
  }

  return { say, note, status, refresh, announce };
}
