// The page's windows: help, statistics and Find a deal (find.js) as modal <dialog>s (focus
// moves in, Esc and the close button close them, focus goes back, also from a dialog opened
// over another), and the "⋯" menu of the narrow bar.
import { renderGames } from "./archive.js";
import { formatNumber, formatPercent } from "./i18n.js";

/**
 * The dialogs and the menu over the page's elements; `stats` gives the figures, `state` the
 * language chosen for links.
 */
export function createDialogs(dom, stats, state) {
  // Each open dialog's opener: where focus goes back when it closes. A dialog opened over
  // another (I in the help) has its own, so each closing gives focus back where it was.
  const openers = new Map();

  /** Show a dialog, the one way every dialog opens: focus comes back when it closes. */
  function open(dialog) {
    if (dialog.open) return;
    // Focus goes back where it was, or to "⋯" when it was in the menu, which closes now.
    const focused = document.activeElement;
    openers.set(dialog, focused?.closest(".more-panel") ? dom.moreToggle : focused);
    closeMenu();
    dialog.showModal();
  }

  for (const dialog of [dom.help, dom.stats, dom.find]) {
    dialog.addEventListener("close", () => {
      const opener = openers.get(dialog);
      openers.delete(dialog);
      if (opener?.isConnected) opener.focus();
      dom.statsConfirm.hidden = true;
    });
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close(); // a click on the backdrop
    });
  }

  function renderStats() {
    const figures = stats.figures();
    const shown = {
      played: formatNumber(figures.played),
      won: formatNumber(figures.won),
      rate: figures.rate === null ? "–" : formatPercent(figures.rate),
      streak: formatNumber(figures.streak),
      "best-streak": formatNumber(figures.best),
      "daily-streak": formatNumber(figures.dailyStreak),
      "at-par": formatNumber(figures.atPar),
    };
    for (const element of dom.stats.querySelectorAll("[data-stat]")) {
      element.textContent = shown[element.dataset.stat];
    }
    renderGames(dom.myGames, stats.games(), state);
  }

  function openMenu(open = true) {
    dom.moreToggle.setAttribute("aria-expanded", String(open));
  }

  function closeMenu() {
    if (dom.moreToggle.getAttribute("aria-expanded") === "true") openMenu(false);
  }

  dom.moreToggle.addEventListener("click", () => {
    openMenu(dom.moreToggle.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".more-toggle")) {
      if (!event.target.closest(".more-panel") || event.target.closest("[data-action]")) {
        closeMenu();
      }
    }
  });

  return {
    /** Whether a modal window is open (the game's keys then rest). */
    isOpen: () => dom.help.open || dom.stats.open || dom.find.open,
    /** Show a dialog (Find a deal's): focus comes back where it was when it closes. */
    show: open,
    /** Close the menu, or the open window; true if there was one. */
    closeAny() {
      if (dom.moreToggle.getAttribute("aria-expanded") === "true") {
        closeMenu();
        dom.moreToggle.focus();
        return true;
      }
      return false;
    },
    toggleHelp() {
      if (dom.help.open) dom.help.close();
      else open(dom.help);
    },
    toggleStats() {
      if (dom.stats.open) dom.stats.close();
      else {
        renderStats();
        open(dom.stats);
      }
    },
    close(element) {
      element.closest("dialog")?.close();
    },
    askReset() {
      dom.statsConfirm.hidden = false;
      dom.statsConfirm.querySelector("[data-action=stats-reset-no]").focus();
    },
    reset(confirmed) {
      if (confirmed) stats.reset();
      dom.statsConfirm.hidden = true;
      renderStats();
      dom.stats.querySelector("[data-action=stats-reset]").focus();
    },
    /** Say the statistics again (a language change). */
    refresh() {
      if (dom.stats.open) renderStats();
    },
  };
}
