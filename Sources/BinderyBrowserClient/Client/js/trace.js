// trace.js — what the page exchanged with the server, kept for the view-model inspector: the
// requests that change something (PATCH, POST) and what arrived over the event streams. The
// last few of each are kept (so an inspector opened later still shows them); listeners hear new
// ones. Nothing here changes what the page does.

const KEEP = 30;
const records = [];
const listeners = new Set();
const encoder = new TextEncoder();

/** The size in bytes (UTF-8) of a text as it crossed the wire. */
export function byteSize(text) {
  return text ? encoder.encode(text).length : 0;
}

/**
 * Notes one exchange:
 *   {type: "request", id, phase: "sent"|"answered", method, url, headers, body, status, version}
 *                                                                    a PATCH or a POST;
 *   {type: "event", path, kind: "snapshot"|"patch", version, bytes} one event of a stream.
 */
export function note(record) {
  const entry = { at: Date.now(), ...record };
  records.push(entry);
  if (records.length > KEEP) records.shift();
  for (const listener of listeners) listener(entry);
}

/** The records kept, oldest first, that satisfy `filter`. */
export function recent(filter = () => true) {
  return records.filter(filter);
}

/** Calls listener(record) for each new record; answers the function that stops it. */
export function watch(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
