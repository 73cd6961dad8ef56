// The page's state: one plain object, no DOM. Each field has one module that writes it
// (moves.js the game, deals.js the deal shown...: docs/architecture.md, "The state's owners");
// the others read it, and the views draw from it, never from the DOM.
import rules from "./rules.js";

export const MOVE = new RegExp(`^(?:${rules.move})$`);

/** A new state: nothing shown yet. */
export function createState() {
  return {
    deal: null, // the number of the deal on the board, null before the first one
    asked: "", // the text of the deal last asked for (typed, a link's), then the deal shown
    // the deals Prev and Next open, from Python; null at an end of the deals (or none shown)
    neighbours: { previous: null, next: null },
    game: null, // the game as Python last reported it (freecell.Game.snapshot)
    faces: null, // card code -> face, from Python once: {rank, suit, red, rank_index, suit_index}
    selection: null, // {place, card}: the picked-up card(s), waiting for a target
    targets: [], // the places the selection can go to
    hint: null, // {card, target}: the next move of a solution, marked on the table
    // "yes", "no" or "unknown" once the guard, a hint or Solve has answered, else null
    solvable: null,
    checking: false, // whether the guard is checking the game on the table
    // while the guard finds the game lost: {move: the move that lost it ({move_count, made})
    // or null, deal: whether the deal itself cannot be won}
    lost: null,
    liveCheck: true, // the guard: whether the game is checked after every change
    solving: false, // whether Solve is playing the rest of the game
    searching: false, // whether Solve waits for Python's short search (#searching shows it)
    // the deal's par (par.js): the player moves of its shortest known solution, null while
    // none is known (a deal that cannot be won has none); parPending while Python searches it
    par: null,
    parPending: false,
    showPar: true, // whether the bar shows par (input#show-par)
    // the par a win of the player's was measured against: {game, par, moves}, else null
    winPar: null,
    difficulty: null, // the deal's grade, 1 to 5, once Python has graded it (null if unsolved)
    // the fewest free cells the deal can be won with: 0-4, "impossible" or "unknown" from the
    // site's table (freecell._min_cells), null for a deal it does not hold or until it is read
    minCells: null,
    // the deal's figures still on their way (a deal just opened): the bar keeps their room
    pending: { grade: false, minCells: false },
    daily: null, // the date (YYYY-MM-DD) while that date's daily deal is on the table
    grade: null, // the grade Random opens, null for any
    seeking: null, // the move count the history slider asks for while Python is on its way
    language: "en",
    languageChosen: false, // chosen by a link, the menu or a stored choice: links keep it
    auto: "safe", // which cards go home by themselves: "off", "safe" or "all" (rules.auto_play)
    tapToMove: false, // one tap on a card plays it to its best place
    // the game's clock (timer.js, its one writer): {deal, ms, since, started, done, solved,
    // whole}, `since` the performance.now() it runs from (null while it does not run)
    clock: null,
    showTimer: true, // whether the bar shows the clock (input#show-timer)
    boot: "loading", // "loading", then "ready" (Python answers, the first board is out), or "error"
  };
}

/** The cards at a place of a game: a cascade's cards, a free cell's card, or none. */
export function cardsAt(game, place) {
  const cascade = rules.cascades.indexOf(place);
  if (place.length === 1 && cascade >= 0) return game.cascades[cascade];
  const cell = rules.freecells.indexOf(place);
  if (place.length === 1 && cell >= 0) return game.freecells[cell] ? [game.freecells[cell]] : [];
  return [];
}

/** The card that can leave a place (a cascade's bottom card, a free cell's card), or null. */
export function cardAt(game, place) {
  return cardsAt(game, place).at(-1) ?? null;
}

export function isCascade(place) {
  return place.length === 1 && rules.cascades.includes(place);
}

export function isFreecell(place) {
  return place.length === 1 && rules.freecells.includes(place);
}
