// conflict.js — one field whose unsent edit met another change of the same field on the server
// (made while this page could not reach it). Both values are shown under the control, and the
// user chooses: nothing they typed is dropped without their say. Template: tpl-conflict.
// The same question comes while online (binder/online-conflicts.js) when someone else changes a
// plain field the user is editing; then it says so instead of "while yours was waiting".

import { instantiate } from '../templates.js';

let serial = 0;

/** What a value looks like in the question; a password's characters are not shown. */
function shown(el, value) {
  if (value == null || value === '') return '(empty)';
  if (el.tagName === 'SELECT') {
    const option = [...el.options].find((o) => o.value === String(value));
    if (option) return option.textContent.trim();
  }
  if (el.type === 'password') return `${'•'.repeat(Math.min(String(value).length, 24))} (${String(value).length} characters)`;
  return String(value);
}

/** The label of a control, for the question's accessible name. */
function labelOf(el) {
  const label = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
  return (label && label.textContent.trim()) || el.getAttribute('aria-label') || el.dataset.input;
}

export class Conflict {
  /** entry: the writer's {binding, value, seq}; theirs: the server's value; actions {keep, take}. */
  constructor(entry, theirs, { keep, take, online = false }) {
    this.entry = entry;
    this.theirs = theirs;
    const el = entry.binding.el;
    this.el = el;
    const panel = instantiate('tpl-conflict').firstElementChild;
    panel.setAttribute('aria-label', `${labelOf(el)}: changed in two places`);
    panel.dataset.conflict = entry.binding.name;
    panel.querySelector('.conflict-mine').textContent = shown(el, entry.value);
    panel.querySelector('.conflict-theirs').textContent = shown(el, theirs);
    if (online) {
      panel.querySelector('.conflict-question strong').textContent = 'Someone else changed this while you were editing it.';
    }
    panel.querySelector('.conflict-keep').addEventListener('click', keep);
    panel.querySelector('.conflict-take').addEventListener('click', take);
    this.id = `conflict-${entry.binding.name}-${++serial}`;
    el.setAttribute('aria-describedby', [el.getAttribute('aria-describedby'), this.id].filter(Boolean).join(' '));
    panel.querySelector('.conflict-question').id = this.id;
    const field = el.closest('.field');
    const wrapping = el.closest('label'); // a list row's field: the question goes after its label
    if (field) field.append(panel); else if (wrapping) wrapping.after(panel); else el.after(panel);
    this.panel = panel;
  }

  /** The server's value changed again while the question is open. */
  update(theirs) {
    this.theirs = theirs;
    this.panel.querySelector('.conflict-theirs').textContent = shown(this.el, theirs);
  }

  /** Removes the question; focus goes back to the control (unless it is already there). */
  dismiss({ keepFocus = false } = {}) {
    const hadFocus = this.panel.contains(document.activeElement);
    const { id } = this;
    const rest = (this.el.getAttribute('aria-describedby') || '').split(/\s+/).filter((t) => t && t !== id);
    if (rest.length) this.el.setAttribute('aria-describedby', rest.join(' ')); else this.el.removeAttribute('aria-describedby');
    this.panel.remove();
    if (hadFocus && !keepFocus) this.el.focus();
  }
}
