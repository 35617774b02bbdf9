// Index page "/": links to each screen of the catalogue. Not a view model. An app's own
// screens/home.js (and .html) replaces it.

import { showScreenLinks } from '/js/screen-links.js';

export function mount(root, ctx) {
  showScreenLinks(root.querySelector('#screen-links'), ctx.views);
}
