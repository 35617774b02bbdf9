// C-41 recipes (seed 003): the edit page's behaviour beyond the bindings (js/seed/recipes.js).

import { edit } from '/js/seed/recipes.js';

export const { mount } = edit;
