// save-state.js — the small save state of screens that write, in the header (#save-state, a
// polite status): "Saving…" while a write is on its way, "Saved" once the server acknowledged it,
// "Offline — will send" while writes or commands wait for the server (they are kept in
// sessionStorage meanwhile: binder/outbox.js). Nothing is shown on a screen that wrote nothing.
//
// Each input writer (binder/writer.js), each command waiting for the server (binder/outbox.js)
// and each collaborative text (binder/collab.js) is a source with a `saveState` getter ("idle" |
// "saving" | "saved" | "offline" | "unsaved": a text that cannot be saved now, its field says
// why); the line says the most pressing one, so "Saved" only once every source has nothing
// unsent. Until a screen's writer takes over, edits kept from before a reload of this page say
// "Offline — will send" (or "Saving…" while the server's answer is awaited). "Saving…" shows only
// when a write takes a moment: quick writes while typing leave "Saved" as it is, so a screen
// reader is not told about every keystroke.

import { watchReachability } from './api.js';

const SAVING_DELAY_MS = 500;
const TEXT = { saving: 'Saving…', saved: 'Saved', offline: 'Offline — will send', unsaved: 'Not saved — see the field' };

const sources = new Set();
let keptHere = () => false; // whether this page holds sendable edits or commands from before (outbox.js)
let reachable = null;       // the last request's fate: true answered, false not, null none yet
let savingTimer = null;

/** Follows `source` (a writer, a waiting command) until the returned function is called. */
export function track(source) {
  sources.add(source);
  update();
  return () => { if (sources.delete(source)) update(); };
}

/** outbox.js says how to know whether unsent work of this page was kept in sessionStorage. */
export function setKeptHere(test) { keptHere = test; update(); }

/** The state the line should say now (exported for tests and the inspector). */
export function current() {
  const states = new Set([...sources].map((s) => s.saveState));
  if (states.has('unsaved')) return 'unsaved';
  if (states.has('offline')) return 'offline';
  if (states.has('saving')) return 'saving';
  if (keptHere()) return reachable === false ? 'offline' : 'saving';
  if (states.has('saved')) return 'saved';
  return 'idle';
}

/** Shows the current state (every source calls it when its state may have changed). */
export function update() {
  const el = document.getElementById('save-state');
  if (!el) return;
  const state = current();
  if (state === 'saving' && el.dataset.state !== 'saving' && el.dataset.state !== 'offline') {
    // Said only when it takes a while; until then the line keeps what it says.
    if (!savingTimer) savingTimer = setTimeout(() => { savingTimer = null; show(el, current()); }, SAVING_DELAY_MS);
    return;
  }
  show(el, state);
}

function show(el, state) {
  clearTimeout(savingTimer);
  savingTimer = null;
  if ((el.dataset.state || 'idle') === state) return;
  if (state === 'idle') delete el.dataset.state; else el.dataset.state = state;
  el.textContent = TEXT[state] || '';
}

watchReachability((answered) => {
  reachable = answered;
  if (keptHere()) update();
});
