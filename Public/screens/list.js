// The POI list (seed 000 Demo 1): loads when it appears with nothing to show.

import { loadsWhenEmpty } from '/js/seed/loads.js';

export const { mount } = loadsWhenEmpty('items');
