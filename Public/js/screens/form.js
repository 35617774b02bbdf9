// Login form — seed 000 Demo 2. Everything is declared in tpl-form; the binder does the rest.

import { instantiate } from '../templates.js';

export function mount(main, ctx, viewPath) {
  const view = instantiate('tpl-form');
  const form = view.querySelector('form');
  form.addEventListener('submit', (event) => event.preventDefault()); // Enter must not reload
  main.replaceChildren(view);
  document.title = 'Login form · Bindery';
  return { binder: ctx.bind(main.firstElementChild, viewPath) };
}
