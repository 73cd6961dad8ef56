// The table: draws a game (as freecell._web reports it), the selection, its targets and a
// hint, from the state. Only this module touches cards. Everything shown comes from Python's
// replies and goes in through textContent and dataset; names and labels are in the page's
// language (i18n.js), so a re-render re-says them all. Moved cards glide to their new place
// (FLIP: First, Last, Invert, Play), unless the player prefers reduced motion. The fan (how
// much of a covered card shows) follows the longest cascade on the table, in steps. A board is
// made for its table element, as chessground's Chessground(element, config) is: createBoard.
import { celebrate } from "./celebrate.js";
import { cardName, language, suitName, t } from "./i18n.js";
import rules from "./rules.js";
import { cardAt, cardsAt, isCascade, isFreecell } from "./state.js";

const GLIDE_MS = 180;
const SHAKE_MS = 320;
/** Each suit's class, in the order of the suits (clubs, diamonds, hearts, spades). */
export const SUIT_CLASSES = ["clubs", "diamonds", "hearts", "spades"];
// The cascade lengths the fan is made for (layout.css's --fan-cards): the longest cascade on
// the table rounded up to one of these, so the fan changes only when it crosses a step. The
// last is the longest cascade a game can make (7 cards dealt, a king, then a queen to an ace).
const FAN_STEPS = [9, 12, 15, 19];

/**
 * A card element: an <li> in a cascade, named for screen readers; a <div> in a free cell or
 * on a foundation, where the slot's own label names it. It holds one element, its face:
 * cards.css draws the corner indices (from data-corner), the pips, an ace or a court from
 * the classes, so that a deal change, which moves all 52 cards, stays cheap.
 */
function cardElement(code, face, tag = "li") {
  const rank = face.rank_index + 1;
  const corner = face.rank + face.suit;
  const item = document.createElement(tag);
  const colour = face.red ? "red" : "black";
  item.className = `card ${colour} rank-${rank} ${SUIT_CLASSES[face.suit_index]}`;
  item.dataset.card = code;
  item.dataset.corner = corner;
  if (tag === "li") item.setAttribute("aria-label", cardName(face));
  else item.setAttribute("aria-hidden", "true");
  const middle = document.createElement("span");
  middle.setAttribute("aria-hidden", "true");
  if (rank > 10) {
    middle.className = "court";
    middle.dataset.corner = corner;
  } else {
    middle.className = "pips";
  }
  item.append(middle);
  return item;
}

/** The fan's step for a game's cascades: the first of FAN_STEPS that its longest reaches. */
function fanStep(cascades) {
  const longest = Math.max(...cascades.map((codes) => codes.length));
  return FAN_STEPS.find((step) => step >= longest) ?? FAN_STEPS.at(-1);
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

/** The element of a place as a target: a cascade's bottom card (or the empty cascade), a free
 * cell, or the foundation of the suit of `card`. */
function targetElement(table, game, faces, place, card, { slot = false } = {}) {
  if (isCascade(place)) {
    const column = table.querySelector(`[data-column="${place}"]`);
    const bottom = cardAt(game, place);
    return bottom && !slot ? column.querySelector(`[data-card="${bottom}"]`) : column;
  }
  if (isFreecell(place)) {
    return table.querySelector(`[data-freecell="${rules.freecells.indexOf(place)}"]`);
  }
  const suit = faces[card]?.suit_index;
  return suit === undefined ? null : table.querySelector(`[data-foundation="${suit}"]`);
}

function clear(table, attribute) {
  for (const element of table.querySelectorAll(`[${attribute}]`)) {
    element.removeAttribute(attribute);
  }
}

/** Mark a selection: the chosen card and the cards below it in its cascade; null clears it. */
function renderSelection(table, game, selection) {
  clear(table, "aria-current");
  clear(table, "data-selected");
  if (!selection) return;
  const codes = cardsAt(game, selection.place);
  const from = selection.card ? codes.indexOf(selection.card) : -1;
  for (const code of codes.slice(from >= 0 ? from : codes.length - 1)) {
    table.querySelector(`[data-card="${code}"]`)?.setAttribute("aria-current", "true");
  }
  const place = isCascade(selection.place)
    ? table.querySelector(`[data-column="${selection.place}"]`)
    : targetElement(table, game, {}, selection.place, null);
  if (place) place.dataset.selected = "true";
}

/** Mark where the selection can go: the bottom card of a cascade, or the slot. */
function renderTargets(table, game, faces, selection, places) {
  clear(table, "data-target");
  if (!selection) return;
  const moving = selection.card ?? cardAt(game, selection.place);
  for (const place of places) {
    const element = targetElement(table, game, faces, place, moving);
    if (element) element.dataset.target = "true";
  }
}

/** Mark a hint: the card to move (data-hint="from") and where it goes (data-hint="to"). */
function renderHint(table, game, faces, hint) {
  clear(table, "data-hint");
  if (!hint) return;
  table.querySelector(`[data-card="${hint.card}"]`)?.setAttribute("data-hint", "from");
  const target = targetElement(table, game, faces, hint.target, hint.card, { slot: true });
  if (target) target.dataset.hint = "to";
}

// --- motion --------------------------------------------------------------------------------

const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)"); // live: follows changes

/** Whether the player prefers reduced motion: no glides, no celebration, no paced play. */
export function reducedMotion() {
  return REDUCED_MOTION.matches;
}

/** Where every card is on screen now, by code: where the next render's glides start. */
function cardRects(table) {
  const rects = new Map();
  for (const element of table.querySelectorAll("[data-card]")) {
    rects.set(element.dataset.card, element.getBoundingClientRect());
  }
  return rects;
}

function glide(table, before) {
  for (const element of table.querySelectorAll("[data-card]")) {
    const from = before.get(element.dataset.card);
    if (!from) continue;
    const to = element.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    for (const running of element.getAnimations()) running.cancel();
    element.animate(
      [
        { transform: `translate(${dx}px, ${dy}px)`, zIndex: 3 },
        { transform: "translate(0, 0)", zIndex: 3 },
      ],
      { duration: GLIDE_MS, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)" },
    );
  }
}

/**
 * The board of a table element (`#table`, holding `#board`'s cascades, the free cells and the
 * foundations): {element, render, holdFan, glideFrom, shake, celebrate}. It keeps what the
 * table shows between renders: the cards' elements, the fan's step, a drag's drop.
 */
export function createBoard(table) {
  const board = table.querySelector("#board");
  // Each card's cascade element is made once per language and then only moved between
  // cascades: a deal change or a move rebuilds no card, so the page keeps up with every click.
  // A free cell's or a foundation's card is made again only when another card goes there, or
  // the language changes. A render that rebuilt a card the pointer was pressed on would lose
  // the click: the release would land on another element.
  let cascadeCards = new Map();
  let cardsLanguage = ""; // the language of the cards on the table
  let fanCards = 0; // the step the table shows (--fan-cards), 0 before the first game
  let fanWanted = 0; // the step the game on the table needs
  let fanHeld = false; // a drag is on: the fan waits for it to end
  let dropped = new Map(); // card code -> where a drag let go of it
  let faces = null; // the faces of the cards on the table, for a celebration's cards
  let celebration = null; // the win's celebration while it runs (celebrate.js)

  function cascadeCard(code, faces) {
    let element = cascadeCards.get(code);
    if (!element) {
      element = cardElement(code, faces[code]);
      cascadeCards.set(code, element);
    }
    return element;
  }

  function renderCascades(cascades, faces) {
    cascades.forEach((codes, index) => {
      const column = board.children[index];
      column.setAttribute(
        "aria-label",
        t("board.cascade", { column: rules.cascades[index], count: codes.length }),
      );
      const elements = codes.map((code) => cascadeCard(code, faces));
      const same =
        elements.length === column.children.length &&
        elements.every((element, i) => column.children[i] === element);
      if (!same) column.replaceChildren(...elements);
    });
  }

  /** Set the fan for the game on the table, once per render, unless a drag holds it. */
  function renderFan(cascades) {
    fanWanted = fanStep(cascades);
    if (fanHeld || fanWanted === fanCards) return;
    table.style.setProperty("--fan-cards", String(fanWanted));
    fanCards = fanWanted;
  }

  /** Draw a free cell's or a foundation's card (`code`, or none) and name the slot. */
  function renderSlot(slot, code, faces, relabel, label) {
    if (relabel || slot.firstElementChild?.dataset.card !== code) {
      slot.replaceChildren(...(code ? [cardElement(code, faces[code], "div")] : []));
    }
    slot.setAttribute("aria-label", label);
  }

  /** Draw a game's cascades, free cells and foundations' top cards. */
  function renderGame(game, faces) {
    const relabel = cardsLanguage !== language();
    if (relabel) {
      cascadeCards = new Map();
      cardsLanguage = language();
    }
    renderCascades(game.cascades, faces);
    renderFan(game.cascades);
    table.querySelectorAll("[data-freecell]").forEach((slot, index) => {
      const code = game.freecells[index];
      const place = t("board.freecell", { cell: rules.freecells[index].toUpperCase() });
      const label = code
        ? t("board.holds", { place, card: cardName(faces[code]) })
        : t("board.empty", { place });
      renderSlot(slot, code, faces, relabel, label);
    });
    table.querySelectorAll("[data-foundation]").forEach((slot, index) => {
      const code = game.foundations[index];
      const place = t("board.foundation", { suit: suitName(index) });
      const label = code
        ? t("board.up-to", { place, card: cardName(faces[code]) })
        : t("board.empty", { place });
      renderSlot(slot, code, faces, relabel, label);
    });
    board.dataset.moves = game.moves.join(",");
    board.dataset.deal = String(game.deal);
  }

  return {
    element: table,

    /**
     * Draw the table from a state: a game (the state's own, or one of its steps), the
     * selection, its targets and the hint. With `glide`, cards that moved glide from where
     * they were.
     */
    render(state, game = state.game, { glide: moving = false } = {}) {
      if (!game.won) celebration?.stop();
      faces = state.faces;
      const before = moving && !reducedMotion() ? cardRects(table) : null;
      if (before) for (const [code, rect] of dropped) before.set(code, rect);
      dropped = new Map();
      const own = game === state.game;
      const selection = own ? state.selection : null;
      renderGame(game, state.faces);
      renderSelection(table, game, selection);
      renderTargets(table, game, state.faces, selection, own ? state.targets : []);
      renderHint(table, game, state.faces, own ? state.hint : null);
      if (before) glide(table, before);
    },

    /**
     * Hold the fan as it is while a drag is on (`held`), or let it follow the game again: a
     * change that waited glides in.
     */
    holdFan(held) {
      fanHeld = held;
      if (held || fanWanted === fanCards || fanCards === 0) return;
      const before = reducedMotion() ? null : cardRects(table);
      table.style.setProperty("--fan-cards", String(fanWanted));
      fanCards = fanWanted;
      if (before) glide(table, before);
    },

    /** Start the next glide of these cards from where a drag dropped them (code -> DOMRect). */
    glideFrom(rects) {
      dropped = rects;
    },

    /** A short shake of a card that cannot move (none under reduced motion). */
    shake(code) {
      const card = table.querySelector(`[data-card="${code}"]`);
      if (!card || reducedMotion()) return;
      card.animate(
        [
          { transform: "translateX(0)" },
          { transform: "translateX(-12%)" },
          { transform: "translateX(10%)" },
          { transform: "translateX(-6%)" },
          { transform: "translateX(3%)" },
          { transform: "translateX(0)" },
        ],
        { duration: SHAKE_MS, easing: "ease-out" },
      );
    },

    /**
     * The win's celebration (celebrate.js): every card leaves its foundation, kings first, in
     * copies made here (no data-card: they are no cards of the game); none under reduced
     * motion. Returns it ({stop, done}), or null.
     */
    celebrate() {
      celebration?.stop();
      celebration = null;
      if (reducedMotion() || !faces) return null;
      const codes = Object.keys(faces);
      const piles = SUIT_CLASSES.map((_, suit) => ({
        slot: table.querySelector(`[data-foundation="${suit}"]`),
        cards: codes
          .filter((code) => faces[code].suit_index === suit)
          .sort((one, other) => faces[other].rank_index - faces[one].rank_index)
          .map((code) => {
            const card = cardElement(code, faces[code], "div");
            delete card.dataset.card;
            return card;
          }),
      }));
      const running = celebrate(table, piles);
      celebration = running;
      running.done.then(() => {
        if (celebration === running) celebration = null;
      });
      return running;
    },
  };
}
