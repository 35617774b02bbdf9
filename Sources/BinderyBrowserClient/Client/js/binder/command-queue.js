// command-queue.js — the presses of a screen's data-command controls. A command pressed while a
// write of its view model is pending or on its way is never dropped: it waits for that write's
// answer (its snapshot), then runs if the command is enabled there; if it is not, the user is told
// why (a notice). Such presses run one after another, in the order pressed; what is typed after a
// press waits for its command (InputWriter.hold, taken when the press's turn comes), so the command
// acts on what was typed before it.
// A press with no write to wait for runs at once, as long as its control is available. The presses
// of a field that clears (data-command-clears: its text went with the press) always queue: each is
// a new one, run in order, and one that does not run puts its text back in the field if it is empty.
//
// One press, one command: a control whose press waits or runs is not pressed again unless the user
// typed since (typed, pressed, typed, pressed: two commands). The command itself carries an
// Idempotency-Key and is sent again with it while the server cannot be reached (binder/outbox.js).
// A press whose write gets no answer goes to the server anyway (kept in the outbox behind the
// edits), which judges whether the command is enabled.
//
// While its view model writes, a control its snapshot disables stays pressable (aria-disabled
// instead of disabled, binder/command-control.js): a click, or a form's Enter reaching its default
// button, must get here.

import { runsAlone } from './command-control.js';

const clean = (path) => String(path || '').replace(/^\/+/, '');
/** How long a press waits, at most, between looks at edits held back for an earlier command. */
const HELD_LOOK_MS = 250;

/** The words a control is known by: its label, else its text, else its value. */
function labelOf(el) {
  const text = (s) => String(s || '').replace(/\s+/g, ' ').trim();
  return text(el.getAttribute('aria-label')) || text(el.labels && el.labels[0] && el.labels[0].textContent)
    || text(el.textContent) || text(el.value);
}

export class CommandQueue {
  constructor(binder) {
    this.binder = binder;
    this.presses = [];        // {el, name, body, path, state}: waiting for a write, in order
    this.running = false;
    this.typedAt = new Map(); // control -> what had been typed when it was pressed (while it waits or runs)
    this.writing = new Map(); // path -> whether its writer was writing at the last look
    this.wakers = new Set();  // resolved at the next change of a writer (a press waiting for held edits)
  }

  /** The input writer of the view model at `path`, if it has one. */
  writerOf(path) {
    for (const writer of this.binder.writers.values()) if (clean(writer.path) === clean(path)) return writer;
    return null;
  }

  /** Whether the view model at `path` has a write pending or on its way (a press now waits for it). */
  writerBusy(path) {
    const writer = this.writerOf(path);
    return Boolean(writer) && (!writer.idle || writer.later.size > 0);
  }

  /** A writer's state changed: the commands' controls follow when it starts or stops writing. */
  writesChanged(writer) {
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    const path = clean(writer.path);
    const now = !writer.idle || writer.later.size > 0;
    if (this.writing.get(path) === now) return;
    this.writing.set(path, now);
    this.binder.renderCommands();
  }

  /** Every edit made on this screen so far (a press after more typing is a new press). */
  typed() { return this.binder.scope.allInputs().reduce((n, b) => n + b.editSeq, 0); }

  /**
   * The user pressed `el`: its command `name` on the view model at `path`, with `body`; `state()`
   * answers the command's state in the latest snapshot; `clears`: the text of a field the press
   * emptied. Answers whether the press was taken (run now, or waiting for a write or an earlier
   * press); false when it was not (unavailable, or pressed already).
   */
  press({ el, name, body, path, state, clears }) {
    const binder = this.binder;
    if (binder.stopped || binder.forgotten) return false;
    const typed = this.typed();
    const queued = clears !== undefined;
    if (!queued && this.typedAt.has(el) && this.typedAt.get(el) === typed) return false; // pressed already
    if (!queued && !this.writerBusy(path)) {
      const now = state();
      if (!now || !now.enabled || runsAlone(now) || binder.localBusy.has(el)) return false;
      this.typedAt.set(el, typed);
      binder.execute(name, body, { path, element: el }).finally(() => this.pressed(el));
      return true;
    }
    this.typedAt.set(el, typed);
    binder.localBusy.add(el); // aria-busy: it is under way
    this.presses.push({ el, name, body, path, state, clears });
    binder.renderCommands();
    this.drain();
    return true;
  }

  /** A press of `el` is over (run, refused or dropped): unless another one of it waits. */
  pressed(el) {
    if (this.presses.some((p) => p.el === el)) return;
    this.typedAt.delete(el);
    this.binder.localBusy.delete(el);
  }

  async drain() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.presses.length > 0) {
        const press = this.presses[0];
        try { await this.run(press); } catch (err) { console.error(err); }
        this.presses.shift();
        this.pressed(press.el);
        this.binder.repaint();
      }
    } finally {
      this.running = false;
    }
  }

  /** One press: after the edits typed before it, run or refused by what their answer says. */
  async run(press) {
    const binder = this.binder;
    const writer = this.writerOf(press.path);
    // Edits held back for an earlier command (typed before this press) go first, when it lets them.
    while (writer && writer.later.size > 0 && !binder.stopped) await this.nextChange();
    if (binder.stopped || binder.forgotten) return;
    const release = writer ? writer.hold() : () => {};
    let answer = null;
    try {
      // The server known to be away: no answer to wait for; the command is kept at once (outbox).
      if (writer && !writer.waiting) await writer.flush();
      if (binder.stopped || binder.forgotten) return;
      if (writer && !writer.idle) {
        // No answer (the server is away): the command goes behind the edits, and the server judges.
        answer = await binder.execute(press.name, press.body, { path: press.path, element: press.el });
        return;
      }
      const state = press.state();
      if (state && state.enabled && !runsAlone(state)) {
        answer = await binder.execute(press.name, press.body, { path: press.path, element: press.el });
      } else {
        this.refuse(press, state);
      }
    } finally {
      release(answer);
      const { el, clears } = press;
      if (!answer && clears !== undefined && el.value === '') el.value = clears;
    }
  }

  /** Resolves at the next change of any writer of this screen (or after a short while). */
  nextChange() {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, HELD_LOOK_MS);
      this.wakers.add(() => { clearTimeout(timer); resolve(); });
    });
  }

  /** The command is not enabled once the write was answered: the user is told, in their words if the control has some. */
  refuse({ el, name }, state) {
    const label = labelOf(el) || name;
    const message = state && state.executing
      ? `“${label}” is still running: press it again once it has finished.`
      : el.dataset.commandUnavailable || `“${label}” can’t be done with what was entered.`;
    this.binder.notify({ title: 'Not done', message, command: name });
  }

  /** The screen goes: presses still waiting are dropped. */
  stop() {
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    this.presses.splice(1);
  }
}
