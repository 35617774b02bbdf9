// json-view.js — a snapshot as formatted JSON (two-space indentation, as JSON.stringify would
// print it), one line per member, with the members that changed in the last version marked
// (<mark>: highlighted, and announced as such). Top-level members come in the order a newcomer
// reads a view model: path, version, inputs, outputs, commands, then the rest.

const FIRST = ['path', 'version', 'active', 'inputs', 'outputs', 'commands'];

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const escapePointer = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON Pointers (RFC 6901) of the members whose value differs between `before` and `after`:
 * the deepest ones (a changed phone is "/inputs/phone", not "/inputs"); a member added, removed
 * or changed in type is named itself; arrays compare element by element.
 */
export function changedMembers(before, after, pointer = '') {
  if (Object.is(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((k) => (k in before && k in after
      ? changedMembers(before[k], after[k], `${pointer}/${escapePointer(k)}`)
      : [`${pointer}/${escapePointer(k)}`]));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const longest = Math.max(before.length, after.length);
    const found = [];
    for (let i = 0; i < longest; i += 1) {
      found.push(...(i < before.length && i < after.length
        ? changedMembers(before[i], after[i], `${pointer}/${i}`)
        : [`${pointer}/${i}`]));
    }
    return found;
  }
  return typeof before === typeof after && JSON.stringify(before) === JSON.stringify(after) ? [] : [pointer];
}

/** "/outputs/phoneColor" as people read it: "outputs.phoneColor" (array indices in brackets). */
export function memberName(pointer) {
  return pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function ordered(value, top) {
  if (!top) return Object.keys(value);
  const keys = Object.keys(value);
  return [...FIRST.filter((k) => keys.includes(k)), ...keys.filter((k) => !FIRST.includes(k))];
}

function span(className, text) {
  const el = document.createElement('span');
  el.className = className;
  el.textContent = text;
  return el;
}

function scalar(value) {
  const kind = value === null ? 'null' : typeof value;
  return span(`j-${kind}`, JSON.stringify(value));
}

/**
 * Appends the lines of `value` to `out`. A line whose member is in `changed` is wrapped in
 * <mark>; an object or array that changed as a whole marks its opening line.
 */
function lines(out, value, { pointer, key, indent, comma, changed, top = false }) {
  const line = document.createElement('span');
  line.className = 'j-line';
  line.dataset.pointer = pointer;
  line.append('  '.repeat(indent));
  if (key !== undefined) line.append(span('j-key', JSON.stringify(key)), ': ');
  const container = isObject(value) || Array.isArray(value);
  const empty = container && (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
  if (!container || empty) {
    line.append(container ? (Array.isArray(value) ? '[]' : '{}') : scalar(value), comma ? ',' : '');
  } else {
    line.append(Array.isArray(value) ? '[' : '{');
  }
  const marked = changed.has(pointer);
  if (marked) line.classList.add('j-changed');
  out.append(marked ? wrap(line) : line, '\n');
  if (!container || empty) return;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : ordered(value, top).map((k) => [k, value[k]]);
  entries.forEach(([k, v], i) => lines(out, v, {
    pointer: `${pointer}/${escapePointer(k)}`,
    key: Array.isArray(value) ? undefined : k,
    indent: indent + 1,
    comma: i < entries.length - 1,
    changed,
  }));
  out.append(`${'  '.repeat(indent)}${Array.isArray(value) ? ']' : '}'}${comma ? ',' : ''}\n`);
}

function wrap(line) {
  const mark = document.createElement('mark');
  mark.append(line);
  return mark;
}

/** Shows `snapshot` in the <pre> `pre`, marking the members listed in `changed` (pointers). */
export function renderJSON(pre, snapshot, changed = []) {
  const out = document.createDocumentFragment();
  if (snapshot != null) lines(out, snapshot, { pointer: '', indent: 0, comma: false, changed: new Set(changed), top: true });
  pre.replaceChildren(out);
}

/**
 * `value` with only the members whose name contains `query` (any case): a member whose own key
 * matches is kept whole, a container is kept with what matches inside it. Answers undefined
 * when nothing matches; the whole value for an empty query.
 */
export function filterMembers(value, query, top = true) {
  const q = query.trim().toLowerCase();
  if (!q) return value;
  if (!isObject(value) && !Array.isArray(value)) return undefined;
  const kept = Array.isArray(value) ? [] : {};
  let any = false;
  for (const [k, v] of Object.entries(value)) {
    if (top && (k === 'path' || k === 'version')) { if (!Array.isArray(kept)) kept[k] = v; continue; }
    const inner = String(k).toLowerCase().includes(q) ? v : filterMembers(v, q, false);
    if (inner === undefined) continue;
    any = true;
    if (Array.isArray(kept)) kept.push(inner); else kept[k] = inner;
  }
  return any ? kept : undefined;
}
