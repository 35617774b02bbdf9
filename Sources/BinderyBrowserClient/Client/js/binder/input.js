// input.js — two-way binding of one data-input control: reads the user's edits (waiting for the
// end of an IME composition), hands them to the view model's writer, and shows the input's value
// from snapshots without eating keystrokes or moving the caret.
//
// A local edit bumps editSeq; a successful PATCH containing it sets ackSeq. While editSeq > ackSeq
// the control is "dirty": snapshots never overwrite it (so an event for an older version can't eat
// keystrokes or move the caret).
//
// `base` is the last value the control and the server agreed on (shown from a snapshot while
// clean, or acknowledged by a write). After the server was away, an unsent edit whose field the
// server still holds at `base` (or at a value we sent without hearing back) is ours to send; any
// other value there means someone changed the same field meanwhile: a conflict for the user.
//
// Unsent edits outlive a reload: binder/outbox.js keeps them (a password as its length only) and
// `restore` puts them back in the control, dirty, to be sent when the server answers.
//
// An input its source lists in `texts` is collaborative: binder/collab.js takes over its edits and
// its rendering (operations merged with other users' typing, instead of whole-value PATCHes).

import { CollabText } from './collab.js';
import { lookup, same } from './members.js';

export class InputBinding {
  constructor(binder, el, scope) {
    this.binder = binder;
    this.el = el;
    this.scope = scope;
    this.name = el.dataset.input;
    this.type = el.dataset.inputType || null; // inferred on first render when absent
    this.editSeq = 0;
    this.ackSeq = 0;
    this.base = undefined;
    this.unconfirmed = []; // values sent whose answer never came: the server may hold them
    this.composing = false;
    this.collab = null; // a CollabText once a snapshot lists this input in `texts`
    const isText = el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['checkbox', 'radio'].includes(el.type));
    this.onEdit = () => { if (!this.composing) this.edited(); };
    this.onCompStart = () => { this.composing = true; };
    this.onCompEnd = () => { this.composing = false; this.edited(); };
    this.event = isText ? 'input' : 'change';
    el.addEventListener(this.event, this.onEdit);
    el.addEventListener('compositionstart', this.onCompStart);
    el.addEventListener('compositionend', this.onCompEnd);
  }

  get dirty() { return this.editSeq > this.ackSeq; }

  /** A write of `value` was acknowledged: the server holds it. */
  acknowledged(value, seq) {
    this.ackSeq = Math.max(this.ackSeq, seq);
    this.base = value;
    this.unconfirmed = [];
  }

  /**
   * Whether the server's `value` for this input is one we know of (not someone else's edit). A
   * password the server shows empty is one it forgot (it never keeps one: a restart empties it),
   * not someone's edit: what was typed here is sent again.
   */
  agreesWith(value) {
    if (value === '' && this.el.type === 'password') return true;
    return same(value, this.base) || this.unconfirmed.some((v) => same(v, value));
  }

  /**
   * Shows an edit kept in sessionStorage from before a reload (binder/outbox.js), with what was
   * known of the server's value then: the control is dirty, as if it had just been typed. Answers
   * the edit's sequence number.
   */
  restore(value, { base, unconfirmed = [] } = {}) {
    const el = this.el;
    if (!this.type && value != null) {
      this.type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'boolean' ? 'boolean' : 'string';
    }
    if (el.type === 'checkbox') el.checked = Boolean(value); else el.value = value == null ? '' : String(value);
    this.base = base;
    this.unconfirmed = [...unconfirmed];
    this.editSeq += 1;
    return this.editSeq;
  }

  /**
   * A collaborative text kept in sessionStorage (binder/text-outbox.js) is shown at once, before
   * the first snapshot (the server may be away): its CollabText takes over what was kept.
   */
  restoreText() {
    if (!this.collab) {
      this.collab = CollabText.for(this, this.scope.path);
      this.type = 'string';
    }
    this.collab.restoreKept();
  }

  /** Makes the control show the server's value again (its unsent edit is given up). */
  settle() {
    this.ackSeq = this.editSeq;
    this.unconfirmed = [];
  }

  readValue() {
    const el = this.el;
    if (this.type === 'boolean' || el.type === 'checkbox') return el.checked;
    if (this.type === 'integer') { const n = Number.parseInt(el.value, 10); return Number.isNaN(n) ? undefined : n; }
    if (this.type === 'number') { const n = Number(el.value); return el.value === '' || Number.isNaN(n) ? undefined : n; }
    return el.value;
  }

  edited() {
    const value = this.readValue();
    this.editSeq += 1;
    if (this.collab) { this.collab.edited(); this.ackSeq = this.editSeq; return; }
    if (value === undefined) return; // not a valid number yet: keep it local until it is
    this.binder.writerFor(this.scope.path).queue(this, value, this.editSeq);
  }

  render(source) {
    if (!this.collab && source && source.texts && this.name in source.texts && this.el.tagName !== 'SELECT') {
      this.collab = CollabText.for(this, this.scope.path);
      this.type = 'string';
    }
    if (this.collab) { this.collab.render(source); return; }
    // An input is read from `inputs` first (an output could share its name).
    const value = source && source.inputs && this.name in source.inputs ? source.inputs[this.name] : lookup(source, this.name);
    if (value === undefined) return;
    if (!this.type) this.type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'boolean' ? 'boolean' : 'string';
    if (this.dirty || this.composing) return;
    this.base = value;
    const el = this.el;
    if (el.type === 'checkbox') { el.checked = Boolean(value); return; }
    const text = value == null ? '' : String(value);
    if (el.value === text) return;
    // A change made by the view model (e.g. clear). Keep the caret where it was when possible.
    const focused = document.activeElement === el;
    let start = null;
    let end = null;
    try { start = el.selectionStart; end = el.selectionEnd; } catch { /* not a text control */ }
    el.value = text;
    if (focused && start != null) {
      try { el.setSelectionRange(Math.min(start, text.length), Math.min(end, text.length)); } catch { /* ignore */ }
    }
  }

  dispose() {
    if (this.collab) this.collab.dispose();
    this.el.removeEventListener(this.event, this.onEdit);
    this.el.removeEventListener('compositionstart', this.onCompStart);
    this.el.removeEventListener('compositionend', this.onCompEnd);
  }
}
