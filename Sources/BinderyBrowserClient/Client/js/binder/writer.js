// writer.js — the coalescing writer of one view model's inputs (PATCH with a JSON merge patch).
// One request in flight; edits made meanwhile coalesce into the next request.
//
// Safe retries: each request carries an Idempotency-Key, fresh for each new write. A request that
// gets no answer (the network failed, or 502, 503, 504: api.noAnswer) may or may not have been
// applied, so it is kept as it is (`unanswered`) and sent again with the same key, the same body
// and the same If-Match, with the jittered back-off, until an answer comes (the server answers a
// repeat with its first answer and applies nothing again). What is typed meanwhile is never added
// to it: it waits in `pending` and goes as a new write with a new key once the request is answered.
//
// The writer's other ideas live beside it and are mixed into its prototype: what a refusal means
// (binder/writer-refusals.js), recovery without loss after an outage and the conflicts it finds
// (binder/writer-recovery.js), unsent edits kept across a reload or a screen left
// (binder/writer-keeping.js). While a command waits for the server, what is typed goes in `later`
// and is sent after it (hold()). The save state in the header says "Saving…", "Saved" or
// "Offline — will send" (save-state.js); the binder hears of each change (Binder.writesChanged: a
// command pressed now waits for the write, binder/command-queue.js).

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { track } from '../save-state.js';
import { editId, forgetEdits } from './outbox.js';
import { keeping } from './writer-keeping.js';
import { recovery } from './writer-recovery.js';
import { refusals } from './writer-refusals.js';

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

  send() {
    if (this.inflight || this.binder.stopped || this.binder.forgotten) return this.inflight;
    for (const name of this.conflicts.keys()) this.withdraw(name); // asked about online (binder/online-conflicts.js)
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
    // Values on their way: a snapshot showing one of them is ours, not someone else's (binder/online-conflicts.js).
    for (const e of batch.values()) (e.binding.sending ||= []).push(e.value);
    try {
      const snapshot = await api.patchInputs(this.path, request.body, { ifMatch: request.ifMatch, key: request.key });
      this.unanswered = null;
      this.waiting = false;
      this.backoff.reset();
      this.recovering = false;
      this.saved = true;
      for (const e of batch.values()) e.binding.acknowledged(e.value, e.seq);
      this.unsending(batch); // answered: what the snapshot shows now is judged (binder/online-conflicts.js)
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

  /** The values of `batch` are no longer on their way. */
  unsending(batch) {
    for (const e of batch.values()) {
      const i = e.binding.sending ? e.binding.sending.indexOf(e.value) : -1;
      if (i >= 0) e.binding.sending.splice(i, 1);
    }
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

}

Object.assign(InputWriter.prototype, refusals, recovery, keeping);
