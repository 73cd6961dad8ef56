// Sharing a deal where the browser can (the Web Share API: phones, and some desktops): the
// menu's [data-action=share] hands the system's share sheet the deal's link and a line that
// names it, with its par where the page knows it ("FreeCell deal #617 – par 34"). Where the
// browser cannot share, the button stays hidden and Copy link is the way, as it always was;
// where sharing fails (not a cancel), the link is copied instead.
import { t } from "./i18n.js";
import { isPar } from "./par.js";

/**
 * What to share of the deal on the table: {title, text, url}. The link names the deal alone
 * (the receiver plays it from the start, in their own language); the line names the deal's
 * par where the page knows one (state.par, par.js's), else none.
 */
export function shareData(state, href = location.href) {
  const deal = String(state.deal);
  const url = new URL(`?deal=${encodeURIComponent(deal)}`, href).href;
  const { par } = state;
  const text =
    isPar(par) && par > 0 ? t("share.text-par", { deal, par }) : t("share.text", { deal });
  return { title: text, text, url };
}

/**
 * Show `button` where the browser can share, and share the deal on the table when it is
 * pressed: straight from the click, which the browser needs to open its sheet (so not from
 * the play queue); `copyLink()` where sharing fails.
 */
export function bindShare({ button, state, copyLink }) {
  const canShare = typeof navigator.share === "function";
  button.hidden = !canShare;
  if (!canShare) return;
  button.addEventListener("click", async () => {
    if (state.deal === null) return;
    try {
      await navigator.share(shareData(state));
    } catch (error) {
      if (error?.name !== "AbortError") copyLink(); // a cancelled sheet says nothing
    }
  });
}
