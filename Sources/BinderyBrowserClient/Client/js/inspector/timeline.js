// timeline.js — the versions of one view model, for time travel in the inspector: first those the
// server's log still keeps (GET /api/views/{path}/versions: up to 64 versions or 15 minutes, from
// before the page opened), then each snapshot the page receives. Shown as a listbox, newest first —
// version, time, size, how long it took (a version this page wrote), the members that changed —
// that the arrow keys move through.

import { byteSize } from '../trace.js';
import { diffSnapshots } from './diff.js';
import { MASK } from './secrets.js';
import { formatBytes } from './stream-log.js';

const KEPT = 300; // versions kept per view model

/** `value` as JSON with every object's keys in order: equal snapshots give equal texts. */
function canonical(value) {
  return JSON.stringify(value, (key, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}
const NAMED = 4;  // changed members named in an entry; the rest are counted

/** Whether `logged` is `value` with some text masked (MASK standing for any text, or none). */
function maskedCopy(logged, value) {
  if (typeof logged === 'string' && typeof value === 'string' && logged.includes(MASK)) {
    const pattern = logged.split(MASK).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
    return new RegExp(`^${pattern}$`).test(value);
  }
  if (!logged || !value || typeof logged !== 'object' || typeof value !== 'object') return logged === value;
  if (Array.isArray(logged) !== Array.isArray(value)) return false;
  const keys = Object.keys(logged);
  if (keys.length !== Object.keys(value).length) return false;
  return keys.every((key) => key in value && maskedCopy(logged[key], value[key]));
}

/** Every version of one view model the inspector knows, by number. */
export class VersionHistory {
  constructor(path) {
    this.path = path;
    this.entries = new Map(); // version -> {version, at (ms or null), snapshot, bytes}
    this.loaded = null;       // the promise of the log's versions
  }

  /**
   * Notes `snapshot` (received at `at`, ms since 1970, or null when unknown). `logged`: from the
   * server's log, which masks sensitive inputs (and their echoes) itself: a version the page
   * received as well is the page's, unless it differs elsewhere than where the log says MASK.
   */
  add(snapshot, at = Date.now(), { logged = false } = {}) {
    if (!snapshot || typeof snapshot.version !== 'number') return;
    const known = this.entries.get(snapshot.version);
    if (known && (canonical(known.snapshot) === canonical(snapshot) || (logged && maskedCopy(snapshot, known.snapshot)))) {
      if (known.at == null && at != null) known.at = at;
      return;
    }
    // Another lineage (the session was started again): what is newer is forgotten.
    if (known) for (const v of [...this.entries.keys()]) if (v >= snapshot.version) this.entries.delete(v);
    this.entries.set(snapshot.version, { version: snapshot.version, at, snapshot, bytes: byteSize(JSON.stringify(snapshot)) });
    if (this.entries.size > KEPT) this.entries.delete(Math.min(...this.entries.keys()));
  }

  /** Asks the server's log for the versions it keeps (again when `force`); answers whether it could. */
  load({ force = false } = {}) {
    if (!this.loaded || force) {
      this.loaded = fetch(`/api/views/${this.path}/versions`, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then((r) => (r.ok ? r.json() : null))
        .then((body) => {
          if (!body || !Array.isArray(body.versions)) return false;
          for (const v of body.versions) this.add(v.snapshot, v.at ? Date.parse(v.at) : null, { logged: true });
          return true;
        })
        .catch(() => { this.loaded = null; return false; });
    }
    return this.loaded;
  }

  /** The versions, oldest first. */
  list() {
    return [...this.entries.values()].sort((a, b) => a.version - b.version);
  }

  get(version) { return this.entries.get(version) || null; }

  /** The version known just before `version`, or null. */
  previous(version) {
    let best = null;
    for (const e of this.entries.values()) if (e.version < version && (!best || e.version > best.version)) best = e;
    return best;
  }

  /** The newest version known, or null. */
  latest() {
    const all = this.list();
    return all.length ? all[all.length - 1] : null;
  }

  /** The changes of `version` against the version before it ([] for the first known). */
  changes(version) {
    const entry = this.get(version);
    const before = this.previous(version);
    if (!entry || !before) return [];
    if (!entry.changes || entry.changes.against !== before) entry.changes = { against: before, list: diffSnapshots(before.snapshot, entry.snapshot) };
    return entry.changes.list;
  }
}

/** "14:03:27.512" in local time; "time unknown" without one. */
export function clockTime(at) {
  if (at == null) return 'time unknown';
  const d = new Date(at);
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** The words of an entry's changes: "inputs.phone, outputs.output and 2 more". */
function changedWords(names, first) {
  if (first) return 'first version known';
  if (names.length === 0) return 'no member changed';
  return `${names.slice(0, NAMED).join(', ')}${names.length > NAMED ? ` and ${names.length - NAMED} more` : ''}`;
}

/**
 * Fills the listbox `list` with the versions of `history`, newest first. `selected` is the
 * version shown (null: live, the newest), `matches(names)` keeps an entry by the names of the
 * members it changed (the filter), `onSelect(version, {focus})` hears the choice, `note(version)`
 * says how long a version took ({text, state}, shown after its size), or null.
 */
export function renderTimeline(list, history, { selected, matches = () => true, onSelect, note = () => null }) {
  const all = history.list();
  const newest = all.length ? all[all.length - 1].version : null;
  const current = selected == null ? newest : selected;
  const shown = all.filter((e, i) => e.version === current || matches(history.changes(e.version).map((c) => c.name), i === 0)).reverse();
  if (!list.dataset.keys) {
    list.dataset.keys = 'on';
    list.addEventListener('keydown', (event) => onKey(event, list));
    list.addEventListener('click', (event) => {
      const option = event.target.closest('[role="option"]');
      if (option) list.onSelectVersion(Number(option.dataset.version), { focus: true });
    });
  }
  list.onSelectVersion = onSelect;
  const hadFocus = list.contains(document.activeElement);
  if (shown.length === 0) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(...shown.map((e) => {
    const item = document.createElement('li');
    item.setAttribute('role', 'option');
    item.id = `inspector-version-${e.version}`;
    item.dataset.version = String(e.version);
    const isSelected = e.version === current;
    item.setAttribute('aria-selected', String(isSelected));
    item.tabIndex = isSelected ? 0 : -1;
    const names = history.changes(e.version).map((c) => c.name);
    const number = document.createElement('strong');
    number.textContent = `v${e.version}`;
    const time = document.createElement('time');
    if (e.at != null) time.dateTime = new Date(e.at).toISOString();
    time.textContent = clockTime(e.at);
    const what = document.createElement('span');
    what.className = 'timeline-changed';
    what.textContent = changedWords(names, e === all[0] && !history.previous(e.version));
    item.append(number, e.version === newest ? ' (live) · ' : ' · ', time, ` · ${formatBytes(e.bytes)} · `);
    const took = note(e.version);
    if (took) {
      const latency = document.createElement('span');
      latency.className = 'timeline-latency';
      latency.dataset.latency = took.state;
      latency.textContent = took.text;
      item.append(latency, ' · ');
    }
    item.append(what);
    return item;
  }));
  if (!list.querySelector('[tabindex="0"]')) list.firstElementChild.tabIndex = 0;
  if (hadFocus) (list.querySelector('[tabindex="0"]') || list.firstElementChild).focus();
}

/** Arrow keys, Home and End move the selection (and the focus) through the options. */
function onKey(event, list) {
  const options = [...list.querySelectorAll('[role="option"]')];
  const here = options.indexOf(document.activeElement);
  let next = null;
  if (event.key === 'ArrowDown' || event.key === 'ArrowRight') next = Math.min(options.length - 1, here + 1);
  else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') next = Math.max(0, here - 1);
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = options.length - 1;
  else if ((event.key === 'Enter' || event.key === ' ') && here >= 0) next = here;
  if (next == null || !options[next]) return;
  event.preventDefault();
  list.onSelectVersion(Number(options[next].dataset.version), { focus: true });
}
