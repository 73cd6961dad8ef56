// Dragging cards with a mouse, a pen or a finger (Pointer Events): a ghost of the picked-up
// cards follows the pointer; dropping it on a place asks for that move (play.js). A move that
// is played glides on from where it was dropped; a refused one glides back.
import { glideFrom, placeOf, reducedMotion } from "./board.js";
import rules from "./rules.js";

const DRAG_START_PX = 6; // a press that moves less is a click
const RETURN_MS = 160;

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
    // In the table: the cards' size comes from it. The table holds fixed elements in its own
    // box (it is a size container), so the ghost's coordinates are the table's.
    table.append(ghost);
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

  /** Send a refused drag's ghost back to where its cards are, then remove it. */
  function sendBack({ ghost, cards }) {
    const home = cards[0]?.getBoundingClientRect();
    const from = ghost.getBoundingClientRect();
    const box = table.getBoundingClientRect();
    const reduce = reducedMotion();
    const finish = () => {
      ghost.remove();
      for (const item of cards) item.classList.remove("dragging");
    };
    if (!home || reduce || !ghost.isConnected) return finish();
    const at = (rect) => `translate(${rect.left - box.left}px, ${rect.top - box.top}px)`;
    const animation = ghost.animate([{ transform: at(from) }, { transform: at(home) }], {
      duration: RETURN_MS,
      easing: "ease-out",
    });
    ghost.style.transform = at(home);
    animation.finished.then(finish, finish);
    return undefined;
  }

  function onMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      start(event);
    }
    event.preventDefault();
    const box = table.getBoundingClientRect();
    const x = event.clientX - drag.dx - box.left;
    const y = event.clientY - drag.dy - box.top;
    drag.ghost.style.transform = `translate(${x}px, ${y}px)`;
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      drag = null; // a plain click: the click handler picks the card up
      return;
    }
    const held = drag;
    drag = null;
    held.ghost.style.visibility = "hidden";
    const target = placeOf(document.elementFromPoint(event.clientX, event.clientY));
    held.ghost.style.visibility = "";
    dropped = true;
    setTimeout(() => {
      dropped = false;
    }, 0);
    if (!target || target === held.place) {
      sendBack(held);
      return;
    }
    // Where each dragged card was let go: a played move glides on from there.
    const codes = held.cards.map((item) => item.dataset.card);
    const rects = [...held.ghost.children].map((copy) => copy.getBoundingClientRect());
    glideFrom(new Map(codes.map((code, index) => [code, rects[index]])));
    actions.move(held.place, target, held.card.dataset.card).then((played) => {
      if (played) {
        held.ghost.remove();
        for (const item of held.cards) item.classList.remove("dragging");
      } else {
        glideFrom(new Map());
        sendBack(held);
      }
    });
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
