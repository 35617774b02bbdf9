// app.js — entry point: loads the screen catalogue (GET /api/views), builds the route table and
// the header navigation from it, mounts screens, shows the reconnecting indicator and exposes a
// small debug hook (window.__bindery) used by the browser tests.
//
// Mounting is generic: the route's template tpl-<name> is bound to its view model; a screen with
// behaviour of its own has a module, screens/<name>.js (the server lists them in the page, from
// the app's Public/ and this client), whose mount() runs on top.

import * as api from './api.js';
import { retry } from './backoff.js';
import { Binder } from './binder.js';
import { Inspector } from './inspector/inspector.js';
import { pageHub } from './binder/hub.js';
import { lookup } from './binder/members.js';
import { Presence } from './presence.js';
import { match, pageRoutes, routeTable } from './routes.js';
import { startRouter } from './router.js';
import { instantiate } from './templates.js';
import { dismissAll, showToast } from './toast.js';

const main = document.getElementById('main');
const indicator = document.getElementById('connection');
const inspector = new Inspector(document.getElementById('inspector'), document.getElementById('inspector-toggle'));

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

/** The not-found page; under a screen's address (a removed item) it also links back to that screen. */
function showNotFound(err, route = null) {
  const view = instantiate('tpl-not-found');
  view.querySelector('.banner').textContent = err ? api.describeError(err) : 'There is no screen at this address.';
  if (route && route.parent) linkBack(view, route.parent);
  main.replaceChildren(view);
  setLoading(false);
  document.title = pageTitle('Not found');
}

/** Shows the "← Parent" link of a not-found or failed page, to its parent `{title, url}`. */
function linkBack(view, parent) {
  const back = view.querySelector('.not-found-parent');
  back.hidden = false;
  back.querySelector('a').href = parent.url;
  back.querySelector('a').textContent = `← ${parent.title}`;
}

/**
 * A child page whose view model is missing because its parent could not load what it is made of
 * (the parent's `error` is set: its upstream failed) is not "not found": it says the load failed,
 * with Details and Try again (the parent's `load` when it has one, then this page again). Anything
 * else missing is not found.
 */
async function showMissing(err, route, stillHere = () => true) {
  const parentPath = route && route.parent && err instanceof api.ProblemError && err.status === 404
    ? route.parent.url.replace(/^\/+/, '') : null;
  let parent = null;
  if (parentPath) { try { parent = await api.getSnapshot(parentPath); } catch { parent = null; } }
  if (!stillHere()) return; // the user went elsewhere meanwhile
  const failure = parent && parent.outputs && parent.outputs.error;
  if (!failure) { showNotFound(err, route); return; }
  const view = instantiate('tpl-not-found');
  view.querySelector('h1').textContent = 'Could not load this page';
  const banner = view.querySelector('.banner');
  const message = document.createElement('span');
  message.className = 'banner-message';
  message.textContent = api.describeError(failure);
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'Details';
  const facts = document.createElement('pre');
  facts.textContent = api.problemDetails(failure);
  details.append(summary, facts);
  banner.replaceChildren(message, details);
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'load-retry';
  retry.textContent = 'Try again';
  const here = location.href;
  retry.addEventListener('click', async () => {
    retry.disabled = true;
    retry.setAttribute('aria-busy', 'true');
    const load = parent.commands && parent.commands.load;
    if (load && load.enabled) {
      try { await api.executeCommand(parentPath, 'load', undefined, 10, { key: api.idempotencyKey() }); } catch { /* shown again below */ }
    }
    if (location.href === here) render(new URL(here));
  });
  const actions = document.createElement('p');
  actions.className = 'actions';
  actions.append(retry);
  banner.after(actions);
  linkBack(view, route.parent);
  main.replaceChildren(view);
  setLoading(false);
  document.title = pageTitle('Could not load');
  main.querySelector('h1').focus({ preventScroll: true });
}

// What every screen module receives.
const ctx = {
  get navigate() { return navigate; },
  notify: (message) => showToast(message),
  views: [], // the catalogue: [{name, path, title, url, api, viewModel, children}]
  pages: [], // the app's own pages without a view model (routes.js pageRoutes): [{name, title, url, nav}]
};

/** A binder of root to the view model at path with the app's standard wiring (not started). */
function bind(root, path, route) {
  const binder = new Binder(root, path, {
    // Previous/Next between siblings replaces the history entry: Back leaves the photos at once.
    navigate: (url) => navigate(url, { replace: isSibling(location.pathname, new URL(url, location.href).pathname) }),
    notify: (message) => showToast(message),
    connection: (state) => { if (current && current.binder === binder) setConnection(state); },
    onFatal: (err) => {
      if (!current || current.binder !== binder) return;
      const stillHere = () => Boolean(current && current.binder === binder);
      showMissing(err, route, stillHere).catch(() => { if (stillHere()) showNotFound(err, route); });
    },
  });
  if (route.titleMember) {
    binder.onSnapshot((s) => { document.title = pageTitle(lookup(s, route.titleMember) || route.title); });
  }
  return binder;
}

/** Puts scroll position and focus back once the screen shows them (Back to a list row). */
function restoreView(restore) {
  const deadline = Date.now() + 5000;
  const attempt = () => {
    const { focus } = restore;
    let target = null;
    if (focus && focus.href) target = main.querySelector(`a[href="${CSS.escape(focus.href)}"]`);
    else if (focus && focus.id) target = document.getElementById(focus.id);
    else if (focus && focus.list) {
      const row = main.querySelector(`#${CSS.escape(focus.list)} [data-key="${CSS.escape(focus.key)}"]`);
      target = row && (row.querySelector('a[href], button, input, select, textarea, [tabindex]') || row);
    }
    const tall = document.documentElement.scrollHeight >= restore.scrollY + window.innerHeight * 0.5;
    if ((focus ? target : tall) || Date.now() > deadline) {
      if (target) target.focus({ preventScroll: true });
      window.scrollTo(0, restore.scrollY);
      return;
    }
    requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** Whether `to` is a sibling page of `from` (the next photo): such a move replaces history. */
function isSibling(from, to) {
  const a = from.split('/');
  const b = to.split('/');
  return a.length === b.length && a.length > 2 && a.slice(0, -1).join('/') === b.slice(0, -1).join('/') && from !== to;
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
  const found = match(routes, url.pathname);
  inspector.show(null);
  if (!found) { showNotFound(); return; }
  const { route, viewPath } = found;
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
  // Back/Forward: where the user was; otherwise focus the new screen's heading so keyboard and
  // screen-reader users follow along.
  if (restore) restoreView(restore);
  else if (!firstRender) (main.querySelector('h1') || main).focus({ preventScroll: false });
  firstRender = false;
}

function markCurrentNav(pathname) {
  for (const a of document.querySelectorAll('#nav a')) {
    const href = a.getAttribute('href');
    const here = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

function buildNav(views, pages = []) {
  const entries = [...views, ...pages.filter((p) => p.nav)];
  document.querySelector('#nav ul').replaceChildren(...entries.map((v) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = v.url;
    a.textContent = v.title;
    li.append(a);
    return li;
  }));
  markCurrentNav(location.pathname);
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
const catalogue = retry(() => api.ensureSession().then(() => api.listViews()), {
  retryable: (err) => !(err instanceof api.ProblemError && err.status < 500),
  onRetry: () => setConnection('reconnecting'),
}).catch((err) => {
  showToast({ title: 'No screens', message: api.describeError(err), details: api.problemDetails(err) });
  return [];
});
Promise.all([catalogue, loadScreens()]).then(([views, modules]) => {
  screens = modules;
  ctx.views = views;
  ctx.pages = pageRoutes();
  routes = routeTable(views, ctx.pages);
  buildNav(views, ctx.pages);
  navigate = startRouter(render);
});

// Last chance to send edits still pending when the tab goes away.
window.addEventListener('pagehide', () => { if (current && current.binder) current.binder.stop(); });
// Coming back from the back/forward cache: the stopped screen needs a fresh binding.
window.addEventListener('pageshow', (event) => { if (event.persisted && routes) render(new URL(location.href)); });

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
};
