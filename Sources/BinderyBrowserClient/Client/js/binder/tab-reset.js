// tab-reset.js — a tab waiting for the leading tab to have reset the shared stream for a new
// session (tab-leader.js). The leader says `reset {change}` once its stream is the new session's;
// a tab that heard of the change first waits for that (at most a while: no tab may lead just
// now), and one that heard the leader first need not wait at all.

export class ResetWait {
  constructor() {
    this.seen = new Set(); // the changes the leader has reset the stream for
    this.current = null;   // {done, timer} while waiting
  }

  get waiting() { return this.current !== null; }

  /** The leader reset the stream for `change`. */
  saw(change) { this.seen.add(change); }

  /** Whether it did already. */
  has(change) { return this.seen.has(change); }

  /** Waits until end(), or `ms` at most (then `late()` is called) -> promise settled by end(). */
  begin(ms, late) {
    this.end();
    return new Promise((done) => { this.current = { done, timer: setTimeout(late, ms) }; });
  }

  /** The wait is over; answers whether there was one. */
  end() {
    const current = this.current;
    if (!current) return false;
    this.current = null;
    clearTimeout(current.timer);
    current.done();
    return true;
  }
}
