// writer.js — the coalescing writer of one view model's inputs (PATCH with a JSON merge patch).
// One request in flight; edits made meanwhile coalesce into the next request. A refusal (4xx)
// that names one of the written fields (a 422's `field`) is said at that field and keeps what the
// user typed there (it is sent again once they edit it); the other fields of the refused request
// are sent again without it. Any other refusal drops the edits and re-reads the server's truth.
//
// Safe retries: each request carries an Idempotency-Key, fresh for each new write. A request that
// gets no answer (the network failed, or 502, 503, 504: api.noAnswer) may or may not have been
// applied, so it is kept as it is (`unanswered`) and sent again with the same key, the same body
// and the same If-Match, with the jittered back-off, until an answer comes (the server answers a
// repeat with its first answer and applies nothing again; a 409 with Retry-After says the first
// still runs: asked again after that delay). What is typed meanwhile is never added to it: it
// waits in `pending` and goes as a new write with a new key once the request is answered.
//
// Recovery without loss: before sending the unanswered request again the writer reads the current
// snapshot. Each unsent edit whose field the server did not change meanwhile (it still holds
// InputBinding's `base`, or a value we sent without hearing back) is ours to send. When someone
// else changed a field the unanswered request writes, it is not sent again (if it never arrived it
// would overwrite their change): its key is given up and its edits are judged with the others. An
// edit whose field someone else changed is a conflict: both values are shown next to the control
// and the user chooses (binder/conflict.js); typing on settles it. Edits sent after a recovery
// carry If-Match on the version read (412: another write came first, read again).
//
// Unsent edits are kept in sessionStorage (binder/outbox.js; a password as its length only), so a
// reload or leaving the screen loses nothing; they come back through restore(). While a command
// waits for the server, what is typed goes in `later` and is sent after it (hold()). The save
// state in the header says "Saving…", "Saved" or "Offline — will send" (save-state.js).

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { same } from './members.js';
import { Conflict } from './conflict.js';
import { showFieldError } from '../field-error.js';
import { editId, forgetEdits, keepEdits, noteRetype, storedEdit } from './outbox.js';
import { track } from '../save-state.js';

const idsOf = (entries) => new Set([...entries.values()].map((e) => e.id));
const bodyOf = (entries) => Object.fromEntries([...entries].map(([name, e]) => [name, e.value]));

export class InputWriter {
  constructor(binder, path) {
    this.binder = binder;
    this.path = path;
    this.pending = new Map();   // name -> {binding, value, seq, id}: not sent yet
    this.later = new Map();     // name -> entry typed while a command waits for the server: sent after it
    this.holds = 0;             // commands waiting for the server (hold())
    this.conflicts = new Map(); // name -> Conflict, held back until the user chooses
    this.held = new Map();      // name -> {binding, value, seq}: refused as not writable now (404/409)
    this.unanswered = null;     // {key, body, ifMatch, batch, check}: sent, no answer: sent again as it is
    this.flying = null;         // the entries of the request on its way
    this.orphans = {};          // kept edits restored without a control here, or a password to type again
    this.inflight = null;
    this.retryTimer = null;
    this.stopWaking = null;
    this.recovering = false;    // read the snapshot before the next write (after an outage, a 412)
    this.waiting = false;       // the server did not answer the last exchange: "Offline — will send"
    this.saved = false;         // the server acknowledged a write: "Saved"
    this.exited = false;        // the screen was left (flushOnExit): sessionStorage keeps the rest
    this.backoff = new Backoff({ jitter: true });
    this.untrack = track(this);
  }

  /** Nothing to send now: no request in flight, none unanswered, no edit pending. */
  get idle() { return !this.inflight && this.pending.size === 0 && !this.unanswered; }

  /** Whether anything the user typed is not on the server yet (pending, in flight, in conflict). */
  get unsent() { return !this.idle || this.later.size > 0 || this.conflicts.size > 0 || this.held.size > 0; }

  /** For save-state.js: "saving", "offline" (waiting for the server), "saved" or "idle". */
  get saveState() {
    if (!this.idle || this.later.size > 0) return this.waiting ? 'offline' : 'saving';
    if (this.conflicts.size > 0 || this.held.size > 0) return 'idle'; // the page asks or says why
    return this.saved ? 'saved' : 'idle';
  }

  queue(binding, value, seq) {
    this.settleConflict(binding.name);
    this.held.delete(binding.name);
    delete this.orphans[binding.name];
    const entry = { binding, value, seq, id: editId() };
    (this.holds > 0 ? this.later : this.pending).set(binding.name, entry);
    this.changed();
    if (!this.retryTimer) this.send();
  }

  /** The unsent edits changed: kept in sessionStorage (binder/outbox.js), the save state told. */
  changed() {
    if (this.exited) return;
    const edits = { ...this.orphans };
    const keep = (entries) => { for (const [name, e] of entries) edits[name] = storedEdit(e); };
    if (this.flying) keep(this.flying);
    if (this.unanswered) keep(this.unanswered.batch);
    keep(this.held);
    keep([...this.conflicts].map(([name, conflict]) => [name, conflict.entry]));
    keep(this.pending);
    const later = {};
    for (const [name, e] of this.later) later[name] = storedEdit(e);
    keepEdits(this.path, edits, later);
  }

  send() {
    if (this.inflight || this.binder.stopped || this.binder.forgotten) return this.inflight;
    for (const name of this.conflicts.keys()) this.withdraw(name); // asked about online (binder.js)
    if (!this.unanswered && this.pending.size === 0) return this.inflight;
    this.stopTimer();
    const unanswered = this.unanswered;
    const task = unanswered && !unanswered.check ? this.attempt(unanswered)
      : unanswered || this.recovering ? this.recover() : this.write();
    this.inflight = task.catch((err) => console.error(err)).finally(() => {
      this.inflight = null;
      this.changed();
      if (!this.retryTimer) this.send();
    });
    this.changed();
    return this.inflight;
  }

  /** A new write of what is pending, with a new key. */
  write({ ifMatch = null } = {}) {
    const batch = this.pending;
    this.pending = new Map();
    return this.attempt({ key: api.idempotencyKey(), body: bodyOf(batch), ifMatch, batch, check: true });
  }

  /**
   * Sends `request` (a new write, or one that got no answer: its key, body and If-Match again);
   * answers the snapshot, or null when it was not acknowledged (failed() says what happens next).
   */
  async attempt(request) {
    const { batch } = request;
    this.flying = batch;
    // Values on their way: a snapshot showing one of them is ours, not someone else's (binder.js).
    for (const e of batch.values()) (e.binding.sending ||= []).push(e.value);
    try {
      const snapshot = await api.patchInputs(this.path, request.body, { ifMatch: request.ifMatch, key: request.key });
      this.unanswered = null;
      this.waiting = false;
      this.backoff.reset();
      this.recovering = false;
      this.saved = true;
      for (const e of batch.values()) e.binding.acknowledged(e.value, e.seq);
      this.unsending(batch); // answered: what the snapshot shows now is judged (binder.js)
      if (this.exited) forgetEdits(this.path, idsOf(batch));
      this.binder.receive(snapshot, { origin: 'write', path: this.path });
      return snapshot;
    } catch (err) {
      this.failed(err, request);
      return null;
    } finally {
      this.unsending(batch);
      this.flying = null;
    }
  }

  failed(err, request) {
    const { batch } = request;
    if (api.noAnswer(err)) {
      // No answer: the server may or may not hold these values. The same request goes again
      // (same key and body), after a look at the snapshot (recover).
      for (const e of batch.values()) if (!e.binding.unconfirmed.some((v) => same(v, e.value))) e.binding.unconfirmed.push(e.value);
      this.unanswered = Object.assign(request, { check: true });
      this.recovering = true;
      this.waiting = true;
      this.retryLater(err);
      return;
    }
    this.waiting = false;
    if (api.stillRunning(err)) {
      // The first request with this key still runs (elsewhere): asked again, as it is, when it says.
      this.unanswered = Object.assign(request, { check: false });
      this.retryLater(err);
      return;
    }
    if (this.unanswered === request) this.unanswered = null;
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
      // Refused (422 wrong type, ...): drop these edits and show the server's truth. Not signed
      // in (any more, 401): the page asks to sign in instead (app.js).
      for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
      if (api.signInRequired(err) && this.binder.options.signIn) this.binder.options.signIn(err);
      else this.binder.notify({ title: 'Input refused', message: api.describeError(err), details: api.problemDetails(err) });
      this.binder.resync();
    } else {
      // The server failed (500): that answer is final for this key. The edits are kept and
      // judged again later, as a new write.
      for (const e of batch.values()) e.binding.unconfirmed.push(e.value);
      this.putBack(batch);
      this.recovering = true;
      this.waiting = true;
      this.retryLater(err);
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

  /**
   * Reads the server's current values, then sends again the unanswered request (unless someone
   * else changed one of its fields) and what is still ours to send (see above).
   */
  async recover() {
    let snapshot;
    try {
      snapshot = await this.binder.refresh(this.path);
    } catch (err) {
      if (err instanceof api.ProblemError && !api.noAnswer(err) && err.status < 500) {
        // The view is gone: what got no answer is written anew (and refused or held).
        if (this.unanswered) { this.putBack(this.unanswered.batch); this.unanswered = null; }
        this.recovering = false;
        this.waiting = false;
        return;
      }
      this.waiting = true;
      this.retryLater(err);
      return;
    }
    this.waiting = false;
    if (!snapshot) return; // the server forgot the session: the binder asks the user (binder.js)
    const inputs = snapshot.inputs || {};
    const theirs = (name, e) => !same(inputs[name], e.value) && !e.binding.agreesWith(inputs[name]);
    const unanswered = this.unanswered;
    const changed = unanswered && [...unanswered.batch].find(([name, e]) => theirs(name, e));
    // Someone else changed a field it writes: not sent again blindly (see withdraw()).
    if (changed) this.withdraw(changed[0], { keep: true });
    for (const [name, e] of [...this.pending]) {
      const value = inputs[name];
      // Its field is written by the request sent again first: this one goes after it, whatever.
      const behind = this.unanswered && this.unanswered.batch.has(name);
      if (same(value, e.value) && !behind) {
        this.pending.delete(name); // it got there before the connection dropped
        e.binding.acknowledged(e.value, e.seq);
      } else if (theirs(name, e)) {
        this.pending.delete(name);
        const open = this.conflicts.get(name);
        if (open) { open.update(value); continue; } // asked already (online, binder.js)
        this.conflicts.set(name, new Conflict(e, value, {
          keep: () => this.keepMine(name),
          take: () => this.takeTheirs(name),
        }));
      }
    }
    this.binder.receive(snapshot, { origin: 'resync', path: this.path });
    let version = snapshot.version;
    if (this.unanswered) {
      const answer = await this.attempt(this.unanswered);
      if (!answer) return;
      // A replayed answer is older than what was read; a fresh one newer: If-Match the later.
      if (typeof answer.version === 'number') version = Math.max(version, answer.version);
    }
    if (this.pending.size === 0) { this.recovering = false; return; }
    await this.write({ ifMatch: version });
  }

  /** The next attempt after the back-off (or the Retry-After asked), sooner when the server is back. */
  retryLater(err = null) {
    this.stopTimer();
    const asked = err && err.retryAfter != null ? err.retryAfter * 1000 : 0;
    this.retryTimer = setTimeout(() => { this.stopTimer(); this.send(); }, Math.max(this.backoff.next(), asked));
    if (asked > 0) return;
    // Another request of this page got an answer: the server is back, no need to wait longer.
    this.stopWaking = api.watchReachability((answered) => {
      if (answered && this.retryTimer) { this.stopTimer(); this.send(); }
    });
  }

  stopTimer() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.stopWaking) { this.stopWaking(); this.stopWaking = null; }
  }

  putBack(batch) {
    for (const [name, e] of batch) if (!this.pending.has(name)) this.pending.set(name, e);
  }

  /**
   * The unanswered request is not sent again once a field it writes met someone else's change
   * (a conflict) or was settled by the user: if it never arrived it would overwrite what they
   * chose. Its key is given up; its other edits (and with `keep`, this one too: to be judged)
   * go back to pending, to be sent as a new write after a look at the snapshot.
   */
  withdraw(name, { keep = false } = {}) {
    const unanswered = this.unanswered;
    if (!unanswered || !unanswered.batch.has(name)) return;
    this.unanswered = null;
    for (const [n, e] of unanswered.batch) {
      if ((n === name && !keep) || this.pending.has(n) || this.conflicts.has(n)) continue;
      this.pending.set(n, e);
      this.recovering = true;
    }
  }

  /**
   * A command waits for the server (binder/outbox.js): what is typed from now on is sent after
   * it. Answers the function that lets it go, given the command's answer (a snapshot) if any:
   * what the command did to a field typed after it is ours, not someone else's change.
   */
  hold() {
    this.holds += 1;
    let released = false;
    return (answer = null) => {
      if (released) return;
      released = true;
      this.holds -= 1;
      const inputs = answer && answer.inputs && String(answer.path || this.path).replace(/^\/+/, '') === this.path ? answer.inputs : null;
      if (inputs) for (const [name, e] of this.later) if (name in inputs) e.binding.base = inputs[name];
      if (this.holds > 0 || this.later.size === 0) return;
      for (const [name, e] of this.later) this.pending.set(name, e);
      this.later.clear();
      this.changed();
      if (!this.retryTimer) this.send();
    };
  }

  /**
   * Puts edits kept in sessionStorage before a reload back in their controls (`bindings`), unsent:
   * they are sent as after an outage (recover). A password's text was not kept: its field says
   * it must be typed again (binder/outbox.js).
   */
  restore({ edits = {}, later = {} }, bindings) {
    const byName = new Map(bindings.map((b) => [b.name, b]));
    let any = false;
    for (const [part, kept] of [['pending', edits], ['later', later]]) {
      for (const [name, stored] of Object.entries(kept)) {
        const binding = byName.get(name);
        if (!binding || stored.secret) {
          this.orphans[name] = stored; // kept as it is (a password: until it is typed again)
          if (binding && stored.secret && !binding.dirty) noteRetype(binding.el, stored.length);
          continue;
        }
        if (binding.dirty) continue; // typed here already: that is newer
        const seq = binding.restore(stored.value, stored);
        const entry = { binding, value: stored.value, seq, id: stored.id || editId() };
        (part === 'later' && this.holds > 0 ? this.later : this.pending).set(name, entry);
        any = true;
      }
    }
    if (any) this.recovering = true;
    this.changed();
    if (any && !this.retryTimer) this.send();
  }

  /** "Keep mine": the user has seen the server's value; theirs becomes the base, ours is sent. */
  keepMine(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss();
    this.withdraw(name);
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
    this.withdraw(name);
    conflict.entry.binding.settle();
    this.binder.repaint();
    this.changed();
    if (this.pending.size && !this.retryTimer) this.send();
  }

  /** A new keystroke in a field in conflict: the user's new text wins, the question goes away. */
  settleConflict(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss({ keepFocus: true });
    this.withdraw(name);
  }

  /** Forgets every unsent edit (the session is starting again). */
  reset() {
    this.stopTimer();
    for (const conflict of this.conflicts.values()) conflict.dismiss({ keepFocus: true });
    this.conflicts.clear();
    this.pending.clear();
    this.later.clear();
    this.held.clear();
    this.unanswered = null;
    this.orphans = {};
    this.recovering = false;
    this.waiting = false;
    this.changed();
  }

  /**
   * Sends what is pending and waits (a few rounds at most) for it to be acknowledged; returns
   * early when the server does not answer (`waiting`: the caller decides whether to wait).
   */
  async flush() {
    for (let round = 0; round < 3 && !this.idle; round += 1) {
      await (this.inflight || this.send());
      if (this.waiting) return;
    }
  }

  /**
   * Last chance when the screen goes: fire-and-forget with keepalive (the unanswered request with
   * its key, the rest as a new write; one request when they share a field, so the newer value
   * lands last). sessionStorage keeps them all until answered: a reload sends them again.
   */
  flushOnExit() {
    this.stopTimer();
    this.exited = true;
    this.untrack();
    // Typed after a command that still waits: kept for when the view shows again, behind it.
    const rest = this.holds > 0 ? new Map(this.pending) : new Map([...this.pending, ...this.later]);
    const unanswered = this.unanswered;
    this.pending.clear();
    this.later.clear();
    this.unanswered = null;
    const go = (entries, key, ifMatch = null) => {
      if (entries.size === 0) return;
      api.patchInputs(this.path, bodyOf(entries), { keepalive: true, key, ifMatch })
        .then(() => forgetEdits(this.path, idsOf(entries)), () => {});
    };
    if (unanswered && [...rest.keys()].some((name) => unanswered.batch.has(name))) {
      go(new Map([...unanswered.batch, ...rest]), api.idempotencyKey());
      return;
    }
    if (unanswered) {
      api.patchInputs(this.path, unanswered.body, { keepalive: true, key: unanswered.key, ifMatch: unanswered.ifMatch })
        .then(() => forgetEdits(this.path, idsOf(unanswered.batch)), () => {});
    }
    go(rest, api.idempotencyKey());
  }
}
