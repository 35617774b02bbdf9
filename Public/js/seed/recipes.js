// C-41 recipes — seed 003. What the declarative bindings don't do: commands whose body comes from
// a small form (add a recipe, add a step), moving a step up, links to a recipe's other pages, and
// the timer's mm:ss clock. The state itself is the server's; these only send commands.

import { checkFields } from '/js/field-error.js';

/** The recipe id of a page URL /recipes/{id}[/...]. */
export function recipeID() {
  return decodeURIComponent(location.pathname.split('/')[2] || '');
}

/** "3:15" for 195 seconds. */
export function clock(seconds) {
  const s = Math.max(0, Number(seconds) || 0);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** /recipes: the "New recipe" form executes `add` (which navigates to the new recipe's editor). */
export const list = {
  mount(root, ctx, binder) {
    const form = root.querySelector('#add-recipe');
    const name = root.querySelector('#new-recipe-name');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!name.value.trim()) { name.focus(); return; }
      const done = await binder.execute('add', { name: name.value }, { element: root.querySelector('#add-recipe-button') });
      if (done) name.value = '';
    });
  },
};

/** /recipes/{id}: the Edit link. */
export const detail = {
  mount(root) {
    root.querySelector('#edit-recipe').href = `/recipes/${encodeURIComponent(recipeID())}/edit`;
  },
};

/** /recipes/{id}/edit: the back link, "Add step" and moving a step up. */
export const edit = {
  mount(root, ctx, binder) {
    root.querySelector('#edit-back').href = `/recipes/${encodeURIComponent(recipeID())}`;
    const form = root.querySelector('#add-step');
    const [name, seconds, temp] = ['#step-name', '#step-seconds', '#step-temp'].map((s) => root.querySelector(s));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!checkFields(form)) return; // said at the field: a name and at least 1 second
      const body = { name: name.value, durationSeconds: Number(seconds.value) };
      if (temp.value !== '') body.temperatureCelsius = Number(temp.value);
      const done = await binder.execute('addStep', body, { element: root.querySelector('#add-step-button') });
      if (done) { name.value = ''; seconds.value = ''; temp.value = ''; name.focus(); }
    });
    root.querySelector('#edit-steps').addEventListener('click', (event) => {
      const button = event.target.closest('.step-up');
      if (!button) return;
      const index = Number(button.closest('li').dataset.key);
      if (index > 0) binder.execute('moveStep', { from: index, to: index - 1 }, { element: button });
    });
  },
};

/** /recipes/{id}/timer: the back link and the clock. */
export const timer = {
  mount(root, ctx, binder) {
    root.querySelector('#timer-back').href = `/recipes/${encodeURIComponent(recipeID())}`;
    const face = root.querySelector('#timer-clock');
    binder.onSnapshot((s) => { face.textContent = clock(s.outputs.remainingSeconds); });
  },
};
