// command-control.js — one data-command control: what presses it, the body its command gets, and
// whether it can be pressed.
//
// A button or link is pressed by a click (which is also how a form's Enter reaches its default
// button: implicit submission). A control the user edits presses its command itself: a text field
// on Enter and when it is left changed (`change`; Enter, then leaving the field unchanged since, is
// one press), or on Enter only when it is also a data-input (its text is written as typed: `add`
// the new title); a textarea, checkbox, radio button or select on `change`. data-command-on names
// other triggers: "enter", or DOM events ("dblclick", "change").
//
// The body: data-command-body's JSON; over it data-command-args, members of the scope's source (a
// list item, or the screen's snapshot) under their own name ("id") or another ("from=index": the
// member `index` as `from`); over these data-command-value="title", the control's own value (a
// checkbox's `checked`, a number field's number, a select's value).
//
// A field with data-command-clears gives its text to the command and is emptied by the press, so
// the next one can be typed at once (TodoMVC's new todo: typed, Enter, typed, Enter); its presses
// run one after another, in order, and one that does not run puts its text back. An empty field
// presses nothing. A field with data-editor edits its item in place (binder/editor.js): opened,
// pressed, closed.
//
// Presses go to the screen's CommandQueue (binder/command-queue.js), which runs them at once or
// after the write of their view model that is on its way. Availability: unavailable until the
// latest snapshot says the command is enabled, and while it runs (aria-busy) — unless its policy
// lets executions run side by side (`concurrent`) or wait their turn (`queue`): then only the
// control whose press is on its way is. While its view model writes, a control its snapshot
// disables stays pressable (aria-disabled, not disabled: its press waits for the write's answer);
// so does a focused control that becomes unavailable (keyboard and screen-reader users keep their
// place). A control that is also a data-input, or that clears, is never disabled by its command:
// what is typed there is the command's material.

import { Editor } from './editor.js';
import { lookup } from './members.js';

const BUTTON_TYPES = ['button', 'submit', 'reset', 'image'];
const NOT_TEXT = [...BUTTON_TYPES, 'checkbox', 'radio', 'file', 'range', 'color', 'hidden'];

/** Whether the user edits `el` (a field, a checkbox, a select) rather than presses it. */
const editable = (el) => ['SELECT', 'TEXTAREA'].includes(el.tagName) || (el.tagName === 'INPUT' && !BUTTON_TYPES.includes(el.type));
/** Whether `el` is a one-line text field (Enter commits it). */
const textField = (el) => el.tagName === 'INPUT' && !NOT_TEXT.includes(el.type);

/** Whether a running execution keeps another press of the command from running (see above). */
export const runsAlone = (state) => Boolean(state && state.executing) && !['concurrent', 'queue'].includes(state.policy);

/** Whether the command never disables `el`: what is typed there is the command's material. */
const typedInto = (el) => el.hasAttribute('data-input') || el.hasAttribute('data-command-clears');

/** What presses `el` unless data-command-on says otherwise. */
function defaultTriggers(el) {
  if (!editable(el)) return 'click';
  if (!textField(el)) return 'change';
  return el.hasAttribute('data-input') ? 'enter' : 'enter change';
}

/** The value a control gives its command (data-command-value). */
export function controlValue(el) {
  if (el.type === 'checkbox') return el.checked;
  if (el.tagName === 'SELECT' && el.multiple) return [...el.selectedOptions].map((o) => o.value);
  if (el.type === 'number' || el.type === 'range') return el.value === '' ? null : Number(el.value);
  return el.value;
}

/** The body of a press of `el`, whose scope shows `source` (undefined: the command takes none). */
export function commandBody(el, source) {
  let body = el.dataset.commandBody ? JSON.parse(el.dataset.commandBody) : undefined;
  if (el.dataset.commandArgs) {
    body = body || {};
    for (const arg of el.dataset.commandArgs.trim().split(/\s+/)) {
      const [key, member = key] = arg.split('=');
      body[key] = lookup(source, member);
    }
  }
  if (el.dataset.commandValue) {
    body = body || {};
    body[el.dataset.commandValue] = controlValue(el);
  }
  return body;
}

/** The state ({enabled, executing, error}) of command `name` as `scope` sees it: its item's own, else the screen's. */
export function commandState(scope, name, rootSnapshot = scope.binder.snapshot) {
  const source = scope.source;
  const own = source && source.commands && source.commands[name];
  return own || (rootSnapshot && rootSnapshot.commands && rootSnapshot.commands[name]) || null;
}

/** The view model a press of `name` in `scope` runs on: the item's own when it has that command, else the screen's. */
export function commandPath(scope, name) {
  const own = scope.source && scope.source.commands && scope.source.commands[name];
  return own ? scope.path : scope.binder.path;
}

/** Wires the data-command control `el` of `scope`; answers {el, name, dispose}. */
export function wireCommand(scope, el) {
  const name = el.dataset.command;
  const binder = scope.binder;
  const triggers = (el.dataset.commandOn || defaultTriggers(el)).trim().split(/\s+/);
  const clears = el.hasAttribute('data-command-clears');
  const editor = el.hasAttribute('data-editor') ? new Editor(scope, el) : null;
  let pressedWith; // the value a text field last pressed its command with: Enter, then leaving it, is one press
  const press = (event) => {
    if (event.type === 'keydown' && (event.key !== 'Enter' || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey)) return;
    // A click must not follow a link or submit a form; Enter must not submit it either.
    if (event.type === 'keydown' || !editable(el)) event.preventDefault();
    const value = textField(el) ? el.value : undefined;
    if (event.type === 'change' && value !== undefined && value === pressedWith) return;
    if (editor && editor.unchanged) { editor.close(); return; }
    if (clears && value === '') return;
    const taken = binder.commandQueue.press({
      el, name, body: commandBody(el, scope.source), path: commandPath(scope, name),
      state: () => commandState(scope, name), clears: clears ? value : undefined,
    });
    if (taken) {
      pressedWith = value;
      if (clears) el.value = '';
      if (editor) editor.close();
    } else if (editable(el)) binder.repaint(); // a checkbox the user flipped shows the data again
  };
  const typing = () => { pressedWith = undefined; };
  const events = triggers.map((t) => (t === 'enter' ? 'keydown' : t));
  for (const type of events) el.addEventListener(type, press);
  if (textField(el)) el.addEventListener('input', typing);
  // Unavailable until a snapshot says it is enabled: no button works before its state is known.
  if (!typedInto(el)) {
    if ('disabled' in el && el.tagName !== 'A') el.disabled = true; else el.setAttribute('aria-disabled', 'true');
  }
  return {
    el,
    name,
    dispose() {
      for (const type of events) el.removeEventListener(type, press);
      el.removeEventListener('input', typing);
      if (editor) editor.dispose();
    },
  };
}

/** Shows whether `control` of `scope` can be pressed now (see above). */
export function renderCommand(scope, control, rootSnapshot) {
  const { el, name } = control;
  const binder = scope.binder;
  const state = commandState(scope, name, rootSnapshot);
  const busy = runsAlone(state) || binder.localBusy.has(el);
  const enabled = Boolean(state && state.enabled) && !busy;
  el.setAttribute('aria-busy', String(busy));
  if (typedInto(el)) return;
  if (!('disabled' in el) || el.tagName === 'A') { el.setAttribute('aria-disabled', String(!enabled)); return; }
  const focused = !enabled && document.activeElement === el;
  const awaited = !enabled && !busy && binder.commandQueue.writerBusy(commandPath(scope, name));
  el.disabled = !enabled && !focused && !awaited;
  if (enabled || el.disabled) el.removeAttribute('aria-disabled'); else el.setAttribute('aria-disabled', 'true');
  if (focused && !control.refocus) {
    // Really disabled once focus moves on (unless the command is available by then).
    control.refocus = true;
    el.addEventListener('blur', () => {
      control.refocus = false;
      if (binder.snapshot && !binder.stopped) renderCommand(scope, control, binder.snapshot);
    }, { once: true });
  }
}
