// swift-test.js — "Copy as test": the page's steps on a view model written as a Swift Testing test
// on BinderyTesting's ViewModelTester. Each write (its merge patch) and command (its name and
// argument) is replayed in order, and the version the server answered is asserted as exact member
// changes ($0.inputs[…], $0.outputs[…], $0.commands[…]?.enabled …) against the version before it;
// a deferred command (202) is followed by `settle` with the changes of the version that ended it
// (after advancing the fixture's clock by the seconds the run took). Values are JSONValue
// literals; sensitive inputs are replaced by a same-length stand-in of "•" everywhere. How the
// view model is built comes from test-fixture.js (an app overrides that file).

import { maskStrings, maskValue, sameLength, secretsOf } from './secrets.js';

const GROUPS = ['inputs', 'outputs'];
const COMMAND_FIELDS = ['enabled', 'executing', 'error', 'policy'];
const SWIFT_KEYWORDS = new Set(['as', 'break', 'case', 'catch', 'class', 'continue', 'default', 'defer', 'do', 'else',
  'enum', 'extension', 'fallthrough', 'false', 'for', 'func', 'guard', 'if', 'import', 'in', 'init', 'inout', 'internal',
  'is', 'let', 'nil', 'operator', 'private', 'protocol', 'public', 'repeat', 'return', 'self', 'static', 'struct',
  'subscript', 'super', 'switch', 'throw', 'throws', 'true', 'try', 'var', 'where', 'while', 'clock', 'upstream']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

/** `value` with its objects' keys in order (so that two equal snapshots compare equal). */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  return value;
}

/** A Swift string literal of `text`: quotes, backslashes and control characters escaped. */
export function swiftString(text) {
  let out = '"';
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A JSONValue literal of `value`: strings, numbers, true/false, .null, [...] and [k: v] (keys sorted). */
export function swiftValue(value) {
  if (value === null || value === undefined) return '.null';
  if (typeof value === 'string') return swiftString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '.null';
  if (Array.isArray(value)) return `[${value.map(swiftValue).join(', ')}]`;
  const keys = Object.keys(value).sort();
  return keys.length === 0 ? '[:]' : `[${keys.map((k) => `${swiftString(k)}: ${swiftValue(value[k])}`).join(', ')}]`;
}

/** A Swift identifier from a screen's name: "recipeEdit" stays, "recipe-edit" becomes "recipeEdit". */
export function identifier(name) {
  const words = String(name).split(/[^A-Za-z0-9]+/).filter(Boolean);
  let id = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  if (!id || /^[0-9]/.test(id)) id = `screen${id}`;
  return SWIFT_KEYWORDS.has(id) ? `${id}Model` : id;
}

/**
 * The statements (without `$0.` indentation) that turn `before`'s inputs, outputs and commands
 * into `after`'s, as ViewModelTester's SnapshotState is edited; [] when none changed.
 */
export function memberChanges(before, after) {
  const lines = [];
  for (const group of GROUPS) {
    const a = (before && isObject(before[group]) && before[group]) || {};
    const b = (after && isObject(after[group]) && after[group]) || {};
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!(key in b)) lines.push(`$0.${group}[${swiftString(key)}] = nil`);
      else if (!(key in a) || !same(a[key], b[key])) lines.push(`$0.${group}[${swiftString(key)}] = ${swiftValue(b[key])}`);
    }
  }
  const ca = (before && isObject(before.commands) && before.commands) || {};
  const cb = (after && isObject(after.commands) && after.commands) || {};
  const field = (state, f) => (f === 'enabled' || f === 'executing' ? (state || {})[f] === true
    : f === 'error' ? ((state || {}).error ?? null) : String((state || {}).policy ?? ''));
  for (const name of [...new Set([...Object.keys(ca), ...Object.keys(cb)])].sort()) {
    const target = `$0.commands[${swiftString(name)}]`;
    if (!(name in cb)) { lines.push(`${target} = nil`); continue; }
    if (!(name in ca)) {
      const s = cb[name];
      lines.push(`${target} = .init(enabled: ${field(s, 'enabled')}, executing: ${field(s, 'executing')}, error: ${swiftValue(field(s, 'error'))}, policy: ${swiftString(field(s, 'policy'))})`);
      continue;
    }
    for (const f of COMMAND_FIELDS) {
      const x = field(ca[name], f);
      const y = field(cb[name], f);
      if (!same(x, y)) lines.push(`${target}?.${f} = ${typeof y === 'boolean' ? String(y) : swiftValue(y)}`);
    }
  }
  return lines;
}

/** Whether two snapshots differ in what ViewModelTester asserts (inputs, outputs, commands). */
const differs = (a, b) => memberChanges(a, b).length > 0;

/** `{ … }` with the statements indented under `indent`, or `{ _ in }`. */
function closure(lines, indent) {
  if (lines.length === 0) return '{ _ in }';
  return `{\n${lines.map((l) => `${indent}    ${l}`).join('\n')}\n${indent}}`;
}

/** "Versions 4–6" / "Version 4" (how a comment starts). */
const versionWords = (list) => (list.length === 1 ? `Version ${list[0]}` : `Versions ${list[0]}–${list[list.length - 1]}`);

/**
 * The test, as Swift source text. `view` is {path, name, root}; `fixture` what
 * test-fixture.js answered ({imports, setup, subject, clock, skip}: `skip` names the commands a
 * copy cannot replay, with why); `steps` the recorder's steps of the
 * view; `history` its VersionHistory (the server's log loaded); `sensitive` the names of its
 * sensitive inputs.
 */
export function swiftTest({ view, fixture, steps, history, sensitive = [] }) {
  // A snapshot as the test sees it: its secrets (the values of its sensitive inputs) replaced
  // wherever they are, so a replayed stand-in echoes as the recorded secret did. A write's
  // sensitive members get the same stand-in.
  const masked = (snapshot) => maskStrings(snapshot, secretsOf(snapshot, sensitive), sameLength);
  const hide = (value) => maskValue(value, sensitive, [], sameLength);
  const snap = (version) => { const e = history.get(version); return e ? masked(e.snapshot) : null; };

  const subject = identifier(view.name);
  const body = [];
  const say = (text) => body.push(`        // ${text}`);
  const replayed = steps.filter((s) => s.status != null && s.status >= 200 && s.status < 300);
  let last = null; // the version the test asserted last
  let first = true;
  for (const step of steps) {
    const what = step.kind === 'write' ? `the write ${JSON.stringify(hide(step.body))}` : `the command ${step.name}`;
    const skipped = step.kind === 'write' ? null : (fixture.skip || {})[step.name];
    if (skipped) {
      say(`Not replayed: ${what}, as ${skipped}.`);
      continue;
    }
    if (!replayed.includes(step)) {
      say(`Not replayed: ${what} was ${step.status == null ? 'not answered' : `refused (${step.status})`}.`);
      continue;
    }
    const version = step.version;
    const entry = version == null ? null : history.get(version);
    const stale = last != null && version != null && version <= last;
    const before = stale ? null : entry ? history.previous(version) : null;
    if (!stale && !entry) say(`The server's log no longer keeps version ${version}: its changes are not asserted.`);
    // Versions between the last asserted one and this step's did not come from this page.
    if (before) {
      const start = last == null ? history.get(1) : history.get(last);
      if (first && !start) say(`The view model's first versions are no longer in the server's log; this test starts from a new one.`);
      if (start && before.version > start.version) {
        const foreign = history.list().filter((e) => e.version > start.version && e.version <= before.version)
          .filter((e) => { const p = history.previous(e.version); return p && differs(p.snapshot, e.snapshot); })
          .map((e) => e.version);
        if (foreign.length) say(`${versionWords(foreign)} came from elsewhere (another client, or the server's own work): not replayed.`);
      }
    }
    first = false;
    const changes = stale || !entry || !before ? [] : memberChanges(masked(before.snapshot), snap(version));
    if (step.kind === 'write') {
      const patch = hide(isObject(step.body) ? step.body : {});
      body.push(`        try await ${subject}.write(${swiftValue(patch)}) ${closure(changes, '        ')}`);
    } else {
      const argument = step.body == null ? '' : `, ${swiftValue(hide(step.body))}`;
      body.push(`        try ${subject}.execute(${swiftString(step.name)}${argument}) ${closure(changes, '        ')}`);
    }
    if (!stale && entry) last = version;
    if (step.status === 202 && entry) {
      const end = history.list().find((e) => e.version > version && e.snapshot.commands && e.snapshot.commands[step.name]
        && e.snapshot.commands[step.name].executing === false);
      if (!end) {
        say(`${step.name} was still running when this was copied: finish() will say so.`);
        continue;
      }
      if (fixture.clock) {
        const started = entry.at ?? step.sentAt;
        const ended = end.at ?? step.answeredAt;
        const seconds = Math.max(1, Math.ceil((ended - started) / 1000));
        body.push(`        await ${fixture.clock}.advance(by: .seconds(${seconds}))`);
      }
      body.push(`        await ${subject}.settle ${closure(memberChanges(snap(version), snap(end.version)), '        ')}`);
      last = end.version;
    }
  }
  body.push(`        ${subject}.finish()`);

  const doc = [
    `    /// Copied from the inspector: the ${view.name}, ${replayed.length} step${replayed.length === 1 ? '' : 's'}.`,
    '    /// Only what this page sent is replayed; versions from elsewhere (other clients, the',
    "    /// server's own work) are not.",
  ];
  if (sensitive.length) {
    const list = sensitive.map((n) => `\`${n}\``).join(', ');
    doc.push(`    /// Sensitive input${sensitive.length === 1 ? '' : 's'} (${list}): the secret is replaced by a same-length stand-in`,
      '    /// made of "•", in the writes and in the expected values alike.');
  }
  return [
    ...[...fixture.imports].map((m) => `import ${m}`),
    '',
    '@MainActor',
    '@Suite struct InspectorCopiedTests {',
    ...doc,
    `    @Test func ${identifier(view.name)}AsRecorded() async throws {`,
    ...fixture.setup.map((line) => `        ${line}`),
    `        let ${subject} = ViewModelTester(${fixture.subject})`,
    ...body,
    '    }',
    '}',
    '',
  ].join('\n');
}
