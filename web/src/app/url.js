// The game lives in the URL: ?deal=617&moves=5a,5b,2h,36v3 (every move made, automatic ones
// included, in fc-solve's standard notation). The page only reads text from it and hands that
// to Python; nothing from the URL is ever inserted as HTML.

/** Return what the URL asks for: {kind: "none"} | {kind: "one", text, moves} | {kind: "many"}. */
export function readDeal(search = location.search) {
  const params = new URLSearchParams(search);
  const values = params.getAll("deal");
  if (values.length === 0) return { kind: "none" };
  if (values.length > 1) return { kind: "many" };
  return { kind: "one", text: values[0], moves: params.getAll("moves").join(",") };
}

/**
 * Point the URL at a game: a new history entry, or the current one replaced.
 * The moves go in as they are (their characters need no escaping), so commas stay commas.
 */
export function writeGame(number, moves, { replace = false } = {}) {
  const url = new URL(location.href);
  const others = new URLSearchParams(url.search);
  others.delete("deal");
  others.delete("moves");
  const rest = others.toString();
  const tokens = moves.filter((move) => /^[1-8a-d][1-8a-dh](v[0-9]{1,2})?$/.test(move));
  url.search =
    `deal=${encodeURIComponent(String(number))}` +
    (tokens.length ? `&moves=${tokens.join(",")}` : "") +
    (rest ? `&${rest}` : "");
  if (url.href === location.href) return;
  const state = { deal: number, moves: tokens.length };
  if (replace) history.replaceState(state, "", url);
  else history.pushState(state, "", url);
}

/** Return the ?lang= value of the URL, or null. */
export function readLanguage(search = location.search) {
  return new URLSearchParams(search).get("lang");
}

/**
 * Put the page's language in the URL (or take it out, for null), in place: shared links keep
 * it. It goes after deal and moves, which stay first.
 */
export function writeLanguage(code) {
  const url = new URL(location.href);
  const params = new URLSearchParams(url.search);
  params.delete("lang");
  if (code) params.append("lang", code);
  const deal = params.getAll("deal");
  const moves = params.getAll("moves");
  params.delete("deal");
  params.delete("moves");
  const parts = [
    ...deal.map((value) => `deal=${encodeURIComponent(value)}`),
    ...moves.map((value) => `moves=${value.split(",").map(encodeURIComponent).join(",")}`),
  ];
  const rest = params.toString();
  url.search = [...parts, ...(rest ? [rest] : [])].join("&");
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

/** A random deal among Windows FreeCell's million. */
export function randomDeal() {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value % 1_000_000) + 1;
}
