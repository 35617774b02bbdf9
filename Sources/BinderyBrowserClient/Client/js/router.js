// router.js — client-side navigation with the History API: same-origin links, back/forward and
// `navigate` answers change the page without a reload. The server serves index.html for every
// screen URL, so each screen is shareable and the browser's back button works. Which screen a URL
// shows is the route table's business (routes.js). A move to another fragment of the page shown
// (`#/active`: a link, Back, Forward) is the browser's own: no new render, a `hashchange` (an
// input kept in the hash follows it, binder/hash-input.js).

/**
 * What identifies the focused control across a re-render: a link's href, an element's id, or the
 * key of its row in a keyed list (`data-key` inside an element with an id).
 */
export function focusKey(element) {
  if (!element || element === document.body) return null;
  const link = element.closest('a[href]');
  if (link) return { href: link.getAttribute('href') };
  if (element.id) return { id: element.id };
  const row = element.closest('[data-key]');
  const list = row && row.parentElement && row.parentElement.closest('[id]');
  return row && list ? { list: list.id, key: row.dataset.key } : null;
}

/**
 * Puts scroll position and focus back in `main` once the screen shows them (Back to a list row):
 * `restore` is what the router saved when the user left the page ({scrollY, focus}).
 */
export function restoreView(main, restore) {
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
export function isSibling(from, to) {
  const a = from.split('/');
  const b = to.split('/');
  return a.length === b.length && a.length > 2 && a.slice(0, -1).join('/') === b.slice(0, -1).join('/') && from !== to;
}

/**
 * Starts routing. render(url, restore) is called for the first page and on every navigation;
 * `restore` is {scrollY, focus} when Back/Forward returns to a page (where it was scrolled to and
 * the control that had focus, saved when the user left it), else null.
 * Returns navigate(url, {replace}).
 */
export function startRouter(render) {
  // The page is rendered after the data arrives: restoring the scroll position is ours to do.
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let shown = null; // the page rendered last: its path and query
  const show = (url, restore) => { shown = url.pathname + url.search; render(url, restore); };
  const navigate = (url, { replace = false } = {}) => {
    const target = new URL(url, location.href);
    if (target.origin !== location.origin) { location.assign(target.href); return; }
    const href = target.pathname + target.search + target.hash;
    if (href === location.pathname + location.search + location.hash && !replace) return;
    if (replace) {
      history.replaceState({}, '', href);
    } else {
      // Remember where the user was on the page being left, for Back.
      history.replaceState({ ...(history.state || {}), scrollY: window.scrollY, focus: focusKey(document.activeElement) }, '');
      history.pushState({}, '', href);
    }
    show(target, null);
  };

  // Same-origin links navigate in-page, unless modified clicks or opted out (data-native).
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = event.target.closest('a[href]');
    if (!a || a.target || a.hasAttribute('download') || a.hasAttribute('data-native')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    if (url.hash && url.pathname + url.search === shown) return; // a fragment of this page
    event.preventDefault();
    navigate(url.href);
  });

  window.addEventListener('popstate', (event) => {
    if (location.pathname + location.search === shown) return; // another fragment of the page shown
    const state = event.state || {};
    show(new URL(location.href), state.scrollY != null || state.focus ? { scrollY: state.scrollY || 0, focus: state.focus } : null);
  });

  // Normalise a trailing slash ("/form/" -> "/form") once, then render the first page.
  if (location.pathname.length > 1 && location.pathname.endsWith('/')) {
    history.replaceState({}, '', location.pathname.replace(/\/+$/, '') + location.search + location.hash);
  }
  show(new URL(location.href), null);
  return navigate;
}
