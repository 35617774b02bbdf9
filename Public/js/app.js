// app.js — entry point: header navigation, routing, screen mounting, the reconnecting indicator
// and a small debug hook (window.__bindery) used by the browser tests.

import * as api from './api.js';
import { Binder } from './binder.js';
import { instantiate } from './templates.js';
import { match, startRouter } from './router.js';
import { showToast } from './toast.js';

const main = document.getElementById('main');
const indicator = document.getElementById('connection');

let current = null;   // {binder?, unmount?} of the mounted screen
let renderSeq = 0;    // guards against a slow screen import finishing after a newer navigation
let firstRender = true;
let navigate = () => {};

/** Shows "Reconnecting…" only while the current screen's stream is down. */
function setConnection(state) {
  document.documentElement.dataset.stream = state;
  indicator.hidden = state !== 'reconnecting';
}

function showNotFound(err) {
  const view = instantiate('tpl-not-found');
  view.querySelector('.banner').textContent = err ? api.describeError(err) : 'There is no screen at this address.';
  main.replaceChildren(view);
  document.title = 'Not found · Bindery';
}

// What every screen module receives.
const ctx = {
  get navigate() { return navigate; },
  notify: (message) => showToast(message),
  views: null, // promise of [{path, title, url}]
  /** Binds root to the view model at path with the app's standard wiring, and starts it. */
  bind(root, path, options = {}) {
    const binder = new Binder(root, path, {
      navigate: (url) => navigate(url),
      notify: (message) => showToast(message),
      connection: (state) => { if (current && current.binder === binder) setConnection(state); },
      onFatal: (err) => { if (current && current.binder === binder) showNotFound(err); },
      ...options,
    });
    binder.start();
    return binder;
  },
};

async function render(url) {
  const seq = ++renderSeq;
  if (current) {
    if (current.binder) current.binder.stop();
    if (current.unmount) current.unmount();
    current = null;
  }
  setConnection('connecting');
  markCurrentNav(url.pathname);
  const route = match(url.pathname);
  if (!route) { showNotFound(); return; }
  const screen = await import(route.module);
  if (seq !== renderSeq) return;
  current = {};
  const mounted = screen.mount(main, ctx, route.viewPath) || {};
  current = mounted;
  if (!mounted.binder) setConnection('open');
  // Move focus to the new screen's heading so keyboard and screen-reader users follow along.
  if (!firstRender) (main.querySelector('h1') || main).focus({ preventScroll: false });
  firstRender = false;
}

function markCurrentNav(pathname) {
  for (const a of document.querySelectorAll('#nav a')) {
    const href = a.getAttribute('href');
    const here = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

async function buildNav() {
  let views = [];
  try { views = await ctx.views; } catch { /* header stays minimal */ }
  const ul = document.querySelector('#nav ul');
  ul.replaceChildren(...views.map((v) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = v.url;
    a.textContent = v.title;
    li.append(a);
    return li;
  }));
  markCurrentNav(location.pathname);
}

// The first request establishes the session cookie; wait for it so that the screen's parallel
// requests don't each create a session of their own.
ctx.views = api.listViews();
ctx.views.catch(() => {}).finally(() => {
  buildNav();
  navigate = startRouter(render);
});

// Last chance to send edits still pending when the tab goes away.
window.addEventListener('pagehide', () => { if (current && current.binder) current.binder.stop(); });
// Coming back from the back/forward cache: the stopped screen needs a fresh binding.
window.addEventListener('pageshow', (event) => { if (event.persisted) render(new URL(location.href)); });

// Debug hook for tests and curious humans.
window.__bindery = {
  get binder() { return current && current.binder; },
  get snapshot() { return current && current.binder ? current.binder.snapshot : null; },
  /** Closes the current event stream as if the network dropped it; the binder reconnects. */
  dropStream() { if (current && current.binder) current.binder.dropStream(); },
  navigate: (url) => navigate(url),
};
