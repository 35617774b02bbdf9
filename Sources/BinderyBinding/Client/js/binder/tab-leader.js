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
//                       for a view the stream already follows (the server won't send it again).
// A tab that went stays in the union for LINGER_MS: a reloaded tab comes back with the same views
// before the stream would change.
//
// Every tab keeps what the leader said of each view (its last snapshot and presence), so the tab
// that takes over when the leader goes resumes the stream where it stood (lastEventId names every
// view's version: nothing is missed, patches go on). A tab is alive while it holds its own lock
// ('bindery-tab-<id>'): the leader forgets the views of tabs whose lock is gone (a crashed tab says
// no bye). The leader lets go of everything on pagehide: it closes its EventSource (the server
// frees the stream at once) and releases the lock, and the next tab in line takes over.

import { Connection } from './connection.js';

const CHANNEL = 'bindery-events';
const LOCK = 'bindery-events';
const TAB_LOCK = 'bindery-tab-';
const PRUNE_MS = 15000; // how often the leader looks for tabs gone without a word
// A tab that went stays followed this long: a reload comes back with the same views, and the
// stream need not change twice (nor the server deactivate and activate its view models).
const LINGER_MS = 2000;

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
    this.tabs = new Map();       // the other tabs: id -> {views, since}
    this.departed = new Map();   // tabs that went, followed a little longer: id -> {views, until}
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
      navigator.locks.request(TAB_LOCK + this.id, { signal }, () => new Promise((release) => {
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
    this.post({ type: 'leader', tab: this.id }); // the others answer with their views
    await this.prune();
    if (this.connection === connection) connection.setViews(this.union());
    const timer = setInterval(() => this.prune().then(() => {
      if (this.connection === connection) connection.setViews(this.union());
    }), PRUNE_MS);
    await steppedDown;
    clearInterval(timer);
  }

  /** Forgets the tabs whose lock is gone (closed or crashed without a bye). */
  async prune() {
    const asked = Date.now();
    let held;
    try {
      ({ held = [] } = await navigator.locks.query());
    } catch {
      return;
    }
    const alive = new Set(held.map((lock) => lock.name));
    for (const [tab, entry] of this.tabs) {
      if (entry.since < asked && !alive.has(TAB_LOCK + tab)) this.departs(tab);
    }
  }

  /** A tab went: its views stay in the union for LINGER_MS. */
  departs(tab) {
    const entry = this.tabs.get(tab);
    if (!entry) return;
    this.tabs.delete(tab);
    this.departed.set(tab, { views: entry.views, until: Date.now() + LINGER_MS });
    setTimeout(() => {
      const now = Date.now();
      for (const [id, gone] of this.departed) if (gone.until <= now) this.departed.delete(id);
      if (this.connection) this.connection.setViews(this.union());
    }, LINGER_MS + 10);
  }

  union() {
    const views = new Set(this.mine);
    for (const entry of this.tabs.values()) for (const view of entry.views) views.add(view);
    const now = Date.now();
    for (const gone of this.departed.values()) if (gone.until > now) for (const view of gone.views) views.add(view);
    return [...views];
  }

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
    switch (message.type) {
      case 'hello':
      case 'views':
        this.tabs.set(message.tab, { views: message.views || [], since: Date.now() });
        if (!leading) return;
        for (const view of message.retry || []) this.connection.retry(view);
        this.connection.setViews(this.union());
        this.post(this.state); // where the stream stands, for a tab that just came
        this.replayTo(message.tab, message.views || []);
        return;
      case 'bye':
        this.departs(message.tab);
        return;
      case 'leader':
        this.leader = message.tab;
        if (!leading) this.here.then(() => { if (!this.connection) this.post({ type: 'views', tab: this.id, views: this.mine }); });
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
    this.tabs.clear();
    this.departed.clear();
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
