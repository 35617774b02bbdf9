// session.js — who is signed in, for this page and for every tab of the browser. The session
// itself is the server's, in an HttpOnly cookie that every tab of the origin shares: the page never
// holds a token (a sign-in answers one; it is ignored). What the page keeps is the user the server
// last named ({id, name, roles} or null): PUT /api/session answers it when the page starts
// (app.js), GET /api/session when the page asks again (recheck), and sign-in answers it.
//
// A change is told to this page's listeners (onUserChange) and, over the BroadcastChannel
// 'bindery-session', to every other tab, which tells its own: {user, fresh, change}. `fresh` means
// a new session (after a sign-out the old one is deleted: its view models, versions and streams
// are gone, and the page starts its screens again); a sign-in keeps the session and its state
// under a new token, so the page carries on. `change` names the change (tab-leader.js waits for
// the leading tab to have reopened the stream for it).
//
// Changes are made one at a time across the tabs (the Web Lock 'bindery-session', else one after
// the other in this tab): a sign-out ends the session's streams, and the tab holding the stream
// asks who is signed in when it sees them end (recheck) — after the sign-out, which has told
// everyone already, so nothing is announced twice. After a sign-out the new (anonymous) session
// is made at once (PUT /api/session) by the tab that signed out, before any tab's stream or write
// would each make one of their own. Meanwhile the streams of the old session end: every tab is
// told first (signingOut()), so that it does not say "Reconnecting…" for what is no outage.

import * as api from './api.js';

const CHANNEL = 'bindery-session';
const LOCK = 'bindery-session';

let user = null;
const listeners = new Set();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
let queue = Promise.resolve(); // changes of this tab, one after the other (without Web Locks)
let endingUntil = 0; // a sign-out is on its way (this tab's or another's) until then (ms)
const ENDING_MS = 5000; // at most: a sign-out that gets no answer is an outage after all
const ENDED_MS = 1000;  // after the change: the old stream's last `end`s may still come in

/** Whether a sign-out is on its way: the session's streams end by design, no outage. */
export function signingOut() { return Date.now() < endingUntil; }

/** {id, name, roles} of the user the server last named, or null (anonymous). */
export function currentUser() { return user; }

/** Calls listener({user, previous, fresh, change}) on every change; answers the unsubscribe. */
export function onUserChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const normal = (u) => (u && typeof u === 'object' && u.id != null
  ? { id: String(u.id), name: String(u.name ?? u.id), roles: Array.isArray(u.roles) ? u.roles.map(String) : [] }
  : null);

const same = (a, b) => (a && b ? a.id === b.id && a.name === b.name && a.roles.join('\n') === b.roles.join('\n') : a === b);

const newId = () => (globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** What the server answered about the session ({user}) at the page's start: no change to announce. */
export function learn(answer) {
  if (answer && 'user' in answer) user = normal(answer.user);
}

function changed(next, { fresh, change = newId(), tell = true }) {
  const previous = user;
  user = next;
  if (fresh && signingOut()) endingUntil = Date.now() + ENDED_MS;
  if (tell && channel) {
    try { channel.postMessage({ type: 'user', user: next, fresh, change }); } catch { /* closed */ }
  }
  for (const listener of [...listeners]) {
    try { listener({ user: next, previous, fresh, change }); } catch (err) { console.error(err); }
  }
}

if (channel) {
  channel.onmessage = ({ data }) => {
    if (data && data.type === 'ending') endingUntil = Date.now() + ENDING_MS;
    if (data && data.type === 'user') changed(normal(data.user), { fresh: Boolean(data.fresh), change: data.change, tell: false });
  };
}

/** Runs fn alone: no other change of any tab meanwhile. */
function alone(fn) {
  if (globalThis.navigator && navigator.locks && typeof navigator.locks.request === 'function') {
    return navigator.locks.request(LOCK, fn);
  }
  const run = queue.then(fn, fn);
  queue = run.catch(() => {});
  return run;
}

/** A new session for this browser (PUT /api/session): its cookie is every tab's from now on. */
async function renew() {
  try { await api.request('PUT', '/api/session'); } catch { /* the next request of the page makes one */ }
}

/**
 * POST /api/session/sign-in: signs this browser's session in (every tab follows) -> the user.
 * Throws the server's refusal: 422 wrong username or password (one detail whether the account
 * exists or not), 429 too many attempts (`retryAfter`), 502 the service that checks them failed,
 * 409 signed in as someone else already.
 */
export function signIn(username, password) {
  return alone(async () => {
    const { data } = await api.request('POST', '/api/session/sign-in', { body: { username, password }, trace: false });
    changed(normal(data && data.user), { fresh: false });
    return user;
  });
}

/**
 * Signs out: this session (POST /api/session/sign-out) or, `everywhere`, every session of the user
 * on every device (POST /api/session/sign-out-everywhere -> {ended}). Every tab follows, on a new
 * anonymous session. Answers what the server answered.
 */
export function signOut({ everywhere = false } = {}) {
  return alone(async () => {
    let answer = null;
    endingUntil = Date.now() + ENDING_MS;
    if (channel) { try { channel.postMessage({ type: 'ending' }); } catch { /* closed */ } }
    try {
      ({ data: answer } = await api.request('POST', `/api/session/${everywhere ? 'sign-out-everywhere' : 'sign-out'}`, { trace: false }));
    } catch (err) {
      if (!api.signInRequired(err)) { endingUntil = 0; throw err; } // 401: nobody was signed in any more; carry on
    }
    await renew();
    changed(null, { fresh: true });
    return answer;
  });
}

/**
 * Asks the server who is signed in (GET /api/session, which makes no session) and announces a
 * change: a session signed out elsewhere (sign out everywhere on another device, expired) is
 * replaced by a new one; a sign-in this page did not make itself (a command that signed in) is
 * taken as it is. Answers the user.
 */
export function recheck() {
  return alone(async () => {
    let answer;
    try {
      ({ data: answer } = await api.request('GET', '/api/session'));
    } catch {
      return user; // no answer: nothing known to change
    }
    const next = normal(answer && answer.user);
    if (same(next, user)) return user;
    // Anonymous now, or someone else: the session the page had is gone.
    const fresh = user !== null;
    if (fresh && next === null) await renew();
    changed(next, { fresh });
    return user;
  });
}

/**
 * A path to come back to after signing in: a same-origin relative path ("/list/items/42/edit",
 * with its query), never another site ("//evil.example", "https://…"), the API or the sign-in
 * page itself; else "/".
 */
export function safeNext(text) {
  if (typeof text !== 'string' || !text.startsWith('/') || text.startsWith('//') || text.includes('\\')) return '/';
  let url;
  try { url = new URL(text, location.origin); } catch { return '/'; }
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname === SIGN_IN_PATH) return '/';
  return url.pathname + url.search + url.hash;
}

/** Where the sign-in page is (Bindery's client provides it; an app may replace its template). */
export const SIGN_IN_PATH = '/sign-in';

/** The sign-in page's address that comes back to `next` (the page in view by default). */
export function signInHref(next = location.pathname + location.search) {
  const back = safeNext(next);
  // Slashes kept as they are (allowed in a query): /sign-in?next=/list/items/42/edit
  return back === '/' ? SIGN_IN_PATH : `${SIGN_IN_PATH}?next=${encodeURIComponent(back).replace(/%2F/gi, '/')}`;
}
