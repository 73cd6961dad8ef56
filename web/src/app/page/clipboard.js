// Copying for the player: the link to the game, or the position in fc-solve's format (what
// `freecell solve -` reads), into the clipboard, and saying whether it worked.
import { t } from "./i18n.js";
import { saidRefusal } from "./messages.js";

/** Put text into the clipboard; resolves false when the browser allows neither way. */
async function write(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (or not allowed): the old way, through a selected, hidden text area.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/**
 * The copy actions on a state: {copyLink, copyText}, each run from the play queue; `call(op)`
 * asks Python.
 */
export function createClipboard({ state, messages, call }) {
  /**
   * Start writing `text` and say how it went once it has. The queue does not wait for the
   * write: a browser may keep it pending as long as it likes (a permission asked of the
   * player, a page not focused), and the player's next actions must not wait behind it.
   */
  function copy(text, done) {
    write(text).then((copied) => messages.say(copied ? done : () => t("copy.blocked")));
  }

  return {
    /** Copy the page's address: the deal, and the game's moves if there are any. */
    copyLink: () =>
      copy(
        location.href,
        state.game?.moves.length ? () => t("copy.link-game") : () => t("copy.link-deal"),
      ),
    /** Copy the position on the table in fc-solve's format (what `freecell solve -` reads). */
    async copyText() {
      if (!state.game) return messages.say(() => t("copy.nothing"));
      const reply = await call("position_text");
      if (!reply.ok) return messages.note(saidRefusal(reply, state));
      return copy(reply.text, () => t("copy.text"));
    },
  };
}
