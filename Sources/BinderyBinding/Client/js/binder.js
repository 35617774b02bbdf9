// binder.js — the one generic binder between DOM and a server-side view model.
//
// The DOM declares bindings with attributes naming view-model members:
//
//   data-input="phone"              two-way: the control shows the input, user edits are PATCHed.
//                                   data-input-type="string|integer|number|boolean" (else inferred
//                                   from the snapshot's current value).
//   data-output="title"             one-way. Several bindings: data-output="phoneColor:color phoneValid:valid".
//   data-output-as="text"           default kind for the data-output entries without ":kind":
//                                   text | hidden | shown | color | src | runs | busy | valid | error |
//                                   options | @attribute (sets that attribute, removes it on null/false).
//                                   Members may be dotted ("photo.loading") and are looked up in
//                                   outputs, then inputs, then the snapshot itself ("id", "version").
//   data-command="clear"            click executes; disabled while not enabled (or executing);
//                                   aria-busy while executing. Body: data-command-args="id index"
//                                   (members of the current item) merged over data-command-body='{"k":1}'.
//   data-list="items"               collection binding: the element's <template> (or the template named
//                                   by data-list-template="id") renders each element of the array,
//                                   keyed by data-list-key (default "id"). Inside an item, members are
//                                   looked up on the item (a child snapshot or a plain object).
//   data-include="template-id"      (in templates) replaced at clone time by that template's content
//                                   (templates.js).
//
// A Binder ties one DOM subtree to the view model at one path: it GETs the snapshot, follows the
// event stream (binder/stream.js), ignores snapshots older than the last one applied, renders
// them through the scope of the root (binder/scope.js, which uses binder/renderers.js and
// binder/input.js), writes inputs through one coalescing writer per view model
// (binder/writer.js), executes commands, reports command errors through a toast callback and
// hands `navigate` URLs to the router.
//
// After the server was away (binder/writer.js recovers unsent edits), a snapshot whose version is
// lower than the one shown means the server no longer knows this session: the versions of a
// session only grow, and survive a restart. If the user typed here, the binder stops, keeps what
// they typed and asks what to do (binder/forgotten.js); otherwise the screen quietly starts over.

import * as api from './api.js';
import { Conflict } from './binder/conflict.js';
import { askToStartAgain } from './binder/forgotten.js';
import { EventStream } from './binder/stream.js';
import { findByPath, same } from './binder/members.js';
import { restoreUnsent, sendCommand } from './binder/outbox.js';
import { Scope } from './binder/scope.js';
import { InputWriter } from './binder/writer.js';

/** How often an answer older than what the page has seen is asked again (see Binder.refresh). */
const STALE_ASKS = 4;
/** The first pause before asking again; each next one is this much longer (2.5 s in all). */
const STALE_PAUSE_MS = 250;

/**
 * Binds one DOM subtree to the view model at `path`.
 * options: navigate(url), notify({title, message}),
 *          connection(state: "connecting"|"open"|"reconnecting"|"closed") of the event stream,
 *          onSnapshot(snapshot) after each applied snapshot, onFatal(error) when the view can't be shown
 *          (a 401 or 403 too), signIn(error) when a write or command needs a user (401: no toast),
 *          rotated() when a command may have signed the session in (its answer carried a new
 *          token, or was a replay of a first answer, which carries none).
 */
export class Binder {
  constructor(root, path, options = {}) {
    this.root = root;
    this.path = path.replace(/^\/+/, '');
    this.options = options;
    this.snapshot = null;
    this.version = -1;
    this.stopped = false;
    this.writers = new Map();
    this.localBusy = new Set(); // command elements whose POST is in flight
    this.errorToasts = 0;
    this.listeners = new Set(options.onSnapshot ? [options.onSnapshot] : []);
    this.eventListeners = new Map(); // event name -> Set of listeners (binder/stream.js EXTRA_EVENTS)
    this.refreshing = new Map(); // path -> the GET in flight, shared (one new session, not several)
    this.forgotten = null;       // the fresh snapshot while the user decides how to start again
    this.stream = this.newStream();
    this.scope = new Scope(this, root);
    // Where the user's edits of the focused control began (see askAboutChanges).
    this.onFocusIn = (event) => {
      const binding = this.bindingOf(event.target);
      if (binding) binding.focusSeq = binding.editSeq;
    };
    root.addEventListener('focusin', this.onFocusIn);
  }

  /** The input binding of a control of this screen, or null. */
  bindingOf(el) {
    if (!el || !el.hasAttribute || !el.hasAttribute('data-input') || !this.root.contains(el)) return null;
    return this.scope.allInputs().find((b) => b.el === el) || null;
  }

  newStream() {
    return new EventStream(this.path, {
      version: () => this.version,
      onSnapshot: (snapshot) => this.receive(snapshot, { origin: 'event' }),
      onEvent: (name, data) => { for (const listener of this.eventListeners.get(name) || []) listener(data); },
      onOpen: () => { for (const w of this.writers.values()) if (!w.idle && !w.inflight) w.send(); },
      onState: (state) => { if (this.options.connection) this.options.connection(state); },
      check: () => this.check(),
    });
  }

  writerFor(path) {
    if (!this.writers.has(path)) this.writers.set(path, new InputWriter(this, path));
    return this.writers.get(path);
  }

  onSnapshot(listener) { this.listeners.add(listener); return () => this.listeners.delete(listener); }

  /** Calls `listener(data)` for each named event `name` (`edits`, `presence`); answers the unsubscribe. */
  onEvent(name, listener) {
    if (!this.eventListeners.has(name)) this.eventListeners.set(name, new Set());
    this.eventListeners.get(name).add(listener);
    return () => this.eventListeners.get(name).delete(listener);
  }

  notify(message) { (this.options.notify || ((m) => console.warn(m)))(message); }

  /** Loads the current snapshot, then subscribes to the event stream. */
  async start() {
    restoreUnsent(this); // edits and commands kept from before a reload (binder/outbox.js)
    try {
      this.receive(await api.getSnapshot(this.path), { origin: 'get' });
    } catch (err) {
      if (err instanceof api.ProblemError && err.status >= 400 && err.status < 500) {
        this.fail(err);
        return;
      }
      // Server unreachable: the stream's reconnect loop will catch up.
    }
    this.stream.open();
  }

  stop() {
    this.stopped = true;
    this.stream.close();
    for (const w of this.writers.values()) w.flushOnExit();
    this.root.removeEventListener('focusin', this.onFocusIn);
    this.scope.dispose();
  }

  /** The view can't be shown (gone, or never was): stop and tell the app. */
  fail(err) {
    this.stopped = true;
    this.stream.close();
    if (this.options.onFatal) this.options.onFatal(err);
  }

  /** Closes the event stream as if the network dropped it; it reconnects (the tests' debug hook). */
  dropStream() { this.stream.drop(); }

  /**
   * Before the stream reopens: check the view. A 404 (e.g. the session expired and took the child
   * view with it) is final; a network error means try again later.
   */
  async check() {
    if (this.stopped) return 'stop';
    try {
      const snapshot = await this.refresh();
      if (!snapshot) return 'stop'; // the user is asked first; startAgain() opens a new stream
      // A lower version with nothing typed here: the session is new; start over quietly.
      this.receive(snapshot, { origin: 'resync', force: snapshot.version < this.version });
      return 'open';
    } catch (err) {
      // Gone, or no longer for this user (signed out elsewhere: 401; another user: 403).
      if (err instanceof api.ProblemError && [401, 403, 404].includes(err.status)) {
        this.fail(err);
        return 'stop';
      }
      return err instanceof api.ProblemError ? 'open' : 'retry';
    }
  }

  /**
   * The current snapshot of `path` after the server was away, or null when the server forgot the
   * session and the user has to choose how to start again. Concurrent calls share one GET (a
   * caller who knows a newer version than an open GET was sent with asks anew).
   *
   * An answer older than a version this page has seen is not at once taken for a forgotten
   * session: it may have crossed a newer version (a command's answer) or come from a node that has
   * not caught up yet (several nodes behind a proxy). It is asked again, STALE_ASKS times with
   * growing pauses; only an answer still older than what the page knew when it asked means the
   * server started the session over.
   */
  async refresh(path = this.path) {
    for (let attempt = 0; ; attempt += 1) {
      if (this.forgotten) return null;
      const known = path === this.path ? this.version : -1;
      let asked = this.refreshing.get(path);
      if (!asked || asked.known < known) {
        const entry = { known, answer: null };
        entry.answer = api.getSnapshot(path).finally(() => {
          if (this.refreshing.get(path) === entry) this.refreshing.delete(path);
        });
        this.refreshing.set(path, entry);
        asked = entry;
      }
      const snapshot = await asked.answer;
      if (this.forgotten) return null;
      const newest = path === this.path ? Math.max(asked.known, this.version) : -1;
      if (newest < 0 || !(snapshot.version < newest)) return snapshot;
      if (attempt < STALE_ASKS) {
        await new Promise((resolve) => { setTimeout(resolve, STALE_PAUSE_MS * (attempt + 1)); });
        continue;
      }
      if (!(snapshot.version < asked.known)) return snapshot;
      const typed = this.scope.allInputs().some((b) => b.editSeq > 0);
      if (!typed) return snapshot;
      this.forget(snapshot);
      return null;
    }
  }

  /** The server forgot the session: keep the page as the user left it and ask. */
  forget(snapshot) {
    this.forgotten = snapshot;
    this.stream.close();
    for (const w of this.writers.values()) clearTimeout(w.retryTimer);
    askToStartAgain(this.root, {
      keep: () => this.startAgain({ keepTyped: true }),
      fresh: () => this.startAgain({ keepTyped: false }),
    });
    if (this.options.forgotten) this.options.forgotten();
  }

  /**
   * Starts again on the server's fresh view model; with keepTyped, what the user typed on this
   * screen (every control they edited) is written to it, so nothing typed is lost.
   */
  startAgain({ keepTyped }) {
    const snapshot = this.forgotten;
    if (!snapshot || this.stopped) return;
    const inputs = snapshot.inputs || {};
    const typed = keepTyped
      ? this.scope.allInputs().filter((b) => b.editSeq > 0 && b.readValue() !== undefined && !same(b.readValue(), inputs[b.name]))
      : [];
    for (const w of this.writers.values()) w.reset();
    for (const b of this.scope.allInputs()) { b.settle(); b.base = undefined; }
    this.forgotten = null;
    for (const b of typed) b.edited(); // dirty again, so the fresh snapshot won't overwrite them
    this.receive(snapshot, { origin: 'resync', force: true });
    this.stream = this.newStream();
    this.stream.open();
  }

  /** Re-reads the snapshot (after a refused write or a failed command). */
  async resync() {
    try { this.receive(await api.getSnapshot(this.path), { origin: 'resync' }); } catch { /* stream will retry */ }
  }

  /**
   * Applies a snapshot of this binder's view model, unless it is older than the last one applied.
   * Snapshots of other view models (a child's command answer) are ignored: the parent's own
   * stream carries the change.
   */
  receive(snapshot, { origin = 'event', path = this.path, force = false } = {}) {
    if (!snapshot || this.stopped || this.forgotten) return false;
    const snapPath = (snapshot.path || path).replace(/^\/+/, '');
    if (snapPath !== this.path) return false;
    // The same version with other content comes from another lineage: the page was read without
    // a session (the server keeps nothing for such a read) and the session that the stream or a
    // write then created shows its own first version. Apply it.
    const otherLineage = origin === 'event' && snapshot.version === this.version && this.snapshot && !same(snapshot, this.snapshot);
    if (!force && !otherLineage && typeof snapshot.version === 'number' && snapshot.version <= this.version) {
      // Not newer; still refresh inputs that a write just acknowledged (they may differ if the
      // server normalised them) or whose refused edit was dropped (they show the server's value).
      if ((origin === 'write' || origin === 'resync') && this.snapshot) {
        this.askAboutChanges(this.snapshot); // a change that came while our write was on its way
        this.scope.render(this.snapshot, this.snapshot);
      }
      return false;
    }
    const previous = this.snapshot;
    this.snapshot = snapshot;
    this.version = typeof snapshot.version === 'number' ? snapshot.version : this.version;
    this.root.setAttribute('data-version', String(this.version));
    // Not a change by someone else when it is what our own command did (Clear, say).
    if (origin !== 'command' && this.localBusy.size === 0) this.askAboutChanges(snapshot);
    this.scope.render(snapshot, snapshot);
    this.reportCommandErrors(previous, snapshot);
    for (const listener of this.listeners) listener(snapshot, previous);
    return true;
  }

  // The seed shows a command's error in an alert. One failure, one message: a screen that shows
  // errors in a banner (data-output-as="error") gets its banner back (it may have been put away
  // with OK); any other screen gets a non-blocking toast. It happens when an error appears or
  // changes, or when an execution ends with an error again.
  reportCommandErrors(previous, snapshot) {
    if (!previous) return; // an old error on first display is shown by the screen's banner
    for (const [name, state] of Object.entries(snapshot.commands || {})) {
      if (!state || !state.error) continue;
      const before = previous.commands && previous.commands[name];
      const changed = !before || !same(before.error, state.error);
      const finishedAgain = before && before.executing && !state.executing;
      if (changed || finishedAgain) this.reportError(state.error, name);
    }
  }

  /** Shows one failure once: in the screen's error banner if it has one set, else as a toast. */
  reportError(err, command) {
    this.errorToasts += 1;
    const banners = this.root.querySelectorAll('[data-output-as="error"][data-has-error]');
    if (banners.length) {
      for (const banner of banners) { banner.hidden = false; delete banner.dataset.dismissed; }
      return;
    }
    this.notify({ title: 'Error', message: api.describeError(err), details: api.problemDetails(err), command });
  }

  /**
   * Executes a command; flushes pending input writes first so the command sees them. It carries
   * an Idempotency-Key and is sent again while the server can't be reached (binder/outbox.js);
   * `key`: a command kept from before a reload, sent again with its key; `wait`: seconds the
   * server may take before it answers 202 (0 for a command that runs until stopped).
   * A command ended by design — cancelled by another command or by the user (409 "Command
   * cancelled") — is not an error: no toast; it answers null and the snapshot says what happened.
   */
  async execute(name, body, { path = this.path, element = null, quiet = false, key = null, wait = 10 } = {}) {
    if (element) { this.localBusy.add(element); this.repaint(); }
    const toastsBefore = this.errorToasts;
    try {
      const { snapshot, rotated, replayed } = await sendCommand(this, path, name, body, { quiet, key, wait });
      // A replayed answer carries no token even if the first one did: asked all the same.
      if ((rotated || replayed) && this.options.rotated) this.options.rotated();
      this.receive(snapshot, { origin: 'command', path });
      if (snapshot && snapshot.navigate && this.options.navigate && !this.stopped) {
        this.options.navigate(snapshot.navigate);
      }
      return snapshot;
    } catch (err) {
      if (err instanceof api.ProblemError && err.status === 502) {
        // The upstream failed; the snapshot's command error says so. Fetch it so the banner
        // updates, and toast the problem only if the snapshot didn't already cause one.
        await this.resync();
        if (this.errorToasts === toastsBefore) this.reportError(err, name);
      } else if (api.cancelled(err)) {
        this.resync(); // what the cancelling command did, if its own answer has not shown it yet
      } else if (api.signInRequired(err) && this.options.signIn) {
        this.options.signIn(err); // the sign-in page, then back here
      } else if (!(quiet && err instanceof api.ProblemError && err.status === 409)) {
        this.notify({ title: 'Error', message: api.describeError(err), details: api.problemDetails(err), command: name });
      }
      return null;
    } finally {
      if (element) { this.localBusy.delete(element); this.repaint(); }
    }
  }

  /**
   * Online conflicts of plain (whole-value) inputs: the user is editing the focused control (of the
   * focused page; edited it since it got focus, or has an edit unsent) and `snapshot` brings another value for it that
   * is not one this client sent (someone else's). Rather than replace their text or overwrite the
   * other one's, both are shown and the user chooses (binder/conflict.js, as after an outage).
   * Collaborative inputs (listed in `texts`) merge instead (binder/collab.js).
   */
  askAboutChanges(snapshot) {
    // A tab in the background: nobody is editing there now.
    if (!document.hasFocus() || document.visibilityState !== 'visible') return;
    const b = this.bindingOf(document.activeElement);
    if (!b || b.collab) return;
    const edited = b.dirty || b.editSeq > (b.focusSeq ?? b.editSeq);
    if (!edited) return;
    const path = b.scope.path.replace(/^\/+/, '');
    const source = path === this.path ? snapshot : findByPath(snapshot, path);
    if (!source || (source.texts && b.name in source.texts)) return;
    const theirs = source.inputs ? source.inputs[b.name] : undefined;
    const mine = b.readValue();
    if (theirs === undefined || mine === undefined || same(theirs, mine) || b.agreesWith(theirs)) return;
    // Our own write of this field is on its way: its answer decides; a later change comes here again.
    if (b.sending && b.sending.length) return;
    const writer = this.writerFor(path);
    const open = writer.conflicts.get(b.name);
    if (open) { open.update(theirs); return; }
    writer.pending.delete(b.name); // held back until the user chooses
    b.editSeq += 1; // dirty: this snapshot does not replace what they typed
    const entry = { binding: b, value: mine, seq: b.editSeq };
    const settled = () => { b.focusSeq = b.editSeq; };
    writer.conflicts.set(b.name, new Conflict(entry, theirs, {
      keep: () => { writer.keepMine(b.name); settled(); },
      take: () => { writer.takeTheirs(b.name); settled(); },
      online: true,
    }));
  }

  repaint() { if (this.snapshot && !this.stopped) this.scope.render(this.snapshot, this.snapshot); }
}
