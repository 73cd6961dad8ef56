// The table's look, chosen in the "⋯" menu and remembered in localStorage, as attributes of
// <html> that the CSS follows: the deck's colours (select#deck: two-colour or four-colour) as
// data-deck (colors.css, cards.css), and the left-handed table (input#left-handed) as
// data-left-handed (layout.css: the foundations on the left, the menu's "⋯" at the bar's start).
import { local } from "./storage.js";

const DECK_KEY = "freecell.deck";
const DECKS = ["two-colour", "four-colour"];
const LEFT_KEY = "freecell.left-handed";

/** The deck as stored: one of DECKS, two-colour when none is (or storage is off). */
export function storedDeck() {
  const stored = local.read(DECK_KEY);
  return DECKS.includes(stored) ? stored : DECKS[0];
}

/** The left-handed setting as stored: off unless turned on. */
export function storedLeftHanded() {
  return local.read(LEFT_KEY) === "on";
}

/** Show the stored look and follow the menu's choices (remembered). */
export function bindLook({ root, deck, leftHanded }) {
  const showHand = (on) => {
    root.toggleAttribute("data-left-handed", on);
    leftHanded.checked = on;
  };
  showHand(storedLeftHanded());
  leftHanded.addEventListener("change", () => {
    showHand(leftHanded.checked);
    local.write(LEFT_KEY, leftHanded.checked ? "on" : "off");
  });
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
