// inspector.js — the live view-model inspector: a panel beside the screen (below it on a phone)
// that shows the screen's view model as the server sends it — the snapshot as formatted JSON with
// the members that just changed marked, the versions as they arrived over the event stream with
// their size, each command's policy and state, and the curl line of the page's last action. It
// reads only what the page already receives (binder snapshots, trace.js); it changes nothing.
//
// Opened and closed by the header's "Inspector" button or the backquote key (`) outside text
// fields; Escape closes it and gives focus back to the button. Whether it is open survives
// navigation and reloads of the tab (sessionStorage).

import { recent, watch } from '../trace.js';
import { renderCommands } from './commands-view.js';
import { curlLine, outcome } from './curl.js';
import { changedMembers, memberName, renderJSON } from './json-view.js';
import { renderStreamLog } from './stream-log.js';

const STORAGE_KEY = 'bindery.inspector';
const MAX_NAMED = 6; // changed members named in words; the rest are counted

const isTextField = (el) => el && (el.isContentEditable || el.closest('input, textarea, select'));

export class Inspector {
  constructor(panel, toggle) {
    this.panel = panel;
    this.toggle = toggle;
    this.binder = null;
    this.stopWatching = null;
    this.changed = [];
    this.shownAtSend = new Map(); // request id -> the version the page showed when it left
    this.part = (name) => panel.querySelector(`[data-part="${name}"]`);
    this.part('origin').textContent = location.origin;
    toggle.addEventListener('click', () => this.setOpen(!this.open));
    this.part('close').addEventListener('click', () => this.setOpen(false, { returnFocus: true }));
    this.part('copy').addEventListener('click', () => this.copy());
    document.addEventListener('keydown', (event) => this.onKey(event));
    watch((record) => this.onRecord(record));
    this.setOpen(sessionStorage.getItem(STORAGE_KEY) === 'open', { focus: false });
  }

  get open() { return !this.panel.hidden; }

  /** The screen in view changed: follow its binder (null on a screen without a view model). */
  show(binder) {
    if (this.stopWatching) this.stopWatching();
    this.stopWatching = null;
    this.binder = binder;
    this.changed = [];
    if (binder) {
      this.stopWatching = binder.onSnapshot((snapshot, previous) => {
        this.changed = previous ? changedMembers(previous, snapshot).filter((p) => p !== '/version') : [];
        if (this.open) this.renderSnapshot();
      });
    }
    if (this.open) this.render();
  }

  setOpen(open, { focus = true, returnFocus = false } = {}) {
    this.panel.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) document.documentElement.dataset.inspector = ''; else delete document.documentElement.dataset.inspector;
    sessionStorage.setItem(STORAGE_KEY, open ? 'open' : 'closed');
    if (open) {
      this.render();
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
    if (record.type === 'event' && this.binder && record.path === this.binder.path) this.renderStream();
    if (record.type === 'request' && record.phase === 'answered') this.renderAction();
  }

  render() {
    this.part('path').textContent = this.binder ? `/api/views/${this.binder.path}` : 'This screen has no view model.';
    this.renderSnapshot();
    this.renderStream();
    this.renderAction();
  }

  renderSnapshot() {
    const snapshot = this.binder && this.binder.snapshot;
    this.part('version').textContent = snapshot ? `version ${snapshot.version}` : '';
    renderJSON(this.part('json'), snapshot, this.changed);
    renderCommands(this.part('commands'), snapshot && snapshot.commands);
    const names = this.changed.map(memberName);
    this.part('changed').textContent = !snapshot ? 'Waiting for the first snapshot…'
      : names.length === 0 ? 'Nothing changed yet on this screen.'
        : `Just changed: ${names.slice(0, MAX_NAMED).join(', ')}${names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : ''}.`;
  }

  renderStream() {
    const path = this.binder && this.binder.path;
    renderStreamLog(this.part('stream'), path ? recent((r) => r.type === 'event' && r.path === path) : []);
  }

  /** The last write the page made (on this screen's view model or any other). */
  renderAction() {
    const last = recent((r) => r.type === 'request' && r.phase === 'answered').pop();
    this.part('copy').hidden = !last;
    if (!last) {
      this.part('curl').textContent = '';
      this.part('outcome').textContent = 'No action yet: type in a field or press a button.';
      return;
    }
    this.part('curl').textContent = curlLine(last, { origin: location.origin, shownVersion: this.shownAtSend.get(last.id) });
    this.part('outcome').textContent = `${last.method} ${new URL(last.url, location.origin).pathname} · ${outcome(last)}`;
  }

  async copy() {
    const status = this.part('copied');
    try {
      await navigator.clipboard.writeText(this.part('curl').textContent);
      status.textContent = 'Copied.';
    } catch {
      getSelection().selectAllChildren(this.part('curl'));
      status.textContent = 'Selected: copy it with your keyboard.';
    }
  }
}
