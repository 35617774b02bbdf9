// account-menu.js — the header's account (#account): for an anonymous visitor a "Sign in" link to
// the sign-in page, which comes back to the page in view; for a user "Signed in as <name>", a
// disclosure (details/summary: a button to assistive technology, Escape or a click elsewhere
// closes it) holding "Sign out" and "Sign out everywhere" (every session of the user, on every
// device). session.js does the signing out and tells every tab; app.js shows the user again here.

import * as api from './api.js';
import * as session from './session.js';
import { instantiate } from './templates.js';

export class AccountMenu {
  /**
   * root: the header's #account. beforeSignOut(): sends what the screen has not sent yet (it
   * would otherwise go under the next session); notify(toast): a failure to sign out.
   */
  constructor(root, { beforeSignOut = async () => {}, notify = () => {} } = {}) {
    this.root = root;
    this.beforeSignOut = beforeSignOut;
    this.notify = notify;
    this.user = undefined;
    document.addEventListener('keydown', (event) => {
      const menu = this.root.querySelector('details[open]');
      if (event.key !== 'Escape' || !menu) return;
      menu.open = false;
      menu.querySelector('summary').focus();
    });
    document.addEventListener('click', (event) => {
      const menu = this.root.querySelector('details[open]');
      if (menu && !menu.contains(event.target)) menu.open = false;
    });
  }

  /** Shows `user` (null: anonymous). Focus inside the old content goes to the new one's control. */
  show(user) {
    const focused = this.root.contains(document.activeElement);
    this.user = user;
    this.root.dataset.user = user ? user.id : '';
    if (!user) {
      this.root.replaceChildren(instantiate('tpl-account-anonymous'));
      this.link();
    } else {
      this.root.replaceChildren(instantiate('tpl-account-user'));
      for (const name of this.root.querySelectorAll('.account-name')) name.textContent = user.name;
      this.root.querySelector('.account-sign-out').addEventListener('click', (event) => this.signOut(event.currentTarget, false));
      this.root.querySelector('.account-sign-out-everywhere').addEventListener('click', (event) => this.signOut(event.currentTarget, true));
    }
    if (focused) this.root.querySelector('a, summary')?.focus();
  }

  /** The "Sign in" link comes back to the page in view (called on every navigation). */
  link() {
    const a = this.root.querySelector('.account-sign-in');
    if (!a) return;
    // On the sign-in page itself: where that page goes back to.
    const onSignIn = location.pathname === session.SIGN_IN_PATH;
    a.href = onSignIn ? location.pathname + location.search : session.signInHref();
    if (onSignIn) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }

  async signOut(button, everywhere) {
    if (button.disabled) return;
    const buttons = [...this.root.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      await this.beforeSignOut();
      await session.signOut({ everywhere }); // every tab shows the new (anonymous) session
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      button.removeAttribute('aria-busy');
      this.notify({ title: 'Not signed out', message: api.describeError(err), details: api.problemDetails(err) });
    }
  }
}
