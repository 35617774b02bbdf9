// missing-page.js — what the page shows instead of a screen (tpl-not-found): "Not found" (no such
// address, a removed item: with a link back to its screen), "Could not load this page" (a child
// whose parent could not load what it is made of, with Details and Try again) and "Not allowed"
// (the user is signed in but may not see this screen: 403, or the catalogue says so).

import * as api from './api.js';
import { instantiate } from './templates.js';

/**
 * The missing pages of the app: `main` is where they go; `shown(title)` is called once one is in
 * place (the page's title, the loading bar off); `render(url)` shows an address again (Try again).
 */
export function missingPages({ main, shown, render }) {
  /** Shows the "← Parent" link of a not-found or failed page, to its parent `{title, url}`. */
  const linkBack = (view, parent) => {
    const back = view.querySelector('.not-found-parent');
    back.hidden = false;
    back.querySelector('a').href = parent.url;
    back.querySelector('a').textContent = `← ${parent.title}`;
  };

  /** The not-found page; under a screen's address (a removed item) it also links back to that screen. */
  const showNotFound = (err, route = null) => {
    const view = instantiate('tpl-not-found');
    view.querySelector('.banner').textContent = err ? api.describeError(err) : 'There is no screen at this address.';
    if (route && route.parent) linkBack(view, route.parent);
    main.replaceChildren(view);
    shown('Not found');
  };

  /** Signed in, but this user may not see the screen: said plainly, with the way back. */
  const showNotAllowed = (route = null) => {
    const view = instantiate('tpl-not-found');
    view.querySelector('h1').textContent = 'Not allowed';
    view.querySelector('.banner').textContent = 'Your account may not see this screen.';
    if (route && route.parent) linkBack(view, route.parent);
    main.replaceChildren(view);
    shown('Not allowed');
  };

  /**
   * A child page whose view model is missing because its parent could not load what it is made of
   * (the parent's `error` is set: its upstream failed) is not "not found": it says the load failed,
   * with Details and Try again (the parent's `load` when it has one, then this page again). Anything
   * else missing is not found.
   */
  const showMissing = async (err, route, stillHere = () => true) => {
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
    shown('Could not load');
    main.querySelector('h1').focus({ preventScroll: true });
  };

  return { showNotFound, showNotAllowed, showMissing };
}
