// hub.js — the page's one event stream. Every view model the page shows (its screen, a child,
// what presence listens to) registers its EventStream (stream.js) here instead of opening an
// EventSource of its own; the hub hands the set of the page's views to a link and gives each
// stream the events of its view and the connection's state.
//
// The link is tab-leader.js's when the browser has Web Locks and BroadcastChannel: the tabs of
// one browser (one origin, hence one session) share one stream, held by a leader tab. Otherwise
// it is this tab's own Connection (connection.js). Either way the page's views go out together:
// additions at once (in the next task, so that one navigation makes one change), removals after
// LINGER_MS unless something is added first (a navigation removes the old screen before the new
// one has its first snapshot: the stream reopens once, with the new screen, not twice).
//
// The tab that holds the stream lets its binders check their views (check()) before it reopens
// after a failure; the other tabs' binders check theirs once it is open again.
//
// A stream that registers for a view the connection already follows (another tab shows it) gets
// the last snapshot and presence the connection received at once, since the stream won't send
// them again. On pagehide (and freeze) the hub lets go at once: the leader closes its stream, so
// the server frees it; a follower says it left. pageshow (back/forward cache) and resume join again.
//
// Users: when the session changes (session.js) reset() moves the stream over to it (the leader's
// reopens, with the new cookie); views that `end` on the stream this tab holds (the session was
// signed out, here or on another device) call the app's onEnded(), once for all of them, so
// that the page asks who is signed in now.

import { note } from '../trace.js';
import { Connection, soon } from './connection.js';
import { TabLink, sharedAcrossTabs } from './tab-leader.js';

const LINGER_MS = 1000;
const ENDED_MS = 200; // the `end`s of one sign-out arrive together: one onEnded() for them
const TRACED = new Set(['snapshot', 'patch', 'edits', 'presence']);

/** This tab alone: its own connection (no Web Locks or no BroadcastChannel). */
class OwnLink {
  constructor() {
    this.onMessage = () => {};
    this.probe = async () => true;
    this.connection = null;
    this.join();
  }

  get role() { return 'alone'; }

  join() { this.connection = new Connection((message) => this.onMessage(message), { probe: () => this.probe() }); }

  want(views) { this.connection.setViews(views); }

  retry(view) { this.connection.retry(view); }

  drop() { this.connection.drop(); }

  /** The last snapshot and presence of a view the connection follows now, else null. */
  known(view) {
    const c = this.connection;
    return c.following.includes(view) ? { snapshot: c.last.get(view), presence: c.presence.get(view) } : null;
  }

  leave() { this.connection.close(); }

  reset({ fresh = false } = {}) {
    this.connection.restart({ fresh });
    return Promise.resolve();
  }

  describe() { return { role: this.role, views: this.connection.wanted, state: this.connection.state, following: this.connection.following }; }
}

export class Hub {
  constructor(link) {
    this.link = link;
    link.onMessage = (message) => this.receive(message);
    link.probe = () => this.probe();
    this.streams = new Map(); // view -> Set of EventStream
    this.state = 'connecting'; // the connection's, as last told
    this.following = new Set();
    this.sent = null;          // the views last given to the link (sorted, joined)
    this.lingerTimer = null;
    this.leaving = false;
    this.endedTimer = null;
    // Capture: before app.js's own pagehide listener stops the screen (nothing reopens then).
    window.addEventListener('pagehide', () => this.leave(), { capture: true });
    window.addEventListener('pageshow', (event) => { if (event.persisted) this.rejoin(); });
    document.addEventListener('freeze', () => this.leave());
    document.addEventListener('resume', () => this.rejoin());
  }

  /** A view's stream joins: it gets the state now (and what is known of its view), events later. */
  add(stream) {
    const view = stream.path;
    const first = !this.streams.has(view);
    if (first) this.streams.set(view, new Set());
    this.streams.get(view).add(stream);
    stream.connection(this.state, this.following.has(view));
    if (this.following.has(view)) this.replay(stream);
    this.changed(true);
    // A view shown afresh is asked for afresh: a refusal of an earlier screen of it (a session
    // the server forgot since) must not keep the new one from its stream.
    if (first) this.retry(view);
  }

  /** Gives a stream what the connection holds of its view: the stream won't send it again. */
  replay(stream) {
    const view = stream.path;
    const known = this.link.known(view);
    if (known && known.snapshot) stream.deliver({ type: 'event', view, kind: 'snapshot', replay: true, snapshot: known.snapshot });
    if (known && known.presence) stream.deliver({ type: 'event', view, kind: 'presence', replay: true, data: known.presence });
  }

  remove(stream) {
    const set = this.streams.get(stream.path);
    if (!set || !set.delete(stream)) return;
    if (set.size === 0) {
      this.streams.delete(stream.path);
      this.changed(false);
    }
  }

  /**
   * Before the stream reopens after a failure (in the tab that holds it): every stream of this
   * page checks its view, with the page's own requests. False when the server is still away.
   */
  async probe() {
    const streams = [...this.streams.values()].flatMap((set) => [...set]);
    const verdicts = await Promise.all(streams.map((stream) => stream.probe()));
    return !verdicts.includes('retry');
  }

  /** A view the server refused may be followed again (its binder checked it). */
  retry(view) { if (!this.leaving) this.link.retry(view); }

  /** As if the network dropped the stream (the tests' debug hook). */
  drop() { if (!this.leaving) this.link.drop(); }

  changed(added) {
    if (added) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
      soon(() => this.flush());
    } else if (!this.lingerTimer) {
      this.lingerTimer = setTimeout(() => { this.lingerTimer = null; this.flush(); }, LINGER_MS);
    }
  }

  flush() {
    if (this.leaving) return;
    const views = [...this.streams.keys()];
    const key = [...views].sort().join(',');
    if (key === this.sent) return;
    this.sent = key;
    this.link.want(views);
  }

  receive(message) {
    if (message.type === 'state') {
      const before = this.following;
      this.state = message.state;
      this.following = new Set(message.views);
      for (const [view, set] of this.streams) {
        for (const stream of [...set]) stream.connection(this.state, this.following.has(view));
        // Followed now, perhaps without a snapshot for us (a stream that resumed it): what is known.
        if (this.following.has(view) && !before.has(view)) for (const stream of [...set]) this.replay(stream);
      }
    } else if (message.type === 'event') {
      if (message.kind === 'end' && this.link.role !== 'follower' && !this.endedTimer) {
        this.endedTimer = setTimeout(() => { this.endedTimer = null; ended(); }, ENDED_MS);
      }
      const set = this.streams.get(message.view);
      if (!set) return;
      if (!message.replay && TRACED.has(message.kind)) {
        note({ type: 'event', path: message.view, kind: message.kind, version: message.version ?? null, bytes: message.bytes || 0 });
      }
      for (const stream of [...set]) stream.deliver(message);
    }
  }

  /**
   * The session changed (session.js; `fresh`: a new one, after a sign-out): the stream goes over to
   * it. Answers once this page may show the new session's views: what the stream says from then on
   * is the new session's (tab-leader.js).
   */
  reset({ fresh = false, change = null } = {}) {
    if (this.leaving) return Promise.resolve();
    if (fresh) this.following = new Set();
    return this.link.reset({ fresh, change });
  }

  leave() {
    if (this.leaving) return;
    this.leaving = true;
    clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    this.link.leave();
    this.sent = null;
    this.state = 'connecting';
    this.following = new Set();
  }

  rejoin() {
    if (!this.leaving) return;
    this.leaving = false;
    this.link.join();
    this.flush();
  }

  /** Where this page stands (the tests' and the curious' view): role, views, state. */
  describe() {
    return { ...this.link.describe(), page: [...this.streams.keys()], pageState: this.state };
  }
}

let hub = null;
let ended = () => {};

/** The page's hub, made on first use. */
export function pageHub() {
  if (!hub) hub = new Hub(sharedAcrossTabs() ? new TabLink() : new OwnLink());
  return hub;
}

/** Calls `listener()` when views end on the stream this tab holds (the app's: who is signed in now?). */
export function onEnded(listener) { ended = listener; }

/** The session changed: the page's hub, if it has one, goes over to it (Hub.reset). */
export function resetHub(options) {
  return hub ? hub.reset(options) : Promise.resolve();
}
