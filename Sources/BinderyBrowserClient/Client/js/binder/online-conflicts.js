// online-conflicts.js — a plain (whole-value) input the user is editing meets another value in a
// snapshot, one this client did not send (someone else's): rather than replace their text or
// overwrite the other one's, both are shown and the user chooses (binder/conflict.js, as after an
// outage). Collaborative inputs (listed in `texts`) merge instead (binder/collab.js).
//
// A method of Binder (mixed into its prototype by binder.js).

import { Conflict } from './conflict.js';
import { findByPath, same } from './members.js';

export const onlineConflicts = {
  /**
   * Online conflicts of plain (whole-value) inputs: the user is editing the focused control (of the
   * focused page; edited it since it got focus, or has an edit unsent) and `snapshot` brings another value for it that
   * is not one this client sent (someone else's). Rather than replace their text or overwrite the
   * other one's, both are shown and the user chooses (binder/conflict.js, as after an outage).
   * Collaborative inputs (listed in `texts`) merge instead (binder/collab.js).
   */
  askAboutChanges(snapshot) {
    // A tab in the background: nobody is editing there now.
    if (!document.hasFocus() || document.visibilityState !== 'visible') return;
    const b = this.bindingOf(document.activeElement);
    if (!b || b.collab) return;
    const edited = b.dirty || b.editSeq > (b.focusSeq ?? b.editSeq);
    if (!edited) return;
    const path = b.scope.path.replace(/^\/+/, '');
    const source = path === this.path ? snapshot : findByPath(snapshot, path);
    if (!source || (source.texts && b.name in source.texts)) return;
    const theirs = source.inputs ? source.inputs[b.name] : undefined;
    const mine = b.readValue();
    if (theirs === undefined || mine === undefined || same(theirs, mine) || b.agreesWith(theirs)) return;
    // Our own write of this field is on its way: its answer decides; a later change comes here again.
    if (b.sending && b.sending.length) return;
    const writer = this.writerFor(path);
    const open = writer.conflicts.get(b.name);
    if (open) { open.update(theirs); return; }
    writer.pending.delete(b.name); // held back until the user chooses
    b.editSeq += 1; // dirty: this snapshot does not replace what they typed
    const entry = { binding: b, value: mine, seq: b.editSeq };
    const settled = () => { b.focusSeq = b.editSeq; };
    writer.conflicts.set(b.name, new Conflict(entry, theirs, {
      keep: () => { writer.keepMine(b.name); settled(); },
      take: () => { writer.takeTheirs(b.name); settled(); },
      online: true,
    }));
  },
};
