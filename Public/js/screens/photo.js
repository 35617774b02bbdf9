// Full-size photo — seed 004: the photo loads its full-size image while the page watches it.
// previous/next answer `navigate` to the neighbour's page; arrow keys do the same.

import { instantiate } from '../templates.js';

export function mount(main, ctx, viewPath) {
  const view = instantiate('tpl-photo');
  main.replaceChildren(view);
  const root = main.firstElementChild;
  const position = root.querySelector('#photo-position');
  const binder = ctx.bind(root, viewPath);

  // "3 of 12" needs arithmetic, which the declarative bindings deliberately don't do.
  binder.onSnapshot((s) => {
    const photo = s.outputs.photo || {};
    const index = photo.index ?? s.outputs.initialPhotoIndex;
    position.textContent = s.outputs.count != null && index != null ? `Photo ${index + 1} of ${s.outputs.count}` : '';
    document.title = `${photo.photoName || s.outputs.initialPhotoName || 'Photo'} · Bindery`;
  });

  const onKey = (event) => {
    if (event.target.closest('input, select, textarea') || event.altKey || event.ctrlKey || event.metaKey) return;
    const button = event.key === 'ArrowLeft' ? root.querySelector('#prev')
      : event.key === 'ArrowRight' ? root.querySelector('#next') : null;
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  };
  document.addEventListener('keydown', onKey);
  return { binder, unmount: () => document.removeEventListener('keydown', onKey) };
}
