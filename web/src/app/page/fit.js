// The bar keeps the rows its layout has (one on a desktop): where the buttons' words do not fit
// (Russian's, Spanish's and Italian's are longer than English's, a window may be narrow), the
// figures beside the move count show their signs, then the buttons show their icons alone, as on phones, and keep their names (their titles); if that is
// not enough, the page's name gives way too, as on a touch tablet. layout.css says how many rows
// each layout has (--bar-rows) and how the signs and icons look (.bar[data-fit~="figures"],
// .bar[data-fit~="icons"]); this measures.

/** The rows the bar's shown items fill (not those hidden, nor those only screen readers read). */
function rowsOf(bar) {
  const items = [...bar.children].filter(
    (item) => item.offsetParent !== null && getComputedStyle(item).position !== "absolute",
  );
  items.sort((a, b) => a.offsetTop - b.offsetTop);
  let rows = 0;
  let bottom = -Infinity;
  for (const item of items) {
    if (item.offsetTop >= bottom) rows += 1;
    bottom = Math.max(bottom, item.offsetTop + item.offsetHeight);
  }
  return rows;
}

/**
 * How the bar gives way, a step at a time: the figures' words (the move count's, the grade's,
 * the fewest free cells') give way to their signs, as on narrower screens; then the buttons'
 * words; then the page's name (which screen readers still read, as on phones and touch tablets).
 */
const STEPS = [
  (bar) => {
    bar.dataset.fit = "figures";
  },
  (bar) => {
    bar.dataset.fit = "figures icons";
  },
  (bar) => bar.querySelector(".brand").classList.add("visually-hidden"),
];

function reset(bar) {
  delete bar.dataset.fit;
  bar.querySelector(".brand").classList.remove("visually-hidden");
}

/**
 * Show the bar whole if it then keeps its rows, else give way a step at a time until it does;
 * if no step does, as few steps as make the fewest rows (a narrow window's bar wraps anyway).
 */
export function fitBar(bar) {
  const rows = Number(getComputedStyle(bar).getPropertyValue("--bar-rows")) || 1;
  reset(bar);
  let fewest = rowsOf(bar);
  let taken = 0;
  for (let count = 1; count <= STEPS.length && fewest > rows; count += 1) {
    STEPS[count - 1](bar);
    const now = rowsOf(bar);
    if (now < fewest) [fewest, taken] = [now, count];
  }
  reset(bar);
  for (const step of STEPS.slice(0, taken)) step(bar);
}

/**
 * Fit the bar whenever its size changes (a window resized) and once it is first laid out: in
 * the next frame, so that the change is not made while the size is being observed. What the
 * bar shows changing (a deal's figures come, the clock passes ten minutes) is fitted at once,
 * before the frame is drawn: else the bar shows a second row for a frame and the table, fitted
 * below it, jumps. The language, which sets the words, fits it at once (language.js).
 */
export function keepBarFitted(bar) {
  let queued = false;
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fitBar(bar);
    });
  }).observe(bar);
  // fitBar's own changes (data-fit, the name's class) are not observed.
  new MutationObserver(() => {
    const rows = Number(getComputedStyle(bar).getPropertyValue("--bar-rows")) || 1;
    if (rowsOf(bar) > rows) fitBar(bar);
  }).observe(bar, {
    subtree: true,
    childList: true,
    characterData: true,
    attributeFilter: ["hidden"],
  });
}
