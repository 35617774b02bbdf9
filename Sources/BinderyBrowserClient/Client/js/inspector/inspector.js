// inspector.js — the live view-model inspector: a panel beside the screen (below it on a phone)
// that shows the screen's view model as the server sends it — a timeline of its versions (from the
// server's log, then live) to travel back through, the snapshot of the version chosen as formatted
// JSON with the members that changed marked, the diff against the version before, each command's
// policy and state, the versions as they arrived over the event stream, the curl line of the
// page's last action, and "Copy as test" (the page's steps as a Swift test). Beside each version,
// how long it took (latency.js, latency-view.js): the server's phases of the page's write that made
// it, when it came over the stream, and the screen's latency budget with the writes over it. It
// reads only what the page receives (binder snapshots, trace.js, the answers' Server-Timing) and
// the view's version log; it changes nothing.
// Sensitive inputs (a password) are masked in all of it (secrets.js).
//
// Opened and closed by the header's "Inspector" button or the backquote key (`) outside text
// fields; Escape closes it and gives focus back to the button. Whether it is open survives
// navigation and reloads of the tab (sessionStorage).

import { recent, watch } from '../trace.js';
import { actionPanel } from './action-panel.js';
import { renderCommands } from './commands-view.js';
import { at, renderDiff } from './diff.js';
import { changedMembers, filterMembers, memberName, renderJSON } from './json-view.js';
import { LatencyLog } from './latency.js';
import { latencySection } from './latency-view.js';
import { Recorder } from './recorder.js';
import { describePath, loadCatalogue, MASK, maskSnapshot, maskStrings, secretsOf } from './secrets.js';
import { renderStreamLog } from './stream-log.js';
import { timelinePanel } from './timeline-panel.js';
import { VersionHistory } from './timeline.js';

const STORAGE_KEY = 'bindery.inspector';
const MAX_NAMED = 6; // changed members named in words; the rest are counted

const isTextField = (el) => el && (el.isContentEditable || el.closest('input, textarea, select'));
const words = (names) => `${names.slice(0, MAX_NAMED).join(', ')}${names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : ''}`;

export class Inspector {
  constructor(panel, toggle) {
    this.panel = panel;
    this.toggle = toggle;
    this.binder = null;
    this.stopWatching = null;
    this.changed = [];
    this.shownAtSend = new Map(); // request id -> the version the page showed when it left
    this.recorder = new Recorder(); // from the page's load: "Copy as test" replays it
    this.latency = new LatencyLog(); // from the page's load: how long each version took
    this.histories = new Map();     // view path -> VersionHistory
    this.selected = null;           // the version shown; null: the live one
    this.query = '';                // the members filter
    this.views = null;              // the catalogue (sensitive inputs), once loaded
    this.part = (name) => panel.querySelector(`[data-part="${name}"]`);
    this.part('origin').textContent = location.origin;
    this.part('timeline').closest('section').after(latencySection());
    toggle.addEventListener('click', () => this.setOpen(!this.open));
    this.part('close').addEventListener('click', () => this.setOpen(false, { returnFocus: true }));
    this.part('copy').addEventListener('click', () => this.copy());
    this.part('live').addEventListener('click', () => this.select(null, { focus: false }));
    this.part('copy-test').addEventListener('click', () => this.copyTest());
    this.part('filter').addEventListener('input', (event) => { this.query = event.target.value; if (this.open) this.renderVersions(); });
    document.addEventListener('keydown', (event) => this.onKey(event));
    watch((record) => this.onRecord(record));
    this.loadViews();
    this.setOpen(sessionStorage.getItem(STORAGE_KEY) === 'open', { focus: false });
  }

  get open() { return !this.panel.hidden; }

  /** The catalogue, for the sensitive inputs; until it came nothing with a value is shown. */
  loadViews() {
    loadCatalogue().then((views) => {
      if (!views) return; // asked again at the next render
      this.views = views;
      if (this.open) this.render();
    });
  }

  /** The history of the view model at `path` (made on first use). */
  historyOf(path) {
    if (!this.histories.has(path)) this.histories.set(path, new VersionHistory(path));
    return this.histories.get(path);
  }

  get history() { return this.binder ? this.historyOf(this.binder.path) : null; }

  /** The screen in view changed: follow its binder (null on a screen without a view model). */
  show(binder) {
    if (this.stopWatching) this.stopWatching();
    this.stopWatching = null;
    this.binder = binder;
    this.changed = [];
    this.selected = null;
    if (binder) {
      const history = this.historyOf(binder.path);
      if (binder.snapshot) history.add(binder.snapshot);
      this.stopWatching = binder.onSnapshot((snapshot, previous) => {
        history.add(snapshot);
        this.changed = previous ? changedMembers(previous, snapshot).filter((p) => p !== '/version') : [];
        if (this.open) this.renderVersions();
      });
      if (this.open) this.loadHistory();
    }
    if (this.open) this.render();
  }

  /** Asks the server's log for the versions of the view in view, then shows them. */
  loadHistory() {
    const history = this.history;
    if (!history) return Promise.resolve(false);
    return history.load({ force: true }).then((ok) => {
      if (this.open && history === this.history) this.renderVersions();
      return ok;
    });
  }

  setOpen(open, { focus = true, returnFocus = false } = {}) {
    this.panel.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) document.documentElement.dataset.inspector = ''; else delete document.documentElement.dataset.inspector;
    sessionStorage.setItem(STORAGE_KEY, open ? 'open' : 'closed');
    if (open) {
      this.render();
      this.loadHistory();
      if (focus) this.part('title').focus();
    } else if (returnFocus || this.panel.contains(document.activeElement)) {
      this.toggle.focus();
    }
  }

  onKey(event) {
    if (event.key === 'Escape' && this.open && !event.defaultPrevented) {
      event.preventDefault();
      this.setOpen(false, { returnFocus: true });
      return;
    }
    const backquote = event.key === '`' || (event.code === 'Backquote' && event.key === 'Dead');
    if (!backquote || event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) return;
    event.preventDefault();
    this.setOpen(!this.open);
  }

  /** A trace record: an event of this screen's stream, or a write of the page. */
  onRecord(record) {
    if (record.type === 'request' && record.phase === 'sent') {
      this.shownAtSend.set(record.id, this.binder ? this.binder.version : null);
      if (this.shownAtSend.size > 50) this.shownAtSend.delete(this.shownAtSend.keys().next().value);
    }
    if (!this.open) return;
    if (record.type === 'event' && this.binder && record.path === this.binder.path) {
      this.renderStream();
      if (record.kind === 'snapshot' || record.kind === 'patch') this.renderTiming(); // a version arrived
    }
    if (record.type === 'request' && record.phase === 'answered') { this.renderAction(); this.renderTest(); this.renderTiming(); }
  }

  /** {name, root, sensitive, budgets} of the view at `path`; null until the catalogue is known. */
  viewAt(path) {
    if (!this.views) return null;
    return describePath(this.views, path) || { name: path.split('/')[0], root: !path.includes('/'), sensitive: [], budgets: [] };
  }

  /** The sensitive inputs of the view in view and their current values; null while unknown. */
  secrecy() {
    if (!this.binder) return { names: [], current: [] };
    const view = this.viewAt(this.binder.path);
    if (!view) return null;
    const latest = this.history && this.history.latest();
    const current = [this.binder.snapshot, latest && latest.snapshot].flatMap((s) => secretsOf(s, view.sensitive));
    return { names: view.sensitive, current };
  }

  render() {
    if (!this.views) this.loadViews();
    this.part('path').textContent = this.binder ? `/api/views/${this.binder.path}` : 'This screen has no view model.';
    this.renderVersions();
    this.renderStream();
    this.renderAction();
    this.renderTest();
  }

  /** Chooses the version shown: a number, or null (or the newest) to follow the live one. */
  select(version, { focus = false } = {}) {
    const latest = this.history && this.history.latest();
    this.selected = version == null || (latest && version === latest.version) ? null : version; // the newest is live
    this.renderVersions();
    if (focus) {
      const option = this.part('timeline').querySelector(`[data-version="${version}"]`);
      if (option) option.focus();
    }
  }

  /** The timeline, the snapshot of the version shown, its diff and its commands. */
  renderVersions() {
    const history = this.history;
    const secrecy = this.secrecy();
    const live = this.selected == null;
    const latest = history && history.latest();
    const shownEntry = !history ? null : live ? null : history.get(this.selected);
    const snapshot = !this.binder ? null : live ? (this.binder.snapshot || (latest && latest.snapshot)) : shownEntry && shownEntry.snapshot;
    const q = this.query.trim().toLowerCase();
    const matches = (name) => !q || name.toLowerCase().includes(q);

    // The timeline, and how long the version shown took.
    this.renderTiming();

    // The snapshot shown, masked, filtered; its changed members marked.
    const version = snapshot ? snapshot.version : null;
    const previous = history && version != null ? history.previous(version) : null;
    const changed = !snapshot ? [] : live && this.changed.length ? this.changed
      : previous ? changedMembers(previous.snapshot, snapshot).filter((p) => p !== '/version') : [];
    this.part('version').textContent = !snapshot ? '' : live ? `version ${version} (live)` : `version ${version} of ${latest ? latest.version : '?'} (not live)`;
    if (!secrecy) {
      renderJSON(this.part('json'), null);
      this.part('changed').textContent = 'Loading…';
      renderDiff(this.part('diff'), [], 'Loading…');
      renderCommands(this.part('commands'), null);
      return;
    }
    const safe = snapshot && maskSnapshot(snapshot, secrecy.names, secrecy.current);
    const filtered = safe && filterMembers(safe, this.query);
    renderJSON(this.part('json'), filtered === undefined ? null : filtered, changed);
    this.part('json-empty').hidden = filtered !== undefined || !safe;
    this.part('json-empty').textContent = `No member is named like “${this.query.trim()}”.`;
    const names = changed.map(memberName);
    this.part('changed').textContent = !snapshot ? 'Waiting for the first snapshot…'
      : names.length === 0 ? (live ? 'Nothing changed yet on this screen.' : `Version ${version}: nothing changed.`)
        : `${live ? 'Just changed' : `Version ${version} changed`}: ${words(names)}.`;
    renderCommands(this.part('commands'), safe && safe.commands);

    // The diff against the version before, each side masked.
    const diff = previous ? this.maskedDiff(previous.snapshot, snapshot, secrecy).filter((c) => matches(c.name)) : [];
    this.part('diff-title').textContent = previous ? `Changes from version ${previous.version} to ${version}` : 'Changes';
    renderDiff(this.part('diff'), diff, !snapshot ? 'No version yet.'
      : !previous ? 'No earlier version is known to compare with.'
        : q ? `No change of a member named like “${this.query.trim()}”.` : 'Nothing changed.');
  }

  /** The latency budgets of the view in view ([] while the catalogue is unknown, or none). */
  budgets() {
    const view = this.binder && this.viewAt(this.binder.path);
    return (view && view.budgets) || [];
  }

  /** The timeline and the timing of the version shown: what changes when a write is answered. */
  renderTiming() {
    this.renderTimelineList();
    this.renderVersionTiming();
  }

  /** The changes from `before` to `after`, their values masked (sensitive inputs, echoed secrets). */
  maskedDiff(before, after, { names, current }) {
    const secrets = [...secretsOf(before, names), ...secretsOf(after, names), ...current];
    const hide = (pointer, value) => {
      if (value === undefined) return value;
      const m = /^\/inputs\/([^/]+)$/.exec(pointer);
      if (m && names.includes(m[1]) && value !== '' && value != null) return MASK;
      return maskStrings(value, secrets);
    };
    return changedMembers(before, after).filter((p) => p !== '/version').map((pointer) => {
      const old = at(before, pointer);
      const now = at(after, pointer);
      return {
        pointer,
        name: memberName(pointer),
        kind: !old.found ? 'added' : !now.found ? 'removed' : 'changed',
        before: hide(pointer, old.value),
        after: hide(pointer, now.value),
      };
    });
  }

  renderStream() {
    const path = this.binder && this.binder.path;
    renderStreamLog(this.part('stream'), path ? recent((r) => r.type === 'event' && r.path === path) : []);
  }
}

Object.assign(Inspector.prototype, timelinePanel, actionPanel);
