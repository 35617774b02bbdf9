// nav.js — the header's navigation: a link to every screen the user may open (the catalogue's
// views their readAccess admits, access.js) and to the app's own pages marked data-nav; the link of
// the screen in view is aria-current. Built again when the user changes (signing in may show more).

import { readable } from './access.js';

/** Marks the link of the screen at `pathname` (or of its parent screen) as the current page. */
export function markCurrentNav(pathname) {
  for (const a of document.querySelectorAll('#nav a')) {
    const href = a.getAttribute('href');
    const here = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

/** Fills the nav with the screens `user` may read and the pages listed in it. */
export function buildNav(views, pages, user) {
  const entries = [...readable(views, user), ...pages.filter((p) => p.nav)];
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
