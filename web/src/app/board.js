// The table view: draws a game (as freecell._web reports it), the selection and its targets
// from the state. Only this module touches cards. Everything shown comes from Python's replies
// and goes in through textContent and dataset; names and labels are in the page's language
// (i18n.js), so a re-render re-says them all.
import { cardName, language, suitName, t } from "./i18n.js";
import rules from "./rules.js";
import { cardsAt, isCascade, isFreecell } from "./state.js";

/** A card element: an <li> in a cascade, a <div> in a free cell or on a foundation. */
function cardElement(code, face, tag = "li") {
  const item = document.createElement(tag);
  item.className = face.red ? "card red" : "card black";
  item.dataset.card = code;
  item.setAttribute("aria-label", cardName(face));
  item.style.setProperty("--i", "0");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = face.rank;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = face.suit;
  corner.append(rank, suit);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = face.suit;
  item.append(corner, pip);
  return item;
}

// Each card's cascade element is made once per language and then only moved between
// cascades: a deal change or a move rebuilds no card, so the page keeps up with every click.
let cascadeCards = new Map();
let cascadeCardsLanguage = "";

function cascadeCard(code, faces) {
  if (cascadeCardsLanguage !== language()) {
    cascadeCards = new Map();
    cascadeCardsLanguage = language();
  }
  let element = cascadeCards.get(code);
  if (!element) {
    element = cardElement(code, faces[code]);
    cascadeCards.set(code, element);
  }
  return element;
}

function renderCascades(board, cascades, faces) {
  if (board.children.length !== cascades.length) {
    board.replaceChildren(
      ...cascades.map((_, index) => {
        const column = document.createElement("ol");
        column.className = "cascade";
        column.dataset.column = rules.cascades[index];
        column.tabIndex = 0;
        return column;
      }),
    );
  }
  cascades.forEach((codes, index) => {
    const column = board.children[index];
    column.setAttribute(
      "aria-label",
      t("board.cascade", { column: rules.cascades[index], count: codes.length }),
    );
    column.style.setProperty("--n", String(Math.max(codes.length, 1)));
    const elements = codes.map((code, i) => {
      const element = cascadeCard(code, faces);
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

/** Draw a game's cascades, free cells and foundations' top cards. */
function renderGame(table, game, faces) {
  const board = table.querySelector("#board");
  renderCascades(board, game.cascades, faces);
  table.querySelectorAll("[data-freecell]").forEach((slot, index) => {
    const code = game.freecells[index];
    const place = t("board.freecell", { cell: rules.freecells[index].toUpperCase() });
    slot.replaceChildren(...(code ? [cardElement(code, faces[code], "div")] : []));
    slot.setAttribute(
      "aria-label",
      code
        ? t("board.holds", { place, card: cardName(faces[code]) })
        : t("board.empty", { place }),
    );
  });
  table.querySelectorAll("[data-foundation]").forEach((slot, index) => {
    const code = game.foundations[index];
    const place = t("board.foundation", { suit: suitName(index) });
    slot.replaceChildren(...(code ? [cardElement(code, faces[code], "div")] : []));
    slot.setAttribute(
      "aria-label",
      code
        ? t("board.up-to", { place, card: cardName(faces[code]) })
        : t("board.empty", { place }),
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
  if (cell) return rules.freecells[Number(cell.dataset.freecell)];
  if (element?.closest?.("[data-foundation], .foundations")) return rules.foundation;
  return null;
}

/** Return the element that stands for a place (a cascade, a free cell, the foundations). */
function placeElement(table, place) {
  if (isCascade(place)) return table.querySelector(`[data-column="${place}"]`);
  if (isFreecell(place)) {
    return table.querySelector(`[data-freecell="${rules.freecells.indexOf(place)}"]`);
  }
  return table.querySelector(".foundations");
}

/** Mark a selection: the chosen card and the cards below it in its cascade; null clears it. */
function renderSelection(table, game, selection) {
  for (const element of table.querySelectorAll("[aria-current], [data-selected]")) {
    element.removeAttribute("aria-current");
    delete element.dataset.selected;
  }
  if (!selection) return;
  const place = placeElement(table, selection.place);
  if (!place) return;
  place.dataset.selected = "true";
  const codes = cardsAt(game, selection.place);
  const from = selection.card ? codes.indexOf(selection.card) : -1;
  for (const code of codes.slice(from >= 0 ? from : codes.length - 1)) {
    place.querySelector(`[data-card="${code}"]`)?.setAttribute("aria-current", "true");
  }
}

/** Mark the places a selection could go to; an empty list clears them. */
function renderTargets(table, places) {
  for (const element of table.querySelectorAll("[data-target]")) delete element.dataset.target;
  for (const place of places) {
    const element = placeElement(table, place);
    if (element) element.dataset.target = "true";
  }
}

/** Draw the table from a state: a game (the state's own, or one of its steps), selection, targets. */
export function renderTable(table, state, game = state.game) {
  renderGame(table, game, state.faces);
  renderSelection(table, game, game === state.game ? state.selection : null);
  renderTargets(table, game === state.game ? state.targets : []);
}
