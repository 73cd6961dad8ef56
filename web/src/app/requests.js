// The page's requests, answered by the worker's one freecell._web.Session (the protocol is
// written at the top of worker.js): each op calls the Session method of its name, and a hint
// that needs a search thinks in slices between the other requests.

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

// A hint that needs a search is answered when the search ends. The search runs in slices of
// THINK_MS, each a task of its own, so that the page's other requests are answered between two
// slices; one that changes the game ends the search, and the waiting hints get {cancelled}.
const THINK_MS = 5;

/**
 * The requests' answerer on a Session (a promise of it): answer({id, op, args}) posts the
 * reply ({type: "reply", id, reply}) once Python is ready and has answered.
 */
export function createRequests(session) {
  const waiting = []; // ids of hint requests waiting for the search
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
    const answer = state === "done" ? call(python, "hint") : { ok: false, cancelled: true };
    for (const id of waiting.splice(0)) postMessage({ type: "reply", id, reply: answer });
  }

  session.then((python) => {
    slices.port1.onmessage = () => think(python);
  });

  return async function answer({ id, op, args }) {
    const python = await session;
    const reply = call(python, op, args);
    if (op === "hint" && reply.pending) {
      waiting.push(id);
      if (!thinking) {
        thinking = true;
        slices.port2.postMessage(null);
      }
      return;
    }
    postMessage({ type: "reply", id, reply });
  };
}
