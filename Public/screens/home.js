// The seed apps' index page "/": what Bindery is, and a card per screen of the catalogue the user
// may open (and each page of the app, the Lab) with one line of what to try there; the demo
// accounts are in its template. Not a view model. Replaces the client's own home (screens/home.js
// of Bindery's client).

import { instantiate } from '/js/templates.js';

// What to try on each screen, by its name in the catalogue (GET /api/views) or the page's.
const TRY = {
  form: 'Type a phone number: the server checks it as you type. Sign in with a demo account below; open it in two windows — they are one view model.',
  list: 'Change the city, then open a place. Stop the server while it loads: the page waits, then carries on.',
  gallery: 'Open a photo and use the arrow keys. Make the photos fail in the Lab, then try again.',
  courses: 'Reload the list, open a course, and press ` for the inspector to see the snapshot behind it.',
  recipes: 'Open a recipe in two windows and edit it in both. Start its timer, reload the page: it keeps running on the server.',
  lab: 'Slow the fake upstream down or make it fail, then watch each screen say so — and recover.',
};

/** One card: title and link, what to try, the address. */
function card({ name, title, url }) {
  const li = instantiate('tpl-home-card').firstElementChild;
  const link = li.querySelector('a');
  link.href = url;
  link.textContent = title || name;
  li.querySelector('.home-card-try').textContent = TRY[name] || 'Open it and press ` for the inspector.';
  li.querySelector('code').textContent = url;
  return li;
}

export function mount(root, ctx) {
  // The app's pages that its nav lists too (the Lab): not the sign-in page, which is no screen.
  const pages = (ctx.pages || []).filter((page) => page.nav && page.name !== 'home');
  root.querySelector('#home-cards').replaceChildren(...[...ctx.views, ...pages].map(card));
}
