// The table's look, chosen in the "⋯" menu and remembered in localStorage, as attributes of
// <html> that the CSS follows: the deck's colours (select#deck: two-colour or four-colour) as
// data-deck (colors.css, cards.css), and the left-handed table (input#left-handed) as
// data-left-handed (layout.css: the foundations on the left, the menu's "⋯" at the bar's start).
import { SETTINGS, readSetting, readSwitch, writeSetting } from "./settings.js";

const DECKS = SETTINGS.deck.values;

/** The deck as stored: one of DECKS, two-colour when none is (or storage is off). */
export function storedDeck() {
  return readSetting("deck");
}

/** The left-handed setting as stored: off unless turned on. */
export function storedLeftHanded() {
  return readSwitch("leftHanded");
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
    writeSetting("leftHanded", leftHanded.checked);
  });
  const show = (value) => {
    root.dataset.deck = value;
    deck.value = value;
  };
  show(storedDeck());
  deck.addEventListener("change", () => {
    const value = DECKS.includes(deck.value) ? deck.value : DECKS[0];
    show(value);
    writeSetting("deck", value); // storage may be off: it lasts as long as the page
  });
}
