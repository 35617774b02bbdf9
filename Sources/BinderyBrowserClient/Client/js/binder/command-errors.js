// command-errors.js — a command's failure said once. Instead of an alert that blocks the page,
// here a screen that shows errors in a banner (data-output-as="error") gets its banner back
// (it may have been put away with OK), any other screen a non-blocking toast. It happens when an
// error appears or changes in a snapshot, or when an execution ends with an error again.
//
// Methods of Binder (mixed into its prototype by binder.js).

import * as api from '../api.js';
import { same } from './members.js';

export const commandErrors = {
  /** Reports each command whose error appeared or changed, or which failed again, from `previous` to `snapshot`. */
  reportCommandErrors(previous, snapshot) {
    if (!previous) return; // an old error on first display is shown by the screen's banner
    for (const [name, state] of Object.entries(snapshot.commands || {})) {
      if (!state || !state.error) continue;
      const before = previous.commands && previous.commands[name];
      const changed = !before || !same(before.error, state.error);
      const finishedAgain = before && before.executing && !state.executing;
      if (changed || finishedAgain) this.reportError(state.error, name);
    }
  },

  /** Shows one failure once: in the screen's error banner if it has one set, else as a toast. */
  reportError(err, command) {
    this.errorToasts += 1;
    const banners = this.root.querySelectorAll('[data-output-as="error"][data-has-error]');
    if (banners.length) {
      for (const banner of banners) { banner.hidden = false; delete banner.dataset.dismissed; }
      return;
    }
    this.notify({ title: 'Error', message: api.describeError(err), details: api.problemDetails(err), command });
  },
};
