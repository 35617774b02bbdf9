// One POI cell's own view model at /list/items/{id}: the same cell bindings, as a detail card.

import { instantiate } from '../templates.js';

export function mount(main, ctx, viewPath) {
  const view = instantiate('tpl-item');
  main.replaceChildren(view);
  const binder = ctx.bind(main.firstElementChild, viewPath);
  binder.onSnapshot((s) => { document.title = `${s.outputs.title || 'Place'} · Bindery`; });
  return { binder };
}
