// POI list — seed 000 Demo 1. The seed loads when the screen appears: if the view model has
// nothing yet and isn't loading, start it once; a 409 (the server began on its own) is not worth
// a toast. Everything else is declared in tpl-list.

export function mount(root, ctx, binder) {
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
}
