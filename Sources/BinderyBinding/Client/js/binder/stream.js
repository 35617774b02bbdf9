// stream.js — the event stream of one view model: an EventSource that resumes after the last
// applied version and, when it drops, shows "reconnecting", checks the view and reopens with the
// shared back-off (jittered, so that many tabs don't stampede).
//
// The stream asks for patches (?patches=1): the server sends a whole snapshot first, as a default
// (unnamed) `message` event (`id:` the version, `data:` the snapshot), then `patch` events: an RFC
// 6902 JSON Patch from the version this stream received last (its first operation tests that
// version). A patch that does not apply reopens the stream for a whole snapshot.
// Our own new EventSource can't send Last-Event-ID, so it resumes with ?lastEventId=<version>.
// Named events without a version (`edits`: text operations of collaborative inputs, sent just
// before the version that shows them; `presence`: who else is on this screen) go to onEvent.

import * as api from '../api.js';
import { Backoff } from '../backoff.js';
import { note, byteSize } from '../trace.js';
import { applyPatch } from './patch.js';

const STEADY_MS = 5000; // a stream that stayed up this long earns a quick retry when it drops
const EXTRA_EVENTS = ['edits', 'presence'];

export class EventStream {
  /**
   * Callbacks:
   *   version() -> the last version applied (-1 for none): where a reopened stream resumes;
   *   onSnapshot(snapshot) for every event;
   *   onEvent(name, data) for each named event of EXTRA_EVENTS, data parsed;
   *   onOpen() whenever the stream (re)opens;
   *   onState(state) on each change of "connecting" | "open" | "reconnecting" | "closed";
   *   check() before reopening -> promise of "open" (reopen now), "retry" (back off again) or
   *     "stop" (the view is gone for good).
   */
  constructor(path, { version, onSnapshot, onEvent = () => {}, onOpen = () => {}, onState = () => {}, check = async () => 'open' }) {
    this.path = path;
    this.hooks = { version, onSnapshot, onEvent, onOpen, onState, check };
    this.source = null;
    this.state = 'connecting';
    this.closed = false;
    this.backoff = new Backoff({ jitter: true });
    this.openedAt = 0;
    this.timer = null;
    this.last = null; // the snapshot this stream received last: what a patch applies to
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.hooks.onState(state);
  }

  open() {
    if (this.closed) return;
    // Resume only from the snapshot this stream holds: a patch needs it as its base.
    const version = this.last ? this.hooks.version() : -1;
    if (this.last && this.last.version !== version) this.last = null;
    const source = new EventSource(api.eventsURL(this.path, this.last ? version : null, { patches: true }));
    this.source = source;
    source.onopen = () => {
      if (this.source !== source) return;
      this.openedAt = Date.now();
      this.setState('open');
      this.hooks.onOpen();
    };
    source.onmessage = (event) => {
      if (this.source !== source) return;
      this.backoff.reset();
      let snapshot;
      try { snapshot = JSON.parse(event.data); } catch { return; }
      note({ type: 'event', path: this.path, kind: 'snapshot', version: snapshot.version, bytes: byteSize(event.data) });
      this.last = snapshot;
      this.hooks.onSnapshot(snapshot);
    };
    source.addEventListener('patch', (event) => {
      if (this.source !== source) return;
      this.backoff.reset();
      let snapshot;
      note({ type: 'event', path: this.path, kind: 'patch', version: Number(event.lastEventId) || null, bytes: byteSize(event.data) });
      try {
        snapshot = applyPatch(this.last, JSON.parse(event.data));
      } catch {
        // Not the version this patch was made against: start again from a whole snapshot.
        this.last = null;
        this.drop();
        return;
      }
      this.last = snapshot;
      this.hooks.onSnapshot(snapshot);
    });
    for (const name of EXTRA_EVENTS) {
      source.addEventListener(name, (event) => {
        if (this.source !== source) return;
        let data;
        try { data = JSON.parse(event.data); } catch { return; }
        note({ type: 'event', path: this.path, kind: name, version: null, bytes: byteSize(event.data) });
        this.hooks.onEvent(name, data);
      });
    }
    source.onerror = () => {
      if (this.source === source) this.drop();
    };
  }

  /** Closes the stream and reopens it after the back-off (also the tests' debug hook). */
  drop() {
    if (this.source) this.source.close();
    this.source = null;
    if (this.closed) return;
    this.setState('reconnecting');
    clearTimeout(this.timer);
    // A stream that stayed up a while earns a quick retry; one that keeps failing backs off.
    if (this.openedAt && Date.now() - this.openedAt > STEADY_MS) this.backoff.reset();
    this.openedAt = 0;
    this.timer = setTimeout(() => this.reconnect(), this.backoff.next());
  }

  async reconnect() {
    if (this.closed) return;
    const verdict = await this.hooks.check();
    if (verdict === 'stop') this.close();
    else if (verdict === 'retry') this.drop();
    else this.open();
  }

  /** Closes the stream for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    this.source = null;
    this.setState('closed');
  }
}
