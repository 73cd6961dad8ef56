// Dragging cards with a mouse, a pen or a finger (Pointer Events): a ghost of the picked-up
// cards follows the pointer; dropping it on a place asks for that move (play.js). A move that
// is played glides on from where it was dropped; a refused one glides back. Under a finger the
// ghost sits above the touch point, its corner in sight, and the fan holds still while it is
// dragged. A finger held on a card picks it up (then a tap on a place puts it there), and opens
// no menu.
import { placeOf, reducedMotion } from "./board.js";
import rules from "./rules.js";

const DRAG_START_PX = 6; // a press that moves less is a click
const RETURN_MS = 160;
const LONG_PRESS_MS = 450; // a finger or a pen held this long without moving picks a card up
const FINGER_AT = 0.7; // where a finger holds a dragged card: this far down its first card

/**
 * Bind drags in a board's table (board.js) to `actions.move`, and long presses to
 * `actions.pickUp`; returns
 * {justDropped(), unbind()}: justDropped() tells the click handler that the click ends a drag
 * or a long press, not a tap.
 */
export function bindDrag(board, state, actions) {
  const table = board.element;
  let drag = null; // {id, card, place, x, y, dx, dy, ghost, cards, touch, timer}
  let dropped = false; // the click that follows a drop is not a click on a card
  let held = false; // the press that ends with the next click was a long one
  let pointer = "mouse"; // the type of the last pointer pressed on the table

  function onDown(event) {
    held = false;
    pointer = event.pointerType;
    if (event.button !== 0 || !state.game || drag) return;
    const card = event.target.closest("[data-card]");
    const place = placeOf(card);
    if (!card || !place || place === rules.foundation) return;
    const touch = event.pointerType === "touch" || event.pointerType === "pen";
    drag = { id: event.pointerId, card, place, x: event.clientX, y: event.clientY, ghost: null };
    drag.touch = touch;
    if (touch) drag.timer = setTimeout(() => pressedLong(drag), LONG_PRESS_MS);
  }

  /** A finger held still on a card: pick it up (with the cards below it). */
  function pressedLong(pressed) {
    if (!pressed || pressed !== drag || pressed.ghost) return;
    held = true;
    drag = null;
    actions.pickUp(pressed.place, pressed.card.dataset.card);
  }

  /** A right click or a long press on the table opens no menu under a finger or a pen. */
  function onContextMenu(event) {
    if (pointer !== "mouse") event.preventDefault();
  }

  function start(event) {
    const { card } = drag;
    clearTimeout(drag.timer);
    const cards = [];
    for (let item = card; item; item = item.nextElementSibling) cards.push(item);
    const ghost = document.createElement(card.tagName === "LI" ? "ol" : "div");
    ghost.className = "cascade drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    for (const item of cards) {
      const copy = item.cloneNode(true);
      delete copy.dataset.card;
      copy.removeAttribute("aria-label");
      copy.removeAttribute("aria-current");
      ghost.append(copy);
      item.classList.add("dragging");
    }
    const box = card.getBoundingClientRect();
    // A mouse holds the card where it took it; a finger holds it below its corner, in sight.
    drag.dx = drag.touch ? box.width / 2 : drag.x - box.left;
    drag.dy = drag.touch ? box.height * FINGER_AT : drag.y - box.top;
    drag.cards = cards;
    drag.ghost = ghost;
    // In the table: the cards' size comes from it. Its place before any move is the origin of
    // its coordinates (the viewport's, or the table's where the table holds fixed elements).
    table.append(ghost);
    const origin = ghost.getBoundingClientRect();
    drag.origin = { left: origin.left, top: origin.top };
    board.holdFan(true);
    try {
      card.setPointerCapture(event.pointerId);
    } catch {
      // the pointer may already be gone; the drag still ends on pointerup or pointercancel
    }
    actions.cancel();
  }

  function end() {
    if (!drag) return;
    clearTimeout(drag.timer);
    drag.ghost?.remove();
    for (const item of drag.cards ?? []) item.classList.remove("dragging");
    if (drag.ghost) board.holdFan(false);
    drag = null;
  }

  /** Send a refused drag's ghost back to where its cards are, then remove it. */
  function sendBack({ ghost, cards, origin }) {
    const home = cards[0]?.getBoundingClientRect();
    const from = ghost.getBoundingClientRect();
    const reduce = reducedMotion();
    const finish = () => {
      ghost.remove();
      for (const item of cards) item.classList.remove("dragging");
    };
    if (!home || reduce || !ghost.isConnected) return finish();
    const at = (rect) => `translate(${rect.left - origin.left}px, ${rect.top - origin.top}px)`;
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
    const x = event.clientX - drag.dx - drag.origin.left;
    const y = event.clientY - drag.dy - drag.origin.top;
    drag.ghost.style.transform = `translate(${x}px, ${y}px)`;
  }

  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    clearTimeout(drag.timer);
    if (!drag.ghost) {
      drag = null; // a plain click: the click handler picks the card up
      return;
    }
    const dragged = drag;
    drag = null;
    dragged.ghost.style.visibility = "hidden";
    const target = placeOf(document.elementFromPoint(event.clientX, event.clientY));
    dragged.ghost.style.visibility = "";
    board.holdFan(false);
    dropped = true;
    setTimeout(() => {
      dropped = false;
    }, 0);
    if (!target || target === dragged.place) {
      sendBack(dragged);
      return;
    }
    // Where each dragged card was let go: a played move glides on from there.
    const codes = dragged.cards.map((item) => item.dataset.card);
    const rects = [...dragged.ghost.children].map((copy) => copy.getBoundingClientRect());
    board.glideFrom(new Map(codes.map((code, index) => [code, rects[index]])));
    actions.move(dragged.place, target, dragged.card.dataset.card).then((played) => {
      if (played) {
        dragged.ghost.remove();
        for (const item of dragged.cards) item.classList.remove("dragging");
      } else {
        board.glideFrom(new Map());
        sendBack(dragged);
      }
    });
  }

  function onCancel(event) {
    if (drag && event.pointerId === drag.id) end();
  }

  const bindings = [
    [table, "pointerdown", onDown],
    [table, "contextmenu", onContextMenu],
    [document, "pointermove", onMove],
    [document, "pointerup", onUp],
    [document, "pointercancel", onCancel],
  ];
  for (const [target, type, listener] of bindings) target.addEventListener(type, listener);
  return {
    justDropped: () => dropped || held,
    unbind() {
      for (const [target, type, listener] of bindings) {
        target.removeEventListener(type, listener);
      }
    },
  };
}
