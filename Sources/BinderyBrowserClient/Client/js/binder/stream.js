// stream.js — the event stream of one view model, as its binder sees it: versions, named events
// (`edits`: text operations of collaborative inputs, sent just before the version that shows
// them; `presence`: who else is on this screen), and the connection's state ("reconnecting" while
// it is down). It opens no EventSource of its own: it joins the page's hub (hub.js), which follows
// every view of the page — and, through a leader tab, of every tab of the browser — over one
// stream (GET /api/events, connection.js: patches applied there, resume with lastEventId,
// reconnect with the shared, jittered back-off).
//
// When the stream comes back after a failure, or the server ended this view's part of it (the
// session closed), the binder checks its view (check(): its snapshot again, a 404 or a forgotten
// session) — in the tab that holds the stream before it reopens, as the page's first request. A
// view the server refused (a `problem` event) is checked too, and asked for again after the
// back-off unless the binder gives up on it.

import { Backoff } from '../backoff.js';
import { pageHub } from './hub.js';

export class EventStream {
  /**
   * Callbacks:
   *   version() -> the last version applied (-1 for none);
   *   onSnapshot(snapshot) for every version (whole, patches applied);
   *   onEvent(name, data) for each named event (`edits`, `presence`), data parsed;
   *   onOpen() whenever the stream (re)opens for this view;
   *   onState(state) on each change of "connecting" | "open" | "reconnecting" | "closed";
   *   check() once the stream is back after a failure, or when the server refused the view ->
   *     promise of "open" (fine), "retry" (check again after the back-off) or "stop" (the view is
   *     gone for good: the stream closes).
   */
  constructor(path, { version, onSnapshot, onEvent = () => {}, onOpen = () => {}, onState = () => {}, check = async () => 'open' }) {
    this.path = path.replace(/^\/+/, '');
    this.hooks = { version, onSnapshot, onEvent, onOpen, onState, check };
    this.state = 'connecting';
    this.closed = false;
    this.joined = false;
    this.backoff = new Backoff({ jitter: true });
    this.timer = null;
    this.checked = false; // checked before the stream reopened (probe): no check again once open
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.hooks.onState(state);
  }

  /** Follows the view (through the page's hub). */
  open() {
    if (this.closed || this.joined) return;
    this.joined = true;
    pageHub().add(this);
  }

  /** The hub: the connection is `state`, and follows this view or not. */
  connection(state, followed) {
    if (this.closed) return;
    if (state === 'open' && followed) {
      const was = this.state;
      const { checked } = this;
      this.checked = false;
      if (was === 'open') return;
      this.setState('open');
      this.hooks.onOpen();
      if (was === 'reconnecting' && !checked) this.verify();
    } else if (state === 'reconnecting') {
      this.setState('reconnecting');
    }
    // Otherwise (connecting, or this view not yet in the stream: a new leader, a new set of
    // views) nothing failed: the state stays as it was.
  }

  /** The hub: an event of this view. */
  deliver(message) {
    if (this.closed) return;
    switch (message.kind) {
      case 'snapshot':
      case 'patch':
        this.hooks.onSnapshot(message.snapshot);
        break;
      case 'edits':
      case 'presence':
        this.hooks.onEvent(message.kind, message.data);
        break;
      case 'problem':
        this.refused();
        break;
      case 'end':
        this.setState('reconnecting'); // the hub follows it again; check() once it does
        break;
      default:
    }
  }

  /**
   * The page's stream is about to reopen after a failure (this tab holds it): the binder checks
   * its view first -> "open", "retry" (the server is still away) or "stop" (closed).
   */
  async probe() {
    if (this.closed) return 'stop';
    const verdict = await this.hooks.check();
    if (this.closed) return 'stop';
    if (verdict === 'stop') { this.close(); return 'stop'; }
    this.checked = verdict === 'open';
    return verdict;
  }

  /** Back after a failure: the binder checks its view (a 404, a forgotten session, what was missed). */
  async verify() {
    clearTimeout(this.timer);
    const verdict = await this.hooks.check();
    if (this.closed) return;
    if (verdict === 'stop') this.close();
    else if (verdict === 'retry') this.timer = setTimeout(() => this.verify(), this.backoff.next());
    else this.backoff.reset();
  }

  /** The server would not follow this view: the binder checks it; else ask again later. */
  async refused() {
    clearTimeout(this.timer);
    const verdict = await this.hooks.check();
    if (this.closed) return;
    if (verdict === 'stop') { this.close(); return; }
    this.timer = setTimeout(() => { if (!this.closed) pageHub().retry(this.path); }, this.backoff.next());
  }

  /** Drops the page's stream as if the network did; it reconnects (the tests' debug hook). */
  drop() {
    if (this.closed) return;
    this.setState('reconnecting');
    pageHub().drop();
  }

  /** Stops following the view for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.joined) pageHub().remove(this);
    this.setState('closed');
  }
}
