// scope.js — the bindings of one scope (a screen root or one list item) and the data-list
// collection binding, which gives each item its own scope, keyed by a stable id.
//
// A scope renders from a "source": the view snapshot, or one list item (a child snapshot or a
// plain object). Descendants of a data-list element belong to the list's items, not to the scope
// around it. Commands found in an item run on the item's own view model when it has that command,
// otherwise on the view model that owns the list (e.g. list's select with {"id": item.id}); an
// item's control can send its own value with the item's key (binder/command-control.js: an item
// edited in place).
//
// An output renders when its value changed; a property output (".checked") also whenever the
// element's property no longer shows the data (the user clicked the checkbox), except while the
// element's own command is on its way, and `.value` not into the focused control (what the user
// types there stays until they leave it).

import { instantiate } from '../templates.js';
import { renderCommand, wireCommand } from './command-control.js';
import { HashInput } from './hash-input.js';
import { InputBinding } from './input.js';
import { lookup, same } from './members.js';
import { renderOutput } from './renderers.js';

/** Finds the bindings of one scope. */
function compile(scopeRoot) {
  const found = { outputs: [], inputs: [], commands: [], lists: [], openers: [] };
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
    if (el.hasAttribute('data-opens-editor')) found.openers.push(el);
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
    this.openers = b.openers; // what opens this scope's editor (binder/editor.js)
    this.inputs = b.inputs.map((el) => new (el.hasAttribute('data-input-hash') ? HashInput : InputBinding)(binder, el, this));
    this.commands = b.commands.map((el) => wireCommand(this, el));
    this.lists = b.lists.map((el) => new ListBinding(binder, el));
  }

  /** Path of the view model a member of this scope belongs to. */
  get path() { return (this.source && this.source.path) || this.binder.path; }

  render(source, rootSnapshot) {
    this.source = source;
    for (const o of this.outputs) {
      const value = lookup(source, o.member);
      if (o.kind.startsWith('.')) { this.renderProperty(o, value); continue; }
      if (o.initialised && same(o.last, value)) continue;
      o.last = value;
      o.initialised = true;
      renderOutput(o.el, o.kind, value);
    }
    for (const list of this.lists) list.render(lookup(source, list.member), rootSnapshot);
    for (const input of this.inputs) input.render(source);
    for (const c of this.commands) renderCommand(this, c, rootSnapshot);
  }

  /** A property output (see above); `.value` held back in a focused control is shown once it is left. */
  renderProperty(o, value) {
    if (this.binder.localBusy.has(o.el)) return;
    if (o.kind === '.value' && document.activeElement === o.el) {
      if (!o.waitsForBlur) {
        o.waitsForBlur = true;
        o.el.addEventListener('blur', () => {
          o.waitsForBlur = false;
          if (!this.binder.localBusy.has(o.el)) renderOutput(o.el, o.kind, lookup(this.source, o.member));
        }, { once: true });
      }
      return;
    }
    renderOutput(o.el, o.kind, value);
  }

  /** Shows again whether each command of this scope (and of its lists' items) can be pressed. */
  renderCommands(rootSnapshot) {
    for (const c of this.commands) renderCommand(this, c, rootSnapshot);
    for (const list of this.lists) for (const entry of list.items.values()) entry.scope.renderCommands(rootSnapshot);
  }

  /** The input bindings of this scope and of every list item inside it. */
  allInputs() {
    return [...this.inputs, ...this.lists.flatMap((list) => [...list.items.values()].flatMap((e) => e.scope.allInputs()))];
  }

  dispose() {
    for (const list of this.lists) list.dispose();
    for (const input of this.inputs) input.dispose();
    for (const command of this.commands) command.dispose();
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
