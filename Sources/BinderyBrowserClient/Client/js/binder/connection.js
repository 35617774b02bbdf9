// connection.js — one EventSource for a set of views: GET /api/events?views=<path>,<path>…, whose
// events name their view in an envelope ({"view", "snapshot"|"patch"|"edits"|"presence"|
// "problem"|"end"}), but `client` (the client the server serves: deploy.js). A browser has six
// HTTP/1.1 connections per host and a session sixteen event streams; one stream per view (per tab)
// would use them up. hub.js gives this tab's views to one Connection, or tab-leader.js every tab's.
//
// Patches: the server sends a view's snapshot first, then RFC 6902 patches from the version this
// stream sent last for that view (their first operation tests it). The connection keeps that
// snapshot per view (`last`), applies each patch to it and hands on whole snapshots; a patch that
// does not apply reopens the stream without that view's version, so the view starts again from a
// snapshot. `last` is also the resume point: a reopened stream sends `lastEventId=<path>@<version>,…`
// (our own new EventSource can't send Last-Event-ID), so nothing is missed across a reopen.
//
// Changing the set of views opens a new stream (resuming) and closes the old one once the new one
// is open, so the server never stops following a view that stays (it would deactivate it). Set
// changes are coalesced into one reopen. A stream that fails is closed and reopened after the
// shared back-off (jittered: many browsers don't reconnect in step); meanwhile the state is
// "reconnecting". Before it reopens, probe() lets this page's binders check their views with
// ordinary requests (hub.js): a server that is still away backs off again, and a server that
// forgot the session gives the page its new session cookie first, not to the stream (a stream
// racing the page's own requests would make two sessions). A `problem` event (no such view: 404)
// stops following that view until retry(); an `end` event (the session closed) follows it again
// after the back-off. restart() opens it again for a new session cookie (session.js). A request of
// the page that gets an answer during the back-off (a write after an outage) reopens it at once.
//
// Messages out (emit): {type: "state", state: "idle"|"connecting"|"open"|"reconnecting", views, fresh}
// (views: those the open stream follows; fresh: it just opened), {type: "event", view, kind, bytes, ...}:
// "snapshot"|"patch" {version, snapshot} (the patched whole), "edits"|"presence" {data}, "problem" {problem}, "end".

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { byteSize } from '../trace.js';
import { applyPatch } from './patch.js';
import { clientEvent } from '../deploy.js';

const STEADY_MS = 5000; // a stream that stayed up this long earns a quick retry when it drops
// A page being left (a reload, a link elsewhere) sees its stream fail just before pagehide: "reconnecting"
// is said only if it is still here this long after (the first retry comes later), longer after beforeunload.
const QUIET_MS = 250;
const LEAVING_MS = 3000;
let leavingSince = 0;
addEventListener('beforeunload', () => { leavingSince = Date.now(); });
addEventListener('pageshow', () => { leavingSince = 0; });
/** The most views one stream follows (the server's limit). */
export const MAX_VIEWS = 32;

/**
 * Runs fn soon, in a task of its own: after the current one (a navigation's removals and
 * additions, a pagehide's listeners), and not on a timer, which a background tab delays.
 */
export function soon(fn) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { channel.port1.close(); fn(); };
  channel.port2.postMessage(null);
}

const sameViews = (a, b) => a.length === b.length && a.every((v) => b.includes(v));

export class Connection {
  /**
   * emit(message): every state change and event (see the header); probe() before reopening after
   * a failure -> promise of true (reopen now) or false (the server is still away: back off).
   */
  constructor(emit, { probe = async () => true } = {}) {
    this.emit = emit;
    this.probe = probe;
    this.wanted = [];          // the views asked for, in order of priority
    this.refused = new Set();  // views the server refused (a problem event), until retry()
    this.last = new Map();     // view -> the snapshot received last: a patch's base, the resume point
    this.presence = new Map(); // view -> the last presence event's data (for a tab that joins)
    this.source = null;        // the EventSource being opened, or open
    this.previous = null;      // the open one it replaces, closed once the new one opens
    this.following = [];       // the views the open stream follows
    this.state = 'idle';
    this.backoff = new Backoff({ jitter: true });
    this.timer = null;         // the reopen after a failure
    this.endTimer = null;      // following again a view that ended
    this.openedAt = 0;
    this.scheduled = false;
    this.closed = false;
    this.reopening = false;
    this.hurried = false;      // reopened early once since the stream was last open
    // A request of this page answered while the stream waits out its back-off: the server is back,
    // so the stream reopens at once (once per outage) rather than show stale text for the wait.
    this.stopWatching = api.watchReachability((answered) => {
      if (answered && this.state === 'reconnecting' && !this.source && !this.reopening && !this.hurried && !this.closed) {
        this.hurried = true;
        clearTimeout(this.timer);
        this.reopen();
      }
    });
  }

  /** The views to follow (the page's, or every tab's); reopens once, soon, if the set changed. */
  setViews(views) {
    this.wanted = [...new Set(views)];
    // A refused view nobody wants any more may be asked for afresh later (it may exist by then).
    for (const view of [...this.refused]) if (!this.wanted.includes(view)) this.refused.delete(view);
    this.reconcile();
  }

  /** Follows a view again that the server refused. */
  retry(view) {
    if (this.refused.delete(view)) this.reconcile();
  }

  target() {
    return this.wanted.filter((v) => !this.refused.has(v)).slice(0, MAX_VIEWS);
  }

  reconcile() {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    soon(() => { this.scheduled = false; this.update(); });
  }

  update() {
    if (this.closed) return;
    const target = this.target();
    if (target.length === 0) {
      if (this.source || this.previous || this.state === 'reconnecting') {
        this.shut();
        this.following = [];
        this.setState('idle');
      }
      return;
    }
    if (this.state === 'reconnecting') return; // the pending reopen takes the new set
    if (this.source && sameViews(target, this.source.views)) return;
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    if (this.closed) return;
    const views = this.target();
    if (views.length === 0) { this.update(); return; }
    // What it holds of other views is no base for anything any more.
    for (const view of [...this.last.keys()]) if (!views.includes(view)) this.last.delete(view);
    // Presence is said afresh by every new stream, on each screen someone else is on.
    this.presence.clear();
    const resume = views.filter((v) => this.last.has(v)).map((v) => `${v}@${this.last.get(v).version}`).join(',');
    const source = new EventSource(api.streamURL(views, resume || null));
    source.views = views;
    if (this.source) {
      if (this.source.readyState === EventSource.OPEN) {
        if (this.previous) this.previous.close();
        this.previous = this.source; // keeps following its views until the new one is open
      } else {
        this.source.close();
      }
    }
    this.source = source;
    if (this.state === 'idle') this.setState('connecting');
    source.onopen = () => {
      if (this.source !== source) return;
      if (this.previous) { this.previous.close(); this.previous = null; }
      this.openedAt = Date.now();
      this.hurried = false;
      this.following = [...source.views];
      this.setState('open', { fresh: true });
    };
    source.onerror = () => { if (this.source === source) this.fail({ quiet: true }); };
    source.addEventListener('client', (event) => clientEvent(event.data));
    const on = (name, handle) => source.addEventListener(name, (event) => {
      // Only the newest stream counts: it resumes where `last` stood when it was opened.
      if (this.source !== source) return;
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      if (!data || typeof data.view !== 'string') return;
      handle(data.view, data, byteSize(event.data));
    });
    on('snapshot', (view, data, bytes) => {
      this.backoff.reset();
      if (!data.snapshot || typeof data.snapshot !== 'object') return;
      this.last.set(view, data.snapshot);
      this.emit({ type: 'event', view, kind: 'snapshot', version: data.snapshot.version, bytes, snapshot: data.snapshot });
    });
    on('patch', (view, data, bytes) => {
      this.backoff.reset();
      let snapshot;
      try {
        snapshot = applyPatch(this.last.get(view) ?? null, data.patch);
      } catch {
        // Not the version this patch was made against: that view starts again from a snapshot.
        this.last.delete(view);
        this.open();
        return;
      }
      this.last.set(view, snapshot);
      this.emit({ type: 'event', view, kind: 'patch', version: snapshot.version, bytes, snapshot });
    });
    on('edits', (view, data, bytes) => this.emit({ type: 'event', view, kind: 'edits', bytes, data: data.edits }));
    on('presence', (view, data, bytes) => {
      this.presence.set(view, data.presence);
      this.emit({ type: 'event', view, kind: 'presence', bytes, data: data.presence });
    });
    on('problem', (view, data, bytes) => {
      // Not followed (no such view): the others go on; the view's binder decides (its check()).
      // A view no longer wanted (its screen left while this stream opened) is not held refused:
      // a screen that shows it again asks afresh.
      if (this.wanted.includes(view)) this.refused.add(view);
      this.unfollow(source, view);
      this.emit({ type: 'event', view, kind: 'problem', bytes, problem: data.problem });
      this.setState(this.state);
    });
    on('end', (view, data, bytes) => {
      this.unfollow(source, view);
      this.emit({ type: 'event', view, kind: 'end', bytes });
      this.setState(this.state);
      // The session closed: follow it again (the next request gets a session) after the back-off.
      // When every view ended the server ends the stream, and onerror reopens it instead.
      clearTimeout(this.endTimer);
      this.endTimer = setTimeout(() => this.update(), this.backoff.next());
    });
  }

  unfollow(source, view) {
    this.last.delete(view);
    this.presence.delete(view);
    source.views = source.views.filter((v) => v !== view);
    this.following = this.following.filter((v) => v !== view);
  }

  /**
   * The stream failed (or the tests' drop): closed, "reconnecting", reopened after the back-off.
   * quiet: a failure of the network, said after QUIET_MS unless the page went meanwhile.
   */
  fail({ quiet = false } = {}) {
    this.shut();
    if (this.closed) return;
    this.following = [];
    if (this.target().length === 0) { this.setState('idle'); return; }
    // A stream that stayed up a while earns a quick retry; one that keeps failing backs off.
    if (this.openedAt && Date.now() - this.openedAt > STEADY_MS) this.backoff.reset();
    this.openedAt = 0;
    const delay = this.backoff.next();
    this.timer = setTimeout(() => this.reopen(), delay);
    if (!quiet || this.state === 'reconnecting') { this.setState('reconnecting'); return; }
    this.state = 'reconnecting'; // said soon, unless it is open again or the page went
    const leaving = leavingSince && Date.now() - leavingSince < LEAVING_MS;
    this.sayTimer = setTimeout(() => { if (this.state === 'reconnecting') this.setState('reconnecting'); },
      leaving ? LEAVING_MS : QUIET_MS);
  }

  /** After the back-off: the page checks its views first, then the stream opens (or backs off). */
  async reopen() {
    this.reopening = true;
    let ok = false;
    try { ok = await this.probe(); } finally { this.reopening = false; }
    if (this.closed || this.state !== 'reconnecting' || this.source) return;
    if (ok) this.open(); else this.fail();
  }

  /**
   * The session changed (session.js): the stream opens again, so that it goes with the page's new
   * cookie. After a sign-in the session and its versions are the same: it resumes where it stood
   * (the old stream closes once the new one is open). `fresh`, a new session (after a sign-out):
   * nothing held is the new session's, so it starts again from each view's snapshot.
   */
  restart({ fresh = false } = {}) {
    if (this.closed) return;
    this.refused.clear();
    if (fresh) {
      this.shut();
      this.last.clear();
      this.presence.clear();
      this.following = [];
      this.backoff.reset();
      this.setState(this.target().length ? 'connecting' : 'idle');
    }
    // Failed meanwhile: the reopen pending takes the new cookie anyway.
    if (this.state !== 'reconnecting' && this.target().length) this.open();
  }

  /** As if the network dropped the stream: it reconnects (the tests' debug hook). */
  drop() { this.fail(); }

  shut() {
    clearTimeout(this.timer);
    clearTimeout(this.endTimer);
    clearTimeout(this.sayTimer);
    for (const source of [this.source, this.previous]) if (source) source.close();
    this.source = null;
    this.previous = null;
  }

  /** Closes the stream for good, at once (the page goes): the server frees it. Says nothing. */
  close() {
    this.closed = true;
    this.stopWatching();
    this.shut();
  }

  /** fresh: a new stream just opened (it says presence afresh). */
  setState(state, { fresh = false } = {}) {
    this.state = state;
    this.emit({ type: 'state', state, views: [...this.following], fresh });
  }
}
