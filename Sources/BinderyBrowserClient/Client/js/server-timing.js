// server-timing.js — the answer's `Server-Timing` header (W3C Server Timing) as a list of
// {name, dur, desc}: `parse;dur=0.041, apply;dur=0.210, total;dur=1.650` (milliseconds). Read
// leniently: a quoted desc (with commas, semicolons and backslash escapes in it), a metric without
// dur (dur: null), parameters in any order and case, stray spaces, several headers joined by ", ".
// Anything it cannot read is left out; no header gives [].

/**
 * Splits `text` at each `separator` outside double quotes (a backslash escapes inside them);
 * answers the trimmed, non-empty pieces.
 */
function splitOutsideQuotes(text, separator) {
  const pieces = [];
  let piece = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '\\' && i + 1 < text.length) { piece += c + text[i + 1]; i += 1; continue; }
    if (c === '"') quoted = !quoted;
    if (c === separator && !quoted) { pieces.push(piece); piece = ''; continue; }
    piece += c;
  }
  pieces.push(piece);
  return pieces.map((p) => p.trim()).filter(Boolean);
}

/** A parameter's value: a quoted string unquoted (its escapes undone), or the token as it is. */
function unquote(value) {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

/** The metrics of a Server-Timing header value ([] for none): [{name, dur (ms or null), desc}]. */
export function parseServerTiming(header) {
  if (typeof header !== 'string' || !header.trim()) return [];
  const metrics = [];
  for (const entry of splitOutsideQuotes(header, ',')) {
    const [name, ...params] = splitOutsideQuotes(entry, ';');
    if (!name || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) continue;
    const metric = { name, dur: null, desc: null };
    for (const param of params) {
      const at = param.indexOf('=');
      const key = (at < 0 ? param : param.slice(0, at)).trim().toLowerCase();
      const value = at < 0 ? '' : unquote(param.slice(at + 1));
      // The first of each parameter counts (as the specification says).
      if (key === 'dur' && metric.dur == null) {
        const ms = Number(value);
        if (value !== '' && Number.isFinite(ms)) metric.dur = ms;
      } else if (key === 'desc' && metric.desc == null) {
        metric.desc = value;
      }
    }
    metrics.push(metric);
  }
  return metrics;
}

/** The duration (ms) of metric `name` in `timing`, or null (absent, or without dur). */
export function durationOf(timing, name) {
  const metric = (timing || []).find((m) => m.name === name);
  return metric && typeof metric.dur === 'number' ? metric.dur : null;
}

/** Whether `timing` names metric `name` (with or without a duration). */
export function hasMetric(timing, name) {
  return (timing || []).some((m) => m.name === name);
}
