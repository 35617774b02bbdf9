// diff.js — what changed from one version of a snapshot to the next, member by member: added,
// removed or changed, with the old and the new value. Shown as a table whose first column says the
// kind of change in words (and a sign: + added, − removed, ~ changed), so colour is never the only
// cue; values are compact JSON.

import { changedMembers, memberName } from './json-view.js';

const KIND_WORDS = { added: 'added', removed: 'removed', changed: 'changed' };
const KIND_SIGNS = { added: '+', removed: '−', changed: '~' };

/** The value at JSON Pointer `pointer` in `value`, and whether it is there: {found, value}. */
export function at(value, pointer) {
  let here = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (here === null || typeof here !== 'object' || !(key in here)) return { found: false, value: undefined };
    here = here[key];
  }
  return { found: true, value: here };
}

/**
 * The changes from `before` to `after` (two snapshots; `before` null for the first version):
 * [{pointer, name, kind: "added"|"removed"|"changed", before, after}], without `/version`.
 */
export function diffSnapshots(before, after) {
  if (!after) return [];
  if (!before) return [];
  return changedMembers(before, after).filter((p) => p !== '/version').map((pointer) => {
    const old = at(before, pointer);
    const now = at(after, pointer);
    const kind = !old.found ? 'added' : !now.found ? 'removed' : 'changed';
    return { pointer, name: memberName(pointer), kind, before: old.value, after: now.value };
  });
}

const compact = (value) => (value === undefined ? '' : JSON.stringify(value));

function cell(tag, text, className) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

/**
 * Fills the <tbody> `body` with `changes` (from diffSnapshots), one row each: the member, the
 * kind of change in words, the value before, the value after. `empty` is said when there is none.
 */
export function renderDiff(body, changes, empty) {
  if (changes.length === 0) {
    const row = document.createElement('tr');
    const none = cell('td', empty, 'hint');
    none.colSpan = 4;
    row.append(none);
    body.replaceChildren(row);
    return;
  }
  body.replaceChildren(...changes.map((c) => {
    const row = document.createElement('tr');
    row.dataset.pointer = c.pointer;
    row.dataset.kind = c.kind;
    const kind = cell('td', '', `diff-kind diff-${c.kind}`);
    kind.append(cell('span', KIND_SIGNS[c.kind], 'diff-sign'), ` ${KIND_WORDS[c.kind]}`);
    kind.firstChild.setAttribute('aria-hidden', 'true');
    const name = cell('th', c.name);
    name.scope = 'row';
    row.append(name, kind,
      cell('td', c.kind === 'added' ? '—' : compact(c.before), 'diff-before'),
      cell('td', c.kind === 'removed' ? '—' : compact(c.after), 'diff-after'));
    return row;
  }));
}
