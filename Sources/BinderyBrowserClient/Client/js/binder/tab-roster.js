// tab-roster.js — what the tabs of the browser want followed, as one tab knows it (tab-leader.js):
// each other tab's views as it last said them, and for a little while those of a tab that went
// (LINGER_MS: a reloaded tab comes back with the same views before the stream would change). The
// leading tab follows the union; every tab keeps the roster, so whoever leads next knows it.
// A tab is alive while it holds its own lock ('bindery-tab-<id>'): prune() forgets the tabs
// whose lock is gone (a crashed tab says no bye).

const TAB_LOCK = 'bindery-tab-';
// A tab that went stays followed this long: a reload comes back with the same views, and the
// stream need not change twice (nor the server deactivate and activate its view models).
const LINGER_MS = 2000;

/** The name of the lock that says tab `id` is alive. */
export const tabLock = (id) => TAB_LOCK + id;

export class Roster {
  /** changed(): the union may have changed (a departed tab's views lapsed). */
  constructor(changed = () => {}) {
    this.changed = changed;
    this.tabs = new Map();     // id -> {views, since}
    this.departed = new Map(); // id -> {views, until}
  }

  /** Tab `id` said its views. */
  says(id, views) {
    this.tabs.set(id, { views: views || [], since: Date.now() });
  }

  /** A tab went: its views stay in the union for LINGER_MS. */
  departs(id) {
    const entry = this.tabs.get(id);
    if (!entry) return;
    this.tabs.delete(id);
    this.departed.set(id, { views: entry.views, until: Date.now() + LINGER_MS });
    setTimeout(() => {
      const now = Date.now();
      for (const [tab, gone] of this.departed) if (gone.until <= now) this.departed.delete(tab);
      this.changed();
    }, LINGER_MS + 10);
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
      if (entry.since < asked && !alive.has(tabLock(tab))) this.departs(tab);
    }
  }

  /** `mine` and every tab's views (a departed tab's while it lingers). */
  union(mine) {
    const views = new Set(mine);
    for (const entry of this.tabs.values()) for (const view of entry.views) views.add(view);
    const now = Date.now();
    for (const gone of this.departed.values()) if (gone.until > now) for (const view of gone.views) views.add(view);
    return [...views];
  }

  clear() {
    this.tabs.clear();
    this.departed.clear();
  }
}
