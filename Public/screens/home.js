// The seed apps' index page "/": links to each screen of the catalogue and the fake upstream's
// panel. Not a view model. Replaces the client's own home (screens/home.js of Bindery's client).

import { showScreenLinks } from '/js/screen-links.js';
import { mountUpstreamPanel } from '/js/seed/upstream.js';

export function mount(root, ctx) {
  showScreenLinks(root.querySelector('#screen-links'), ctx.views);
  mountUpstreamPanel(root.querySelector('#upstream'), ctx);
}
