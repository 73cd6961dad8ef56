// The deal lives in the URL: ?deal=617.

/** Return what the URL asks for: {kind: "none"} | {kind: "one", text} | {kind: "many"}. */
export function readDeal(search = location.search) {
  const values = new URLSearchParams(search).getAll("deal");
  if (values.length === 0) return { kind: "none" };
  if (values.length > 1) return { kind: "many" };
  return { kind: "one", text: values[0] };
}

/** Point the URL at a deal: a new history entry, or the current one replaced. */
export function writeDeal(number, { replace = false } = {}) {
  const url = new URL(location.href);
  url.searchParams.set("deal", String(number));
  if (url.href === location.href) return;
  const state = { deal: number };
  if (replace) history.replaceState(state, "", url);
  else history.pushState(state, "", url);
}

/** A random deal among Windows FreeCell's million. */
export function randomDeal() {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value % 1_000_000) + 1;
}
