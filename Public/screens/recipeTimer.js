// C-41 recipes (seed 003): the timer page's behaviour beyond the bindings (js/seed/recipes.js).

import { timer } from '/js/seed/recipes.js';

export const { mount } = timer;
