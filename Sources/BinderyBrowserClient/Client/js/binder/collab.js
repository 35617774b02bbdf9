// collab.js — the binding of a collaborative text input (one its snapshot lists in `texts`): what
// several users type into it at once is merged by operational transformation (binder/textop.js),
// and each keeps their caret and selection.
//
// binder/text-sync.js merges (its header says how); this file binds it to the control: each
// `input` event (after an IME composition ends) is diffed against the last value shown into an
// operation; snapshots only initialise the control, or set it when nothing is pending and it is
// not focused; otherwise a newer revision is fetched as edits (GET ?after=).
//
// Nothing typed is lost (binder/text-outbox.js): the state is kept in sessionStorage after every
// change; a reload, or a page opened while the server is away, takes it over (the operation in
// flight sent again with its id, the rest rebased on the server's text), and a screen left with
// text unsent keeps sending it and binds again to the control when the screen comes back. A 404
// (the record was deleted) keeps what was typed and says so at the field; each later snapshot of
// the view tries again, so that when the record is restored (Undo, Restore, anyone) what was
// kept is rebased on the restored text and sent. The field and the header say the save state.
// Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) undo and redo this browser's own edits (binder/text-undo.js).

import { track, update } from '../save-state.js';
import { applyKeepingCaret } from './caret.js';
import { showFieldState } from './field-state.js';
import { keepText, keptText, liveText, setLiveText, shownText, unsent } from './text-outbox.js';
import { stats, TextSync } from './text-sync.js';
import { TextUndo } from './text-undo.js';
import * as textop from './textop.js';

export { stats };

const SAID = {
  offline: 'Not sent yet: the server cannot be reached. It is kept here and sent when it can be.',
  unsaved: 'Not saved: this was deleted. What you typed stays here and is sent if it is restored.',
};

export class CollabText extends TextSync {
  /** This page's live CollabText of the binding's view and input (its screen left and shown again), or a new one. */
  static for(binding, path) {
    const existing = liveText(path, binding.name);
    if (existing && existing.closing) { existing.attach(binding); return existing; }
    return new CollabText(binding, path);
  }

  constructor(binding, path) {
    super(path, binding.name);
    this.closing = false;
    this.off = null;
    this.history = new TextUndo(); // this browser's own edits, for Ctrl+Z and Ctrl+Shift+Z
    // Undo and redo take back this user's own edits only (the browser's would lose or undo others').
    this.onKey = (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      const redo = (key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey);
      if (key !== 'z' && !redo) return;
      event.preventDefault();
      this.step(redo ? this.history.redo() : this.history.undo());
    };
    this.onBeforeInput = (event) => { // the Edit menu's Undo and Redo
      if (event.inputType !== 'historyUndo' && event.inputType !== 'historyRedo') return;
      event.preventDefault();
      this.step(event.inputType === 'historyRedo' ? this.history.redo() : this.history.undo());
    };
    this.attach(binding);
    this.untrack = track(this);
    setLiveText(path, this.name, this);
  }

  /** Binds to `binding`'s control (a new one when its screen comes back), showing our text. */
  attach(binding) {
    this.detach();
    this.binding = binding;
    this.binder = binding.binder;
    this.el = binding.el;
    this.el.addEventListener('keydown', this.onKey);
    this.el.addEventListener('beforeinput', this.onBeforeInput);
    this.closing = false;
    this.off = this.binder.onEvent('edits', (data) => this.onEdits(data));
    if (this.revision !== null) {
      this.held = null; // already in `server`
      this.local = textop.apply(textop.apply(this.server, this.inflight ? this.inflight.ops : []), this.buffer);
      if (this.el.value !== this.local) this.el.value = this.local;
      this.said();
    }
  }

  /** For save-state.js: "unsaved" (the record is gone), "offline", "saving", "saved" or "idle". */
  get saveState() {
    if (this.gone && (this.pending || this.local !== this.server)) return 'unsaved';
    if (this.pending || this.needReload) return this.pending && this.waiting ? 'offline' : this.pending ? 'saving' : 'idle';
    return this.saved ? 'saved' : 'idle';
  }

  /** The state changed: kept in sessionStorage, said at the field and in the header. */
  changed() {
    if (this.revision !== null) {
      keepText(this.path, this.name, { revision: this.revision, server: this.server, inflight: this.inflight, buffer: this.buffer });
    }
    this.said();
  }

  said() {
    const state = this.saveState;
    if (!this.closing) showFieldState(this.el, state, SAID[state] || '');
    update();
  }

  /**
   * Takes over what sessionStorage kept of this input (a reload; a page opened while the server is
   * away): the operation in flight is sent again with its id, then the rest after catching up.
   * onlyUnsent: a snapshot is here to show, so only unsent work is worth taking over.
   */
  restoreKept({ onlyUnsent = false } = {}) {
    if (this.revision !== null) return;
    const kept = keptText(this.path, this.name);
    if (!kept || (onlyUnsent && !unsent(kept))) return;
    this.server = kept.server;
    this.revision = kept.revision;
    this.inflight = kept.inflight || null;
    this.buffer = kept.buffer || [];
    this.local = shownText(kept);
    if (this.el.value !== this.local) this.el.value = this.local;
    this.needReload = true;
    if (this.inflight) this.send(); else this.pump();
    this.changed();
  }

  /** A snapshot (or list item) showing the text at revision `source.texts[name]`. */
  render(source) {
    const revision = source.texts[this.name];
    const raw = source.inputs ? source.inputs[this.name] : undefined;
    const text = raw == null ? '' : String(raw);
    if (typeof revision !== 'number') return;
    if (this.revision === null) this.restoreKept({ onlyUnsent: true });
    if (this.revision === null) { this.reset(text, revision); this.changed(); return; }
    if (this.gone) {
      // Shown again: perhaps restored. The whole text is read and what was kept rebased on it;
      // still deleted, the send answers 404 again and the field keeps saying so.
      this.gone = false;
      this.needReload = true;
      this.fullReload = true;
      this.pump();
      return;
    }
    if (revision <= this.revision) return;
    if (!this.pending && !this.needReload && !this.binding.composing && document.activeElement !== this.el) {
      this.reset(text, revision);
      this.changed();
      return;
    }
    stats.snapshotsAhead += 1;
    this.needReload = true; // focused or typing: fetch the edits, so that the caret can follow them
    this.pump();
  }

  reset(text, revision) {
    this.history = new TextUndo();
    this.server = text;
    this.local = text;
    this.revision = revision;
    if (this.el.value !== text) this.el.value = text;
  }

  /** The user changed the control (an `input` event outside an IME composition). */
  edited() {
    if (this.revision === null) return;
    const value = this.el.value;
    let caret = null;
    try { caret = textop.toOffset(value, this.el.selectionEnd); } catch { /* not a text control */ }
    let op = textop.diff(this.local, value, caret);
    this.history.record(op);
    if (this.held) {
      // Others' edits arrived during the composition: both apply to `local`; merge them.
      const [mine, theirs] = textop.transformX(op, this.held);
      this.held = null;
      this.show(theirs);
      op = mine;
    } else {
      this.local = value;
    }
    if (!op.length) return;
    this.buffer = textop.compose(this.buffer, op);
    this.pump();
    this.changed();
  }

  /** Applies others' `op` to the control, moving the caret and selection with the text around them. */
  show(op) {
    this.history.transform(op);
    this.local = applyKeepingCaret(this.el, op);
  }

  /** An undo or redo step: `op` applied as an own edit, the caret after the text it changed. */
  step(op) {
    if (!op || this.revision === null || this.held || this.binding.composing) return;
    let after;
    try { after = textop.apply(this.el.value, op); } catch { return; }
    const last = op[op.length - 1];
    this.el.value = after;
    this.local = after;
    const caret = textop.toIndex(after, last.si !== undefined ? last.p + textop.length(last.si) : last.p);
    try { this.el.setSelectionRange(caret, caret); } catch { /* not a text control */ }
    this.buffer = textop.compose(this.buffer, op);
    this.pump();
    this.changed();
  }

  /** The control leaves the page: what is pending is still sent, then the binding stops. */
  dispose() {
    showFieldState(this.el, null);
    this.closing = true;
    if (!this.pending || this.gone) this.finish();
  }

  /** Lets go of the control it was bound to. */
  detach() {
    if (this.off) this.off();
    this.off = null;
    if (this.el) {
      this.el.removeEventListener('keydown', this.onKey);
      this.el.removeEventListener('beforeinput', this.onBeforeInput);
    }
  }

  /** Stops for good: nothing more to send here (sessionStorage keeps what a 404 left). */
  finish() {
    this.detach();
    this.untrack();
    if (liveText(this.path, this.name) === this) setLiveText(this.path, this.name, null);
  }
}
