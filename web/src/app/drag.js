// Dragging cards with a mouse, a pen or a finger (Pointer Events): a ghost of the picked-up
// cards follows the pointer; dropping it on a place asks for that move (play.js).
import { placeOf } from "./board.js";
import rules from "./rules.js";

const DRAG_START_PX = 6; // a press that moves less is a click

/** Bind drags in the table to `actions.move`; returns {justDropped(), unbind()}. */
export function bindDrag(table, state, actions) {
  let drag = null; // {id, card, place, x, y, dx, dy, ghost, cards}
  let dropped = false; // the click that follows a drop is not a click on a card

  function onDown(event) {
    if (event.button !== 0 || !state.game || drag) return;
    const card = event.target.closest("[data-card]");
    const place = placeOf(card);
    if (!card || !place || place === rules.foundation) return;
    drag = { id: event.pointerId, card, place, x: event.clientX, y: event.clientY, ghost: null };
  }

  function start(event) {
    const { card } = drag;
    const cards = [];
    for (let item = card; item; item = item.nextElementSibling) cards.push(item);
    const ghost = document.createElement(card.tagName === "LI" ? "ol" : "div");
    ghost.className = "cascade drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.setProperty("--n", card.parentElement.style.getPropertyValue("--n") || "1");
    for (const item of cards) {
      const copy = item.cloneNode(true);
      delete copy.dataset.card;
      copy.removeAttribute("aria-label");
      copy.removeAttribute("aria-current");
      ghost.append(copy);
      item.classList.add("dragging");
    }
    const box = card.getBoundingClientRect();
    drag.dx = drag.x - box.left;
    drag.dy = drag.y - box.top;
    drag.cards = cards;
    drag.ghost = ghost;
    document.body.append(ghost);
    try {
      card.setPointerCapture(event.pointerId);
    } catch {
      // the pointer may already be gone; the drag still ends on pointerup or pointercancel
    }
    actions.cancel();
  }

  function end() {
    if (!drag) return;
    drag.ghost?.remove();
    for (const item of drag.cards ?? []) item.classList.remove("dragging");
    drag = null;
  }

  function onMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      start(event);
    }
    event.preventDefault();
    const x = event.clientX - drag.dx;
    const y = event.clientY - drag.dy;
    drag.ghost.style.transform = `translate(${x}px, ${y}px)`;
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      drag = null; // a plain click: the click handler picks the card up
      return;
    }
    drag.ghost.hidden = true;
    const target = placeOf(document.elementFromPoint(event.clientX, event.clientY));
    const { place, card } = drag;
    end();
    dropped = true;
    setTimeout(() => {
      dropped = false;
    }, 0);
    if (target && target !== place) actions.move(place, target, card.dataset.card);
  }

  function onCancel(event) {
    if (drag && event.pointerId === drag.id) end();
  }

  const bindings = [
    [table, "pointerdown", onDown],
    [document, "pointermove", onMove],
    [document, "pointerup", onUp],
    [document, "pointercancel", onCancel],
  ];
  for (const [target, type, listener] of bindings) target.addEventListener(type, listener);
  return {
    justDropped: () => dropped,
    unbind() {
      for (const [target, type, listener] of bindings) {
        target.removeEventListener(type, listener);
      }
    },
  };
}
