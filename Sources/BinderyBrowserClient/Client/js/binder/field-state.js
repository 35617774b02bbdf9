// field-state.js — the save state at one field, next to the header's (save-state.js): the control
// carries data-save-state ("saving" | "saved" | "offline" | "unsaved"), and a line under it says
// why when its text is not on the server: "Not sent yet: …" while the server is away, or the
// reason it cannot be saved now (the record was deleted). Quick saves say nothing aloud.

const lines = new WeakMap(); // control -> its line

/** Sets `el`'s save state; `message`: the line shown under it (none: no line). */
export function showFieldState(el, state, message = '') {
  if (state && state !== 'idle') el.dataset.saveState = state; else delete el.dataset.saveState;
  let line = lines.get(el);
  if (!message) {
    if (line) {
      line.remove();
      lines.delete(el);
      const rest = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((t) => t && t !== line.id);
      if (rest.length) el.setAttribute('aria-describedby', rest.join(' ')); else el.removeAttribute('aria-describedby');
    }
    return;
  }
  if (!line) {
    line = document.createElement('small');
    line.id = `field-state-${Math.random().toString(36).slice(2, 10)}`;
    line.className = 'field-save-state';
    line.setAttribute('role', 'status');
    (el.closest('label') || el).after(line);
    lines.set(el, line);
    const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    el.setAttribute('aria-describedby', [...described, line.id].join(' '));
  }
  if (line.textContent !== message) line.textContent = message;
}
