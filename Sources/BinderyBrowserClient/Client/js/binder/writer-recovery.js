// writer-recovery.js — the input writer (binder/writer.js) after an outage, without loss.
// Before sending the unanswered request again the writer reads the current snapshot. Each unsent
// edit whose field the server did not change meanwhile (it still holds InputBinding's `base`, or a
// value we sent without hearing back) is ours to send. When someone else changed a field the
// unanswered request writes, it is not sent again (if it never arrived it would overwrite their
// change): its key is given up and its edits are judged with the others. An edit whose field
// someone else changed is a conflict: both values are shown next to the control and the user
// chooses (binder/conflict.js); typing on settles it. Edits sent after a recovery carry If-Match on
// the version read (412: another write came first, read again).
//
// Methods of InputWriter (mixed into its prototype by writer.js).

import * as api from '../api.js';
import { Conflict } from './conflict.js';
import { same } from './members.js';

export const recovery = {
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
    if (!snapshot) return; // the server forgot the session: the binder asks the user (binder/resume.js)
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
        if (open) { open.update(value); continue; } // asked already (online, binder/online-conflicts.js)
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
  },

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
  },

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
  },

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
  },

  /** A new keystroke in a field in conflict: the user's new text wins, the question goes away. */
  settleConflict(name) {
    const conflict = this.conflicts.get(name);
    if (!conflict) return;
    this.conflicts.delete(name);
    conflict.dismiss({ keepFocus: true });
    this.withdraw(name);
  },
};
