// curl.js — the curl command that does what the page's last action did: the same method, URL,
// body and headers, with the session as a bearer token (this tab's session cookie is HttpOnly,
// so the page cannot show it; the cookie's value works as the token). A PATCH also gets If-Match
// with the version the page showed: replayed later, the server refuses it (412) instead of
// overwriting a newer change. Commands take no If-Match (a disabled one answers 409).

const quote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

const KEPT_HEADERS = ['Content-Type', 'Prefer', 'If-Match'];

/**
 * The curl line for a trace record {method, url, headers, body}; `origin` is the server's
 * origin, `shownVersion` the version the page showed before the action (for If-Match).
 */
export function curlLine(record, { origin, shownVersion = null }) {
  const url = new URL(record.url, origin).href;
  const headers = Object.fromEntries(Object.entries(record.headers || {}).filter(([k]) => KEPT_HEADERS.includes(k)));
  if (record.method === 'PATCH' && !headers['If-Match'] && shownVersion != null) headers['If-Match'] = `"${shownVersion}"`;
  const parts = [`curl -X ${record.method} ${quote(url)}`, '-H "Authorization: Bearer $BINDERY_TOKEN"'];
  for (const [name, value] of Object.entries(headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (record.body !== undefined && record.body !== null) parts.push(`--data ${quote(record.body)}`);
  return parts.join(' \\\n  ');
}

/** What the answer was, in words: "Answered 200: version 7." */
export function outcome(record) {
  if (record.status == null) return 'No answer: the server could not be reached.';
  const version = record.version != null ? `: version ${record.version}` : '';
  return `Answered ${record.status}${version}.`;
}
