// tab-leader.js — one event stream per browser, not per tab. The tabs of one origin share a
// session (the cookie), and the server allows a session sixteen streams and a browser six
// connections per host: ten tabs with a stream each would run out. So the tabs elect a leader
// with the Web Locks API (navigator.locks.request('bindery-events', …): one tab holds it, the
// others wait in line) and the leader holds the only Connection (connection.js), following the
// union of every tab's views. The others tell it their views and hear the events over a
// BroadcastChannel.
//
// Messages on the channel 'bindery-events' (each tab's link has an id):
//   any -> all          hello {tab, views} once it is here, views {tab, views, retry?} when its
//                       views change (or a new leader asks: every tab knows every tab's views, so
//                       whoever leads next does), bye {tab} when it goes (pagehide, freeze);
//   follower -> leader  drop {} (the tests' debug hook);
//   leader -> all       leader {tab} when it takes over, state {state, views, fresh} and event
//                       {view, kind, …} as connection.js emits them (snapshots whole: a patch is
//                       applied once), replay {to, view, snapshot, presence} for a tab that asks
//                       for a view the stream already follows (the server won't send it again),
//                       reset {change} once its stream started again on a new session.
//
// A new session (a sign-out, session.js): every tab hears of it, the leader opens its stream
// afresh and says `reset`. Until then a tab holds nothing of the old session's views and takes
// nothing from the leader: an old snapshot shown to a new screen would carry a version the new
// session will not reach for a while, and hide its own.
//
// Every tab keeps what the leader said of each view (its last snapshot and presence), so the tab
// that takes over when the leader goes resumes the stream where it stood (lastEventId names every
// view's version: nothing is missed, patches go on). Every tab keeps every tab's views too
// (tab-roster.js: a tab that went lingers a while, one whose lock is gone is forgotten). The
// leader lets go of everything on pagehide: it closes its EventSource (the server frees the
// stream at once) and releases the lock, and the next tab in line takes over.

import { Connection } from './connection.js';
import { ResetWait } from './tab-reset.js';
import { Roster, tabLock } from './tab-roster.js';

const CHANNEL = 'bindery-events';
const LOCK = 'bindery-events';
const PRUNE_MS = 15000; // how often the leader looks for tabs gone without a word
const RESET_WAIT_MS = 3000; // the longest a tab waits for the leader's reset (none may lead now)

/** Whether this browser can share one stream between its tabs. */
export function sharedAcrossTabs() {
  return Boolean(globalThis.navigator && navigator.locks && typeof navigator.locks.request === 'function'
    && typeof navigator.locks.query === 'function' && typeof globalThis.BroadcastChannel === 'function');
}

const newId = () => (globalThis.crypto && crypto.randomUUID ? crypto.randomUUID()
  : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);

export class TabLink {
  constructor() {
    this.onMessage = () => {};
    this.probe = async () => true; // the hub's: this page checks its views before a reopen
    this.mine = [];              // this tab's views
    this.roster = new Roster(() => { if (this.connection) this.connection.setViews(this.union()); });
    this.resetWait = new ResetWait(); // a new session, until the leader's reset
    this.last = new Map();       // view -> the last snapshot the leader passed on
    this.presence = new Map();   // view -> the last presence the leader passed on
    this.state = { type: 'state', state: 'connecting', views: [] };
    this.connection = null;      // ours while we lead
    this.leader = null;          // the leading tab's id, as last heard
    this.gone = true;
    this.join();
  }

  get role() { return this.connection ? 'leader' : 'follower'; }

  /** Takes a place: this tab's own lock (alive), the channel, and a place in line to lead. */
  join() {
    if (!this.gone) return;
    this.gone = false;
    this.id = newId();
    const generation = (this.generation = (this.generation || 0) + 1);
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (event) => this.heard(event.data);
    this.abort = new AbortController();
    const { signal } = this.abort;
    this.here = new Promise((granted) => {
      navigator.locks.request(tabLock(this.id), { signal }, () => new Promise((release) => {
        this.releaseTab = release;
        granted();
      })).catch(() => {});
    });
    this.here.then(() => this.post({ type: 'hello', tab: this.id, views: this.mine }));
    navigator.locks.request(LOCK, { signal }, () => this.lead(generation)).catch(() => {});
  }

  /** Holds the lock (and the one stream) until this tab goes. */
  async lead(generation) {
    if (this.generation !== generation || this.gone) return;
    const steppedDown = new Promise((resolve) => { this.stepDown = resolve; });
    await Promise.race([this.here, steppedDown]);
    if (this.generation !== generation || this.gone) return;
    const connection = new Connection((message) => this.relay(message), { probe: () => this.probe() });
    // Where the stream stood: every view's last version as the leader before us passed it on.
    for (const [view, snapshot] of this.last) connection.last.set(view, snapshot);
    this.connection = connection;
    this.leader = this.id;
    this.awaited(); // a new session: the stream we open is its own
    this.post({ type: 'leader', tab: this.id }); // the others answer with their views
    await this.roster.prune();
    if (this.connection === connection) connection.setViews(this.union());
    const timer = setInterval(() => this.roster.prune().then(() => {
      if (this.connection === connection) connection.setViews(this.union());
    }), PRUNE_MS);
    await steppedDown;
    clearInterval(timer);
  }

  union() { return this.roster.union(this.mine); }

  post(message) {
    if (this.gone) return;
    try { this.channel.postMessage(message); } catch { /* closed */ }
  }

  /** What our connection emits: to this page, and to every other tab. */
  relay(message) {
    if (message.type === 'state') this.stateIs(message);
    else this.mirror(message);
    this.onMessage(message);
    this.post(message);
  }

  stateIs(message) {
    this.state = message;
    if (message.state !== 'open') return;
    if (message.fresh) this.presence.clear(); // a new stream says it afresh
    // Views no longer followed: what we hold of them would be stale when they come back.
    for (const view of [...this.last.keys()]) if (!message.views.includes(view)) this.last.delete(view);
    for (const view of [...this.presence.keys()]) if (!message.views.includes(view)) this.presence.delete(view);
  }

  mirror(message) {
    if (message.snapshot) this.last.set(message.view, message.snapshot);
    if (message.kind === 'presence') this.presence.set(message.view, message.data);
    if (message.kind === 'problem' || message.kind === 'end') {
      this.last.delete(message.view);
      this.presence.delete(message.view);
    }
  }

  heard(message) {
    if (!message || this.gone) return;
    const leading = Boolean(this.connection);
    // Waiting for the leader's reset: what it says of the old session is not taken.
    if (this.resetWait.waiting && ['state', 'event', 'replay'].includes(message.type)) return;
    switch (message.type) {
      case 'hello':
      case 'views':
        this.roster.says(message.tab, message.views);
        if (!leading) return;
        for (const view of message.retry || []) this.connection.retry(view);
        this.connection.setViews(this.union());
        this.post(this.state); // where the stream stands, for a tab that just came
        this.replayTo(message.tab, message.views || []);
        return;
      case 'bye':
        this.roster.departs(message.tab);
        return;
      case 'reset':
        if (leading) return;
        this.forget();
        this.resetWait.saw(message.change);
        this.awaited();
        return;
      case 'leader':
        this.leader = message.tab;
        if (this.resetWait.waiting) this.awaited(); // its stream is newer than the change: says our views too
        else if (!leading) this.here.then(() => { if (!this.connection) this.post({ type: 'views', tab: this.id, views: this.mine }); });
        return;
      case 'drop':
        if (leading) this.connection.drop();
        return;
      case 'state':
        if (leading) return;
        this.stateIs(message);
        this.onMessage(message);
        return;
      case 'event':
        if (leading) return;
        this.mirror(message);
        this.onMessage(message);
        return;
      case 'replay':
        if (leading || message.to !== this.id) return;
        if (message.snapshot) {
          this.last.set(message.view, message.snapshot);
          this.onMessage({ type: 'event', view: message.view, kind: 'snapshot', replay: true, snapshot: message.snapshot });
        }
        if (message.presence) {
          this.presence.set(message.view, message.presence);
          this.onMessage({ type: 'event', view: message.view, kind: 'presence', replay: true, data: message.presence });
        }
        return;
      default:
    }
  }

  /** A tab asked for views: those the stream follows already won't come again; send them. */
  replayTo(tab, views) {
    const c = this.connection;
    for (const view of views) {
      if (!c.following.includes(view) || !c.last.has(view)) continue;
      this.post({ type: 'replay', to: tab, view, snapshot: c.last.get(view), presence: c.presence.get(view) || null });
    }
  }

  /** This tab's views (the hub's, all at once). */
  want(views) {
    this.mine = [...views];
    if (this.connection) this.connection.setViews(this.union());
    // Every tab says it (the leader too): whoever leads next knows every tab's views.
    this.here.then(() => this.post({ type: 'views', tab: this.id, views: this.mine }));
  }

  retry(view) {
    if (this.connection) this.connection.retry(view);
    else this.post({ type: 'views', tab: this.id, views: this.mine, retry: [view] });
  }

  drop() {
    if (this.connection) this.connection.drop();
    else this.post({ type: 'drop' });
  }

  /**
   * The session changed (hub.js); `fresh`: a new one, whose leader resets (the others' promise
   * settles then, or when another tab leads, or after RESET_WAIT_MS). After a sign-in the
   * leader's stream goes over to the new cookie, resuming; nothing else changes.
   */
  reset({ fresh = false, change = null } = {}) {
    if (this.connection) {
      if (fresh) this.forget();
      this.connection.restart({ fresh });
      if (fresh) this.post({ type: 'reset', change });
      return Promise.resolve();
    }
    if (!fresh || this.resetWait.has(change)) return Promise.resolve(); // reset already: kept since is new
    this.forget();
    return this.resetWait.begin(RESET_WAIT_MS, () => this.awaited());
  }

  /** What this tab holds of the views the leader follows: gone (the session it was is). */
  forget() {
    this.last.clear();
    this.presence.clear();
    this.state = { ...this.state, views: [] };
  }

  /** The wait for the leader's reset is over: our views again, for its state and replays. */
  awaited() {
    if (this.resetWait.end()) this.here.then(() => this.post({ type: 'views', tab: this.id, views: this.mine }));
  }

  /** The last snapshot and presence of a view the stream follows now, else null. */
  known(view) {
    if (this.connection) {
      const c = this.connection;
      return c.following.includes(view) ? { snapshot: c.last.get(view), presence: c.presence.get(view) } : null;
    }
    return this.state.views.includes(view) ? { snapshot: this.last.get(view), presence: this.presence.get(view) } : null;
  }

  /** The tab goes (pagehide, freeze): stream closed at once, bye, locks released. */
  leave() {
    if (this.gone) return;
    if (this.connection) {
      this.connection.close();
      this.connection = null;
    }
    this.post({ type: 'bye', tab: this.id });
    this.gone = true;
    this.abort.abort(); // out of the line, if still waiting in it
    // Our own lock first: the next leader, looking, finds this tab gone.
    if (this.releaseTab) this.releaseTab();
    if (this.stepDown) this.stepDown();
    this.releaseTab = null;
    this.stepDown = null;
    this.channel.close();
    this.mine = [];
    this.roster.clear();
    this.awaited();
    this.leader = null;
    this.state = { type: 'state', state: 'connecting', views: [] };
  }

  describe() {
    return {
      role: this.role,
      tab: this.id,
      leader: this.leader,
      views: this.connection ? this.connection.wanted : this.mine,
      state: this.connection ? this.connection.state : this.state.state,
      following: this.connection ? this.connection.following : this.state.views,
    };
  }
}
