// writer-keeping.js — the input writer's (binder/writer.js) unsent edits outlive the page: kept in
// sessionStorage (binder/outbox.js; a password as its length only) at each change, put back in
// their controls after a reload (restore: sent as after an outage), and sent with keepalive when
// the screen goes (flushOnExit).
//
// Methods of InputWriter (mixed into its prototype by writer.js).

import * as api from '../api.js';
import { editId, forgetEdits, keepEdits, noteRetype, storedEdit } from './outbox.js';

const idsOf = (entries) => new Set([...entries.values()].map((e) => e.id));
const bodyOf = (entries) => Object.fromEntries([...entries].map(([name, e]) => [name, e.value]));

export const keeping = {
  /**
   * The unsent edits changed: kept in sessionStorage (binder/outbox.js), the save state told, and
   * the binder (a command pressed while a write is on its way waits for it).
   */
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
    this.binder.writesChanged(this);
  },

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
  },

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
  },
};
