// C-41 recipes — seed 003. What the declarative bindings don't do: commands whose body comes from
// a small form (add a recipe, add a step), moving a step up, links to a recipe's other pages, and
// the timer (its mm:ss clock, one Start/Pause toggle, progress, what is announced). The state
// itself is the server's; these only send commands.

import * as api from '/js/api.js';
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

/** "3 min 15 s" for 195 seconds: the clock in words, for the progress text. */
export function duration(seconds) {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  const m = Math.floor(s / 60);
  return m ? `${m} min${s % 60 ? ` ${s % 60} s` : ''}` : `${s} s`;
}

/** Whether the timer's snapshot says the run is over: the last step has run out (or no steps). */
export function timerFinished(outputs) {
  const count = outputs.stepCount || 0;
  return count === 0 || (outputs.currentStepIndex >= count - 1 && outputs.remainingSeconds === 0);
}

/**
 * /recipes/{id}/timer: the back link, the clock, "Step N of M", the overall progress (from the
 * steps' durations, read from the recipe's page view model), one Start/Pause toggle and what a
 * screen reader is told: each new step, then Done.
 *
 * The toggle follows the snapshot's `running` (the `start` command executing): Pause while it
 * runs, else Start (Resume once a step is under way). Start is sent with `wait: 0`, so its POST
 * answers at once (202) instead of lasting the whole run, and the button shows no spinner
 * meanwhile; Pause ends the run by design (its 409 "Command cancelled" is not an error, binder.js).
 */
export const timer = {
  mount(root, ctx, binder) {
    const id = recipeID();
    root.querySelector('#timer-back').href = `/recipes/${encodeURIComponent(id)}`;
    const $ = (selector) => root.querySelector(selector);
    const face = $('#timer-clock');
    const position = $('#timer-position');
    const bar = $('#timer-progress');
    const barText = $('#timer-progress-text');
    const done = $('#timer-done');
    const announce = $('#timer-announce');
    const toggle = $('#timer-toggle');
    let durations = null; // seconds of each step, from the recipe's snapshot
    let askedFor = -1;    // the stepCount whose durations were asked for
    let sending = false;  // a Start or Pause on its way

    // The steps' durations, asked again when the number of steps changes (an edit elsewhere).
    const loadDurations = async (count) => {
      askedFor = count;
      try {
        const recipe = await api.getSnapshot(`recipes/${encodeURIComponent(id)}`);
        durations = (recipe.outputs.steps || []).map((step) => Number(lookupStep(step, 'durationSeconds')) || 0);
        if (binder.snapshot) paint(binder.snapshot, null);
      } catch { durations = null; }
    };

    const say = (text) => {
      // Emptied first, so the same words twice (Done after Reset and another run) are said again.
      announce.textContent = '';
      setTimeout(() => { announce.textContent = text; }, 50);
    };

    const paint = (s, previous) => {
      const o = s.outputs;
      const count = o.stepCount || 0;
      const index = o.currentStepIndex || 0;
      const finished = timerFinished(o);
      face.textContent = clock(o.remainingSeconds);
      position.textContent = count ? `Step ${index + 1} of ${count}` : 'This recipe has no steps.';
      if (count !== askedFor) loadDurations(count);

      // Overall progress: seconds run of all the steps' seconds (by steps until those are known).
      if (durations && durations.length === count && count) {
        const total = durations.reduce((a, b) => a + b, 0);
        const run = durations.slice(0, index).reduce((a, b) => a + b, 0) + Math.max(0, durations[index] - o.remainingSeconds);
        bar.max = Math.max(1, total);
        bar.value = Math.min(run, total);
        barText.textContent = `${duration(run)} of ${duration(total)}`;
      } else {
        bar.max = Math.max(1, count);
        bar.value = finished ? count : index;
        barText.textContent = '';
      }

      // One toggle: Pause while running, else Start (Resume mid-run); disabled when it can't.
      const commands = s.commands || {};
      const started = index > 0 || (durations && durations[index] != null && o.remainingSeconds < durations[index]);
      const command = o.running ? commands.pause : commands.start;
      toggle.textContent = o.running ? 'Pause' : (started && !finished ? 'Resume' : 'Start');
      toggle.dataset.action = o.running ? 'pause' : 'start';
      const enabled = Boolean(command && command.enabled) && !sending;
      // Focused and unavailable for a moment: aria-disabled keeps the keyboard user's place.
      if (!enabled && document.activeElement === toggle) {
        toggle.disabled = false;
        toggle.setAttribute('aria-disabled', 'true');
      } else {
        toggle.disabled = !enabled;
        toggle.removeAttribute('aria-disabled');
      }

      done.hidden = !(finished && count);
      if (!previous) return; // the first snapshot is what the page shows, not news
      const before = previous.outputs;
      if (finished && count && !timerFinished(before)) {
        say(`Done. All ${count} steps have run.`);
      } else if (before.currentStepIndex !== index && count) {
        say(`Step ${index + 1} of ${count}: ${o.currentStepName}, ${duration(o.remainingSeconds)}.`);
      }
    };
    binder.onSnapshot(paint);

    toggle.addEventListener('click', async () => {
      if (toggle.disabled || toggle.getAttribute('aria-disabled') === 'true' || !binder.snapshot) return;
      const action = toggle.dataset.action;
      sending = true;
      paint(binder.snapshot, null);
      try {
        await binder.execute(action, undefined, { wait: action === 'start' ? 0 : 10 });
      } finally {
        sending = false;
        if (binder.snapshot) paint(binder.snapshot, null);
      }
    });
  },
};

/** A member of a step of the recipe's snapshot (a child snapshot or a plain object). */
function lookupStep(step, name) {
  if (step.outputs && name in step.outputs) return step.outputs[name];
  if (step.inputs && name in step.inputs) return step.inputs[name];
  return step[name];
}
