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

/**
 * /recipes: the "New recipe" form executes `add` (which navigates to the new recipe's editor).
 * Delete asks first (the <dialog> of recipes.html), then offers Undo for 10 s (the list's `restore`).
 */
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
    const dialog = root.querySelector('#delete-dialog');
    let asking = null; // {button, id, name} while the dialog is open
    // Before the binding's own click handler (on the button): the command runs only once confirmed.
    root.addEventListener('click', (event) => {
      const button = event.target.closest('.recipe-delete');
      if (!button || !root.contains(button)) return;
      event.stopPropagation();
      event.preventDefault();
      if (button.disabled || button.getAttribute('aria-disabled') === 'true') return;
      const row = button.closest('li');
      asking = { button, id: row.dataset.key, name: row.querySelector('.recipe-name').textContent };
      dialog.querySelector('.delete-dialog-name').textContent = asking.name;
      dialog.returnValue = '';
      dialog.showModal();
    }, true);
    for (const choice of dialog.querySelectorAll('button[value]')) {
      choice.addEventListener('click', () => dialog.close(choice.value));
    }
    dialog.addEventListener('close', async () => {
      const chosen = asking;
      asking = null;
      if (!chosen) return;
      if (dialog.returnValue !== 'delete') { chosen.button.focus(); return; } // Cancel or Escape
      const done = await binder.execute('delete', { id: chosen.id }, { element: chosen.button });
      if (!chosen.button.isConnected) root.querySelector('h1').focus();
      if (!done) return;
      ctx.notify({
        title: `Deleted ${chosen.name}`,
        role: 'status',
        timeout: 10000,
        action: { label: 'Undo', run: () => binder.execute('restore', { id: chosen.id }) },
      });
    });
  },
};

/**
 * A recipe someone deleted while it is open here (the page and the editor): the banner of the
 * template (bound to isDeleted / deletedBy, Restore = the page's `restore`) and its "Copy text",
 * which copies the name, blurb and steps as plain text: in the editor what the fields show (the
 * user's typed text included), on the page what it shows.
 */
export const deleted = {
  mount(root, ctx, binder) {
    const banner = root.querySelector('.deleted-banner');
    if (!banner) return;
    const said = banner.querySelector('.deleted-copied');
    banner.querySelector('.deleted-copy').addEventListener('click', async () => {
      const text = recipeText(root, binder.snapshot);
      said.textContent = (await copy(text)) ? 'Copied to the clipboard.' : 'Could not copy: select the text and copy it.';
    });
    // Restored: edits the server refused while the recipe was gone are sent now.
    binder.onSnapshot((s, previous) => {
      const was = previous && previous.outputs && previous.outputs.isDeleted;
      if (was && s.outputs && !s.outputs.isDeleted) {
        said.textContent = '';
        for (const writer of binder.writers.values()) if (writer.retryHeld) writer.retryHeld();
      }
    });
  },
};

/** The recipe as plain text: the editor's fields where there are some, else the snapshot's. */
export function recipeText(root, snapshot) {
  const value = (el, fallback) => (el ? el.value : fallback);
  const members = (snapshot && { ...snapshot.outputs, ...snapshot.inputs }) || {};
  const name = value(root.querySelector('#edit-name'), members.name);
  const blurb = value(root.querySelector('#edit-blurb'), members.blurb);
  const rows = [...root.querySelectorAll('#edit-steps .step-row')];
  const steps = rows.length
    ? rows.map((row) => ({
      name: row.querySelector('.step-name')?.value,
      durationSeconds: row.querySelector('.step-seconds')?.value,
      temperatureCelsius: row.querySelector('.step-temperature')?.value,
      agitation: row.querySelector('.step-agitation')?.value,
    }))
    : (members.steps || []).map((step) => ({ ...(step.outputs || {}), ...(step.inputs || {}), ...step }));
  const lines = [name || 'Untitled recipe'];
  if (blurb) lines.push(blurb);
  if (steps.length) lines.push('');
  steps.forEach((step, i) => {
    let line = `${i + 1}. ${step.name || 'Step'} — ${step.durationSeconds ?? '?'} s`;
    if (step.temperatureCelsius !== '' && step.temperatureCelsius != null) line += ` at ${step.temperatureCelsius} °C`;
    if (step.agitation) line += `. Agitation: ${step.agitation}`;
    lines.push(line);
  });
  return lines.join('\n');
}

/** Puts text on the clipboard; answers whether it worked. */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

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
      const index = Number(button.closest('li').dataset.index); // the step's output `index`
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
