// Screens that load when they appear — the POI list (seed 000 Demo 1) and the course list (seed
// 001's getData in viewDidLoad). If the view model has nothing in its collection yet, no error
// and isn't loading, start `load` once; a 409 (the server began on its own) is not worth a toast.
// Everything else is declared in the screen's template.

/** A screen module whose mount loads the view model when `member` (its collection) is empty. */
export function loadsWhenEmpty(member) {
  return {
    mount(root, ctx, binder) {
      let asked = false;
      binder.onSnapshot((snapshot) => {
        if (asked) return;
        asked = true;
        const load = snapshot.commands && snapshot.commands.load;
        const items = snapshot.outputs && snapshot.outputs[member];
        if (load && load.enabled && !load.executing && !(items && items.length) && !snapshot.outputs.error) {
          // Busy from the first snapshot to the answer, so the empty state never flashes.
          root.setAttribute('aria-busy', 'true');
          binder.execute('load', undefined, { quiet: true }).finally(() => root.removeAttribute('aria-busy'));
        }
      });
    },
  };
}
