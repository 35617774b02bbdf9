// api.js — the only module that talks HTTP to the Bindery server (same origin).
// The session lives in an HttpOnly cookie set by the server, so fetch simply uses
// credentials: "same-origin" and no token is ever handled here. Writes (PATCH, POST) are noted
// in trace.js for the view-model inspector.
//
// Safe retries: a write (PATCH of inputs) and a command (POST) carry an `Idempotency-Key`, one
// fresh key per logical write, kept for its retries (binder/writer.js, binder/outbox.js). A
// request that got no answer of the application's (`noAnswer`: the network failed, or 502, 503,
// 504) may or may not have been applied: it is sent again with the same key and the same body,
// and the server answers a repeat with its first answer (`Idempotent-Replayed: true`) without
// applying anything again; 409 with `Retry-After` says the first is still running.

import { NetworkError, ProblemError } from './errors.js';
import { note } from './trace.js';
import { parseServerTiming } from './server-timing.js';

export {
  NetworkError, ProblemError, UPSTREAM_PLAIN, describeError, errorFacts, isUpstreamError, notAllowed, problemDetails,
  signInRequired,
} from './errors.js';

/**
 * Whether `err` (from this module) means the request got no answer of the application: the
 * network failed, or the server or a proxy said it is unavailable (502, 503, 504). It may or may
 * not have been applied: send it again with the same Idempotency-Key and body. A problem naming a
 * `command` is that command's own outcome (its upstream failed: 502), an answer like any other.
 */
export function noAnswer(err) {
  if (err instanceof NetworkError) return true;
  return err instanceof ProblemError && [502, 503, 504].includes(err.status) && !(err.problem && err.problem.command);
}

/** 409 with Retry-After to a request with an Idempotency-Key: the first with that key still runs. */
export function stillRunning(err) {
  return err instanceof ProblemError && err.status === 409 && err.retryAfter != null;
}

/**
 * Whether `err` is a command that ended by design: cancelled by another command (Pause, Reset) or
 * by the user, which the server answers 409 "Command cancelled". Not a failure to report.
 */
export function cancelled(err) {
  return err instanceof ProblemError && err.status === 409 && Boolean(err.problem) && err.problem.title === 'Command cancelled';
}

/** A fresh Idempotency-Key: a random UUID (also where crypto.randomUUID is missing: plain HTTP). */
export function idempotencyKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const reachability = new Set();

/**
 * Calls listener(reachable, response) after every request: false when it got no answer
 * (`noAnswer`), true for any other answer; `response` the answer's, if any (its headers: deploy.js
 * reads `Bindery-Client`). Whatever waits for the server (a write, a command) goes as soon as it is
 * back instead of at the end of its back-off. Answers the function that stops it.
 */
export function watchReachability(listener) {
  reachability.add(listener);
  return () => reachability.delete(listener);
}

function reached(reachable, response = null) {
  for (const listener of [...reachability]) {
    try { listener(reachable, response); } catch (err) { console.error(err); }
  }
}

/** Seconds of a Retry-After header (delay-seconds or an HTTP date), or null. */
function retryAfterSeconds(value) {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** "/api/views/" + a view path such as "list/items/scenic-1001" (already URL-safe). */
export function viewURL(path) {
  return `/api/views/${path.replace(/^\/+/, '')}`;
}

let requests = 0; // numbers the writes noted in trace.js

/** How long a request may go unanswered beyond what it asked the server to wait (`Prefer: wait`). */
const ANSWER_TIMEOUT_SECONDS = 20;

/** The seconds of `Prefer: wait=S` in `headers`, else 0. */
function preferredWait(headers) {
  const match = /wait=(\d+(?:\.\d+)?)/.exec(headers.Prefer || '');
  return match ? Number(match[1]) : 0;
}

/**
 * Sends a request to the server (same origin, JSON), noted for the inspector; answers
 * {status, data, replayed} (replayed: the server answered a repeated Idempotency-Key with its
 * first answer) or throws ProblemError / NetworkError. For an app's own routes (its screens'
 * modules). `idempotencyKey` is sent as the Idempotency-Key header; `early` is the promise of
 * the same request's answer, already sent (by the page's loader); `trace: false`
 * keeps it out of the inspector (a sign-in: its body is a password).
 */
export async function request(method, url, { body, contentType = 'application/json', headers = {}, keepalive = false, idempotencyKey: key = null, early = null, trace = true } = {}) {
  const init = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json, application/problem+json', ...headers },
    keepalive,
    // A request nobody answers (a half-open connection, a proxy waiting on a dead node) fails
    // after a while instead of hanging: the callers treat it as no answer and try again.
    signal: AbortSignal.timeout((preferredWait(headers) + ANSWER_TIMEOUT_SECONDS) * 1000),
  };
  if (key) init.headers['Idempotency-Key'] = key;
  if (body !== undefined) {
    init.headers['Content-Type'] = contentType;
    init.body = JSON.stringify(body);
  }
  // A write is noted when it leaves (the inspector takes the version shown then) and when answered.
  const noted = method === 'GET' || !trace ? null : { type: 'request', id: ++requests, method, url, headers: { ...init.headers }, body: init.body };
  if (noted) note({ ...noted, phase: 'sent' });
  let response;
  let text;
  try {
    // `early`: the same request, sent before this module loaded (null when it got no answer).
    response = (early && await early) || await fetch(url, init);
    text = await response.text(); // a connection cut while the body arrives: no answer either
  } catch (err) {
    if (noted) note({ ...noted, phase: 'answered', status: null });
    reached(false);
    throw new NetworkError(err);
  }
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text }; }
  }
  const replayed = response.headers.get('Idempotent-Replayed') === 'true';
  // serverTiming: the server's phases of the answer ([{name, dur, desc}], [] without the header).
  if (noted) note({ ...noted, phase: 'answered', status: response.status, replayed, version: data && typeof data.version === 'number' ? data.version : null,
    serverTiming: parseServerTiming(response.headers.get('Server-Timing')) });
  if (!response.ok) {
    const err = new ProblemError(response.status, data || { title: response.statusText, status: response.status },
      { retryAfter: retryAfterSeconds(response.headers.get('Retry-After')) });
    reached(!noAnswer(err), response);
    throw err;
  }
  reached(true, response);
  return { status: response.status, data, replayed };
}

/**
 * PUT /api/session: makes sure this browser has a session (the cookie's, or a new one). Reading
 * a screen needs none, so the page calls this once before anything that writes or watches: its
 * parallel first requests then share one session instead of each creating its own.
 */
export async function ensureSession() {
  // The page's loader asked already, while the modules loaded (the server's PageShell): its
  // answer is this call's, once; a later call (a retry) asks again.
  const early = globalThis.binderyEarly?.session;
  if (early) delete globalThis.binderyEarly.session;
  return request('PUT', '/api/session', { early });
}

let catalogueInPage = true; // the page's copy of the catalogue is read once

/** GET /api/views -> [{path, title, url}]; the first time from the copy in the page, if any. */
export async function listViews() {
  const copy = catalogueInPage && document.getElementById('bindery-catalogue');
  catalogueInPage = false;
  if (copy) {
    try { return JSON.parse(copy.textContent).views || []; } catch { /* ask the server */ }
  }
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
export async function patchInputs(path, inputs, { keepalive = false, ifMatch = null, key = null } = {}) {
  const { data } = await request('PATCH', viewURL(path), {
    body: inputs,
    contentType: 'application/merge-patch+json',
    headers: ifMatch == null ? {} : { 'If-Match': `"${ifMatch}"` },
    keepalive,
    idempotencyKey: key,
  });
  return data;
}

/**
 * POST /api/views/{path}/commands/{name}, with `key` as its Idempotency-Key. Resolves to
 * {status, snapshot, replayed, rotated}; status 202 means the command is still running and the
 * event stream will bring its end. A command that signed the session in (a login form's) answers
 * the session's new token beside the snapshot: the page keeps nothing of it (the new cookie
 * carries the session) and says only `rotated: true`, so that the page asks who is signed in now.
 */
export async function executeCommand(path, name, body, waitSeconds = 10, { key = null } = {}) {
  const { status, data, replayed } = await request('POST', `${viewURL(path)}/commands/${encodeURIComponent(name)}`, {
    body,
    headers: { Prefer: `wait=${waitSeconds}` },
    idempotencyKey: key,
  });
  const { token, ...snapshot } = data || {};
  return { status, snapshot: data ? snapshot : data, replayed, rotated: token !== undefined };
}

/** The Server-Sent Events URL of a view; lastEventId resumes after that version. */
export function eventsURL(path, lastEventId, { patches = false } = {}) {
  const query = new URLSearchParams();
  if (patches) query.set('patches', '1');
  if (lastEventId != null) query.set('lastEventId', String(lastEventId));
  const text = query.toString();
  return text ? `${viewURL(path)}/events?${text}` : `${viewURL(path)}/events`;
}

/**
 * The URL of one event stream of several views (GET /api/events?views=a,b/c); lastEventId
 * ("a@12,b/c@4") resumes each view it names after that version.
 */
export function streamURL(views, lastEventId = null) {
  const keep = (text) => encodeURIComponent(text).replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%40/g, '@');
  const query = `views=${views.map(keep).join(',')}`;
  return lastEventId ? `/api/events?${query}&lastEventId=${keep(lastEventId)}` : `/api/events?${query}`;
}
