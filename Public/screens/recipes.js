// C-41 recipes (seed 003): the list page's behaviour beyond the bindings (js/seed/recipes.js).

import { list } from '/js/seed/recipes.js';

export const { mount } = list;
