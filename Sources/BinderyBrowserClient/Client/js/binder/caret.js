// caret.js — applying a text operation to a control without moving what the user is doing: the
// caret and the selection move with the text around them, and the scroll position stays.

import * as textop from './textop.js';

/** Applies `op` to `el`'s value, keeping its caret, selection and scroll; answers the new value. */
export function applyKeepingCaret(el, op) {
  const before = el.value;
  const after = textop.apply(before, op);
  if (after === before) return after;
  let selection = null;
  try {
    const start = textop.toOffset(before, el.selectionStart);
    const end = textop.toOffset(before, el.selectionEnd);
    const collapsed = start === end;
    selection = [textop.transformPosition(start, op, !collapsed), textop.transformPosition(end, op, false), el.selectionDirection];
  } catch { /* not a text control */ }
  const scrollTop = el.scrollTop;
  el.value = after;
  if (selection) {
    try { el.setSelectionRange(textop.toIndex(after, selection[0]), textop.toIndex(after, selection[1]), selection[2] || 'none'); } catch { /* ignore */ }
  }
  el.scrollTop = scrollTop;
  return after;
}
