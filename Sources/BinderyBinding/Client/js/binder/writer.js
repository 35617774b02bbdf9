// writer.js — the coalescing writer of one view model's inputs (PATCH with a JSON merge patch).
// One request in flight; edits made meanwhile coalesce into the next request. A refusal (4xx)
// that names one of the written fields (a 422's `field`) is said at that field and keeps what the
// user typed there (it is sent again once they edit it); the other fields of the refused request
// are sent again without it. Any other refusal drops the edits and re-reads the server's truth.
//
// Recovery without loss: when a write gets no answer (the network, a restart: 5xx included), the
// edits are kept and the writer "recovers" before writing again: it reads the current snapshot,
// keeps each unsent edit whose field the server did not change meanwhile (see InputBinding's
// `base`) and sends those with If-Match on that snapshot's version (a 412 means another write came
// first: read again). An edit whose field the server did change is a conflict: both values are
// shown next to the control and the user chooses (binder/conflict.js). Typing on settles it.

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { same } from './members.js';
import { Conflict } from './conflict.js';
import { showFieldError } from '../field-error.js';

export class InputWriter {
  constructor(binder, path) {
    this.binder = binder;
    this.path = path;
    this.pending = new Map();   // name -> {binding, value, seq}
    this.conflicts = new Map(); // name -> Conflict, held back until the user chooses
    this.held = new Map();      // name -> {binding, value, seq}: refused as not writable now (404/409)
    this.inflight = null;
    this.retryTimer = null;
    this.recovering = false;
    this.backoff = new Backoff();
  }

  get idle() { return !this.inflight && this.pending.size === 0; }

  /** Whether anything the user typed is not on the server yet (pending, in flight, in conflict). */
  get unsent() { return !this.idle || this.conflicts.size > 0 || this.held.size > 0; }

  queue(binding, value, seq) {
    this.settleConflict(binding.name);
    this.held.delete(binding.name);
    this.pending.set(binding.name, { binding, value, seq });
    if (!this.retryTimer) this.send();
  }

  send() {
    if (this.inflight || this.pending.size === 0 || this.binder.stopped || this.binder.forgotten) return this.inflight;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.inflight = (this.recovering ? this.recover() : this.write()).finally(() => {
      this.inflight = null;
      if (!this.retryTimer) this.send();
    });
    return this.inflight;
  }

  async write({ ifMatch = null } = {}) {
    const batch = this.pending;
    this.pending = new Map();
    const body = Object.fromEntries([...batch].map(([name, e]) => [name, e.value]));
    // Values on their way: a snapshot showing one of them is ours, not someone else's (binder.js).
    for (const e of batch.values()) (e.binding.sending ||= []).push(e.value);
    try {
      const snapshot = await api.patchInputs(this.path, body, { ifMatch });
      this.backoff.reset();
      this.recovering = false;
      for (const e of batch.values()) e.binding.acknowledged(e.value, e.seq);
      this.unsending(batch); // answered: what the snapshot shows now is judged (binder.js)
      this.binder.receive(snapshot, { origin: 'write', path: this.path });
    } catch (err) {
      if (err instanceof api.ProblemError && err.status === 412) {
        // Another write came first: read again and decide field by field.
        this.putBack(batch);
        this.recovering = true;
      } else if (this.refusedAtField(err, batch)) {
        // Said at the field, the user's text kept; the rest goes again.
      } else if (err instanceof api.ProblemError && (err.status === 404 || err.status === 409)) {
        // Not writable now (the record was deleted, the view is gone): what the user typed stays
        // in the fields, unsent (dirty, so no snapshot replaces it). It goes again when they edit
        // the field or when retryHeld() is called (the record came back).
        for (const [name, e] of batch) this.held.set(name, e);
        this.binder.notify({ title: 'Not saved', message: 'This can’t be saved right now: what you typed stays in the field.', details: api.problemDetails(err) });
      } else if (err instanceof api.ProblemError && err.status < 500) {
        // Refused (422 wrong type, ...): drop these edits and show the server's truth.
        for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
        this.binder.notify({ title: 'Input refused', message: api.describeError(err), details: api.problemDetails(err) });
        this.binder.resync();
      } else {
        // No answer: the server may or may not hold these values. Keep them and recover later.
        for (const e of batch.values()) e.binding.unconfirmed.push(e.value);
        this.putBack(batch);
        this.recovering = true;
        this.retryLater();
      }
    } finally {
      this.unsending(batch);
    }
  }

  /** The values of `batch` are no longer on their way. */
  unsending(batch) {
    for (const e of batch.values()) {
      const i = e.binding.sending ? e.binding.sending.indexOf(e.value) : -1;
      if (i >= 0) e.binding.sending.splice(i, 1);
    }
  }

  /** Sends again what was refused as not writable (binder: after the record was restored). */
  retryHeld() {
    if (this.held.size === 0) return;
    for (const [name, e] of this.held) if (!this.pending.has(name)) this.pending.set(name, e);
    this.held.clear();
    this.send();
  }

  /**
   * A 4xx whose problem names one field of `batch` that has a control with an id: the error goes
   * under that control, whose edit stays unsent (dirty: no snapshot overwrites it) until the user
   * edits it again; the batch's other edits are put back to be sent. Answers whether it was so.
   */
  refusedAtField(err, batch) {
    if (!(err instanceof api.ProblemError) || err.status >= 500 || err.status === 412) return false;
    const name = err.problem && err.problem.field;
    const entry = name && batch.get(name);
    if (!entry || !entry.binding.el.id) return false;
    showFieldError(entry.binding.el, api.describeError(err).replace(/^That value is not accepted: /, 'Not accepted: '));
    batch.delete(name);
    this.putBack(batch);
    if (this.pending.size) this.retryLater();
    return true;
  }

  /** Reads the server's current values, then sends what is still ours to send (see above). */
  async recover() {
    let snapshot;
    try {
      snapshot = await this.binder.refresh(this.path);
    } catch (err) {
      if (err instanceof api.ProblemError && err.status < 500) { this.recovering = false; return; } // the view is gone
      this.retryLater();
      return;
    }
    if (!snapshot) return; // the server forgot the session: the binder asks the user (binder.js)
    const inputs = snapshot.inputs || {};
    for (const [name, e] of [...this.pending]) {
      const theirs = inputs[name];
      if (same(theirs, e.value)) {
        this.pending.delete(name); // it got there before the connection dropped
        e.binding.acknowledged(e.value, e.seq);
      } else if (!e.binding.agreesWith(theirs)) {
        this.pending.delete(name);
        this.conflicts.set(name, new Conflict(e, theirs, {
          keep: () => this.keepMine(name),
          take: () => this.takeTheirs(name),
        }));
      }
    }
    this.binder.receive(snapshot, { origin: 'resync', path: this.path });
    if (this.pending.size === 0) { this.recovering = false; return; }
    await this.write({ ifMatch: snapshot.version });
  }

  retryLater() {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.send(); }, this.backoff.next());
  }

  putBack(batch) {
    for (const [name, e] of batch) if (!this.pending.has(name)) this.pending.set(name, e);
  }

  /** "Keep mine": the user has seen the server's value; theirs becomes the base, ours is sent. */
  keepMine(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss();
    conflict.entry.binding.base = conflict.theirs;
    if (!this.pending.has(name)) this.pending.set(name, conflict.entry);
    this.recovering = true;
    this.send();
  }

  /** "Use the server's": the unsent edit is given up and the control shows the server's value. */
  takeTheirs(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss();
    conflict.entry.binding.settle();
    this.binder.repaint();
  }

  /** A new keystroke in a field in conflict: the user's new text wins, the question goes away. */
  settleConflict(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss({ keepFocus: true });
  }

  /** Forgets every unsent edit (the session is starting again). */
  reset() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const conflict of this.conflicts.values()) conflict.dismiss({ keepFocus: true });
    this.conflicts.clear();
    this.pending.clear();
    this.held.clear();
    this.recovering = false;
  }

  /** Sends what is pending and waits (a few rounds at most) for it to be acknowledged. */
  async flush() {
    for (let round = 0; round < 3 && !this.idle; round += 1) {
      await (this.inflight || this.send());
    }
  }

  /** Last chance when the page goes away: fire-and-forget with keepalive. */
  flushOnExit() {
    clearTimeout(this.retryTimer);
    if (this.pending.size === 0) return;
    const body = Object.fromEntries([...this.pending].map(([name, e]) => [name, e.value]));
    this.pending.clear();
    api.patchInputs(this.path, body, { keepalive: true }).catch(() => {});
  }
}
