// latency.js — what the inspector can say about how long each version of a view model took. Like
// recorder.js it listens to trace.js from the page's load, open inspector or not. For a version
// this page wrote (a PATCH or a command answered with that version): the server's phases (the
// answer's Server-Timing), when the answer came and when the version came over this page's event
// stream, both measured from when the request left (performance.now(), so fractions of a ms). For
// any other version: when it came over the stream.

import { watch } from '../trace.js';
import { parseURL } from './recorder.js';
import { hasMetric } from '../server-timing.js';

const KEPT = 300; // versions kept per view model, written and arrived
const now = () => (globalThis.performance ? performance.now() : Date.now());

/** Puts `value` at `key` of the map at `path` in `maps`, keeping the newest KEPT keys. */
function keep(maps, path, key, value) {
  const map = maps.get(path) || new Map();
  map.set(key, value);
  if (map.size > KEPT) map.delete(Math.min(...map.keys()));
  maps.set(path, map);
}

/** The page's writes and the stream's arrivals, per view model, by version. */
export class LatencyLog {
  /** Starts listening to trace.js (made with the inspector, before the page's first request). */
  constructor() {
    this.sent = new Map();     // request id -> when it left (performance time)
    this.firstSent = new Map(); // Idempotency-Key -> when its first request left
    this.writes = new Map();   // path -> Map(version -> {version, method, command, status, replayed, timing, sentAt, answeredAfter})
    this.arrivals = new Map(); // path -> Map(version -> {at: performance time, wall: ms since 1970})
    this.stop = watch((record) => this.onRecord(record));
  }

  /** A trace record: a request leaving or answered, or an event of a stream. */
  onRecord(record) {
    if (record.type === 'event') this.onEvent(record);
    else if (record.type === 'request' && record.phase === 'sent') this.onSent(record);
    else if (record.type === 'request' && record.phase === 'answered') this.onAnswer(record);
  }

  /** A request left: its time (and its key's first time: a retry's version may come before it). */
  onSent(record) {
    const at = now();
    this.sent.set(record.id, at);
    if (this.sent.size > 100) this.sent.delete(this.sent.keys().next().value);
    const key = record.headers && record.headers['Idempotency-Key'];
    if (key && !this.firstSent.has(key)) this.firstSent.set(key, at);
    if (this.firstSent.size > 100) this.firstSent.delete(this.firstSent.keys().next().value);
  }

  /** A write answered with a version: that version is this page's, unless it changed nothing. */
  onAnswer(record) {
    const at = now();
    const key = record.headers && record.headers['Idempotency-Key'];
    const sentAt = (key && this.firstSent.get(key)) ?? this.sent.get(record.id) ?? at;
    this.sent.delete(record.id);
    const where = parseURL(record.url);
    if (!where || typeof record.version !== 'number' || !(record.status >= 200 && record.status < 300)) return;
    const replayed = Boolean(record.replayed);
    // A repeat is answered with the first answer but timed as a repeat (total only): not the write's.
    const timing = !Array.isArray(record.serverTiming) || (replayed && !hasMetric(record.serverTiming, 'commit')) ? [] : record.serverTiming;
    if (timing.length && !hasMetric(timing, 'commit')) return; // nothing changed: the version is not its
    const known = this.writes.get(where.path) && this.writes.get(where.path).get(record.version);
    // A repeat, or an answer that cannot tell whether it changed anything, keeps what is known.
    if (known && (replayed || !timing.length)) return;
    keep(this.writes, where.path, record.version, {
      version: record.version,
      method: record.method,
      command: where.command,
      status: record.status,
      replayed,
      timing,
      sentAt,
      answeredAfter: replayed ? null : at - sentAt,
    });
  }

  /** A version came over the stream: the first time it came counts (after the write, if this page's). */
  onEvent(record) {
    if ((record.kind !== 'snapshot' && record.kind !== 'patch') || typeof record.version !== 'number') return;
    const known = this.arrivals.get(record.path) && this.arrivals.get(record.path).get(record.version);
    const write = this.writes.get(record.path) && this.writes.get(record.path).get(record.version);
    if (known && !(write && write.sentAt > known.at)) return;
    keep(this.arrivals, record.path, record.version, { at: now(), wall: record.at });
  }

  /**
   * What is known of `version` of view model `path`: {write, arrival, streamAfter, seenIn}. write
   * is this page's write that made it (or null); arrival when it came over the stream (or null);
   * for a write, streamAfter is the ms from its request leaving to the version (or, when the
   * stream skipped it, the first later one: seenIn) coming over the stream, or null.
   */
  about(path, version) {
    const write = (this.writes.get(path) && this.writes.get(path).get(version)) || null;
    const arrivals = this.arrivals.get(path) || new Map();
    const arrival = arrivals.get(version) || null;
    if (!write) return { write, arrival, streamAfter: null, seenIn: null };
    let seen = arrival && arrival.at >= write.sentAt ? { version, at: arrival.at } : null;
    if (!seen) {
      for (const [v, a] of arrivals) {
        if (v > version && a.at >= write.sentAt && (!seen || a.at < seen.at)) seen = { version: v, at: a.at };
      }
    }
    return { write, arrival, streamAfter: seen ? seen.at - write.sentAt : null, seenIn: seen ? seen.version : null };
  }

  /** This page's writes on view model `path` that made a version, oldest first. */
  writesOf(path) {
    return [...(this.writes.get(path) || new Map()).values()].sort((a, b) => a.version - b.version);
  }
}
