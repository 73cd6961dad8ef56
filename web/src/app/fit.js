// The bar keeps the rows its layout has (one on a desktop): where the buttons' words do not fit
// (Russian's, Spanish's and Italian's are longer than English's, a window may be narrow), the
// buttons show their icons alone, as on phones, and keep their names (their titles). layout.css
// says how many rows each layout has (--bar-rows) and how the icons look
// (.bar[data-fit="icons"]); this measures.

/** The rows the bar's shown items fill. */
function rowsOf(bar) {
  const items = [...bar.children].filter((item) => item.offsetParent !== null);
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
 * Show the buttons' words if the bar then keeps its rows, else their icons alone if that
 * keeps them (if not, the words: the bar wraps either way, a narrow window's two rows).
 */
export function fitBar(bar) {
  const rows = Number(getComputedStyle(bar).getPropertyValue("--bar-rows")) || 1;
  delete bar.dataset.fit;
  if (rowsOf(bar) <= rows) return;
  bar.dataset.fit = "icons";
  if (rowsOf(bar) > rows) delete bar.dataset.fit;
}

/**
 * Fit the bar now, and again whenever its size changes (a window resized, a deal's figures
 * shown): in the next frame, so that the change is not made while the size is being observed.
 */
export function keepBarFitted(bar) {
  fitBar(bar);
  let queued = false;
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fitBar(bar);
    });
  }).observe(bar);
}
