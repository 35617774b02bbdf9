// members.js — how the binder reads a view-model member out of a snapshot (or a list item), finds
// a child view model's snapshot inside its parent's, and decides whether a value changed.

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

/** Whether two JSON values are equal. */
export const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The child snapshot with this `path` anywhere inside `snapshot` (a list item's view model), or null. */
export function findByPath(snapshot, path) {
  const seen = [snapshot];
  while (seen.length) {
    const node = seen.pop();
    if (!node || typeof node !== 'object') continue;
    if (!Array.isArray(node) && typeof node.path === 'string' && node.path.replace(/^\/+/, '') === path) return node;
    for (const value of Array.isArray(node) ? node : Object.values(node)) if (value && typeof value === 'object') seen.push(value);
  }
  return null;
}
