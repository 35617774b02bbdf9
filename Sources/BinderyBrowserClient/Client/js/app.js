// app.js — entry point: loads the screen catalogue (GET /api/views), builds the route table and
// the header navigation from it, mounts screens, shows the reconnecting indicator and exposes a
// small debug hook (window.__bindery) used by the browser tests.
//
// Users: the page knows who is signed in (session.js: from PUT /api/session at the start, then
// every change of any tab). The header shows it (account-menu.js), the nav and the home page list
// only what the user may open (access.js), and inputs the user may not change are read-only
// (read-only.js). A screen that needs a user, or a write or command the server refuses with 401,
// shows the sign-in page, which comes back to the address (`/sign-in?next=/list/items/42/edit`); a
// 403 is an error like any other. When the user changes the page's stream goes over to the new
// session (binder/hub.js) and the screen follows: after a sign-in it reads its view again (the
// session kept its state); after a sign-out (a new session) it starts again.
//
// Mounting is generic: the route's template tpl-<name> is bound to its view model; a screen with
// behaviour of its own has a module, screens/<name>.js (the server lists them in the page, from
// the app's Public/ and this client), whose mount() runs on top.

import * as api from './api.js';
import { readable, refusal } from './access.js';
import { AccountMenu } from './account-menu.js';
import { retry } from './backoff.js';
import { Binder } from './binder.js';
import './deploy.js'; // the page follows a deploy: reloads, at a safe moment, for a new client
import { Inspector } from './inspector/inspector.js';
import { onEnded, pageHub, resetHub } from './binder/hub.js';
import { lookup } from './binder/members.js';
import { missingPages } from './missing-page.js';
import { buildNav, markCurrentNav } from './nav.js';
import { Presence } from './presence.js';
import { applyWriteAccess } from './read-only.js';
import { match, pageRoutes, routeTable } from './routes.js';
import { isSibling, restoreView, startRouter } from './router.js';
import * as session from './session.js';
import { instantiate } from './templates.js';
import { dismissAll, showToast } from './toast.js';

const main = document.getElementById('main');
const indicator = document.getElementById('connection');
const inspector = new Inspector(document.getElementById('inspector'), document.getElementById('inspector-toggle'));
const account = new AccountMenu(document.getElementById('account'), {
  notify: (message) => showToast(message),
  // What the screen typed goes under the session it was typed in, before that one ends.
  beforeSignOut: () => Promise.race([
    Promise.all(current && current.binder ? [...current.binder.writers.values()].map((w) => w.flush()) : []),
    new Promise((resolve) => { setTimeout(resolve, 3000); }),
  ]),
});

let routes = null;    // from the catalogue; null until it arrived
let screens = {};     // the screens' modules by route name (screens/<name>.js)
let current = null;   // {binder, unmount, presence} of the mounted screen
let firstRender = true;
let navigate = () => {};

/** The top progress bar: on while the screen waits for its first snapshot (see index.html). */
function setLoading(on) {
  if (on) document.documentElement.dataset.loading = ''; else delete document.documentElement.dataset.loading;
}

/** Shows "Reconnecting…" only while the current screen's stream (or the catalogue) is down. */
function setConnection(state) {
  document.documentElement.dataset.stream = state;
  indicator.hidden = state !== 'reconnecting';
}

const pageTitle = (text) => (text ? `${text} · Bindery` : 'Bindery');

const { showNotFound, showNotAllowed, showMissing } = missingPages({
  main,
  shown: (title) => { setLoading(false); document.title = pageTitle(title); },
  render: (url) => render(url),
});

// What every screen module receives.
const ctx = {
  get navigate() { return navigate; },
  notify: (message) => showToast(message),
  allViews: [], // the catalogue: [{name, path, title, url, api, viewModel, children, readAccess, writeAccess}]
  /** The catalogue's views the user may open (a home page's list). */
  get views() { return readable(ctx.allViews, session.currentUser()); },
  pages: [], // the app's own pages without a view model (routes.js pageRoutes): [{name, title, url, nav}]
  /** Who is signed in ({id, name, roles}) or null. */
  get user() { return session.currentUser(); },
  /** Shows the sign-in page, which comes back to the page in view (`replace`: instead of it in history). */
  askToSignIn: (options) => askToSignIn(options),
};

/**
 * The server wants a user: the sign-in page, which comes back here once signed in. The page asks
 * the server first whether a user it thought signed in still is (signed out on another device).
 */
function askToSignIn({ replace = false } = {}) {
  const back = location.pathname + location.search;
  if (location.pathname === session.SIGN_IN_PATH) return;
  session.recheck().finally(() => {
    // Still here, and nobody signed in (else the user change shows the screen again).
    if (location.pathname + location.search === back && !session.currentUser()) navigate(session.signInHref(back), { replace });
  });
}

/** A binder of root to the view model at path with the app's standard wiring (not started). */
function bind(root, path, route) {
  const binder = new Binder(root, path, {
    // Previous/Next between siblings replaces the history entry: Back leaves the photos at once.
    navigate: (url) => navigate(url, { replace: isSibling(location.pathname, new URL(url, location.href).pathname) }),
    notify: (message) => showToast(message),
    // A sign-out ends the session's streams by design: no "Reconnecting…" for that (session.js).
    connection: (state) => { if (current && current.binder === binder && !(state === 'reconnecting' && session.signingOut())) setConnection(state); },
    onFatal: (err) => {
      if (!current || current.binder !== binder) return;
      if (api.signInRequired(err)) { askToSignIn({ replace: true }); return; } // a screen that needs a user
      if (api.notAllowed(err)) { showNotAllowed(route); return; }
      const stillHere = () => Boolean(current && current.binder === binder);
      showMissing(err, route, stillHere).catch(() => { if (stillHere()) showNotFound(err, route); });
    },
    // A write or a command the server refused for want of a user (401).
    signIn: () => { if (current && current.binder === binder) askToSignIn(); },
    // A command signed the session in (the login form's): who is it now?
    rotated: () => session.recheck(),
  });
  if (route.titleMember) {
    binder.onSnapshot((s) => { document.title = pageTitle(lookup(s, route.titleMember) || route.title); });
  }
  return binder;
}

function render(url, restore = null) {
  if (current) {
    if (current.presence) current.presence.stop(); // DELETE: the others see us leave at once
    if (current.binder) current.binder.stop();
    if (current.unmount) current.unmount();
    current = null;
  }
  dismissAll(); // a notice is about the page it was raised on
  setConnection('connecting');
  markCurrentNav(url.pathname);
  account.link();
  const found = match(routes, url.pathname);
  inspector.show(null);
  if (!found) { showNotFound(); return; }
  const { route, viewPath } = found;
  // The catalogue says this screen needs a user (or a role): not even asked for.
  const refused = refusal(route.readAccess, session.currentUser());
  if (refused === 'sign-in') { main.replaceChildren(); setLoading(true); askToSignIn({ replace: true }); return; }
  if (refused) { showNotAllowed(route); return; }
  const template = `tpl-${route.name}`;
  if (!document.getElementById(template)) {
    showNotFound(new Error(`This client has no page for the screen "${route.name}" yet.`));
    return;
  }
  main.replaceChildren(instantiate(template));
  const root = main.firstElementChild;
  document.title = pageTitle(route.title);
  const binder = viewPath == null ? null : bind(root, viewPath, route);
  // Busy until the first snapshot: no "No places yet" before the server said so. A screen
  // module that loads more on its first snapshot (loads.js) keeps it busy while it does.
  setLoading(Boolean(binder));
  if (binder) {
    root.setAttribute('aria-busy', 'true');
    const first = binder.onSnapshot(() => { first(); root.removeAttribute('aria-busy'); setLoading(false); });
    // Inputs the user may not change are read-only (list items come with snapshots).
    applyWriteAccess(binder, routes, session.currentUser());
    binder.onSnapshot(() => applyWriteAccess(binder, routes, session.currentUser()));
  }
  // A bound form never submits natively (Enter must not reload): its state lives on the server.
  if (binder) root.addEventListener('submit', (event) => event.preventDefault());
  current = { binder, unmount: null, presence: null };
  inspector.show(binder);
  const screen = screens[route.name];
  if (screen) current.unmount = screen.mount(root, ctx, binder) || null;
  // Who else is on this screen, and in which field (every screen with a view model).
  if (binder) { current.presence = new Presence(binder, root); current.presence.start(); }
  if (binder) binder.start(); else setConnection('open');
  // Back/Forward: where the user was; otherwise the screen's [autofocus] control (where its user
  // starts: TodoMVC's new todo), else the new screen's heading so keyboard and screen-reader users
  // follow along (not on the first page: the browser starts at its top).
  const start = main.querySelector('[autofocus]');
  if (restore) restoreView(main, restore);
  else if (start) start.focus();
  else if (!firstRender) (main.querySelector('h1') || main).focus({ preventScroll: false });
  firstRender = false;
}

/**
 * The screens' modules, imported before the first page: {name: module} from the list the server
 * put in the page. A module that does not load is left out (its screen is still bound) and said
 * in the console.
 */
async function loadScreens() {
  const list = document.getElementById('bindery-screen-modules');
  const urls = list ? JSON.parse(list.textContent || '{}') : {};
  const loaded = await Promise.all(Object.entries(urls).map(([name, url]) => import(url).then(
    (module) => [name, module],
    (err) => { console.error(`screen module ${url} did not load`, err); return null; },
  )));
  return Object.fromEntries(loaded.filter(Boolean).filter(([, module]) => typeof module.mount === 'function'));
}

// The session comes first (PUT /api/session: reads need none, but the screen's writes and its
// stream do); routing waits for it so that the screen's parallel requests don't each create a
// session of their own. While the server can't be reached the catalogue is asked again with the
// shared back-off; a refusal leaves only the home screen.
const catalogue = retry(() => api.ensureSession().then(({ data }) => { session.learn(data); return api.listViews(); }), {
  retryable: (err) => !(err instanceof api.ProblemError && err.status < 500),
  onRetry: () => setConnection('reconnecting'),
}).catch((err) => {
  showToast({ title: 'No screens', message: api.describeError(err), details: api.problemDetails(err) });
  return [];
});
Promise.all([catalogue, loadScreens()]).then(([views, modules]) => {
  screens = modules;
  ctx.allViews = views;
  ctx.pages = pageRoutes();
  routes = routeTable(views, ctx.pages);
  account.show(session.currentUser());
  buildNav(views, ctx.pages, session.currentUser());
  navigate = startRouter(render);
});

/**
 * Another user (this tab's sign-in or sign-out, or another tab's): the header and the nav at once;
 * the page's stream goes over to the session (hub.reset). After a sign-in the session kept its
 * state: the screen reads its view again and its inputs may now be writable. After a sign-out
 * the session is new: what this tab kept unsent belongs to the old one and is dropped, and the
 * screen starts again once the stream is the new session's. A page without a view model (the
 * home page's list, the sign-in page) is shown again.
 */
session.onUserChange(({ user, fresh, change }) => {
  if (!routes) return;
  account.show(user);
  buildNav(ctx.allViews, ctx.pages, user);
  const settled = resetHub({ fresh, change });
  const binder = current && current.binder;
  if (fresh) {
    if (binder) for (const writer of binder.writers.values()) writer.reset();
    dropUnsent();
    settled.then(() => render(new URL(location.href)));
    return;
  }
  const found = match(routes, location.pathname);
  if (!binder || (found && refusal(found.route.readAccess, user))) { render(new URL(location.href)); return; }
  applyWriteAccess(binder, routes, user);
  binder.resync();
});

// The stream this tab holds saw views end (their session was signed out, maybe on another
// device): who is signed in now? A change is told to every tab (session.js).
onEnded(() => { session.recheck(); });

/** Forgets what this tab kept unsent (binder/outbox.js): it was the old session's. */
function dropUnsent() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith('bindery:unsent:')) sessionStorage.removeItem(key);
  } catch { /* no sessionStorage */ }
}

// Last chance to send edits still pending when the tab goes away.
window.addEventListener('pagehide', () => { if (current && current.binder) current.binder.stop(); });
// Coming back from the back/forward cache: the stopped screen needs a fresh binding, and another
// tab may have signed in or out meanwhile (this one heard nothing).
window.addEventListener('pageshow', (event) => {
  if (!event.persisted || !routes) return;
  render(new URL(location.href));
  session.recheck();
});

// Debug hook for tests and curious humans.
window.__bindery = {
  get binder() { return current && current.binder; },
  get snapshot() { return current && current.binder ? current.binder.snapshot : null; },
  get routes() { return routes; },
  /** Closes the current event stream as if the network dropped it; the binder reconnects. */
  dropStream() { if (current && current.binder) current.binder.dropStream(); },
  /** The page's one event stream (binder/hub.js): this tab's role, views, the connection's state. */
  get events() { return pageHub().describe(); },
  navigate: (url) => navigate(url),
  /** Who is signed in ({id, name, roles}) or null. */
  get user() { return session.currentUser(); },
};
