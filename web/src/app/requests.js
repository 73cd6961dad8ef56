// The page's requests, answered by the worker's one freecell._web.Session (the protocol is
// written at the top of worker.js): each op calls the Session method of its name, and a hint,
// a check, a grade or the search for a deal (daily, random_deal) thinks in slices between the
// other requests.

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
  play: (session, { source, target, card = "", auto = "safe", longest = false }) =>
    session.play(
      String(source),
      String(target),
      String(card ?? ""),
      String(auto),
      Boolean(longest),
    ),
  play_card: (session, { card, auto = "safe" }) => session.play_card(String(card), String(auto)),
  auto_moves: (session, { auto = "safe" }) => session.auto_moves(String(auto)),
  position_text: (session) => session.position_text(),
  play_move: (session, { move, auto = "off" }) => session.play_move(String(move), String(auto)),
  hint: (session) => session.hint(),
  check: (session) => session.check(),
  grade: (session) => session.grade(),
  min_cells: (session, { table = "" }) => session.min_cells(String(table)),
  daily: (session, { date }) => session.daily(String(date)),
  random_deal: (session, { grade, seed }) => session.random_deal(String(grade), String(seed)),
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

// A request that needs a search is answered when the search ends (a check may need a few, one
// after another). The searches run in slices of THINK_MS, each a task of its own, so that the
// page's other requests are answered between two slices; one that changes the game ends the
// game's search, and the waiting requests get {cancelled}. The search for a deal (FINDING)
// goes on while the game changes: a newer one, or a deal opened (new_game), ends it.
const THINK_MS = 5;
const FINDING = new Set(["daily", "random_deal"]);
const SEARCHING = new Set(["hint", "check", "grade", ...FINDING]);

/**
 * The requests' answerer on a Session (a promise of it): answer({id, op, args}) posts the
 * reply ({type: "reply", id, reply}) once Python is ready and has answered. `siteText(path)`
 * is a promise of a site file's text, for a reply that names a table Python needs ({table}):
 * the request is asked again with it.
 */
export function createRequests(session, siteText) {
  const waiting = []; // {id, op, args} of the requests waiting for a search
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
    for (const { id, op, args } of waiting.splice(0)) {
      const reply = state === "done" ? call(python, op, args) : { ok: false, cancelled: true };
      if (reply.pending) wait(id, op, args); // still searching, or the next search
      else postMessage({ type: "reply", id, reply });
    }
  }

  function wait(id, op, args) {
    waiting.push({ id, op, args });
    if (!thinking) {
      thinking = true;
      slices.port2.postMessage(null);
    }
  }

  session.then((python) => {
    slices.port1.onmessage = () => think(python);
  });

  /** End the waiting searches for a deal: Python drops its search as the next one starts. */
  function endFinding() {
    for (let index = waiting.length - 1; index >= 0; index -= 1) {
      if (!FINDING.has(waiting[index].op)) continue;
      const [{ id }] = waiting.splice(index, 1);
      postMessage({ type: "reply", id, reply: { ok: false, cancelled: true } });
    }
  }

  return async function answer({ id, op, args }) {
    const python = await session;
    if (FINDING.has(op) || op === "new_game") endFinding();
    const reply = call(python, op, args);
    if (SEARCHING.has(op) && reply.pending) {
      wait(id, op, args);
      return;
    }
    if (reply.ok && reply.table) {
      const path = reply.table;
      siteText(path).then(
        (table) => postMessage({ type: "reply", id, reply: call(python, op, { ...args, table }) }),
        (error) => {
          const failure = `${path}: ${String(error?.message ?? error)}`;
          postMessage({ type: "reply", id, reply: { ok: false, error: failure } });
        },
      );
      return;
    }
    postMessage({ type: "reply", id, reply });
  };
}
