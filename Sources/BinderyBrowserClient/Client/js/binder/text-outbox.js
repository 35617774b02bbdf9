// text-outbox.js — what a collaborative text input (binder/collab.js) knows and has not sent,
// kept in this tab's sessionStorage with the plain inputs' unsent edits (binder/outbox.js, the
// record's `texts`), and the one live CollabText per view and input of this page.
//
// Kept per view path and input: {revision, server, inflight, buffer}: the server's text at
// `revision` as this page last knew it, the operation sent and not acknowledged ({id, base, sent,
// ops}: sent again with its id, which the server applies once) and what was typed after it. It is
// in sessionStorage while anything is unsent (the outbox is empty once everything is
// acknowledged), and in this page's memory as long as the page knows the text, so that a screen
// shown again while the server is down shows the last text it knew instead of a blank editor.
//
// Live: a screen left while its text still has unsent operations keeps sending them; when the
// screen comes back (Back), the same CollabText binds to the new control instead of a second one
// sending the same text again.

import { readRecord, writeRecord } from './outbox.js';
import * as textop from './textop.js';

const live = new Map();  // "path#name" -> CollabText
const known = new Map(); // "path#name" -> the last state kept, sent or not

const keyOf = (path, name) => `${String(path || '').replace(/^\/+/, '')}#${name}`;

/** The CollabText of this page for `path` and input `name`, if one is still live. */
export function liveText(path, name) { return live.get(keyOf(path, name)) || null; }

/** Registers (or, with null, forgets) the live CollabText of `path` and `name`. */
export function setLiveText(path, name, text) {
  if (text) live.set(keyOf(path, name), text); else live.delete(keyOf(path, name));
}

/** Whether a kept text has operations the server has not acknowledged. */
export function unsent(kept) {
  return Boolean(kept && (kept.inflight || (kept.buffer && kept.buffer.length)));
}

/** What the control showed: the server's text with the unsent operations applied. */
export function shownText(kept) {
  let text = kept.server;
  if (kept.inflight) text = textop.apply(text, kept.inflight.ops);
  return textop.apply(text, kept.buffer || []);
}

/** The kept state of `path`'s input `name` (unsent, from sessionStorage; else the last known), or null. */
export function keptText(path, name) {
  const record = readRecord(path);
  const kept = (record && record.texts && record.texts[name]) || known.get(keyOf(path, name));
  return kept && typeof kept.server === 'string' && Number.isInteger(kept.revision) ? kept : null;
}

/** Whether this page knows a text of `path`'s input `name` (kept or last seen). */
export function knowsText(path, name) { return keptText(path, name) !== null; }

/** Keeps the state of `path`'s input `name`: in sessionStorage while something is unsent. */
export function keepText(path, name, state) {
  known.set(keyOf(path, name), JSON.parse(JSON.stringify(state)));
  const record = readRecord(path) || {};
  const stored = Boolean(record.texts && record.texts[name]);
  if (!unsent(state) && !stored) return;
  const texts = { ...(record.texts || {}) };
  if (unsent(state)) texts[name] = state; else delete texts[name];
  record.texts = texts;
  writeRecord(path, record);
}
