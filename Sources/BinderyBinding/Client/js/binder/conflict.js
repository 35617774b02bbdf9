// conflict.js — one field whose unsent edit met another change of the same field on the server
// (made while this page could not reach it). Both values are shown under the control, and the
// user chooses: nothing they typed is dropped without their say. Template: tpl-conflict.

import { instantiate } from '../templates.js';

/** What a value looks like in the question; a password's characters are not shown. */
function shown(el, value) {
  if (value == null || value === '') return '(empty)';
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
  constructor(entry, theirs, { keep, take }) {
    this.entry = entry;
    this.theirs = theirs;
    const el = entry.binding.el;
    this.el = el;
    const panel = instantiate('tpl-conflict').firstElementChild;
    panel.setAttribute('aria-label', `${labelOf(el)}: changed in two places`);
    panel.dataset.conflict = entry.binding.name;
    panel.querySelector('.conflict-mine').textContent = shown(el, entry.value);
    panel.querySelector('.conflict-theirs').textContent = shown(el, theirs);
    panel.querySelector('.conflict-keep').addEventListener('click', keep);
    panel.querySelector('.conflict-take').addEventListener('click', take);
    el.setAttribute('aria-describedby', [el.getAttribute('aria-describedby'), 'conflict-' + entry.binding.name].filter(Boolean).join(' '));
    panel.querySelector('.conflict-question').id = `conflict-${entry.binding.name}`;
    const field = el.closest('.field');
    if (field) field.append(panel); else el.after(panel);
    this.panel = panel;
  }

  /** Removes the question; focus goes back to the control (unless it is already there). */
  dismiss({ keepFocus = false } = {}) {
    const hadFocus = this.panel.contains(document.activeElement);
    const id = `conflict-${this.entry.binding.name}`;
    const rest = (this.el.getAttribute('aria-describedby') || '').split(/\s+/).filter((t) => t && t !== id);
    if (rest.length) this.el.setAttribute('aria-describedby', rest.join(' ')); else this.el.removeAttribute('aria-describedby');
    this.panel.remove();
    if (hadFocus && !keepFocus) this.el.focus();
  }
}
