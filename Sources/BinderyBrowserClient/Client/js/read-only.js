// read-only.js — the inputs of a view the user may not change, shown read-only. Each bound input
// (data-input, list items included) belongs to a view model whose route has `writeAccess`
// (access.js); when it does not admit the user the control is `readonly` (text: still focusable,
// selectable and read out, announced as read-only) or `disabled` (a select, a checkbox: they have
// no read-only state), and one hint under the screen's heading says why: "Sign in to edit" (a
// link to the sign-in page that comes back here) for an anonymous visitor, else that the account
// may not change it. The server refuses such a write all the same (401, 403): this spares the
// user typing that would be refused.

import { refusal } from './access.js';
import { match } from './routes.js';
import { signInHref } from './session.js';

const MARK = 'accessReadOnly'; // data-access-read-only: set here, so only this undoes it
const HINT_ID = 'read-only-hint';

const keepsReadOnly = (el) => (el.tagName === 'INPUT' && !['checkbox', 'radio', 'range', 'color', 'file'].includes(el.type))
  || el.tagName === 'TEXTAREA';

function setLocked(el, locked) {
  const prop = keepsReadOnly(el) ? 'readOnly' : 'disabled';
  if (locked && !(MARK in el.dataset)) {
    el.dataset[MARK] = '';
    el[prop] = true;
    describe(el, true);
  } else if (!locked && MARK in el.dataset) {
    delete el.dataset[MARK];
    el[prop] = false;
    describe(el, false);
  }
}

/** The control is (or is no longer) described by the hint. */
function describe(el, on) {
  const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((id) => id && id !== HINT_ID);
  if (on) ids.push(HINT_ID);
  if (ids.length) el.setAttribute('aria-describedby', ids.join(' ')); else el.removeAttribute('aria-describedby');
}

function showHint(root, why) {
  let hint = root.querySelector(`#${HINT_ID}`);
  if (!why) { if (hint) hint.remove(); return; }
  if (!hint) {
    hint = document.createElement('p');
    hint.id = HINT_ID;
    hint.className = 'read-only-hint notice';
    const heading = root.querySelector('h1');
    if (heading) heading.after(hint); else root.prepend(hint);
  }
  if (hint.dataset.why === why) {
    const link = hint.querySelector('a');
    if (link) link.href = signInHref();
    return;
  }
  hint.dataset.why = why;
  if (why === 'sign-in') {
    const link = document.createElement('a');
    link.href = signInHref();
    link.textContent = 'Sign in to edit';
    hint.replaceChildren('You can read this but not change it. ', link, '.');
  } else {
    hint.replaceChildren('Your account may read this but not change it.');
  }
}

/**
 * Shows the inputs of `binder`'s screen read-only where `user` may not write their view model
 * (`routes`: the route table, which knows each view's writeAccess). Called after every snapshot
 * (new list items) and when the user changes.
 */
export function applyWriteAccess(binder, routes, user) {
  if (!binder || binder.stopped || !routes) return;
  let why = null;
  for (const binding of binder.scope.allInputs()) {
    const found = match(routes, `/${binding.scope.path.replace(/^\/+/, '')}`);
    const refused = found ? refusal(found.route.writeAccess, user) : null;
    setLocked(binding.el, Boolean(refused));
    if (refused && why !== 'sign-in') why = refused;
  }
  showHint(binder.root, why);
}
