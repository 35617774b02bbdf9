// recorder.js — the steps the page took on each view model since it loaded, for "Copy as test":
// each write (PATCH of inputs: its merge patch) and each command (POST …/commands/{name}: its
// argument), with the server's answer (status, version) and the times it left and was answered.
// It listens to trace.js from the page's start (the inspector is made before the first request),
// so nothing the page sent is missed, whether the inspector was open or not.

import { watch } from '../trace.js';

const KEPT = 200; // steps kept per view model

/** "/api/views/form/commands/clear" -> {path: "form", command: "clear"}; a PATCH URL -> {path}. */
export function parseURL(url) {
  const { pathname } = new URL(url, location.origin);
  const m = /^\/api\/views\/(.+?)(?:\/commands\/([^/]+))?$/.exec(pathname);
  if (!m || /\/(inputs|presence|events|versions)(\/|$)/.test(m[1])) return null;
  return { path: m[1], command: m[2] ? decodeURIComponent(m[2]) : null };
}

/** The page's writes and commands, per view model, from its load on. */
export class Recorder {
  constructor() {
    this.steps = new Map();  // path -> [step]
    this.pending = new Map(); // request id -> {sentAt}
    this.stop = watch((record) => this.onRecord(record));
  }

  onRecord(record) {
    if (record.type !== 'request') return;
    if (record.phase === 'sent') {
      this.pending.set(record.id, record.at);
      if (this.pending.size > 100) this.pending.delete(this.pending.keys().next().value);
      return;
    }
    const sentAt = this.pending.get(record.id) ?? record.at;
    this.pending.delete(record.id);
    const where = parseURL(record.url);
    if (!where) return;
    const isWrite = record.method === 'PATCH' && !where.command;
    const isCommand = record.method === 'POST' && where.command;
    if (!isWrite && !isCommand) return;
    let body = null;
    try { body = record.body == null ? null : JSON.parse(record.body); } catch { body = null; }
    const key = (record.headers && record.headers['Idempotency-Key']) || null;
    const steps = this.steps.get(where.path) || [];
    // The same write sent again with its key (after an outage) is one step: the last answer counts.
    const again = key ? steps.findIndex((s) => s.key === key) : -1;
    const step = {
      kind: isWrite ? 'write' : 'command',
      name: where.command,
      body,
      key,
      status: record.status,
      version: record.version,
      sentAt: again >= 0 ? steps[again].sentAt : sentAt,
      answeredAt: record.at,
    };
    if (again >= 0) steps[again] = step; else steps.push(step);
    if (steps.length > KEPT) steps.shift();
    this.steps.set(where.path, steps);
  }

  /** The steps taken on view model `path`, oldest first. */
  stepsOf(path) {
    return [...(this.steps.get(path) || [])];
  }
}
