// text-sync.js — the operational-transformation client of one collaborative text (ot.js's
// states): synchronized, awaiting confirm (one operation in flight), awaiting with buffer (later
// typing composed into `buffer`). An operation is POSTed to /inputs/{name}/ops with a fresh id
// and the revision it was made on. Others' edits come with the POST's answer (`concurrent`) and
// on the event stream (`edits` events, which also carry our own, recognised by id: the
// acknowledgement, whichever of the two arrives first); each is transformed against what is in
// flight and buffered, and shown.
//
// Invariant: the control shows `server` (the text at `revision`) + inflight + buffer (+ `held`:
// others' edits waiting for an IME composition to end). A gap, a 409 or `edits: null` reloads
// the text and rebases what is pending on it. A network failure resends the same request (same
// id: the server applies it once). A 404 (the record is gone) keeps what is pending, unsent.
//
// binder/collab.js binds it to a control: it provides `el`, `binding` (composing), `binder`
// (notify), `closing`, show(op) (apply to the control), changed() (the state changed) and finish().

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { showFieldError } from '../field-error.js';
import * as textop from './textop.js';

const CLIENT = (globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);
let counter = 0;
/** What the collaborative inputs of this page did (read by the tests and the curious). */
export const stats = {
  sent: 0, acknowledged: 0, remote: 0, rebased: 0, retries: 0, diverged: 0,
  reloads: 0, tooOld: 0, gaps: 0, snapshotsAhead: 0, // why: a 409, an `edits` event not from our revision, a newer snapshot
};
function newId() { counter += 1; return `${CLIENT}-${counter}`; }

export class TextSync {
  constructor(path, name) {
    this.name = name;
    this.path = path;
    this.revision = null; // the server revision this control is based on
    this.server = '';     // the text at `revision`
    this.local = '';      // what the control shows (outside an IME composition)
    this.inflight = null; // {id, base, sent (the ops as sent), ops (transformed since)}
    this.buffer = [];     // typed after what is in flight, not sent yet
    this.held = null;     // others' edits on `local`, waiting for a composition to end
    this.needReload = false; // catch up with the server (GET ?after=, or the whole text with fullReload)
    this.fullReload = false;
    this.busy = false;    // a request is in flight or waiting to be retried
    this.gone = false;    // the record was deleted: what is typed is kept, sent if it comes back
    this.waiting = false; // the last request got no answer: "Offline — will send"
    this.saved = false;   // an operation of ours was acknowledged
    this.backoff = new Backoff();
  }

  get url() { return `${api.viewURL(this.path)}/inputs/${encodeURIComponent(this.name)}`; }

  get pending() { return Boolean(this.inflight) || this.buffer.length > 0 || Boolean(this.held); }

  /** Sends the buffer, or catches up with the server, when nothing is in flight. */
  pump() {
    if (this.gone || this.busy || this.inflight || this.revision === null) return;
    if (this.needReload) {
      if (!this.binding.composing) this.reload();
      return;
    }
    if (!this.buffer.length) {
      if (this.closing) this.finish();
      return;
    }
    this.inflight = { id: newId(), base: this.revision, sent: this.buffer, ops: this.buffer };
    this.buffer = [];
    stats.sent += 1;
    this.send();
  }

  async send() {
    const inflight = this.inflight;
    this.busy = true;
    let answer = null;
    let error = null;
    try {
      answer = (await api.request('POST', `${this.url}/ops`, { body: { id: inflight.id, base: inflight.base, ops: inflight.sent } })).data;
    } catch (err) {
      error = err;
    }
    this.busy = false;
    this.waiting = !answer && api.noAnswer(error);
    if (this.inflight !== inflight) { this.pump(); this.changed(); return; } // acknowledged by an `edits` event first
    if (answer) {
      this.backoff.reset();
      this.answered(answer);
    } else if (error instanceof api.ProblemError && error.status === 409) {
      // The base is older than the server's log: reload the text and rebase what we typed on it.
      stats.tooOld += 1;
      this.buffer = textop.compose(inflight.ops, this.buffer);
      this.inflight = null;
      this.needReload = true;
    } else if (error instanceof api.ProblemError && error.status === 404) {
      // The record is gone: what the user typed stays on the screen and in sessionStorage.
      this.buffer = textop.compose(inflight.ops, this.buffer);
      this.inflight = null;
      this.gone = true;
      this.changed();
      if (this.closing) this.finish();
      return;
    } else if (error instanceof api.ProblemError && error.status < 500 && error.status !== 429) {
      // Refused (too long, or not applicable): the server's text is shown again.
      if (this.el.id) showFieldError(this.el, api.describeError(error).replace(/^That value is not accepted: /, 'Not accepted: '));
      else this.binder.notify({ title: 'Input refused', message: api.describeError(error), details: api.problemDetails(error) });
      this.inflight = null;
      this.buffer = [];
      this.local = this.server; // rebase nothing of ours on the reloaded text
      this.needReload = true;
      this.fullReload = true;
    } else {
      // No answer: send the very same request again (the server applies one id once).
      this.busy = true;
      stats.retries += 1;
      setTimeout(() => { this.busy = false; if (this.inflight === inflight) this.send(); else this.pump(); }, this.backoff.next());
      this.changed();
      return;
    }
    this.pump();
    this.changed();
  }

  /** The POST's answer: others' edits between our base and our edit, then ours. */
  answered(answer) {
    try {
      for (const e of answer.concurrent || []) {
        if (e.revision <= this.revision || e.id === this.inflight.id) continue;
        this.remote(e.ops);
        this.revision = e.revision;
      }
      const mine = JSON.stringify(textop.normalize(this.inflight.ops));
      this.acknowledged(answer.revision);
      if (mine !== JSON.stringify(textop.normalize(answer.ops))) throw new Error(`applied as ${JSON.stringify(answer.ops)}, expected ${mine}`);
    } catch (err) {
      this.diverged(err);
    }
  }

  acknowledged(revision) {
    stats.acknowledged += 1;
    this.saved = true;
    this.server = textop.apply(this.server, this.inflight.ops);
    this.revision = Math.max(this.revision, revision);
    this.inflight = null;
  }

  /** An `edits` event: {texts: [{path, input, from, revision, edits}]}. */
  onEdits(data) {
    for (const t of (data && data.texts) || []) {
      if (t.path !== this.path || t.input !== this.name || this.revision === null || this.gone) continue;
      try {
        if (!this.integrate(t.from, t.revision, t.edits)) { stats.gaps += 1; this.needReload = true; }
      } catch (err) {
        this.diverged(err);
      }
    }
    this.pump();
    this.changed();
  }

  /** Applies the edits from revision `from` to `revision`; false when they don't reach ours. */
  integrate(from, revision, edits) {
    if (revision <= this.revision) return true;
    if (!Array.isArray(edits) || from > this.revision) return false;
    for (const e of edits) {
      if (e.revision <= this.revision) continue;
      if (this.inflight && e.id === this.inflight.id) {
        this.acknowledged(e.revision);
      } else {
        this.remote(e.ops);
        this.revision = e.revision;
      }
    }
    this.revision = revision;
    return true;
  }

  /** Another user's edit, applied on the server after `revision`. */
  remote(ops) {
    this.server = textop.apply(this.server, ops);
    let theirs = ops;
    stats.remote += 1;
    if (this.inflight || this.buffer.length) stats.rebased += 1;
    if (this.inflight) [this.inflight.ops, theirs] = textop.transformX(this.inflight.ops, theirs);
    if (this.buffer.length) [this.buffer, theirs] = textop.transformX(this.buffer, theirs);
    if (this.binding.composing || this.held) this.held = textop.compose(this.held, theirs);
    else this.show(theirs);
  }

  /** Our model and the server's disagree (a bug, or an edit we can't apply): reload the text. */
  diverged(err) {
    console.warn(`collaborative input ${this.path}#${this.name}: ${err && err.message}; reloading it`);
    stats.diverged += 1;
    this.needReload = true;
    this.fullReload = true;
    if (this.inflight) {
      // Whatever becomes of it, the reload diffs our text against the server's: forget the op.
      this.inflight = null;
    }
    this.buffer = [];
  }

  /** Catches up with the server: its edits since `revision`, else its whole text to rebase on. */
  async reload() {
    this.busy = true;
    stats.reloads += 1;
    let data = null;
    let error = null;
    try {
      const query = this.fullReload ? '' : `?after=${this.revision}`;
      data = (await api.request('GET', `${this.url}${query}`)).data;
    } catch (err) {
      error = err;
    }
    this.busy = false;
    this.waiting = Boolean(error) && api.noAnswer(error);
    if (error) {
      if (error instanceof api.ProblemError && error.status === 404) {
        this.gone = true; // kept in sessionStorage: sent if a screen shows the record again
        this.changed();
        if (this.closing) this.finish();
        return;
      }
      this.busy = true;
      setTimeout(() => { this.busy = false; this.pump(); }, this.backoff.next());
      this.said();
      return;
    }
    if (this.binding.composing) { this.pump(); return; } // again once the composition ends
    this.backoff.reset();
    try {
      if (this.fullReload || !this.integrate(data.from, data.revision, data.edits)) this.rebase(data.text, data.revision);
      this.needReload = false;
      this.fullReload = false;
    } catch (err) {
      if (this.fullReload) { // can't rebase even on the whole text: show the server's
        console.warn(`collaborative input ${this.path}#${this.name}: ${err && err.message}`);
        this.buffer = [];
        this.reset(data.text, data.revision);
        this.needReload = false;
        this.fullReload = false;
      } else {
        this.diverged(err);
      }
    }
    this.pump();
    this.changed();
  }

  /** Takes the server's `text` at `revision`; what we typed (not yet sent) is rebased on it. */
  rebase(text, revision) {
    if (revision < this.revision && !this.fullReload) return; // a restored record may start again
    const mine = this.fullReload ? textop.diff(this.server, this.local) : this.buffer;
    const theirs = textop.diff(this.server, text);
    const [m, t] = textop.transformX(mine, theirs);
    this.server = text;
    this.revision = revision;
    this.buffer = m;
    this.show(t);
    if (this.el.value !== textop.apply(text, m)) throw new Error('rebase diverged');
  }
}
