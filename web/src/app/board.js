// Renders a deal (as freecell._web returns it) into #board. Only this module touches the cards.

function cardElement(card, index) {
  const item = document.createElement("li");
  item.className = card.red ? "card red" : "card black";
  item.dataset.card = card.code;
  item.setAttribute("aria-label", card.name);
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

/** Replace the cascades with a deal's 8 columns, first dealt card first. */
export function renderDeal(board, deal) {
  const columns = deal.columns.map((cards, index) => {
    const column = document.createElement("ol");
    column.className = "cascade";
    column.dataset.column = String(index + 1);
    column.setAttribute("aria-label", `Cascade ${index + 1}, ${cards.length} cards`);
    column.append(...cards.map(cardElement));
    return column;
  });
  board.replaceChildren(...columns);
  board.dataset.deal = String(deal.number);
}
