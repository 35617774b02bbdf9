// toast.js — non-blocking, dismissible error notices (an alert, minus the
// modality). Each toast is role="alert" inside an aria-live region; "OK" or Escape dismisses it.
// The message is in plain words; `details` (the problem as the server said it) sits behind a
// "Details" disclosure. Toasts belong to the page they were raised on: app.js dismisses them all
// when the user navigates.

import { instantiate } from './templates.js';

const MAX_TOASTS = 3;

/**
 * Shows a notice. An `action` {label, run} adds a button before OK (e.g. Undo: run() is called and
 * the toast goes); `timeout` (ms) puts it away by itself; `role` "status" for good news.
 */
export function showToast({ title = 'Error', message = '', details = '', action = null, timeout = 0, role = null } = {}) {
  const region = document.getElementById('toasts');
  if (!region) return null;
  // The same message twice in a row is one toast, not a pile.
  for (const existing of region.querySelectorAll('.toast')) {
    if (existing.dataset.message === message && existing.dataset.title === title) {
      existing.classList.remove('toast-bump');
      void existing.offsetWidth; // restart the CSS animation
      existing.classList.add('toast-bump');
      return existing;
    }
  }
  const toast = instantiate('tpl-toast').firstElementChild;
  toast.dataset.title = title;
  toast.dataset.message = message;
  toast.querySelector('.toast-title').textContent = title;
  toast.querySelector('.toast-message').textContent = message;
  if (details && details !== message) {
    const disclosure = toast.querySelector('.toast-details');
    disclosure.querySelector('pre').textContent = details;
    disclosure.hidden = false;
  }
  toast.querySelector('.toast-dismiss').addEventListener('click', () => dismiss(toast));
  if (role) toast.setAttribute('role', role);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'toast-action';
    button.textContent = action.label;
    button.addEventListener('click', () => { dismiss(toast); action.run(); });
    toast.querySelector('.toast-dismiss').before(button);
  }
  if (timeout > 0) {
    // Not while the user is on it (focus or pointer inside): then once they leave it.
    const later = () => setTimeout(() => {
      if (!toast.isConnected) return;
      if (toast.contains(document.activeElement) || toast.matches(':hover')) later(); else dismiss(toast);
    }, timeout);
    later();
  }
  region.append(toast);
  while (region.children.length > MAX_TOASTS) region.firstElementChild.remove();
  return toast;
}

export function dismiss(toast) {
  const hadFocus = toast.contains(document.activeElement);
  toast.remove();
  if (hadFocus) document.getElementById('main')?.focus({ preventScroll: true });
}

export function dismissAll() {
  for (const toast of document.querySelectorAll('#toasts .toast')) dismiss(toast);
}

document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  const last = document.querySelector('#toasts .toast:last-child');
  if (last) { event.preventDefault(); dismiss(last); } // the toast first, then (inspector) the rest
});
