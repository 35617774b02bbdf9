// deploy.js — the page follows a deploy: when the server serves another client than the one this
// page was made from (its files' fingerprint changed), the page reloads at a safe moment, keeping
// what the user typed, the URL, the scroll position and the focused control. Old modules never go
// on talking to a server whose contract they do not know for longer than that moment.
//
// Which client: the page's own is `<meta name="bindery-client">` (the server's PageShell); the
// server names the one it serves now in every answer of the API (`Bindery-Client`, read here
// through api.watchReachability) and on the event stream (`event: client`, first thing and again
// when it changes: binder/connection.js hands it to clientEvent). A tab that learns of another client
// tells the others (BroadcastChannel `bindery-deploy`): a tab whose views the leader tab's stream
// follows makes few requests of its own.
//
// The safe moment: no IME composition under way (its text is in no outbox yet), no key pressed,
// nothing typed and no pointer down for QUIET_MS, and no write of this page on its way (trace.js)
// — after SETTLE_MS, whatever is on its way: every unsent edit, text operation and command is in
// the tab's outbox already (sessionStorage, binder/outbox.js and binder/text-outbox.js keep it on
// every change) and goes again after the reload, as after any outage. Just before, the page is
// fetched (revalidated): the reload happens only when it names another client than this page's,
// so a server that is away, a stale answer or a node of the old release costs no reload.
//
// No loop: a reload that brings the client it was for is the last (the page is that client now).
// Before reloading, the tab notes in sessionStorage (`bindery:deploy`) the client it reloads for; a
// page that reloaded for a client and still is not it (a cache, a node of the old release), or that
// fetched its page in vain, leaves that client alone for REST_MS, and a tab reloads at most
// MAX_RELOADS times in RELOADS_WINDOW_MS.

import * as api from './api.js';
import { focusKey, restoreView } from './router.js';
import { watch as watchTrace } from './trace.js';

const QUIET_MS = 1000;
const SETTLE_MS = 10000;
const LOOK_MS = 250;          // how often a safe moment is looked for
const AWAY_MS = 2000;         // the page could not be fetched: tried again after this
const MAX_RELOADS = 3;
const RELOADS_WINDOW_MS = 60000;
const REST_MS = 60000;        // a client reloaded or fetched for in vain is left alone this long
const KEY = 'bindery:deploy';

/** The client this page was made from; null on a page the server did not make (no reload then). */
const own = document.querySelector('meta[name="bindery-client"]')?.content || null;
let wanted = null;            // another client a server named: reload for it at a safe moment
let noticed = 0;              // when `wanted` was set
let timer = null;
let checking = false;
let lastInput = 0;
let composing = false;
let reloaded = false;         // location.reload() was called
let waits = 0;                // looks that found no safe moment (for tests)
const resting = new Map();    // client -> until when it is left alone (reloaded or fetched for in vain)
const flying = new Set();     // this page's writes on their way (trace.js ids)

function read() {
  try { return JSON.parse(sessionStorage.getItem(KEY)) || {}; } catch { return {}; }
}

function write(record) {
  try { sessionStorage.setItem(KEY, JSON.stringify(record)); } catch { /* no sessionStorage: no record */ }
}

/** The recent reloads this tab made for a deploy (their times). */
function recentReloads(record) {
  return (record.reloads || []).filter((at) => Date.now() - at < RELOADS_WINDOW_MS);
}

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('bindery-deploy') : null;

/**
 * A server said which client it serves (`fingerprint`): another than this page's is reloaded
 * for at the next safe moment. `told`: another tab said it (not said on again).
 */
export function serverRuns(fingerprint, { told = false } = {}) {
  if (!own || typeof fingerprint !== 'string' || !fingerprint || reloaded) return;
  if (fingerprint === own) {
    // Back to this page's client (a rollback before the reload): nothing to do any more.
    if (wanted && !checking) { wanted = null; clearTimeout(timer); }
    return;
  }
  if (fingerprint === wanted || (resting.get(fingerprint) || 0) > Date.now()) return;
  wanted = fingerprint;
  noticed = Date.now();
  if (channel && !told) channel.postMessage(fingerprint);
  look();
}

/** The event stream's `client` event (binder/connection.js): `{"fingerprint": …}`. */
export function clientEvent(data) {
  let said = null;
  try { said = JSON.parse(data); } catch { return; }
  if (said) serverRuns(said.fingerprint);
}

function look(delay = LOOK_MS) {
  clearTimeout(timer);
  timer = setTimeout(attempt, delay);
}

/** Whether now is a safe moment: see the header. */
function safe() {
  const now = Date.now();
  return !composing && now - lastInput >= QUIET_MS && (flying.size === 0 || now - noticed >= SETTLE_MS);
}

async function attempt() {
  timer = null;
  if (!wanted || checking || reloaded) return;
  if (!safe()) { waits += 1; look(); return; }
  const target = wanted;
  checking = true;
  let served;
  try { served = await servedClient(); } finally { checking = false; }
  if (wanted !== target) { if (wanted) look(); return; }
  if (served === null) { look(AWAY_MS); return; } // the server is away: its page could not be had
  if (served === own) {
    // The page would be this one: a stale or mixed answer (a node of the old release).
    rest(target);
    return;
  }
  if (!safe()) { look(); return; } // the user went on meanwhile
  reload(served);
}

/** Leaves `target` alone for REST_MS. */
function rest(target) {
  resting.set(target, Date.now() + REST_MS);
  wanted = null;
}

/** The client the server would make this page of now, or null when it cannot be had. */
async function servedClient() {
  try {
    const answer = await fetch(location.pathname + location.search, {
      credentials: 'same-origin', cache: 'no-cache', headers: { Accept: 'text/html' },
    });
    const match = /<meta name="bindery-client" content="([^"]+)"/.exec(await answer.text());
    return answer.status >= 500 || !match ? null : match[1];
  } catch {
    return null;
  }
}

function reload(target) {
  const record = read();
  const reloads = recentReloads(record);
  if (reloads.length >= MAX_RELOADS) {
    console.warn(`bindery: the server serves client ${target}, this page runs ${own}; not reloaded (${reloads.length} reloads in a minute)`);
    rest(target);
    return;
  }
  const el = document.activeElement;
  let selection = null;
  try { if (el && el.selectionStart != null) selection = [el.selectionStart, el.selectionEnd]; } catch { /* not text */ }
  write({ to: target, reloads: [...reloads, Date.now()], view: { scrollY: window.scrollY, focus: focusKey(el) }, selection });
  reloaded = true;
  clearTimeout(timer);
  location.reload();
}

/** After a reload for a deploy: the note read, and where the user was put back. */
function arrived() {
  const record = read();
  if (!record.to) return;
  if (record.to !== own) resting.set(record.to, Date.now() + REST_MS); // reloaded for it and still not it
  write({ reloads: recentReloads(record) });
  const main = document.getElementById('main');
  if (!main || !record.view) return;
  restoreView(main, record.view);
  const id = record.view.focus && record.view.focus.id;
  if (!id || !record.selection) return;
  // The caret and selection too, once the control is focused again.
  const put = (event) => {
    if (event.target.id !== id) return;
    document.removeEventListener('focusin', put, true);
    try { event.target.setSelectionRange(...record.selection); } catch { /* not a text control */ }
  };
  document.addEventListener('focusin', put, true);
  setTimeout(() => document.removeEventListener('focusin', put, true), 10000);
}

/** What this module knows (for tests and the curious). */
export function deployState() {
  return { own, wanted, resting: [...resting.keys()], flying: flying.size, composing, waits, reloaded };
}

// The user at work: typing, composing, pressing.
const busy = () => { lastInput = Date.now(); };
for (const name of ['keydown', 'input', 'pointerdown']) document.addEventListener(name, busy, true);
document.addEventListener('compositionstart', () => { composing = true; busy(); }, true);
document.addEventListener('compositionend', () => { composing = false; busy(); }, true);
// A composition that ends without its event (the control went away) ends with the focus.
document.addEventListener('focusout', () => { composing = false; }, true);

// The writes of this page on their way (PATCH, POST, PUT, DELETE as noted for the inspector).
watchTrace((record) => {
  if (record.type !== 'request') return;
  if (record.phase === 'sent') flying.add(record.id); else flying.delete(record.id);
});

api.watchReachability((answered, response) => {
  if (response) serverRuns(response.headers.get('Bindery-Client'));
});
if (channel) channel.onmessage = (event) => serverRuns(event.data, { told: true });

arrived();
