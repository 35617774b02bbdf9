// The seed apps' index page "/": links to each screen of the catalogue and the fake upstream's
// panel. Not a view model. Replaces the client's own home (screens/home.js of Bindery's client).

import { mountUpstreamPanel } from '/js/seed/upstream.js';

export function mount(root, ctx) {
  root.querySelector('#screen-links').replaceChildren(...ctx.views.map((v) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = v.url;
    a.textContent = v.title;
    const code = document.createElement('code');
    code.textContent = v.url;
    li.append(a, ' ', code);
    return li;
  }));
  mountUpstreamPanel(root.querySelector('#upstream'), ctx);
}
