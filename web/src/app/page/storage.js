// The browser's storage, as the page uses it: localStorage (`local`, kept between visits) and
// sessionStorage (`session`, this tab's). Storage may be off (a browser setting, a sandbox),
// full, or hold a value that is not ours; then a read gives the default and a write keeps
// nothing, so what would have been stored lasts only as long as the page.

/** One storage area, by its name on the window; every call tolerates the area being off. */
function area(name) {
  return {
    /** The text stored under `key`, or null (nothing stored, or storage off). */
    read(key) {
      try {
        return globalThis[name].getItem(key);
      } catch {
        return null; // storage off: as if nothing were stored
      }
    },

    /** The value stored under `key` as JSON; `fallback` if none, storage off or not JSON. */
    readJson(key, fallback) {
      const text = this.read(key);
      if (text === null) return fallback;
      try {
        return JSON.parse(text);
      } catch {
        return fallback; // not JSON, so not ours
      }
    },

    /** Store text under `key`; false if storage is off or full (nothing is stored then). */
    write(key, text) {
      try {
        globalThis[name].setItem(key, text);
        return true;
      } catch {
        return false;
      }
    },

    /** Store a value as JSON under `key`; false if storage is off or full. */
    writeJson(key, value) {
      return this.write(key, JSON.stringify(value));
    },
  };
}

export const local = area("localStorage");
export const session = area("sessionStorage");
