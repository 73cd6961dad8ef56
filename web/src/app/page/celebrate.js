// The win's celebration, after Windows' Solitaire: the cards leave the foundations one by one,
// the kings first, each suit in turn, and bounce across the table until they are off it. It
// holds nothing up: its layer takes no pointer, and a key, a tap or a click ends it at once
// and then does what it does (Play the next deal, Next, Open...), as does a page turning hidden
// or the table showing a game that is not won. board.js makes the cards and starts it (only
// board.js makes cards); view.js starts it at a win, never under prefers-reduced-motion.

const LAUNCH_MS = 55; // between two cards leaving: 52 cards in under 3 s
const GRAVITY = 2.4; // the table's heights per second, per second
const BOUNCE = 0.72; // the share of its speed a card keeps at a bounce
const MOST_MS = 10_000; // it ends by then, whatever happens
// What ends it: any key, any press of a pointer, the page turning hidden (caught before the
// page's own handlers, which then act as ever).
const LISTENED = ["keydown", "pointerdown", "visibilitychange"];

/**
 * Start the celebration on `table` (the positioned element the cards fly over): `piles` are
 * the foundations, each {slot, cards}, its cards top first (elements made for it); `random()`
 * gives the flights their speeds. Returns {stop, done}: `stop()` ends it, `done` resolves
 * when it has ended.
 */
export function celebrate(table, piles, { random = Math.random } = {}) {
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  const box = table.getBoundingClientRect();
  const width = table.clientWidth;
  const height = table.clientHeight;
  const place = (element, x, y) => {
    element.style.transform = `translate(${x}px, ${y}px)`;
  };
  // Each foundation's pile: where it is and the card on top of it now (in the layer).
  const stacks = piles.map(({ slot, cards }) => {
    const rect = slot.getBoundingClientRect();
    const x = rect.left - box.left - table.clientLeft;
    const y = rect.top - box.top - table.clientTop;
    return { x, y, size: rect, cards: [...cards] };
  });

  /** Put the next card of a pile on it, under the cards in flight; the pile's top or null. */
  function showTop(stack) {
    const card = stack.cards.shift() ?? null;
    if (!card) return null;
    card.style.inlineSize = `${stack.size.width}px`;
    card.style.blockSize = `${stack.size.height}px`;
    place(card, stack.x, stack.y);
    layer.prepend(card);
    return card;
  }

  const tops = stacks.map(showTop);
  const total = stacks.reduce((sum, stack) => sum + stack.cards.length, 0) + tops.length;
  const flying = [];
  let launched = 0;
  let start = null;
  let last = 0;
  let frame = 0;
  let ended = false;
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });

  function launch(index) {
    const pile = index % stacks.length;
    const stack = stacks[pile];
    const card = tops[pile];
    if (!card) return;
    const side = random() < 0.5 ? -1 : 1;
    flying.push({
      card,
      x: stack.x,
      y: stack.y,
      vx: side * width * (0.22 + 0.3 * random()),
      vy: -height * (0.05 + 0.3 * random()), // a hop: a card near the top stays in sight
      floor: height - stack.size.height,
      out: stack.size.width,
    });
    tops[pile] = showTop(stack);
  }

  function step(time) {
    start ??= time;
    const seconds = Math.min(0.05, Math.max(0, (time - (last || time)) / 1000));
    last = time;
    while (launched < total && time - start >= launched * LAUNCH_MS) launch(launched++);
    for (const flight of [...flying]) {
      flight.vy += GRAVITY * height * seconds;
      flight.x += flight.vx * seconds;
      flight.y += flight.vy * seconds;
      if (flight.y > flight.floor) {
        flight.y = flight.floor;
        flight.vy = -flight.vy * BOUNCE;
      }
      if (flight.x < -flight.out || flight.x > width) {
        flight.card.remove();
        flying.splice(flying.indexOf(flight), 1);
      } else place(flight.card, flight.x, flight.y);
    }
    if ((launched >= total && !flying.length) || time - start > MOST_MS) stop();
    else frame = requestAnimationFrame(step);
  }

  function stop() {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    layer.remove();
    delete table.dataset.celebrating;
    for (const type of LISTENED) document.removeEventListener(type, stop, true);
    finish();
  }

  for (const type of LISTENED) document.addEventListener(type, stop, true);
  table.append(layer);
  table.dataset.celebrating = "";
  frame = requestAnimationFrame(step);
  return { stop, done };
}
