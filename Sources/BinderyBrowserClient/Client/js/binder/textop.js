// textop.js — text operations of collaborative inputs: ShareDB's json0 string ops
// ([{p, si} | {p, sd}], components applied in order), with text0's apply, transform and caret
// transform, ported from the server's Sources/BinderyRuntime/Text/TextOperation+Transform.swift so
// that both sides compute the same results. Offsets count Unicode code points (as the server's
// Unicode scalars do), not the UTF-16 units of JS string indexes: toIndex / toOffset convert.
//
// Sides: where two concurrent operations insert at one offset, the `left` one goes first. The
// server transforms what it receives as left against what it applied before; a client transforms
// its own pending operation as left against what the server sends, and what the server sends as
// right against its pending operation (transformX gives both at once).

/** The number of code points of `text`. */
export function length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}

/** The UTF-16 index of code point offset `offset` in `text` (clamped to its end). */
export function toIndex(text, offset) {
  let i = 0;
  for (let n = 0; n < offset && i < text.length; n += 1) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** The code point offset of UTF-16 index `index` in `text` (an index inside a pair counts past it). */
export function toOffset(text, index) {
  return length(text.slice(0, index));
}

/** `text` with `inserted` placed at code point offset `at`. */
function inject(text, at, inserted) {
  const i = toIndex(text, at);
  return text.slice(0, i) + inserted + text.slice(i);
}

/** Adds component `c` at the end of `op` (mutated), joined to the last one when it continues it. */
export function append(op, c) {
  const text = c.si !== undefined ? c.si : c.sd;
  if (!text) return op;
  const last = op[op.length - 1];
  if (last && last.si !== undefined && c.si !== undefined && last.p <= c.p && c.p <= last.p + length(last.si)) {
    op[op.length - 1] = { p: last.p, si: inject(last.si, c.p - last.p, c.si) };
  } else if (last && last.sd !== undefined && c.sd !== undefined && c.p <= last.p && last.p <= c.p + length(c.sd)) {
    op[op.length - 1] = { p: c.p, sd: inject(c.sd, last.p - c.p, last.sd) };
  } else {
    op.push(c.si !== undefined ? { p: c.p, si: c.si } : { p: c.p, sd: c.sd });
  }
  return op;
}

/** `op` with empty components dropped and neighbours joined (a new array). */
export function normalize(op) {
  const result = [];
  for (const c of op || []) append(result, c);
  return result;
}

/** `a` then `b` as one operation (text0 composes by concatenation). */
export function compose(a, b) {
  return normalize([...(a || []), ...(b || [])]);
}

/** `text` with `op` applied; throws when an offset is outside the text or a deletion does not match. */
export function apply(text, op) {
  let result = text;
  for (const c of op) {
    const size = length(result);
    if (!(c.p >= 0 && c.p <= size)) throw new Error(`offset ${c.p} outside a text of ${size}`);
    const i = toIndex(result, c.p);
    if (c.si !== undefined) {
      result = result.slice(0, i) + c.si + result.slice(i);
    } else {
      if (result.slice(i, i + c.sd.length) !== c.sd) throw new Error(`deleted text differs at ${c.p}`);
      result = result.slice(0, i) + result.slice(i + c.sd.length);
    }
  }
  return result;
}

/**
 * The smallest operation turning `before` into `after`: a deletion then an insertion between their
 * common prefix and suffix. `caret` (a code point offset in `after`, optional) places an ambiguous
 * change ("aa" → "aaa") where the user made it: the change ends at or after the caret.
 */
export function diff(before, after, caret = null) {
  if (before === after) return [];
  const a = Array.from(before);
  const b = Array.from(after);
  let prefix = 0;
  let suffix = 0;
  const common = Math.min(a.length, b.length);
  if (caret == null) { // as the server's TextOperation.difference: the longest prefix first
    while (prefix < common && a[prefix] === b[prefix]) prefix += 1;
    while (suffix < common - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  } else { // the suffix first, but none of the text before the caret
    const maxSuffix = Math.max(0, Math.min(common, b.length - caret));
    while (suffix < maxSuffix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
    while (prefix < common - suffix && a[prefix] === b[prefix]) prefix += 1;
  }
  const op = [];
  append(op, { p: prefix, sd: a.slice(prefix, a.length - suffix).join('') });
  append(op, { p: prefix, si: b.slice(prefix, b.length - suffix).join('') });
  return op;
}

/** Where position `pos` moves when component `c` is applied (`insertAfter`: past an insertion at it). */
function transformPositionBy(pos, c, insertAfter) {
  if (c.si !== undefined) return c.p < pos || (c.p === pos && insertAfter) ? pos + length(c.si) : pos;
  if (pos <= c.p) return pos;
  const size = length(c.sd);
  return pos <= c.p + size ? c.p : pos - size;
}

/** Where a caret at code point `pos` moves when `op` is applied. */
export function transformPosition(pos, op, insertAfter = false) {
  return op.reduce((p, c) => transformPositionBy(p, c, insertAfter), pos);
}

/** text0's transformComponent: `c` rewritten to apply after `other`, appended to `dest`. */
function transformComponent(dest, c, other, side) {
  if (c.si !== undefined) {
    append(dest, { p: transformPositionBy(c.p, other, side === 'right'), si: c.si });
    return;
  }
  const chars = Array.from(c.sd);
  if (other.si !== undefined) {
    // Delete around the insertion: the part before it, then the rest after it.
    let rest = chars;
    if (c.p < other.p) {
      const split = Math.min(other.p - c.p, chars.length);
      append(dest, { p: c.p, sd: chars.slice(0, split).join('') });
      rest = chars.slice(split);
    }
    if (rest.length) append(dest, { p: c.p + length(other.si), sd: rest.join('') });
    return;
  }
  const theirs = Array.from(other.sd);
  if (c.p >= other.p + theirs.length) {
    append(dest, { p: c.p - theirs.length, sd: c.sd });
  } else if (c.p + chars.length <= other.p) {
    append(dest, c);
  } else {
    // Overlapping deletions: delete only what the other did not.
    const start = Math.max(c.p, other.p);
    const end = Math.min(c.p + chars.length, other.p + theirs.length);
    if (chars.slice(start - c.p, end - c.p).join('') !== theirs.slice(start - other.p, end - other.p).join('')) {
      throw new Error('overlapping deletions differ');
    }
    let remaining = c.p < other.p ? chars.slice(0, other.p - c.p) : [];
    if (c.p + chars.length > other.p + theirs.length) remaining = remaining.concat(chars.slice(other.p + theirs.length - c.p));
    if (remaining.length) append(dest, { p: transformPositionBy(c.p, other, false), sd: remaining.join('') });
  }
}

/** text0's transformX: [left rewritten after right (as left), right rewritten after left (as right)]. */
export function transformX(left, right) {
  let leftComponents = normalize(left);
  const newRight = [];
  for (const rightComponent of normalize(right)) {
    let carried = rightComponent;
    const newLeft = [];
    let index = 0;
    while (index < leftComponents.length && carried) {
      const nextRight = [];
      transformComponent(newLeft, leftComponents[index], carried, 'left');
      transformComponent(nextRight, carried, leftComponents[index], 'right');
      index += 1;
      if (nextRight.length === 1) {
        carried = nextRight[0];
      } else if (nextRight.length === 0) {
        for (const c of leftComponents.slice(index)) append(newLeft, c);
        carried = null;
      } else {
        // The right component was split: transform the rest against both parts.
        const [restLeft, restRight] = transformX(leftComponents.slice(index), nextRight);
        for (const c of restLeft) append(newLeft, c);
        for (const c of restRight) append(newRight, c);
        carried = null;
        index = leftComponents.length;
      }
    }
    if (carried) append(newRight, carried);
    leftComponents = newLeft;
  }
  return [leftComponents, newRight];
}

/** `op`, made on the same text as `other`, rewritten to apply after it; `side`: 'left' | 'right'. */
export function transform(op, other, side) {
  const a = normalize(op);
  const b = normalize(other);
  if (!a.length || !b.length) return a;
  if (a.length === 1 && b.length === 1) {
    const result = [];
    transformComponent(result, a[0], b[0], side);
    return result;
  }
  return side === 'left' ? transformX(a, b)[0] : transformX(b, a)[1];
}
