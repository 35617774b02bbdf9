// Index page "/": links to each screen (GET /api/views) and the upstream panel.

import { instantiate } from '../templates.js';
import { mountUpstreamPanel } from './upstream.js';

export function mount(main, ctx) {
  const view = instantiate('tpl-home');
  main.replaceChildren(view);
  document.title = 'Bindery';
  const root = main.firstElementChild;
  const links = root.querySelector('#screen-links');

  ctx.views.then((views) => {
    links.replaceChildren(...views.map((v) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = v.url;
      a.textContent = v.title;
      const code = document.createElement('code');
      code.textContent = v.url;
      li.append(a, ' ', code);
      return li;
    }));
  }).catch(() => {
    links.innerHTML = '<li class="banner banner-error" role="alert">The server cannot be reached.</li>';
  });

  return mountUpstreamPanel(root.querySelector('#upstream'), ctx);
}
