// resume.js — a screen's binder after the server was away: before its stream reopens it reads
// the view again (check), sharing one GET per path (refresh). The versions of a session only grow
// and survive a restart, so a snapshot whose version is lower than the one shown means the server
// no longer knows this session. If the user typed here, the binder stops, keeps what they typed
// and asks what to do (binder/forgotten.js: start again with it, or from scratch); otherwise the
// screen quietly starts over.
//
// Methods of Binder (mixed into its prototype by binder.js).

import * as api from '../api.js';
import { askToStartAgain } from './forgotten.js';
import { same } from './members.js';

/** How often an answer older than what the page has seen is asked again (see refresh). */
const STALE_ASKS = 4;
/** The first pause before asking again; each next one is this much longer (2.5 s in all). */
const STALE_PAUSE_MS = 250;

export const resuming = {
  /**
   * Before the stream reopens: check the view. A 404 (e.g. the session expired and took the child
   * view with it) is final; a network error means try again later.
   */
  async check() {
    if (this.stopped) return 'stop';
    try {
      const snapshot = await this.refresh();
      if (!snapshot) return 'stop'; // the user is asked first; startAgain() opens a new stream
      // A lower version with nothing typed here: the session is new; start over quietly.
      this.receive(snapshot, { origin: 'resync', force: snapshot.version < this.version });
      return 'open';
    } catch (err) {
      // Gone, or no longer for this user (signed out elsewhere: 401; another user: 403).
      if (err instanceof api.ProblemError && [401, 403, 404].includes(err.status)) {
        this.fail(err);
        return 'stop';
      }
      return err instanceof api.ProblemError ? 'open' : 'retry';
    }
  },

  /**
   * The current snapshot of `path` after the server was away, or null when the server forgot the
   * session and the user has to choose how to start again. Concurrent calls share one GET (a
   * caller who knows a newer version than an open GET was sent with asks anew).
   *
   * An answer older than a version this page has seen is not at once taken for a forgotten
   * session: it may have crossed a newer version (a command's answer) or come from a node that has
   * not caught up yet (several nodes behind a proxy). It is asked again, STALE_ASKS times with
   * growing pauses; only an answer still older than what the page knew when it asked means the
   * server started the session over.
   */
  async refresh(path = this.path) {
    for (let attempt = 0; ; attempt += 1) {
      if (this.forgotten) return null;
      const known = path === this.path ? this.version : -1;
      let asked = this.refreshing.get(path);
      if (!asked || asked.known < known) {
        const entry = { known, answer: null };
        entry.answer = api.getSnapshot(path).finally(() => {
          if (this.refreshing.get(path) === entry) this.refreshing.delete(path);
        });
        this.refreshing.set(path, entry);
        asked = entry;
      }
      const snapshot = await asked.answer;
      if (this.forgotten) return null;
      const newest = path === this.path ? Math.max(asked.known, this.version) : -1;
      if (newest < 0 || !(snapshot.version < newest)) return snapshot;
      if (attempt < STALE_ASKS) {
        await new Promise((resolve) => { setTimeout(resolve, STALE_PAUSE_MS * (attempt + 1)); });
        continue;
      }
      if (!(snapshot.version < asked.known)) return snapshot;
      const typed = this.scope.allInputs().some((b) => b.editSeq > 0);
      if (!typed) return snapshot;
      this.forget(snapshot);
      return null;
    }
  },

  /** The server forgot the session: keep the page as the user left it and ask. */
  forget(snapshot) {
    this.forgotten = snapshot;
    this.stream.close();
    for (const w of this.writers.values()) clearTimeout(w.retryTimer);
    askToStartAgain(this.root, {
      keep: () => this.startAgain({ keepTyped: true }),
      fresh: () => this.startAgain({ keepTyped: false }),
    });
    if (this.options.forgotten) this.options.forgotten();
  },

  /**
   * Starts again on the server's fresh view model; with keepTyped, what the user typed on this
   * screen (every control they edited) is written to it, so nothing typed is lost.
   */
  startAgain({ keepTyped }) {
    const snapshot = this.forgotten;
    if (!snapshot || this.stopped) return;
    const inputs = snapshot.inputs || {};
    const typed = keepTyped
      ? this.scope.allInputs().filter((b) => b.editSeq > 0 && b.readValue() !== undefined && !same(b.readValue(), inputs[b.name]))
      : [];
    for (const w of this.writers.values()) w.reset();
    for (const b of this.scope.allInputs()) { b.settle(); b.base = undefined; }
    this.forgotten = null;
    for (const b of typed) b.edited(); // dirty again, so the fresh snapshot won't overwrite them
    this.receive(snapshot, { origin: 'resync', force: true });
    this.stream = this.newStream();
    this.stream.open();
  },
};
