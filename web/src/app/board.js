// Renders a game (as freecell._web returns it) into the table. Only this module touches cards.
// Everything shown comes from Python's replies and goes in through textContent and dataset;
// names and labels are in the page's language (i18n.js), so a re-render re-says them all.
import { cardName, language, suitName, t } from "./i18n.js";

/** A card element: an <li> in a cascade, a <div> in a free cell or on a foundation. */
function cardElement(card, index, tag = "li") {
  const item = document.createElement(tag);
  item.className = card.red ? "card red" : "card black";
  item.dataset.card = card.code;
  item.setAttribute("aria-label", cardName(card.code));
  item.style.setProperty("--i", String(index));
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = card.rank;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = card.suit;
  corner.append(rank, suit);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = card.suit;
  item.append(corner, pip);
  return item;
}

// Each card's cascade element is made once per language and then only moved between
// cascades: a deal change or a move rebuilds no card, so the page keeps up with every click.
let cascadeCards = new Map();
let cascadeCardsLanguage = "";

function cascadeCard(card) {
  if (cascadeCardsLanguage !== language()) {
    cascadeCards = new Map();
    cascadeCardsLanguage = language();
  }
  let element = cascadeCards.get(card.code);
  if (!element) {
    element = cardElement(card, 0);
    cascadeCards.set(card.code, element);
  }
  return element;
}

function renderCascades(board, columns) {
  if (board.children.length !== columns.length) {
    board.replaceChildren(
      ...columns.map((_, index) => {
        const column = document.createElement("ol");
        column.className = "cascade";
        column.dataset.column = String(index + 1);
        column.tabIndex = 0;
        return column;
      }),
    );
  }
  columns.forEach((cards, index) => {
    const column = board.children[index];
    column.setAttribute(
      "aria-label",
      t("board.cascade", { column: String(index + 1), count: cards.length }),
    );
    column.style.setProperty("--n", String(Math.max(cards.length, 1)));
    const elements = cards.map((card, i) => {
      const element = cascadeCard(card);
      if (element.style.getPropertyValue("--i") !== String(i)) {
        element.style.setProperty("--i", String(i));
      }
      return element;
    });
    const same =
      elements.length === column.children.length &&
      elements.every((element, i) => column.children[i] === element);
    if (!same) column.replaceChildren(...elements);
  });
}

/**
 * Show a game: the cascades, the free cells, the foundations' top cards.
 * `faces` maps a card code to its face ({code, name, rank, suit, red}).
 */
export function renderGame(table, game, faces) {
  const board = table.querySelector("#board");
  renderCascades(
    board,
    game.cascades.map((codes) => codes.map((code) => faces[code])),
  );
  table.querySelectorAll("[data-freecell]").forEach((slot, index) => {
    const code = game.freecells[index];
    const place = t("board.freecell", { cell: "ABCD"[index] });
    slot.replaceChildren(...(code ? [cardElement(faces[code], 0, "div")] : []));
    slot.setAttribute(
      "aria-label",
      code ? t("board.holds", { place, card: cardName(code) }) : t("board.empty", { place }),
    );
  });
  table.querySelectorAll("[data-foundation]").forEach((slot, index) => {
    const code = game.foundations[index];
    const place = t("board.foundation", { suit: suitName(index) });
    slot.replaceChildren(...(code ? [cardElement(faces[code], 0, "div")] : []));
    slot.setAttribute(
      "aria-label",
      code ? t("board.up-to", { place, card: cardName(code) }) : t("board.empty", { place }),
    );
  });
  board.dataset.moves = game.moves.join(",");
  board.dataset.deal = String(game.deal);
}

/** Return the notation's name of the place an element is in: "1"-"8", "a"-"d", "h" or null. */
export function placeOf(element) {
  const column = element?.closest?.("[data-column]");
  if (column) return column.dataset.column;
  const cell = element?.closest?.("[data-freecell]");
  if (cell) return "abcd"[Number(cell.dataset.freecell)];
  if (element?.closest?.("[data-foundation], .foundations")) return "h";
  return null;
}

/** Return the element that stands for a place (a cascade, a free cell, the foundations). */
export function placeElement(table, place) {
  if ("12345678".includes(place)) return table.querySelector(`[data-column="${place}"]`);
  if ("abcd".includes(place)) {
    return table.querySelector(`[data-freecell="${"abcd".indexOf(place)}"]`);
  }
  return table.querySelector(".foundations");
}

/** Mark a selection: the chosen card and the cards below it in its cascade; null clears it. */
export function showSelection(table, selection) {
  for (const element of table.querySelectorAll("[aria-current], [data-selected]")) {
    element.removeAttribute("aria-current");
    delete element.dataset.selected;
  }
  if (!selection) return;
  const place = placeElement(table, selection.place);
  if (!place) return;
  place.dataset.selected = "true";
  const cards = [...place.querySelectorAll("[data-card]")];
  const from = selection.card ? cards.findIndex((c) => c.dataset.card === selection.card) : -1;
  for (const card of cards.slice(from >= 0 ? from : cards.length - 1)) {
    card.setAttribute("aria-current", "true");
  }
}

/** Mark the places a selection could go to (from targets()); an empty list clears them. */
export function showTargets(table, places) {
  for (const element of table.querySelectorAll("[data-target]")) delete element.dataset.target;
  for (const place of places) {
    const element = placeElement(table, place);
    if (element) element.dataset.target = "true";
  }
}
