// The message line (#message, an alert), the status line (#status) and the new-version notice
// (#update): what the page says. Each text is kept as a function that says it in the page's
// language, so that switching language says it again.
import { formatNumber, t } from "./i18n.js";

const NOTE_MS = 6000; // how long a note, such as why a move was refused, stays up

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
 * The page's lines: say(text) and note(text) on the message line, status(stage) and
 * progress(loaded, total) on the status line, offerUpdate(apply) for a new version.
 */
export function createMessages(messageLine, statusLine, updateNotice) {
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

  /** Show a loading stage ("loading", "downloading", "starting") on the status line, or null. */
  function status(next) {
    stage = next;
    // While the downloads run, screen readers wait for the stage after them (aria-busy).
    statusLine.toggleAttribute("aria-busy", typeof next === "object" && next !== null);
    if (next === null) statusLine.textContent = "";
    else if (typeof next === "object") statusLine.textContent = downloaded(next);
    else statusLine.textContent = STAGES[next]?.() ?? next;
  }

  /** Show how much of the runtime has downloaded: bytes loaded of total. */
  function progress(loaded, total) {
    status({ loaded, total });
  }

  /** Show the new-version notice; its button calls `apply` (which reloads the page). */
  function offerUpdate(apply) {
    updateNotice.hidden = false;
    updateNotice.querySelector("button").onclick = () => {
      updateNotice.querySelector("button").disabled = true;
      apply();
    };
  }

  /** Say both lines again, in the language now in use. */
  function refresh() {
    messageLine.textContent = saying();
    if (stage !== null) status(stage);
  }

  const shown = () => messageLine.textContent;
  return { say, note, status, progress, offerUpdate, refresh, saying: shown };
}
