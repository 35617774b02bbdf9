// outbox.js — what the user did that the server has not acknowledged yet, kept in this tab's
// sessionStorage per view path (`bindery:unsent:<path>`), so that navigating away or reloading
// while the server is away loses nothing; and the commands, sent with an Idempotency-Key and sent
// again with the same key until the server answers.
//
// Collaborative texts keep their operations here too (binder/text-outbox.js, the record's `texts`).
//
// Edits: the input writer (binder/writer.js) keeps here each field's unsent value with what it
// knew of the server's (`base`, `unconfirmed`: binder/input.js); `later` holds what was typed
// after a command that is still waiting, to be sent after it. When a screen shows a view (or its
// list items), `restoreUnsent` puts the kept values back in their controls, unsent, and the writer
// sends them as after any outage: it reads the snapshot first, sends what nobody else changed (with
// If-Match) and asks about the rest. A password's text is never stored, only its length: after a
// reload the field says that it was not sent and must be typed again.
//
// Commands: a command is kept (with its key) from the moment it is pressed until the server
// answers it. While the server can't be reached it is sent again with the same key and body, with
// the jittered back-off, after the edits typed before it (edits typed after it wait for it). After
// a reload the page sends a kept command again, with the same key, once it shows that view: the
// user pressed it and was never told it failed, and the server answers a key it has seen with
// its first answer instead of running the command twice (a server that ignores the key runs it
// once more). A command pressed more than COMMAND_MAX_AGE_MS ago is not sent: the page says so,
// since what it acted on may have changed since.

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { setKeptHere, track, update } from '../save-state.js';
import { knowsText } from './text-outbox.js';

const PREFIX = 'bindery:unsent:';
const COMMAND_MAX_AGE_MS = 10 * 60 * 1000;

let serial = 0;
const page = Math.random().toString(36).slice(2, 8);
const active = new Map(); // command key -> promise settled when this page stops sending it

/** A unique id for one kept edit (which stored entry an answer acknowledges). */
export function editId() { return `${page}-${++serial}`; }

/** Whether a control's value must never be stored: a password. */
export function isSecret(el) { return el.type === 'password'; }

function clean(path) { return String(path || '').replace(/^\/+/, ''); }

function read(path) {
  try { return JSON.parse(sessionStorage.getItem(PREFIX + clean(path))) || null; } catch { return null; }
}

function write(path, record) {
  const empty = Object.keys(record.edits || {}).length === 0 && Object.keys(record.later || {}).length === 0
    && (record.commands || []).length === 0 && Object.keys(record.texts || {}).length === 0;
  try {
    if (empty) sessionStorage.removeItem(PREFIX + clean(path));
    else sessionStorage.setItem(PREFIX + clean(path), JSON.stringify(record));
  } catch { /* storage full or refused: the page still holds it */ }
  update();
}

/** The record kept for `path` (for binder/text-outbox.js), or null. */
export function readRecord(path) { return read(path); }

/** Keeps `path`'s record (for binder/text-outbox.js); an empty one is removed. */
export function writeRecord(path, record) { write(path, record); }

/** The records kept for `path` and the views under it: [[path, record]]. */
function recordsUnder(path) {
  const base = clean(path);
  const found = [];
  try {
    for (let i = 0; i < sessionStorage.length; i += 1) {
      const key = sessionStorage.key(i);
      if (!key || !key.startsWith(PREFIX)) continue;
      const at = key.slice(PREFIX.length);
      if (at !== base && !at.startsWith(`${base}/`)) continue;
      const record = read(at);
      if (record) found.push([at, record]);
    }
  } catch { /* no sessionStorage here (refused by the browser): nothing was kept */ }
  return found;
}

/** Whether `record` keeps edits that can be sent (a password to type again cannot), or text operations. */
function sendableEdits(record) {
  return [...Object.values(record.edits || {}), ...Object.values(record.later || {})].some((e) => !e.secret)
    || Object.values(record.texts || {}).some((t) => t.inflight || (t.buffer && t.buffer.length));
}

// Paths whose kept edits a screen of this page has taken over (its writer says how they fare), or
// found no control for once its data came: no longer "waiting" for the save state.
const taken = new Set();

// The save state says "Offline — will send" for what this page keeps, until a screen takes it over
// (a command being sent says it itself, while it waits for the server).
setKeptHere(() => {
  const path = clean(location.pathname);
  return path !== '' && recordsUnder(path).some(([at, record]) => (!taken.has(at) && sendableEdits(record))
    || (record.commands || []).some((c) => !active.has(c.key)));
});

/** What is kept of one writer's entry {binding, value, id}: the value, or a password's length. */
export function storedEdit(entry) {
  const b = entry.binding;
  if (isSecret(b.el)) return { secret: true, length: String(entry.value ?? '').length, id: entry.id };
  return { value: entry.value, base: b.base, unconfirmed: b.unconfirmed, id: entry.id };
}

/** The writer of `path` keeps its unsent edits ({name: stored}; `later`: after a waiting command). */
export function keepEdits(path, edits, later = {}) {
  const record = read(path) || {};
  record.edits = edits;
  record.later = later;
  write(path, record);
}

/** Forgets the kept edits with these ids (acknowledged after their screen was left). */
export function forgetEdits(path, ids) {
  const record = read(path);
  if (!record) return;
  for (const part of ['edits', 'later']) {
    for (const [name, e] of Object.entries(record[part] || {})) if (ids.has(e.id)) delete record[part][name];
  }
  write(path, record);
}

function keepCommand(path, command) {
  const record = read(path) || {};
  record.commands = [...(record.commands || []).filter((c) => c.key !== command.key), command];
  write(path, record);
}

function forgetCommand(path, key) {
  const record = read(path);
  if (!record || !record.commands) return;
  record.commands = record.commands.filter((c) => c.key !== key);
  write(path, record);
}

function keptCommand(path, key) {
  const record = read(path);
  return Boolean(record && (record.commands || []).some((c) => c.key === key));
}

/**
 * Says at a password field that what was typed there did not reach the server before the page
 * was reloaded (or left) and, never being stored, has to be typed again. Goes away on typing.
 */
export function noteRetype(el, length) {
  const id = `${el.id || el.dataset.input}-unsent`;
  if (document.getElementById(id)) return;
  const line = document.createElement('small');
  line.id = id;
  line.className = 'unsent-note';
  line.textContent = `The password you typed (${length} character${length === 1 ? '' : 's'}) may not have been saved before the page was reloaded. Passwords are never kept in the browser: type it again.`;
  (el.closest('label') || el).after(line);
  const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
  el.setAttribute('aria-describedby', [...described, id].join(' '));
  el.addEventListener('input', () => {
    line.remove();
    const rest = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((t) => t && t !== id);
    if (rest.length) el.setAttribute('aria-describedby', rest.join(' ')); else el.removeAttribute('aria-describedby');
  }, { once: true });
}

/**
 * On a screen's start: the edits and commands kept for its view and the views under it are put
 * back. Edits go to their controls now (a list item's once the first snapshot shows it) and are
 * sent when the server answers; commands are sent again, each after the edits typed before it.
 */
export function restoreUnsent(binder) {
  // A collaborative text this page saw shows its last text at once (the server may be away).
  for (const b of binder.scope.allInputs()) if (!b.collab && knowsText(b.scope.path, b.name)) b.restoreText();
  const records = recordsUnder(binder.path);
  if (records.length === 0) return;
  // Commands first: each holds its writer, so edits typed after it are restored behind it.
  for (const [path, record] of records) {
    for (const command of record.commands || []) resend(binder, path, command);
  }
  const waiting = new Map();
  for (const [path, record] of records) {
    if (restoreEdits(binder, path, record)) taken.add(path); else waiting.set(path, record);
  }
  if (waiting.size) {
    const stop = binder.onSnapshot(() => {
      stop();
      for (const [path] of waiting) {
        const record = read(path);
        if (record) restoreEdits(binder, path, record);
        taken.add(path); // restored, or no control shows it here: kept for a screen that does
      }
      update();
    });
  }
}

/** Puts one path's kept edits in its controls on this screen; false when it has none yet. */
function restoreEdits(binder, path, record) {
  // Collaborative texts: their CollabText takes over what was kept (binder/collab.js).
  const texts = Object.keys(record.texts || {});
  const textBindings = binder.scope.allInputs().filter((b) => clean(b.scope.path) === path && texts.includes(b.name));
  for (const b of textBindings) b.restoreText();
  const names = [...Object.keys(record.edits || {}), ...Object.keys(record.later || {})];
  if (names.length === 0) return texts.length === 0 || textBindings.length > 0;
  const bindings = binder.scope.allInputs().filter((b) => clean(b.scope.path) === path && !b.collab);
  if (bindings.length === 0) return false;
  binder.writerFor(path).restore(record, bindings);
  return true;
}

/** Sends a kept command again with its key, unless this page is still sending it or it is too old. */
function resend(binder, path, command) {
  const before = active.get(command.key) || Promise.resolve();
  // Held from now: the edits typed after it, restored next, stay behind it.
  const release = binder.writerFor(path).hold();
  before.then(() => {
    if (binder.stopped || !keptCommand(path, command.key)) return;
    if (Date.now() - command.at > COMMAND_MAX_AGE_MS) {
      forgetCommand(path, command.key);
      binder.notify({
        title: 'Not sent',
        message: `“${command.name}” was pressed more than ${COMMAND_MAX_AGE_MS / 60000} minutes ago while the server could not be reached, so it was not sent: press it again if you still want it.`,
      });
      return;
    }
    const element = clean(path) === binder.path
      ? binder.root.querySelector(`[data-command="${CSS.escape(command.name)}"]`) : null;
    binder.execute(command.name, command.body, { path, quiet: command.quiet, key: command.key, element });
  }).finally(release);
}

/** Waits `ms`, or less when `wake` and a request of this page gets an answer (the server is back). */
function pause(ms, wake) {
  return new Promise((resolve) => {
    let stop = () => {};
    const done = () => { clearTimeout(timer); stop(); resolve(); };
    const timer = setTimeout(done, ms);
    if (wake) stop = api.watchReachability((answered) => { if (answered) done(); });
  });
}

/**
 * Executes a command for binder.js: answers {status, snapshot} or throws the server's refusal
 * (ProblemError). Edits typed before it are sent first; while the server can't be reached it is
 * sent again (same key, same body) and edits typed meanwhile wait for it. Answers {snapshot: null}
 * when the screen was left while it waited: it stays kept and goes when the view shows again.
 * `key`: a kept command sent again (restoreUnsent); `wait`: seconds the server may take before it
 * answers 202 (a command that runs for long, a timer's start, is better answered at once).
 */
export async function sendCommand(binder, path, name, body, { quiet = false, key = null, wait: waitSeconds = 10 } = {}) {
  const writer = binder.writerFor(path);
  const command = { key: key || api.idempotencyKey(), name, body, at: Date.now(), quiet };
  let settle;
  active.set(command.key, new Promise((resolve) => { settle = resolve; }));
  if (!key) keepCommand(path, command);
  const backoff = new Backoff({ jitter: true });
  const source = { saveState: 'offline' };
  let release = null;
  let untrack = null;
  let answered = null; // the command's snapshot: what it did is ours (writer.hold)
  // Waiting for the server: what is typed from now on goes after this command, and the line says so.
  const wait = (err = null) => {
    if (!release) release = writer.hold();
    if (!untrack) untrack = track(source);
    const asked = err && err.retryAfter != null ? err.retryAfter * 1000 : 0;
    return pause(Math.max(backoff.next(), asked), asked === 0);
  };
  try {
    if (key) { release = writer.hold(); untrack = track(source); }
    for (;;) {
      if (binder.stopped) return { snapshot: null };
      await writer.flush();
      if (binder.stopped) return { snapshot: null };
      // The edits typed before it go first: it waits while they wait for the server.
      if (!writer.idle && writer.waiting) { await wait(); continue; }
      try {
        const answer = await api.executeCommand(path, name, body, waitSeconds, { key: command.key });
        forgetCommand(path, command.key);
        answered = answer.snapshot;
        return answer;
      } catch (err) {
        if (!api.noAnswer(err) && !api.stillRunning(err)) {
          forgetCommand(path, command.key);
          throw err;
        }
        await wait(err);
      }
    }
  } finally {
    if (release) release(answered);
    if (untrack) untrack();
    active.delete(command.key);
    settle();
    update();
  }
}
