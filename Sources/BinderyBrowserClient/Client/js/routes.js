// routes.js — the route table, built from the server's screen catalogue (GET /api/views) instead
// of a list kept here. "/" is home; each view's `url` and each child's `url` pattern is a route
// whose `{param}` matches one path segment (an `integer` parameter only digits). A route shows
// the template tpl-<name>, bound to the view model whose path is the page path without its
// leading slash; its page title is `title`, or the snapshot's `titleMember` when that has a value.
// An app may add pages of its own without a view model (pageRoutes: a template with data-page).

const HOME = { name: 'home', title: null, titleMember: null, pattern: /^\/$/, bound: false };

/**
 * [{name, title, titleMember, pattern, bound, parent, readAccess, writeAccess}] for "/" and every
 * view and child in `views`; a child's `parent` is {title, url} of its view (where its not-found
 * page points back to).
 */
export function routeTable(views, pages = []) {
  const routes = [HOME];
  for (const view of views) {
    routes.push(routeOf(view));
    const parent = { title: view.title, url: view.url };
    for (const child of view.children || []) routes.push({ ...routeOf(child), parent });
  }
  // After the views: a page never hides a screen of the same address.
  return routes.concat(pages);
}

/**
 * The app's own pages without a view model (an app's screens/<name>.html): each
 * `<template id="tpl-<name>" data-page="/lab" data-title="Lab">` of the page is a route, unbound;
 * `data-nav` lists it in the header nav after the screens. [{name, title, url, nav, pattern, bound}]
 */
export function pageRoutes(root = document) {
  return [...root.querySelectorAll('template[id^="tpl-"][data-page]')].map((t) => ({
    name: t.id.slice(4),
    title: t.dataset.title || null,
    titleMember: null,
    url: t.dataset.page,
    nav: t.hasAttribute('data-nav'),
    pattern: urlPattern(t.dataset.page),
    bound: false,
  }));
}

/** A view's or child's route; `readAccess`/`writeAccess` as the catalogue says (access.js). */
function routeOf({ name, title, titleMember = null, url, parameters = {}, readAccess = null, writeAccess = null }) {
  return { name, title, titleMember, pattern: urlPattern(url, parameters), bound: true, readAccess, writeAccess };
}

/** "/gallery/photos/{index}" with index an integer -> /^\/gallery\/photos\/(\d+)$/ */
export function urlPattern(url, parameters = {}) {
  const source = url.split(/(\{[^{}/]+\})/).map((part) => {
    const param = /^\{([^{}/]+)\}$/.exec(part);
    if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return (parameters[param[1]] || {}).type === 'integer' ? '(\\d+)' : '([^/]+)';
  }).join('');
  return new RegExp(`^${source}$`);
}

/** The route showing `pathname` and the path of its view model (null for unbound screens). */
export function match(routes, pathname) {
  const route = routes.find((r) => r.pattern.test(pathname));
  if (!route) return null;
  return { route, viewPath: route.bound ? pathname.slice(1) : null };
}
