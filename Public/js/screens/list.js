// POI list — seed 000 Demo 1: a city <select>, Reload (command load) and the scenic + hotel cells.

import { instantiate } from '../templates.js';

export function mount(main, ctx, viewPath) {
  const view = instantiate('tpl-list');
  main.replaceChildren(view);
  document.title = 'Points of interest · Bindery';
  const binder = ctx.bind(main.firstElementChild, viewPath);

  // The seed loads when the screen appears. If the view model has nothing yet and isn't
  // loading, start it once; a 409 (the server began on its own) is not worth a toast.
  let asked = false;
  binder.onSnapshot((snapshot) => {
    if (asked) return;
    asked = true;
    const load = snapshot.commands && snapshot.commands.load;
    const items = snapshot.outputs && snapshot.outputs.items;
    if (load && load.enabled && !load.executing && !(items && items.length) && !snapshot.outputs.error) {
      binder.execute('load', undefined, { quiet: true });
    }
  });
  return { binder };
}
