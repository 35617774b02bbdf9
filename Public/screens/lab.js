// The Lab page "/lab": the fake upstream's panel (js/seed/upstream.js). Not a view model.

import { mountUpstreamPanel } from '/js/seed/upstream.js';

export function mount(root, ctx) {
  mountUpstreamPanel(root.querySelector('#upstream'), ctx);
}
