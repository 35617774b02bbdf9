// writer-refusals.js — what the input writer (binder/writer.js) does when a write is not
// acknowledged. No answer (the network failed, or 502, 503, 504): the same request is kept
// (`unanswered`) and sent again with its key after a look at the snapshot (binder/writer-recovery.js).
// 409 with Retry-After: the first request with this key still runs; asked again, as it is. 412:
// another write came first; read again and decide field by field. A 422 naming a field with a
// control is said at that field and keeps the user's text there; the rest goes again. 404 or 409:
// not writable now (the record was deleted): the text stays, unsent, until edited or retryHeld().
// Any other 4xx drops the edits and shows the server's truth; a 500 keeps them for a new write.
//
// Methods of InputWriter (mixed into its prototype by writer.js).

import * as api from '../api.js';
import { showFieldError } from '../field-error.js';
import { same } from './members.js';

export const refusals = {
  /**
   * A write was not acknowledged (`err`): sent again as it is, put back, held, said at its
   * field or dropped, as the header says.
   */
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
  },

  /** Sends again what was refused as not writable (binder: after the record was restored). */
  retryHeld() {
    if (this.held.size === 0) return;
    for (const [name, e] of this.held) if (!this.pending.has(name)) this.pending.set(name, e);
    this.held.clear();
    this.send();
  },

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
  },
};
