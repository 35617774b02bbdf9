// C-41 recipes (seed 003): the detail page's behaviour beyond the bindings (js/seed/recipes.js).

import { detail } from '/js/seed/recipes.js';

export const { mount } = detail;
