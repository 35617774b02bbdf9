// Gallery — seed 004: thumbnails imported by the view model when it becomes active (stream open).

import { instantiate } from '../templates.js';

export function mount(main, ctx, viewPath) {
  const view = instantiate('tpl-gallery');
  main.replaceChildren(view);
  document.title = 'Gallery · Bindery';
  return { binder: ctx.bind(main.firstElementChild, viewPath) };
}
