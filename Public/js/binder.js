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
//   data-include="template-id"      (in templates) replaced at clone time by that template's content.
//
// The binder subscribes to the view model's event stream, ignores snapshots older than the last
// one applied, writes inputs without losing keystrokes, reports command errors through a toast
// callback and hands `navigate` URLs to the router.

import * as api from './api.js';

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];

/** Clones a <template> (element or id) and expands data-include slots recursively. */
export function instantiate(template) {
  const tpl = typeof template === 'string' ? document.getElementById(template) : template;
  if (!tpl) throw new Error(`missing template ${template}`);
  const fragment = tpl.content.cloneNode(true);
  for (const slot of fragment.querySelectorAll('[data-include]')) {
    const id = slot.getAttribute('data-include');
    slot.removeAttribute('data-include');
    slot.append(instantiate(id));
  }
  return fragment;
}

// ---------------------------------------------------------------------------------------------
// Member lookup

/** Looks a dotted member up in a snapshot-like object: outputs, then inputs, then the object. */
export function lookup(source, member) {
  if (source == null) return undefined;
  const [head, ...rest] = member.split('.');
  let value;
  if (source.outputs && head in source.outputs) value = source.outputs[head];
  else if (source.inputs && head in source.inputs) value = source.inputs[head];
  else value = source[head];
  for (const key of rest) value = value == null ? undefined : value[key];
  return value;
}

const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------------------------------------
// Output renderers: (element, value) -> void

const RENDERERS = {
  text(el, v) { el.textContent = v == null ? '' : String(v); },
  hidden(el, v) { el.hidden = Boolean(v); },
  shown(el, v) { el.hidden = !v; },
  color(el, v) { el.style.color = v || ''; },
  busy(el, v) { el.setAttribute('aria-busy', String(Boolean(v))); },
  valid(el, v) { el.setAttribute('aria-invalid', String(!v)); },
  src(el, v) {
    if (v) {
      if (el.getAttribute('src') !== v) el.setAttribute('src', v);
      el.hidden = false;
    } else {
      el.removeAttribute('src');
      el.hidden = true;
    }
  },
  // Rich text as the seed's NSAttributedString: {text, runs: [{text, color, fontSize}]}.
  runs(el, v) {
    el.replaceChildren();
    if (v == null) { el.hidden = true; return; }
    el.hidden = false;
    if (typeof v === 'string') { el.textContent = v; return; }
    const runs = Array.isArray(v.runs) && v.runs.length ? v.runs : [{ text: v.text ?? '' }];
    for (const run of runs) {
      const span = document.createElement('span');
      span.textContent = run.text ?? '';
      if (run.color) span.style.color = run.color;
      if (run.fontSize) span.style.fontSize = `${run.fontSize}px`;
      if (run.bold) span.style.fontWeight = 'bold';
      el.append(span);
    }
  },
  // An error object {message, code} shown as text; the element hides while there is none.
  error(el, v) {
    if (!v) { el.hidden = true; el.textContent = ''; return; }
    const message = typeof v === 'string' ? v : (v.message || 'Error');
    el.textContent = v.code != null ? `${message} (${v.code})` : message;
    el.hidden = false;
  },
  // <select> options from [{id, name}] (data-option-value / data-option-label rename the keys).
  options(el, v) {
    const valueKey = el.dataset.optionValue || 'id';
    const labelKey = el.dataset.optionLabel || 'name';
    const keep = el.value;
    el.replaceChildren(...(v || []).map((o) => new Option(String(o[labelKey]), String(o[valueKey]))));
    el.value = keep;
  },
};

function renderOutput(el, kind, value) {
  if (kind.startsWith('@')) {
    const attr = kind.slice(1);
    if (value == null || value === false) el.removeAttribute(attr);
    else el.setAttribute(attr, value === true ? '' : String(value));
    return;
  }
  const render = RENDERERS[kind];
  if (!render) { console.warn(`binder: unknown output kind "${kind}"`, el); return; }
  render(el, value);
}

// ---------------------------------------------------------------------------------------------
// Compilation: find the bindings of one scope (a screen root or one list item). Descendants of a
// data-list element belong to the list's items, not to this scope.

function compile(scopeRoot) {
  const found = { outputs: [], inputs: [], commands: [], lists: [] };
  const collect = (el) => {
    if (el.hasAttribute('data-output')) {
      const defaultKind = el.dataset.outputAs || (el.tagName === 'IMG' ? 'src' : 'text');
      for (const entry of el.dataset.output.trim().split(/\s+/)) {
        const [member, kind = defaultKind] = entry.split(':');
        found.outputs.push({ el, member, kind, last: undefined, initialised: false });
      }
    }
    if (el.hasAttribute('data-input')) found.inputs.push(el);
    if (el.hasAttribute('data-command')) found.commands.push(el);
    if (el.hasAttribute('data-list')) found.lists.push(el);
  };
  const visit = (el) => {
    collect(el);
    if (el.hasAttribute('data-list')) return;
    for (const child of el.children) if (child.tagName !== 'TEMPLATE') visit(child);
  };
  if (scopeRoot.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
    for (const child of scopeRoot.children) if (child.tagName !== 'TEMPLATE') visit(child);
  } else {
    visit(scopeRoot);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Scope: the bindings of one root or list item, rendered from a "source" (the view snapshot or the
// item). Commands found in an item run on the item's own view model when it has that command,
// otherwise on the view model that owns the list (e.g. list's select with {"id": item.id}).

class Scope {
  constructor(binder, root) {
    this.binder = binder;
    this.root = root;
    this.source = null;
    const b = compile(root);
    this.outputs = b.outputs;
    this.inputs = b.inputs.map((el) => binder.inputFor(el, this));
    this.commands = b.commands.map((el) => this.wireCommand(el));
    this.lists = b.lists.map((el) => new ListBinding(binder, el));
  }

  /** Path of the view model a member of this scope belongs to. */
  get path() { return (this.source && this.source.path) || this.binder.path; }

  wireCommand(el) {
    const name = el.dataset.command;
    const onClick = (event) => {
      event.preventDefault();
      if (el.disabled || el.getAttribute('aria-disabled') === 'true') return;
      let body = el.dataset.commandBody ? JSON.parse(el.dataset.commandBody) : undefined;
      if (el.dataset.commandArgs) {
        body = body || {};
        for (const arg of el.dataset.commandArgs.trim().split(/\s+/)) body[arg] = lookup(this.source, arg);
      }
      const own = this.source && this.source.commands && this.source.commands[name];
      this.binder.execute(name, body, { path: own ? this.path : this.binder.path, element: el });
    };
    el.addEventListener('click', onClick);
    return { el, name };
  }

  render(source, rootSnapshot) {
    this.source = source;
    for (const o of this.outputs) {
      const value = lookup(source, o.member);
      if (o.initialised && same(o.last, value)) continue;
      o.last = value;
      o.initialised = true;
      renderOutput(o.el, o.kind, value);
    }
    for (const list of this.lists) list.render(lookup(source, list.member), rootSnapshot);
    for (const input of this.inputs) input.render(source);
    for (const c of this.commands) this.renderCommand(c, source, rootSnapshot);
  }

  renderCommand({ el, name }, source, rootSnapshot) {
    const own = source && source.commands && source.commands[name];
    const state = own || (rootSnapshot.commands && rootSnapshot.commands[name]);
    const busy = Boolean(state && state.executing) || this.binder.localBusy.has(el);
    const enabled = Boolean(state && state.enabled) && !busy;
    if ('disabled' in el && el.tagName !== 'A') el.disabled = !enabled;
    else el.setAttribute('aria-disabled', String(!enabled));
    el.setAttribute('aria-busy', String(busy));
  }

  dispose() {
    for (const list of this.lists) list.dispose();
    for (const input of this.inputs) input.dispose();
  }
}

// Collection binding keyed by a stable id; items are reused across snapshots and reordered.
class ListBinding {
  constructor(binder, el) {
    this.binder = binder;
    this.el = el;
    this.member = el.dataset.list;
    this.key = el.dataset.listKey || 'id';
    this.template = el.dataset.listTemplate
      ? document.getElementById(el.dataset.listTemplate)
      : el.querySelector(':scope > template');
    this.items = new Map(); // key -> {node, scope}
  }

  render(array, rootSnapshot) {
    const list = Array.isArray(array) ? array : [];
    const seen = new Set();
    let previous = this.template && this.template.parentNode === this.el ? this.template : null;
    for (const item of list) {
      const key = String(lookup(item, this.key));
      seen.add(key);
      let entry = this.items.get(key);
      if (!entry) {
        const node = instantiate(this.template).firstElementChild;
        node.dataset.key = key;
        entry = { node, scope: new Scope(this.binder, node) };
        this.items.set(key, entry);
      }
      entry.scope.render(item, rootSnapshot);
      // Keep DOM order equal to the array order, moving nodes only when needed.
      const expected = previous ? previous.nextElementSibling : this.el.firstElementChild;
      if (expected !== entry.node) {
        if (previous) previous.after(entry.node); else this.el.prepend(entry.node);
      }
      previous = entry.node;
    }
    for (const [key, entry] of this.items) {
      if (!seen.has(key)) { entry.scope.dispose(); entry.node.remove(); this.items.delete(key); }
    }
    this.el.setAttribute('data-count', String(list.length));
  }

  dispose() {
    for (const entry of this.items.values()) entry.scope.dispose();
    this.items.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Two-way input binding. A local edit bumps editSeq; a successful PATCH containing it sets ackSeq.
// While editSeq > ackSeq the control is "dirty": snapshots never overwrite it (so an event for an
// older version can't eat keystrokes or move the caret).

class InputBinding {
  constructor(binder, el, scope) {
    this.binder = binder;
    this.el = el;
    this.scope = scope;
    this.name = el.dataset.input;
    this.type = el.dataset.inputType || null; // inferred on first render when absent
    this.editSeq = 0;
    this.ackSeq = 0;
    this.composing = false;
    const isText = el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['checkbox', 'radio'].includes(el.type));
    this.onEdit = () => { if (!this.composing) this.edited(); };
    this.onCompStart = () => { this.composing = true; };
    this.onCompEnd = () => { this.composing = false; this.edited(); };
    this.event = isText ? 'input' : 'change';
    el.addEventListener(this.event, this.onEdit);
    el.addEventListener('compositionstart', this.onCompStart);
    el.addEventListener('compositionend', this.onCompEnd);
  }

  get dirty() { return this.editSeq > this.ackSeq; }

  readValue() {
    const el = this.el;
    if (this.type === 'boolean' || el.type === 'checkbox') return el.checked;
    if (this.type === 'integer') { const n = Number.parseInt(el.value, 10); return Number.isNaN(n) ? undefined : n; }
    if (this.type === 'number') { const n = Number(el.value); return el.value === '' || Number.isNaN(n) ? undefined : n; }
    return el.value;
  }

  edited() {
    const value = this.readValue();
    this.editSeq += 1;
    if (value === undefined) return; // not a valid number yet: keep it local until it is
    this.binder.writerFor(this.scope.path).queue(this, value, this.editSeq);
  }

  render(source) {
    // An input is read from `inputs` first (an output could share its name).
    const value = source && source.inputs && this.name in source.inputs ? source.inputs[this.name] : lookup(source, this.name);
    if (value === undefined) return;
    if (!this.type) this.type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'boolean' ? 'boolean' : 'string';
    if (this.dirty || this.composing) return;
    const el = this.el;
    if (el.type === 'checkbox') { el.checked = Boolean(value); return; }
    const text = value == null ? '' : String(value);
    if (el.value === text) return;
    // A change made by the view model (e.g. clear). Keep the caret where it was when possible.
    const focused = document.activeElement === el;
    let start = null;
    let end = null;
    try { start = el.selectionStart; end = el.selectionEnd; } catch { /* not a text control */ }
    el.value = text;
    if (focused && start != null) {
      try { el.setSelectionRange(Math.min(start, text.length), Math.min(end, text.length)); } catch { /* ignore */ }
    }
  }

  dispose() {
    this.el.removeEventListener(this.event, this.onEdit);
    this.el.removeEventListener('compositionstart', this.onCompStart);
    this.el.removeEventListener('compositionend', this.onCompEnd);
  }
}

// Serialises PATCHes of one view model: one request in flight, later edits coalesce into the
// next request, failures caused by the network are retried so nothing typed is lost.
class InputWriter {
  constructor(binder, path) {
    this.binder = binder;
    this.path = path;
    this.pending = new Map(); // name -> {binding, value, seq}
    this.inflight = null;
    this.retryTimer = null;
    this.attempt = 0;
  }

  get idle() { return !this.inflight && this.pending.size === 0; }

  queue(binding, value, seq) {
    this.pending.set(binding.name, { binding, value, seq });
    if (!this.retryTimer) this.send();
  }

  send() {
    if (this.inflight || this.pending.size === 0 || this.binder.stopped) return this.inflight;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const batch = this.pending;
    this.pending = new Map();
    const body = Object.fromEntries([...batch].map(([name, e]) => [name, e.value]));
    this.inflight = (async () => {
      try {
        const snapshot = await api.patchInputs(this.path, body);
        this.attempt = 0;
        for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
        this.binder.receive(snapshot, { origin: 'write', path: this.path });
      } catch (err) {
        if (err instanceof api.ProblemError && err.status < 500) {
          // Refused (422 wrong type, 412, ...): drop these edits and show the server's truth.
          for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
          this.binder.notify({ title: 'Input refused', message: api.describeError(err) });
          this.binder.resync();
        } else {
          // Network trouble: put the edits back (unless newer ones replaced them) and retry.
          for (const [name, e] of batch) if (!this.pending.has(name)) this.pending.set(name, e);
          const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
          this.attempt += 1;
          this.retryTimer = setTimeout(() => { this.retryTimer = null; this.send(); }, delay);
        }
      } finally {
        this.inflight = null;
      }
      if (!this.retryTimer) this.send();
    })();
    return this.inflight;
  }

  /** Sends what is pending and waits (a few rounds at most) for it to be acknowledged. */
  async flush() {
    for (let round = 0; round < 3 && !this.idle; round += 1) {
      await (this.inflight || this.send());
    }
  }

  /** Last chance when the page goes away: fire-and-forget with keepalive. */
  flushOnExit() {
    clearTimeout(this.retryTimer);
    if (this.pending.size === 0) return;
    const body = Object.fromEntries([...this.pending].map(([name, e]) => [name, e.value]));
    this.pending.clear();
    api.patchInputs(this.path, body, { keepalive: true }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Binds one DOM subtree to the view model at `path`.
 * options: navigate(url), notify({title, message}), connection(state: "connecting"|"open"|"reconnecting"),
 *          onSnapshot(snapshot) after each applied snapshot, onFatal(error) when the view can't be shown.
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
    this.source = null;
    this.attempt = 0;
    this.reconnectTimer = null;
    this.openedAt = 0;
    this.streamState = 'connecting';
    this.scope = new Scope(this, root);
  }

  inputFor(el, scope) { return new InputBinding(this, el, scope); }

  writerFor(path) {
    if (!this.writers.has(path)) this.writers.set(path, new InputWriter(this, path));
    return this.writers.get(path);
  }

  onSnapshot(listener) { this.listeners.add(listener); return () => this.listeners.delete(listener); }

  notify(message) { (this.options.notify || ((m) => console.warn(m)))(message); }

  /** Loads the current snapshot, then subscribes to the event stream. */
  async start() {
    try {
      this.receive(await api.getSnapshot(this.path), { origin: 'get' });
    } catch (err) {
      if (err instanceof api.ProblemError && err.status >= 400 && err.status < 500) {
        this.stopped = true;
        if (this.options.onFatal) this.options.onFatal(err);
        return;
      }
      // Server unreachable: the stream's reconnect loop below will catch up.
    }
    this.openStream();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    if (this.source) this.source.close();
    this.source = null;
    for (const w of this.writers.values()) w.flushOnExit();
    this.scope.dispose();
  }

  setStreamState(state) {
    if (this.streamState === state) return;
    this.streamState = state;
    if (this.options.connection) this.options.connection(state);
  }

  openStream() {
    if (this.stopped) return;
    // Our own new EventSource can't send Last-Event-ID, so resume with ?lastEventId=<version>.
    const url = api.eventsURL(this.path, this.version >= 0 ? this.version : null);
    const source = new EventSource(url, { withCredentials: false });
    this.source = source;
    source.onopen = () => {
      if (this.source !== source) return;
      this.openedAt = Date.now();
      this.setStreamState('open');
      for (const w of this.writers.values()) if (!w.idle && !w.inflight) w.send();
    };
    const onData = (event) => {
      if (this.source !== source) return;
      this.attempt = 0;
      let snapshot;
      try { snapshot = JSON.parse(event.data); } catch { return; }
      this.receive(snapshot, { origin: 'event' });
    };
    source.onmessage = onData;
    source.addEventListener('snapshot', onData); // in case the server names its events
    source.onerror = () => {
      if (this.source !== source) return;
      this.dropStream();
    };
  }

  /** Closes the stream and reconnects with back-off (also the tests' debug hook). */
  dropStream() {
    if (this.source) this.source.close();
    this.source = null;
    if (this.stopped) return;
    this.setStreamState('reconnecting');
    clearTimeout(this.reconnectTimer);
    // A stream that stayed up a while earns a quick retry; one that keeps failing backs off.
    if (this.openedAt && Date.now() - this.openedAt > 5000) this.attempt = 0;
    this.openedAt = 0;
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base / 2 + Math.random() * base / 2; // jitter so many tabs don't stampede
    this.reconnectTimer = setTimeout(() => this.reconnect(), delay);
  }

  async reconnect() {
    if (this.stopped) return;
    // Check the view first: a 404 (e.g. the session expired and took the child view with it) is
    // final; a network error means try again later.
    try {
      const snapshot = await api.getSnapshot(this.path);
      const idle = [...this.writers.values()].every((w) => w.idle);
      // A lower version with nothing of ours in flight means the server restarted: start over.
      this.receive(snapshot, { origin: 'resync', force: idle && snapshot.version < this.version });
    } catch (err) {
      if (err instanceof api.ProblemError && err.status === 404) {
        this.stopped = true;
        this.setStreamState('open');
        if (this.options.onFatal) this.options.onFatal(err);
        return;
      }
      if (!(err instanceof api.ProblemError)) { this.dropStream(); return; }
    }
    this.openStream();
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
    if (!snapshot || this.stopped) return false;
    const snapPath = (snapshot.path || path).replace(/^\/+/, '');
    if (snapPath !== this.path) return false;
    if (!force && typeof snapshot.version === 'number' && snapshot.version <= this.version) {
      // Not newer; still refresh inputs that a write just acknowledged (they may differ if the
      // server normalised them).
      if (origin === 'write' && this.snapshot) this.scope.render(this.snapshot, this.snapshot);
      return false;
    }
    const previous = this.snapshot;
    this.snapshot = snapshot;
    this.version = typeof snapshot.version === 'number' ? snapshot.version : this.version;
    this.root.setAttribute('data-version', String(this.version));
    this.scope.render(snapshot, snapshot);
    this.reportCommandErrors(previous, snapshot);
    for (const listener of this.listeners) listener(snapshot, previous);
    return true;
  }

  // The seed shows a command's error in an alert; here it is a non-blocking toast. A toast is
  // raised when an error appears/changes, or when an execution ends with an error again.
  reportCommandErrors(previous, snapshot) {
    if (!previous) return; // an old error on first display is shown by the screen's banner
    for (const [name, state] of Object.entries(snapshot.commands || {})) {
      if (!state || !state.error) continue;
      const before = previous.commands && previous.commands[name];
      const changed = !before || !same(before.error, state.error);
      const finishedAgain = before && before.executing && !state.executing;
      if (changed || finishedAgain) {
        this.errorToasts += 1;
        this.notify({ title: 'Error', message: api.describeError(state.error), command: name });
      }
    }
  }

  /** Executes a command; flushes pending input writes first so the command sees them. */
  async execute(name, body, { path = this.path, element = null, quiet = false } = {}) {
    if (element) { this.localBusy.add(element); this.repaint(); }
    const toastsBefore = this.errorToasts;
    try {
      await this.writerFor(path).flush();
      const { snapshot } = await api.executeCommand(path, name, body);
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
        if (this.errorToasts === toastsBefore) this.notify({ title: 'Error', message: api.describeError(err), command: name });
      } else if (!(quiet && err instanceof api.ProblemError && err.status === 409)) {
        this.notify({ title: 'Error', message: api.describeError(err), command: name });
      }
      return null;
    } finally {
      if (element) { this.localBusy.delete(element); this.repaint(); }
    }
  }

  repaint() { if (this.snapshot && !this.stopped) this.scope.render(this.snapshot, this.snapshot); }
}

/** Convenience: bind, start, and return the binder. */
export function bind(root, path, options) {
  const binder = new Binder(root, path, options);
  binder.start();
  return binder;
}
