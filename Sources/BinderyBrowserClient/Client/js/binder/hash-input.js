// hash-input.js — an input kept in the page's hash (data-input-hash): the page at `#/active` has
// the input "active", so a link to `#/active`, Back and Forward, a reload or a shared address set
// it. The attribute's value is what `#/` (or no hash) stands for (`data-input-hash="all"`).
//
// The hash wins when the page opens and whenever it changes (a write of the input, as if typed);
// a snapshot that changes the input otherwise (another tab of the session) puts the new value in
// the hash in place (history.replaceState: no new history entry). The control is any element the
// binder binds with data-input, usually `<input type="hidden">`.

import { InputBinding } from './input.js';

export class HashInput extends InputBinding {
  constructor(binder, el, scope) {
    super(binder, el, scope);
    this.empty = el.dataset.inputHash || '';
    this.followed = false; // the hash was read once the first snapshot came
    this.onHash = () => this.follow();
    window.addEventListener('hashchange', this.onHash);
  }

  /** The input's value the page's hash names. */
  fromHash() {
    const value = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
    return value === '' ? this.empty : value;
  }

  /** The hash changed (or the page opened): the input follows it. */
  follow() {
    const value = this.fromHash();
    if (this.el.value === value) return;
    this.el.value = value;
    this.edited();
  }

  render(source) {
    super.render(source);
    if (this.base === undefined || this.dirty) return;
    if (!this.followed) { this.followed = true; this.follow(); return; }
    const value = this.el.value;
    if (value === this.fromHash()) return;
    history.replaceState(history.state, '', `#/${value === this.empty ? '' : encodeURIComponent(value)}`);
  }

  dispose() {
    super.dispose();
    window.removeEventListener('hashchange', this.onHash);
  }
}
