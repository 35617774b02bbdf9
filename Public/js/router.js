// router.js — client-side navigation with the History API: same-origin links, back/forward and
// `navigate` answers change the page without a reload. The server serves index.html for every
// screen URL, so each screen is shareable and the browser's back button works. Which screen a URL
// shows is the route table's business (routes.js).

/**
 * Starts routing. render(url) is called for the first page and on every navigation.
 * Returns navigate(url, {replace}).
 */
export function startRouter(render) {
  const navigate = (url, { replace = false } = {}) => {
    const target = new URL(url, location.href);
    if (target.origin !== location.origin) { location.assign(target.href); return; }
    const href = target.pathname + target.search + target.hash;
    if (href === location.pathname + location.search + location.hash && !replace) return;
    if (replace) history.replaceState({}, '', href); else history.pushState({}, '', href);
    render(target);
  };

  // Same-origin links navigate in-page, unless modified clicks or opted out (data-native).
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = event.target.closest('a[href]');
    if (!a || a.target || a.hasAttribute('download') || a.hasAttribute('data-native')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    event.preventDefault();
    navigate(url.href);
  });

  window.addEventListener('popstate', () => render(new URL(location.href)));

  // Normalise a trailing slash ("/form/" -> "/form") once, then render the first page.
  if (location.pathname.length > 1 && location.pathname.endsWith('/')) {
    history.replaceState({}, '', location.pathname.replace(/\/+$/, '') + location.search + location.hash);
  }
  render(new URL(location.href));
  return navigate;
}
