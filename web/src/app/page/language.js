// The page's language: which one to start in, the menu, and saying the page's fixed text in it.
import { fitBar } from "./fit.js";
import { LANGUAGES, fill, matchLanguage, t, useLanguage } from "./i18n.js";
import rules from "./rules.js";
import { SETTINGS, writeSetting } from "./settings.js";
import { local } from "./storage.js";
import { readUrl, writeUrl } from "./url.js";

/** Put the page's fixed text in the language: every [data-i18n] element and attribute. */
function translatePage() {
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-title]")) {
    element.title = t(element.dataset.i18nTitle);
  }
  for (const element of document.querySelectorAll("[data-i18n-aria-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAriaLabel));
  }
  const range = { min: String(rules.min_deal), max: String(rules.max_deal) };
  document.querySelector("meta[name=description]").content = t("page.description");
  document.getElementById("deal-hint").textContent = t("deal.hint", range);
  document.getElementById("help-range").textContent = t("help.range", {
    min: rules.min_deal,
    max: rules.max_deal,
  });
  const code = (text) => Object.assign(document.createElement("code"), { textContent: text });
  const share = document.getElementById("help-share");
  fill(share, "help.share", {
    deal: code("?deal=617"),
    moves: code("?deal=617&moves=5a,5b,2h"),
  });
}

/**
 * The language to start in: the link's ?lang=, else the one chosen before (localStorage), else
 * the browser's preferred languages, else English. {code, chosen}: a chosen one stays in links.
 */
function startingLanguage() {
  for (const wanted of [readUrl().language, local.read(SETTINGS.language.key)]) {
    const code = matchLanguage(wanted);
    if (code) return { code, chosen: true };
  }
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const code = matchLanguage(tag);
    if (code) return { code, chosen: false };
  }
  return { code: "en", chosen: false };
}

/** The page's language on a state: {start(), fromUrl()}; the menu switches it. */
export function createLanguage({ state, dom, view, messages, dialogs }) {
  /** Speak a language: the fixed text, the board, the messages, the title; the game stays. */
  async function apply(wanted) {
    const code = await useLanguage(wanted);
    state.language = code;
    dom.root.lang = LANGUAGES[code].tag;
    dom.languageMenu.value = code;
    translatePage();
    messages.refresh();
    dialogs.refresh();
    view.render(state);
    fitBar(dom.bar); // the words' widths changed
    return code;
  }

  dom.languageMenu.addEventListener("change", async () => {
    const code = await apply(dom.languageMenu.value);
    writeSetting("language", code); // storage may be off; the URL still keeps the language
    state.languageChosen = true;
    writeUrl(state);
  });

  return {
    /** Start in the language of the link, the stored choice or the browser. */
    async start() {
      const { code, chosen } = startingLanguage();
      try {
        await apply(code);
      } catch {
        await apply("en"); // a catalogue that cannot load: English, which always can
      }
      state.languageChosen = chosen;
      if (chosen) writeUrl(state);
    },
    /** Follow the URL's language after a move in the history (`search`, the address's query
     * then): a link's choice, kept. */
    async fromUrl(search = location.search) {
      const code = matchLanguage(readUrl(search).language);
      if (!code) return;
      state.languageChosen = true;
      if (code !== state.language) await apply(code);
    },
  };
}
