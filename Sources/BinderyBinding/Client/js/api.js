// api.js — the only module that talks HTTP to the Bindery server (same origin).
// The session lives in an HttpOnly cookie set by the server, so fetch simply uses
// credentials: "same-origin" and no token is ever handled here. Writes (PATCH, POST) are noted
// in trace.js for the view-model inspector.

import { note } from './trace.js';

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

let requests = 0; // numbers the writes noted in trace.js

/**
 * Sends a request to the server (same origin, JSON), noted for the inspector; answers {status, data}
 * or throws ProblemError / NetworkError. For an app's own routes (its screens' modules).
 */
export async function request(method, url, { body, contentType = 'application/json', headers = {}, keepalive = false } = {}) {
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
  // A write is noted when it leaves (the inspector takes the version shown then) and when answered.
  const noted = method === 'GET' ? null : { type: 'request', id: ++requests, method, url, headers: { ...init.headers }, body: init.body };
  if (noted) note({ ...noted, phase: 'sent' });
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (noted) note({ ...noted, phase: 'answered', status: null });
    throw new NetworkError(err);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text }; }
  }
  if (noted) note({ ...noted, phase: 'answered', status: response.status, version: data && typeof data.version === 'number' ? data.version : null });
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

// What the user reads, by status: plain words, no codes, no field paths. The server's own words
// are kept for problemDetails(), shown behind a "Details" disclosure.
const PLAIN = {
  400: 'The server could not read that request.',
  404: 'There is nothing here: it was removed, or the address is not right.',
  409: 'That is not possible right now.',
  412: 'Someone else changed this meanwhile.',
  413: 'That is too large to send.',
  422: 'That value is not accepted.',
  429: 'Too many requests at once. Wait a moment and try again.',
  502: 'A service this screen needs did not answer properly. Try again.',
  503: 'The server is busy or restarting. Try again in a moment.',
};

/** A short sentence in plain words for any error thrown by this module (or a command's error). */
export function describeError(err) {
  if (err instanceof ProblemError) {
    if (err.status === 422 && err.problem && err.problem.field) return `That value is not accepted: ${err.problem.detail.replace(/^'[^']*':\s*/, '')}`;
    return PLAIN[err.status] || (err.status >= 500 ? 'Something went wrong on the server. Try again.' : 'That did not work.');
  }
  if (err instanceof NetworkError) return 'The server cannot be reached. Check the connection and try again.';
  return err && err.message ? err.message : String(err);
}

/** The technical account of an error, for the "Details" disclosure. */
export function problemDetails(err) {
  if (err instanceof ProblemError) {
    const p = err.problem || {};
    return [`HTTP ${err.status}`, p.title, p.detail].filter(Boolean).join(' · ');
  }
  if (err instanceof NetworkError) return String(err.cause || err.message);
  return err && typeof err === 'object' ? JSON.stringify(err) : String(err);
}
