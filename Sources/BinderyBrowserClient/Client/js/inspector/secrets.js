// secrets.js — sensitive inputs (a password) kept out of everything the inspector shows or copies.
// The catalogue (GET /api/views) lists each screen's and child route's `sensitiveInputs`; a
// snapshot's value of such an input is replaced by a mask, and so is every occurrence of that
// value inside the snapshot's other strings (the form's `output` echoes its password). The page's
// own form is not touched: only the inspector's copies of what the page received are masked.
// (describePath also answers the entry's latency budgets, which budget.js judges.)

/** What the inspector shows instead of a secret: always six dots, whatever its length. */
export const MASK = '••••••';

/** A same-length stand-in of `text` made of "•" (one per character), for a copied test. */
export const sameLength = (text) => '•'.repeat([...String(text)].length);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

let catalogue = null; // the promise of GET /api/views' "views"

/**
 * Loads the screen catalogue once (the page asks for it too; this is the inspector's own copy);
 * null when it could not (asked again on the next call).
 */
export function loadCatalogue() {
  if (!catalogue) {
    catalogue = fetch('/api/views', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); return r.json(); })
      .then((body) => body.views || [])
      .catch(() => { catalogue = null; return null; });
  }
  return catalogue;
}

/** The latency budgets a catalogue entry declares ([] when none, or when the server does not say). */
const budgetsOf = (entry) => (Array.isArray(entry.latencyBudgets) ? entry.latencyBudgets : []);

/** "list/items/{id}" as a regular expression of whole paths. */
function patternOf(pattern) {
  const escaped = String(pattern).replace(/^\/+/, '').split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${escaped}$`);
}

/**
 * Where `path` ("form", "list/items/3") is in `views`: {name, root, sensitive, budgets} — root is
 * true for a screen, false for a child route; budgets its `latencyBudgets` ([] when it declares
 * none, or the server does not say) — or null when the catalogue does not know it.
 */
export function describePath(views, path) {
  for (const view of views || []) {
    if (view.path === path) return { name: view.name, root: true, sensitive: view.sensitiveInputs || [], budgets: budgetsOf(view) };
  }
  for (const view of views || []) {
    for (const child of view.children || []) {
      if (child.pattern && patternOf(child.pattern).test(path)) {
        return { name: child.name, root: false, sensitive: child.sensitiveInputs || [], budgets: budgetsOf(child) };
      }
    }
  }
  return null;
}

/** The non-empty values of the sensitive inputs `names` in `snapshot` (its `inputs`). */
export function secretsOf(snapshot, names) {
  const inputs = snapshot && isObject(snapshot.inputs) ? snapshot.inputs : {};
  return names.map((n) => inputs[n]).filter((v) => v != null && v !== '').map(String);
}

/** `text` with every occurrence of each secret replaced by `standIn(secret)`; longest first. */
export function maskText(text, secrets, standIn = () => MASK) {
  let out = String(text);
  for (const secret of [...new Set(secrets)].filter(Boolean).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(standIn(secret));
  }
  return out;
}

/** A deep copy of `value` with each secret inside its strings replaced. */
export function maskStrings(value, secrets, standIn = () => MASK) {
  if (!secrets.length) return value;
  if (typeof value === 'string') return maskText(value, secrets, standIn);
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, secrets, standIn));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, secrets, standIn)]));
  return value;
}

/**
 * A copy of `snapshot` safe to show: its sensitive inputs `names` masked (an empty one stays
 * empty), and their values — with `extra` secrets (the current ones) — masked in every string.
 */
export function maskSnapshot(snapshot, names, extra = [], standIn = () => MASK) {
  if (!snapshot || !names.length) return snapshot;
  const secrets = [...secretsOf(snapshot, names), ...extra];
  const masked = maskStrings(snapshot, secrets, standIn);
  if (isObject(masked.inputs)) {
    for (const name of names) {
      const value = snapshot.inputs[name];
      if (value != null && value !== '') masked.inputs[name] = standIn(String(value));
    }
  }
  return masked;
}

/**
 * A request body (a JSON text: a PATCH's merge patch, a command's argument) safe to show: its
 * sensitive members masked, and the secrets in its other strings. Not JSON: the secrets masked.
 */
export function maskBody(body, names, secrets = [], standIn = () => MASK) {
  if (body == null) return body;
  let value;
  try { value = JSON.parse(body); } catch { return maskText(body, secrets, standIn); }
  return JSON.stringify(maskValue(value, names, secrets, standIn));
}

/** A parsed body: members named in `names` (at any depth) masked, then the secrets in strings. */
export function maskValue(value, names, secrets = [], standIn = () => MASK) {
  const own = [];
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => {
      if (names.includes(k) && typeof x === 'string' && x !== '') { own.push(x); return [k, standIn(x)]; }
      return [k, walk(x)];
    }));
  };
  const masked = walk(value);
  return maskStrings(masked, [...own, ...secrets], standIn);
}
