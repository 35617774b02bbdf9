// text-undo.js — undo and redo of this browser's own edits of a collaborative text (as Google Docs
// does): the browser's own history of a control is lost as soon as someone else's edit is applied
// to it, and would undo theirs too. Each own edit is kept as its inverse; others' edits transform
// the kept inverses (ot.js's UndoManager), so that Undo takes back exactly what this user typed,
// where it now is, and never what others typed. Typing in quick succession is one step.

import * as textop from './textop.js';

const GROUP_MS = 1000; // own edits closer together than this are undone together
const DEPTH = 200;

/** The operation that takes back `op` (text0 components applied one after the other). */
export function invert(op) {
  return [...op].reverse().map((c) => (c.si !== undefined ? { p: c.p, sd: c.si } : { p: c.p, si: c.sd }));
}

export class TextUndo {
  constructor(now = () => Date.now()) {
    this.now = now;
    this.undos = []; // inverses of own edits, newest last; each applies to the text as it is now
    this.redos = [];
    this.lastAt = 0;
  }

  /** An own edit `op` (typed: `grouped` with the previous one when close in time). */
  record(op, { grouped = true } = {}) {
    if (!op.length) return;
    const at = this.now();
    const inverse = invert(op);
    if (grouped && this.undos.length && at - this.lastAt < GROUP_MS) {
      this.undos[this.undos.length - 1] = textop.compose(inverse, this.undos[this.undos.length - 1]);
    } else {
      this.undos.push(inverse);
      if (this.undos.length > DEPTH) this.undos.shift();
    }
    this.lastAt = at;
    this.redos = [];
  }

  /** Someone else's edit `op` was applied: what Undo and Redo would do moves with it. */
  transform(op) {
    if (!op.length) return;
    this.undos = transformStack(this.undos, op);
    this.redos = transformStack(this.redos, op);
    this.lastAt = 0; // a later own edit starts a new step
  }

  /** The operation that undoes the last own step (to apply as an own edit), or null. */
  undo() {
    const inverse = this.undos.pop();
    if (!inverse) return null;
    this.redos.push(invert(inverse));
    this.lastAt = 0;
    return inverse;
  }

  /** The operation that redoes the last undone step, or null. */
  redo() {
    const again = this.redos.pop();
    if (!again) return null;
    this.undos.push(invert(again));
    this.lastAt = 0;
    return again;
  }
}

/** Each kept operation, newest first, transformed past `op` (which is transformed past it in turn). */
function transformStack(stack, op) {
  const result = [];
  let other = op;
  for (let i = stack.length - 1; i >= 0; i -= 1) {
    const [mine, theirs] = textop.transformX(stack[i], other);
    if (mine.length) result.push(mine);
    other = theirs;
  }
  return result.reverse();
}
