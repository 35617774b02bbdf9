// patch.js — applies the RFC 6902 JSON Patch events the server sends on streams opened with
// ?patches=1: `test`, `add`, `remove` and `replace`, on a copy of the document. Throws when an
// operation does not apply (the first one tests the version the patch was made against).

function tokens(path) {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`not a JSON Pointer: ${path}`);
  return path.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function parentOf(document, keys) {
  let node = document;
  for (const key of keys.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`no ${key}`);
    node = node[key];
  }
  return node;
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  }
  return value;
}

/** Returns `document` with `operations` applied; `document` itself is left as it was. */
export function applyPatch(document, operations) {
  let result = structuredClone(document);
  for (const { op, path, value } of operations) {
    const keys = tokens(path);
    if (keys.length === 0) {
      if (op === 'test') { if (!equal(sorted(result), sorted(value))) throw new Error('test failed'); continue; }
      result = structuredClone(value);
      continue;
    }
    const parent = parentOf(result, keys);
    const last = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`bad index ${last}`);
      if (op === 'test') { if (!equal(sorted(parent[index]), sorted(value))) throw new Error('test failed'); }
      else if (op === 'add') parent.splice(index, 0, structuredClone(value));
      else if (op === 'replace') parent[index] = structuredClone(value);
      else if (op === 'remove') parent.splice(index, 1);
      else throw new Error(`unsupported op ${op}`);
    } else if (parent !== null && typeof parent === 'object') {
      if (op === 'test') { if (!equal(sorted(parent[last]), sorted(value))) throw new Error('test failed'); }
      else if (op === 'add' || op === 'replace') {
        if (op === 'replace' && !(last in parent)) throw new Error(`no ${last}`);
        parent[last] = structuredClone(value);
      } else if (op === 'remove') {
        if (!(last in parent)) throw new Error(`no ${last}`);
        delete parent[last];
      } else throw new Error(`unsupported op ${op}`);
    } else {
      throw new Error(`${path} is below a value`);
    }
  }
  return result;
}
