// C-41 recipes (seed 003): the edit page's behaviour beyond the bindings (js/seed/recipes.js).

import { deleted, edit } from '/js/seed/recipes.js';

export function mount(root, ctx, binder) {
  const unmount = edit.mount(root, ctx, binder);
  deleted.mount(root, ctx, binder);
  return unmount;
}
