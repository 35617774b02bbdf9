// editor.js — a field that edits its item in place (data-editor on a data-command text field: a
// todo's title). Closed, the item shows the data; opened by the events data-opens-editor names on
// another element of its scope (a double click by default: the todo's label), the scope's root gets
// the class data-editor names ("editing" by default), and the field shows the data (its `.value`
// output) and gets the focus, the caret at the end. Enter, or leaving the field changed, presses its
// command (binder/command-control.js) and closes it; Enter with the data's own value, or leaving
// it unchanged, only closes it; Escape closes it without a command, the field back to the data.

import { lookup } from './members.js';

export class Editor {
  constructor(scope, field) {
    this.scope = scope;
    this.field = field;
    this.className = field.dataset.editor || 'editing';
    this.openers = scope.openers.map((el) => ({ el, events: (el.dataset.opensEditor || 'dblclick').trim().split(/\s+/) }));
    this.open = () => this.opened();
    for (const { el, events } of this.openers) for (const type of events) el.addEventListener(type, this.open);
    this.onKey = (event) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      this.field.value = this.data();
      this.close();
    };
    this.onBlur = () => this.scope.root.classList.remove(this.className);
    field.addEventListener('keydown', this.onKey);
    field.addEventListener('blur', this.onBlur);
  }

  /** The data the field edits: its `.value` output's member. */
  data() {
    const output = this.scope.outputs.find((o) => o.el === this.field && o.kind === '.value');
    const value = output ? lookup(this.scope.source, output.member) : this.field.defaultValue;
    return value == null ? '' : String(value);
  }

  /** Whether the field shows the data as it is: a press has nothing to send. */
  get unchanged() { return this.field.value === this.data(); }

  opened() {
    this.scope.root.classList.add(this.className);
    this.field.value = this.data();
    this.field.focus();
    const end = this.field.value.length;
    try { this.field.setSelectionRange(end, end); } catch { /* a number field has no caret to place */ }
  }

  close() {
    this.scope.root.classList.remove(this.className);
    if (document.activeElement === this.field) this.field.blur();
  }

  dispose() {
    for (const { el, events } of this.openers) for (const type of events) el.removeEventListener(type, this.open);
    this.field.removeEventListener('keydown', this.onKey);
    this.field.removeEventListener('blur', this.onBlur);
  }
}
