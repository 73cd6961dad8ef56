// A promise settled from outside, by whoever learns the answer later (a message, say).

/** {promise, resolve, reject}: a new promise and the two functions that settle it. */
export function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}
