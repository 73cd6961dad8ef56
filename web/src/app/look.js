// The table's look, chosen in the "⋯" menu and remembered in localStorage: the deck's colours
// (select#deck: two-colour or four-colour) as <html data-deck>, which the CSS follows
// (colors.css, cards.css).
import { local } from "./storage.js";

const DECK_KEY = "freecell.deck";
const DECKS = ["two-colour", "four-colour"];

/** The deck as stored: one of DECKS, two-colour when none is (or storage is off). */
export function storedDeck() {
  const stored = local.read(DECK_KEY);
  return DECKS.includes(stored) ? stored : DECKS[0];
}

/** Show the stored look and follow the menu's choices (remembered). */
export function bindLook({ root, deck }) {
  const show = (value) => {
    root.dataset.deck = value;
    deck.value = value;
  };
  show(storedDeck());
  deck.addEventListener("change", () => {
    const value = DECKS.includes(deck.value) ? deck.value : DECKS[0];
    show(value);
    local.write(DECK_KEY, value); // storage may be off: it lasts as long as the page
  });
}
