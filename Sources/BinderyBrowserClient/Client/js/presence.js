// presence.js — who else is on this screen, and in which field. Ephemeral: the server keeps it in
// memory only and forgets a client 12 s after its last word (a tab that crashed).
//
//   PUT    /api/views/{path}/presence {"field": id|null}  when the screen opens, when focus enters
//          or leaves a [data-input] control, and every 5 s (the heartbeat);
//   DELETE /api/views/{path}/presence                     when the screen goes away (navigation,
//          pagehide with keepalive);
//   event: presence {"others": [{id, name, colour, field}]} on the screen's stream (binder.onEvent).
//
// A field id is the input's name for the screen's own inputs ("blurb"), and "<child path relative
// to the screen>/<input>" for an input of a child view model in a list ("steps/s1/name").
//
// Shown: a compact bar under the screen's heading ("who is here": a chip per other person, hidden
// when alone) and, on each field someone else is in, an outline in their colour with a small name
// label; the control's aria-describedby points at a visually hidden sentence saying so. Your own
// name (the PUT's `you`) leads the bar: "You are Teal Otter", as the others see you. Wired for
// every screen by app.js; active on screens that show shared texts.

import * as api from './api.js';

const HEARTBEAT_MS = 5000; // the server's PresenceBoard.heartbeat
let serial = 0; // unique ids for the hidden descriptions
const leaving = new Map(); // path -> the DELETE in flight: a new PUT of the same screen waits for it

/** "#rrggbb" (or any CSS colour) -> the text colour readable on it: black or white. */
function textOn(colour) {
  const probe = document.createElement('span');
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g) || ['0', '0', '0'];
  probe.remove();
  const lin = (c) => { const v = Number(c) / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
  // Contrast with black (L+.05)/.05 against with white 1.05/(L+.05): the larger one wins.
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? '#000' : '#fff';
}

function initials(name) {
  return String(name || '?').split(/\s+/).filter(Boolean).map((w) => w[0]).join('').slice(0, 2).toUpperCase();
}

/** The words for a control: its label's text, else aria-label, else the input's name. */
function labelOf(el) {
  const label = (el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`)) || el.closest('label');
  let text = '';
  if (label) {
    const copy = label.cloneNode(true);
    for (const c of copy.querySelectorAll('input, select, textarea, .presence-label, .sr-only, .presence-sr')) c.remove();
    text = copy.textContent.replace(/\s+/g, ' ').trim();
  }
  return text || el.getAttribute('aria-label') || el.dataset.input;
}

/** Whether a snapshot shows collaborative texts, its own or its list items'. */
function showsSharedTexts(node) {
  if (!node || typeof node !== 'object') return false;
  if (node.texts && typeof node.texts === 'object') return true;
  const outputs = Array.isArray(node) ? node : Object.values(node.outputs || {});
  return outputs.some((value) => Array.isArray(value) && value.some((item) => showsSharedTexts(item)));
}

export class Presence {
  /** Follows `binder`'s screen (root: its DOM). Call start() once, stop() when the screen goes. */
  constructor(binder, root) {
    this.binder = binder;
    this.root = root;
    this.path = binder.path;
    this.field = null;
    this.others = [];
    this.stopped = false;
    this.shared = false; // known with the first snapshot
    this.timer = null;
    this.marked = new Map(); // control -> {label, sr}
    this.bar = this.makeBar();
    this.onFocusIn = (event) => this.focusMoved(event.target);
    this.onFocusOut = (event) => {
      // Focus leaving for something outside any field (or the page): say "no field".
      if (!event.relatedTarget || !this.root.contains(event.relatedTarget)) this.focusMoved(null);
    };
    // Leaving the page: say goodbye (app.js binds the screen afresh if it comes back from the cache).
    this.onPageHide = () => this.stop();
    // The hidden sentences the controls' aria-describedby point at (not inside any label).
    this.descriptions = document.createElement('div');
    this.descriptions.hidden = true;
    this.descriptions.className = 'presence-descriptions';
    this.root.append(this.descriptions);
  }

  start() {
    this.root.addEventListener('focusin', this.onFocusIn);
    this.root.addEventListener('focusout', this.onFocusOut);
    window.addEventListener('pagehide', this.onPageHide);
    this.offEvent = this.binder.onEvent('presence', (data) => this.show(data && data.others));
    // List items come and go with snapshots: their markers are put back after each one. The
    // first PUT waits for the first snapshot: the screen exists, and its GET has set the
    // session cookie (a PUT racing it would be another session: a ghost of ourselves).
    // Only screens showing shared texts (a snapshot or list item with `texts`) have others on
    // them; elsewhere (a session's own form) nothing is said or shown.
    let first = true;
    this.offSnapshot = this.binder.onSnapshot((snapshot) => {
      if (first) {
        first = false;
        this.shared = showsSharedTexts(snapshot);
        if (this.shared) this.put();
      }
      this.paintFields();
    });
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.root.removeEventListener('focusin', this.onFocusIn);
    this.root.removeEventListener('focusout', this.onFocusOut);
    window.removeEventListener('pagehide', this.onPageHide);
    if (this.offEvent) this.offEvent();
    if (this.offSnapshot) this.offSnapshot();
    if (this.shared) this.leave({ keepalive: true });
  }

  url() { return `${api.viewURL(this.path)}/presence`; }

  /** Says where we are (and restarts the heartbeat); the answer lists the others too. */
  async put() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.put(), HEARTBEAT_MS);
    try {
      if (leaving.has(this.path)) await leaving.get(this.path);
      if (this.stopped) return;
      const { data } = await api.request('PUT', this.url(), { body: { field: this.field } });
      if (!this.stopped && data) {
        this.you = data.you && data.you.name ? data.you : this.you;
        this.show(data.others);
      }
    } catch (err) {
      // 404: no such screen (the page shows why); otherwise the next heartbeat tries again.
      if (err instanceof api.ProblemError && err.status === 404) clearTimeout(this.timer);
    }
  }

  leave({ keepalive = false } = {}) {
    clearTimeout(this.timer);
    const done = api.request('DELETE', this.url(), { keepalive }).catch(() => {})
      .finally(() => { if (leaving.get(this.path) === done) leaving.delete(this.path); });
    leaving.set(this.path, done);
  }

  /** The field id of a control: "name", or "steps/s1/name" for a child's input. */
  fieldOf(el) {
    const control = el && el.closest && el.closest('[data-input]');
    if (!control || !this.root.contains(control)) return null;
    const binding = this.binder.scope.allInputs().find((b) => b.el === control);
    const owner = binding ? binding.scope.path.replace(/^\/+/, '') : this.path;
    const relative = owner.startsWith(`${this.path}/`) ? owner.slice(this.path.length + 1) : '';
    return relative ? `${relative}/${control.dataset.input}` : control.dataset.input;
  }

  /** The control of a field id, or null. */
  controlOf(field) {
    if (!field) return null;
    const slash = field.lastIndexOf('/');
    const owner = slash < 0 ? this.path : `${this.path}/${field.slice(0, slash)}`;
    const name = field.slice(slash + 1);
    const binding = this.binder.scope.allInputs().find((b) => b.name === name && b.scope.path.replace(/^\/+/, '') === owner);
    return binding ? binding.el : null;
  }

  focusMoved(target) {
    const field = this.fieldOf(target);
    if (field === this.field) return;
    this.field = field;
    this.put();
  }

  makeBar() {
    const bar = document.createElement('div');
    bar.className = 'presence-bar';
    bar.setAttribute('role', 'status');
    bar.setAttribute('aria-label', 'Also here');
    bar.hidden = true;
    const heading = this.root.querySelector('h1');
    if (heading) heading.after(bar); else this.root.prepend(bar);
    return bar;
  }

  show(others) {
    if (this.stopped) return;
    this.others = Array.isArray(others) ? others : [];
    this.paintBar();
    this.paintFields();
  }

  paintBar() {
    const chips = this.others.map((o) => {
      const control = this.controlOf(o.field);
      const chip = document.createElement('span');
      chip.className = 'presence-chip';
      chip.dataset.presenceId = o.id;
      chip.style.setProperty('--presence-colour', o.colour);
      const badge = document.createElement('span');
      badge.className = 'presence-initials';
      badge.setAttribute('aria-hidden', 'true');
      badge.style.background = o.colour;
      badge.style.color = textOn(o.colour);
      badge.textContent = initials(o.name);
      const words = document.createElement('span');
      words.className = 'presence-name';
      words.textContent = o.name;
      chip.append(badge, words);
      if (control) {
        const where = document.createElement('span');
        where.className = 'presence-where';
        where.textContent = ` is editing ${labelOf(control)}`;
        chip.append(where);
      }
      chip.title = chip.textContent.replace(badge.textContent, '').trim();
      return chip;
    });
    // Who the others see: your own name and colour, said first (only when someone else is here).
    const you = [];
    if (this.you && chips.length) {
      const line = document.createElement('span');
      line.className = 'presence-you';
      line.style.setProperty('--presence-colour', this.you.colour);
      line.textContent = `You are ${this.you.name}`;
      you.push(line);
    }
    this.bar.replaceChildren(...you, ...chips);
    this.bar.hidden = chips.length === 0;
  }

  paintFields() {
    if (this.stopped) return;
    const wanted = new Map(); // control -> [others]
    for (const o of this.others) {
      const control = this.controlOf(o.field);
      if (control) wanted.set(control, [...(wanted.get(control) || []), o]);
    }
    for (const [control, mark] of this.marked) {
      if (!wanted.has(control) || !control.isConnected) this.unmark(control, mark);
    }
    for (const [control, people] of wanted) this.mark(control, people);
  }

  mark(control, people) {
    let mark = this.marked.get(control);
    if (!mark) {
      const label = document.createElement('span');
      label.className = 'presence-label';
      label.setAttribute('aria-hidden', 'true');
      const sr = document.createElement('span');
      sr.className = 'presence-sr';
      sr.id = `presence-${++serial}`;
      mark = { label, sr };
      this.marked.set(control, mark);
      control.setAttribute('aria-describedby', [control.getAttribute('aria-describedby'), sr.id].filter(Boolean).join(' '));
    }
    const first = people[0];
    const names = people.map((p) => p.name).join(', ');
    mark.label.textContent = names;
    mark.label.style.background = first.colour;
    mark.label.style.color = textOn(first.colour);
    mark.sr.textContent = `${names} ${people.length > 1 ? 'are' : 'is'} editing this field.`;
    control.dataset.presence = people.map((p) => p.id).join(' ');
    control.style.setProperty('--presence-colour', first.colour);
    // The label sits just above the control, in the control's box (its parent is positioned).
    if (mark.label.parentNode !== control.parentNode || mark.label.nextSibling !== control) control.before(mark.label);
    if (!mark.sr.isConnected) this.descriptions.append(mark.sr);
    control.parentNode.classList.add('presence-host');
  }

  unmark(control, { label, sr }) {
    this.marked.delete(control);
    label.remove();
    sr.remove();
    const rest = (control.getAttribute('aria-describedby') || '').split(/\s+/).filter((t) => t && t !== sr.id);
    if (rest.length) control.setAttribute('aria-describedby', rest.join(' ')); else control.removeAttribute('aria-describedby');
    delete control.dataset.presence;
    control.style.removeProperty('--presence-colour');
    if (control.parentNode && !control.parentNode.querySelector('.presence-label')) control.parentNode.classList.remove('presence-host');
  }
}
