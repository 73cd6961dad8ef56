// The page's requests, answered by the worker's one freecell._web.Session (the protocol is
// written at the top of worker.js): each op calls the Session method of its name, and a hint
// or a check that needs a search thinks in slices between the other requests.

// Each operation calls the Session method of its name, with its arguments as Python's types.
const operations = {
  new_game: (session, { text, moves = "", step = 0, faces = true, history = "" }) =>
    session.new_game(
      String(text),
      String(moves),
      Number(step) || 0,
      Boolean(faces),
      String(history),
    ),
  play: (session, { source, target, card = "", auto = true, longest = false }) =>
    session.play(
      String(source),
      String(target),
      String(card ?? ""),
      Boolean(auto),
      Boolean(longest),
    ),
  play_card: (session, { card, auto = true }) => session.play_card(String(card), Boolean(auto)),
  auto_moves: (session) => session.auto_moves(),
  position_text: (session) => session.position_text(),
  play_move: (session, { move }) => session.play_move(String(move)),
  hint: (session) => session.hint(),
  check: (session) => session.check(),
  grade: (session) => session.grade(),
  undo_to_winnable: (session) => session.undo_to_winnable(),
  undo: (session) => session.undo(),
  redo: (session) => session.redo(),
  restart: (session) => session.restart(),
  seek: (session, { moves }) => session.seek(Math.trunc(Number(moves)) || 0),
  targets: (session, { source }) => session.targets(String(source)),
};

function call(python, op, args) {
  const operation = Object.hasOwn(operations, op) ? operations[op] : null;
  try {
    return operation
      ? JSON.parse(operation(python, args ?? {}))
      : { ok: false, error: `unknown request ${String(op)}` };
  } catch (error) {
    return { ok: false, error: `Python failed: ${String(error?.message ?? error)}` };
  }
}

// A hint or a check that needs a search is answered when the search ends (a check may need a
// few, one after another). The search runs in slices of THINK_MS, each a task of its own, so
// that the page's other requests are answered between two slices; one that changes the game
// ends the search, and the waiting requests get {cancelled}.
const THINK_MS = 5;
const SEARCHING = new Set(["hint", "check", "grade"]);

/**
 * The requests' answerer on a Session (a promise of it): answer({id, op, args}) posts the
 * reply ({type: "reply", id, reply}) once Python is ready and has answered.
 */
export function createRequests(session) {
  const waiting = []; // {id, op} of the requests waiting for the search
  const slices = new MessageChannel(); // a task at once, without setTimeout's 4 ms clamp
  let thinking = false;

  function think(python) {
    let state;
    try {
      state = python.think(THINK_MS / 1000);
    } catch {
      state = "idle"; // a search that fails is over: the waiting hints get {cancelled}
    }
    if (state === "thinking") {
      slices.port2.postMessage(null);
      return;
    }
    thinking = false;
    for (const { id, op } of waiting.splice(0)) {
      const reply = state === "done" ? call(python, op) : { ok: false, cancelled: true };
      if (reply.pending) wait(id, op); // the next search, started by the call
      else postMessage({ type: "reply", id, reply });
    }
  }

  function wait(id, op) {
    waiting.push({ id, op });
    if (!thinking) {
      thinking = true;
      slices.port2.postMessage(null);
    }
  }

  session.then((python) => {
    slices.port1.onmessage = () => think(python);
  });

  return async function answer({ id, op, args }) {
    const python = await session;
    const reply = call(python, op, args);
    if (SEARCHING.has(op) && reply.pending) {
      wait(id, op);
      return;
    }
    postMessage({ type: "reply", id, reply });
  };
}
