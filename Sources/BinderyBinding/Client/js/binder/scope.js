// scope.js — the bindings of one scope (a screen root or one list item) and the data-list
// collection binding, which gives each item its own scope, keyed by a stable id.
//
// A scope renders from a "source": the view snapshot, or one list item (a child snapshot or a
// plain object). Descendants of a data-list element belong to the list's items, not to the scope
// around it. Commands found in an item run on the item's own view model when it has that command,
// otherwise on the view model that owns the list (e.g. list's select with {"id": item.id}).

import { instantiate } from '../templates.js';
import { InputBinding } from './input.js';
import { lookup, same } from './members.js';
import { renderOutput } from './renderers.js';

/** Finds the bindings of one scope. */
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

/** The bindings of one root or list item, rendered from a source. */
export class Scope {
  constructor(binder, root) {
    this.binder = binder;
    this.root = root;
    this.source = null;
    const b = compile(root);
    this.outputs = b.outputs;
    this.inputs = b.inputs.map((el) => new InputBinding(binder, el, this));
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
    // Unavailable until a snapshot says it is enabled: no button works before its state is known.
    if ('disabled' in el && el.tagName !== 'A') el.disabled = true; else el.setAttribute('aria-disabled', 'true');
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
    if ('disabled' in el && el.tagName !== 'A') {
      // A focused control that becomes unavailable (its own command runs) stays focusable, so
      // keyboard and screen-reader users keep their place; it is really disabled once they move on.
      const keepFocus = !enabled && document.activeElement === el;
      el.disabled = !enabled && !keepFocus;
      if (keepFocus) {
        el.setAttribute('aria-disabled', 'true');
        el.addEventListener('blur', () => this.renderCommand({ el, name }, this.source, this.binder.snapshot || rootSnapshot), { once: true });
      } else {
        el.removeAttribute('aria-disabled');
      }
    } else {
      el.setAttribute('aria-disabled', String(!enabled));
    }
    el.setAttribute('aria-busy', String(busy));
  }

  /** The input bindings of this scope and of every list item inside it. */
  allInputs() {
    return [...this.inputs, ...this.lists.flatMap((list) => [...list.items.values()].flatMap((e) => e.scope.allInputs()))];
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
