// The page's requests, answered by the worker's one freecell._web.Session: any request goes
// to Session.handle by name, its arguments as JSON, and Python checks both against its one
// table of requests (freecell._web.protocol.REQUESTS), which also says how each is scheduled here:
// a hint, a check, a grade, the search for a deal (daily, random_deal) or for a layout's deals
// (identify) thinks in slices between the other requests.

function call(python, op, args) {
  try {
    return JSON.parse(python.handle(String(op), JSON.stringify(args ?? {})));
  } catch (error) {
    return { ok: false, error: `Python failed: ${String(error?.message ?? error)}` };
  }
}

// A request that waits for a search (Python's table says which) is answered when the search
// ends (a check may need a few, one after another). The searches run in slices (think() with no
// argument: Python's freecell._web.protocol.SLICE_SECONDS), each a task of its own, so that the
// page's other requests are answered between two slices;
// one that changes the game ends the game's search, and the waiting requests get {cancelled}.
// The search for a deal, or for a layout's deals, goes on while the game changes: the requests
// the table says end it (a newer one, a deal opened) answer the waiting ones {cancelled}.
const UNKNOWN = { waits: false, ends: [] }; // a request Python does not know: it says so

/**
 * The requests' answerer on a Session (a promise of it): answer({id, op, args}) posts the
 * reply ({type: "reply", id, reply}) once Python is ready and has answered. `siteText(path)`
 * is a promise of a site file's {text, keep, forget}, for a reply that names a table Python
 * needs ({table}): the request is asked again with the text, then the file is kept if Python
 * read it, else forgotten.
 */
export function createRequests(session, siteText) {
  const waiting = []; // {id, op, args} of the requests waiting for a search
  const slices = new MessageChannel(); // a task at once, without setTimeout's 4 ms clamp
  let thinking = false;

  function think(python) {
    let state;
    try {
      state = python.think(); // one slice
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
    // A search may go on after it answered (Solve's short search, once some of its moves are
    // final, shortens the rest while the page plays them): think on until Python is idle.
    if (state === "done" && !thinking) {
      thinking = true;
      slices.port2.postMessage(null);
    }
  }

  function wait(id, op, args) {
    waiting.push({ id, op, args });
    if (!thinking) {
      thinking = true;
      slices.port2.postMessage(null);
    }
  }

  // Python, and how it schedules each request: {name: {waits, ends}}.
  const ready = session.then((python) => {
    slices.port1.onmessage = () => think(python);
    return { python, schedule: JSON.parse(python.protocol()) };
  });

  /**
   * End the waiting requests of `ops` (the searches for a deal, or for a layout's deals):
   * Python drops its search as the next one starts.
   */
  function endWaiting(ops) {
    for (let index = waiting.length - 1; index >= 0; index -= 1) {
      if (!ops.includes(waiting[index].op)) continue;
      const [{ id }] = waiting.splice(index, 1);
      postMessage({ type: "reply", id, reply: { ok: false, cancelled: true } });
    }
  }

  return async function answer({ id, op, args }) {
    const { python, schedule } = await ready;
    const { waits, ends } = Object.hasOwn(schedule, op) ? schedule[op] : UNKNOWN;
    endWaiting(ends);
    const reply = call(python, op, args);
    if (waits && reply.pending) {
      wait(id, op, args);
      return;
    }
    if (reply.ok && reply.table) {
      const path = reply.table;
      siteText(path).then(
        ({ text, keep, forget }) => {
          const answered = call(python, op, { ...args, table: text });
          if (answered.ok) keep();
          else forget(); // Python found it broken: the next deal fetches it again
          postMessage({ type: "reply", id, reply: answered });
        },
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
