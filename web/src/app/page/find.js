// The Find dialog (dialog#find): a layout's cards typed or pasted into textarea#layout, the
// deals whose layout begins with them (Python reads the text and searches, in the worker's
// slices: identify), and the deal opened as a link opens it. A new search replaces the last;
// closing the dialog (Escape) ends it. The result is said in #find-result, a live region.
import { formatNumber, fromPython, t } from "./i18n.js";
import rules from "./rules.js";
import { gameLink, openLinksInPlace } from "./url.js";

/**
 * The Find dialog over `dom` (find, layout, findResult); `call(op, args)` asks Python,
 * `open(text)` opens a deal as a link does (play.js), `dialogs` shows the dialog, `state`
 * gives the language chosen for links, and `messages` tells screen readers the deal opened.
 */
export function createFind({ dom, call, open, dialogs, state, messages }) {
  let asked = 0; // counts the searches: a reply to an older one is dropped
  let searching = false;
  let saying = () => "";

  /** Say the result (a function of the language, said again on a language change). */
  function say(make) {
    saying = make;
    dom.findResult.replaceChildren(...[make()].flat());
  }

  function link(number) {
    const anchor = document.createElement("a");
    anchor.href = gameLink(state, number);
    anchor.textContent = `#${number}`;
    anchor.dataset.deal = String(number);
    return anchor;
  }

  function listed(reply) {
    const count = reply.numbers.length;
    const head = document.createElement("p");
    head.textContent = reply.more
      ? t("find.more", { count: formatNumber(count) })
      : t("find.several", { count });
    const items = document.createElement("ul");
    items.className = "find-deals";
    for (const number of reply.numbers) {
      const item = document.createElement("li");
      item.append(link(number));
      items.append(item);
    }
    return [head, items];
  }

  function shown(reply) {
    if (!reply.ok) return () => fromPython(reply.error, reply, null);
    if (reply.numbers.length === 0) {
      // The deals searched: the special deals and rules.min_deal to the last, Python's facts.
      const params = { count: reply.count, min: rules.min_deal, max: reply.max };
      const coded = { code: "layout-no-deal", params };
      return () => fromPython(coded.code, coded, null);
    }
    return () => listed(reply);
  }

  /** Open a deal found, the dialog closed, and say so to screen readers. */
  async function opened(number) {
    dom.find.close();
    await open(String(number));
    messages.announce(t("find.opened", { number: String(number) }));
  }

  async function find() {
    const token = ++asked;
    const text = dom.layout.value;
    if (text.length > rules.max_layout_chars) {
      // Refused before it is sent (Python would refuse it too): a megabyte's paste, at once.
      if (searching) call("identify_stop");
      searching = false;
      dom.find.removeAttribute("aria-busy");
      const params = { count: text.length, max: rules.max_layout_chars };
      const coded = { code: "layout-too-large", params };
      say(() => fromPython(coded.code, coded, null));
      return;
    }
    searching = true;
    dom.find.setAttribute("aria-busy", "true");
    say(() => t("find.searching"));
    const reply = await call("identify", { text });
    if (token !== asked) return; // a newer search answers
    searching = false;
    dom.find.removeAttribute("aria-busy");
    if (reply.cancelled) {
      say(() => ""); // Escape, or a search that failed: nothing found, nothing left busy
      return;
    }
    if (reply.ok && reply.numbers.length === 1 && !reply.more) {
      say(() => "");
      opened(reply.numbers[0]);
      return;
    }
    say(shown(reply));
  }

  /** End a search under way (the dialog closed): Python drops it. */
  function stop() {
    asked += 1;
    dom.find.removeAttribute("aria-busy");
    if (!searching) return;
    searching = false;
    say(() => "");
    call("identify_stop");
  }

  dom.find.addEventListener("close", stop);
  dom.layout.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      find();
    }
  });
  openLinksInPlace(dom.findResult, opened);

  return {
    /** Open the dialog, its field focused. */
    show() {
      dialogs.show(dom.find);
      dom.layout.focus();
    },
    find,
    /** Say the result again (a language change), open or not: it shows when it opens. */
    refresh() {
      say(saying);
    },
  };
}
