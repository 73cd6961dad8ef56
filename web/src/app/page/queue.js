// The play queue: the player's actions run one after another, in the order they were asked
// for, so no key press or click is lost or overtaken, even while Python is still starting.

/**
 * A queue: {enqueue, player}. `interrupt()` is called before each of the player's actions
 * (play.js: it stops Solve, which plays by itself).
 */
export function createQueue(interrupt) {
  let queue = Promise.resolve();

  /** Run a task after every task asked for before it; resolves with its result when done. */
  function enqueue(task) {
    const done = queue.then(task);
    queue = done.catch((error) => console.error(error));
    // The error is logged once, above; the caller gets undefined instead of a rejection.
    return done.catch(() => undefined);
  }

  /** An action of the player, from an action: it interrupts first, then runs. */
  const player =
    (action) =>
    (...args) => {
      interrupt();
      return action(...args);
    };

  return { enqueue, player };
}
