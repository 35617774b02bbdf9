// binder.js — the one generic binder between DOM and a server-side view model.
//
// The DOM declares bindings with attributes naming view-model members (the Client README's
// "Binding attributes" says each in full):
//
//   data-input="phone"              two-way: the control shows the input, user edits are PATCHed
//                                   (data-input-type="string|integer|number|boolean", else inferred);
//                                   data-input-hash: kept in the page's hash (binder/hash-input.js).
//   data-output="member[:kind] …"   one-way (binder/renderers.js): text, hidden, shown, color, src,
//                                   runs, busy, valid, error, options, @attribute, .property,
//                                   class.name; data-output-as gives the default kind. Members may be dotted.
//   data-command="clear"            pressing the control executes the command (binder/command-control.js:
//                                   click; Enter or change for a field; data-command-on), with
//                                   data-command-body, -args ("id", "from=index") and -value;
//                                   data-command-clears empties its field at the press; data-editor
//                                   edits an item in place, opened by data-opens-editor (binder/editor.js).
//   data-list="items"               a collection, one <template> per element keyed by data-list-key
//                                   (binder/scope.js).
//   data-include="template-id"      (in templates) replaced by that template's content (templates.js).
//
// A Binder ties one DOM subtree to the view model at one path: it GETs the snapshot, follows the
// event stream (binder/stream.js), ignores snapshots older than the last one applied, renders
// them through the scope of the root (binder/scope.js), writes inputs through one coalescing
// writer per view model (binder/writer.js), runs the commands pressed (binder/command-queue.js:
// after the write on its way, if any), reports command errors (binder/command-errors.js), asks
// about someone else's change of a field being edited (binder/online-conflicts.js), checks the
// view after the server was away (binder/resume.js) and hands `navigate` URLs to the router.

import * as api from './api.js';
import { commandErrors } from './binder/command-errors.js';
import { CommandQueue } from './binder/command-queue.js';
import { same } from './binder/members.js';
import { onlineConflicts } from './binder/online-conflicts.js';
import { restoreUnsent, sendCommand } from './binder/outbox.js';
import { resuming } from './binder/resume.js';
import { Scope } from './binder/scope.js';
import { EventStream } from './binder/stream.js';
import { InputWriter } from './binder/writer.js';

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
    this.localBusy = new Set(); // command controls pressed and not answered yet (waiting or in flight)
    this.errorToasts = 0;
    this.listeners = new Set(options.onSnapshot ? [options.onSnapshot] : []);
    this.eventListeners = new Map(); // event name -> Set of listeners (binder/stream.js EXTRA_EVENTS)
    this.refreshing = new Map(); // path -> the GET in flight, shared (one new session, not several)
    this.forgotten = null;       // the fresh snapshot while the user decides how to start again
    this.commandQueue = new CommandQueue(this);
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

  /** The input writer of the view model at `path` (this one's, or a list item's), made on first use. */
  writerFor(path) {
    if (!this.writers.has(path)) this.writers.set(path, new InputWriter(this, path));
    return this.writers.get(path);
  }

  /** A writer's unsent edits changed (binder/writer-keeping.js): presses may wait for it. */
  writesChanged(writer) { this.commandQueue.writesChanged(writer); }

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
    this.commandQueue.stop();
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

  /** Renders the last snapshot again (a control's state changed here, not on the server). */
  repaint() { if (this.snapshot && !this.stopped) this.scope.render(this.snapshot, this.snapshot); }

  /** Shows again whether each command's control can be pressed (a write started or ended). */
  renderCommands() { if (this.snapshot && !this.stopped) this.scope.renderCommands(this.snapshot); }
}

Object.assign(Binder.prototype, resuming, commandErrors, onlineConflicts);
