// api.js — the only module that talks HTTP to the Bindery server (same origin).
// The session lives in an HttpOnly cookie set by the server, so fetch simply uses
// credentials: "same-origin" and no token is ever handled here.

/** An RFC 9457 problem (or any non-2xx answer) returned by the server. */
export class ProblemError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = 'ProblemError';
    this.status = status;
    this.problem = problem;
  }
}

/** The request never got an HTTP answer (server down, connection dropped). */
export class NetworkError extends Error {
  constructor(cause) {
    super('The server cannot be reached');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/** "/api/views/" + a view path such as "list/items/scenic-1001" (already URL-safe). */
export function viewURL(path) {
  return `/api/views/${path.replace(/^\/+/, '')}`;
}

async function request(method, url, { body, contentType = 'application/json', headers = {}, keepalive = false } = {}) {
  const init = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json, application/problem+json', ...headers },
    keepalive,
  };
  if (body !== undefined) {
    init.headers['Content-Type'] = contentType;
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new NetworkError(err);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text }; }
  }
  if (!response.ok) {
    throw new ProblemError(response.status, data || { title: response.statusText, status: response.status });
  }
  return { status: response.status, data };
}

/** GET /api/views -> [{path, title, url}] */
export async function listViews() {
  const { data } = await request('GET', '/api/views');
  return data.views || [];
}

/** GET /api/views/{path} -> snapshot */
export async function getSnapshot(path) {
  return (await request('GET', viewURL(path))).data;
}

/**
 * PATCH /api/views/{path} with a JSON merge patch of inputs -> new snapshot. With ifMatch (a
 * version) the server refuses it with 412 unless that is still the current version.
 */
export async function patchInputs(path, inputs, { keepalive = false, ifMatch = null } = {}) {
  const { data } = await request('PATCH', viewURL(path), {
    body: inputs,
    contentType: 'application/merge-patch+json',
    headers: ifMatch == null ? {} : { 'If-Match': `"${ifMatch}"` },
    keepalive,
  });
  return data;
}

/**
 * POST /api/views/{path}/commands/{name}. Resolves to {status, snapshot}; status 202 means the
 * command is still running and the event stream will bring its end.
 */
export async function executeCommand(path, name, body, waitSeconds = 10) {
  const { status, data } = await request('POST', `${viewURL(path)}/commands/${encodeURIComponent(name)}`, {
    body,
    headers: { Prefer: `wait=${waitSeconds}` },
  });
  return { status, snapshot: data };
}

/** The Server-Sent Events URL of a view; lastEventId resumes after that version. */
export function eventsURL(path, lastEventId, { patches = false } = {}) {
  const query = new URLSearchParams();
  if (patches) query.set('patches', '1');
  if (lastEventId != null) query.set('lastEventId', String(lastEventId));
  const text = query.toString();
  return text ? `${viewURL(path)}/events?${text}` : `${viewURL(path)}/events`;
}

/** GET /api/upstream -> {seed, endpoints: {name: {latencyMs, failureRate, ...}}} */
export async function getUpstream() {
  return (await request('GET', '/api/upstream')).data;
}

/** PATCH /api/upstream with a merge patch -> the new configuration. */
export async function patchUpstream(patch) {
  return (await request('PATCH', '/api/upstream', {
    body: patch,
    contentType: 'application/merge-patch+json',
  })).data;
}

/** A short human sentence for any error thrown by this module. */
export function describeError(err) {
  if (err instanceof ProblemError) {
    const p = err.problem || {};
    const head = p.title || `HTTP ${err.status}`;
    return p.detail && p.detail !== head ? `${head}: ${p.detail}` : head;
  }
  return err && err.message ? err.message : String(err);
}
