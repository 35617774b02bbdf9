// Index page "/": links to each screen of the catalogue and the upstream panel. Not a view model.

import { mountUpstreamPanel } from './upstream.js';

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
