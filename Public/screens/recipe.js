// C-41 recipes (seed 003): the detail page's behaviour beyond the bindings (js/seed/recipes.js).

import { deleted, detail } from '/js/seed/recipes.js';

export function mount(root, ctx, binder) {
  detail.mount(root, ctx, binder);
  deleted.mount(root, ctx, binder);
}
