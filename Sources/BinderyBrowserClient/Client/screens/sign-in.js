// The sign-in page "/sign-in" (Bindery's client; an app may replace screens/sign-in.html, keeping
// its classes). The username and password go to POST /api/session/sign-in (js/session.js: every
// tab follows), and the page goes on to ?next= (a same-origin path, else "/") once signed in — by
// this tab or another. What the server refuses is said above the form (role=alert): the wrong
// username or password (422: the server's detail), too many attempts (429: how long to wait, the
// button unavailable meanwhile), the service that checks them failed or no answer (502, the
// network: Try again). The password stays in its field only: no storage, no inspector.

import * as api from '/js/api.js';
import { checkFields } from '/js/field-error.js';
import * as session from '/js/session.js';

/** "2 minutes", "30 seconds". */
function span(seconds) {
  const s = Math.max(1, Math.round(seconds));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

export function mount(root, ctx) {
  const query = new URLSearchParams(location.search);
  const next = session.safeNext(query.get('next') || '/');
  const $ = (selector) => root.querySelector(selector);
  const form = $('.sign-in-form');
  const username = $('.sign-in-username');
  const password = $('.sign-in-password');
  const submit = $('.sign-in-submit');
  const problem = $('.sign-in-problem');
  const retry = $('.sign-in-retry');
  const goOn = () => { if (location.pathname === session.SIGN_IN_PATH) ctx.navigate(next, { replace: true }); };

  if (ctx.user) {
    // Signed in meanwhile (this tab or another) on the way somewhere: go there. Else say so.
    if (query.has('next')) { queueMicrotask(goOn); return undefined; }
    form.hidden = true;
    $('.sign-in-done').hidden = false;
    $('.sign-in-user').textContent = ctx.user.name;
    $('.sign-in-continue').href = next;
    return undefined;
  }
  $('.sign-in-why').hidden = next === '/';

  let wakeTimer = null;
  const say = (message, { canRetry = false } = {}) => {
    $('.sign-in-message').textContent = message;
    retry.hidden = !canRetry;
    problem.hidden = false;
  };
  const busy = (on) => {
    submit.disabled = on;
    if (on) submit.setAttribute('aria-busy', 'true'); else submit.removeAttribute('aria-busy');
  };

  /** The refusal in words, at the form. */
  const refused = (err) => {
    if (err instanceof api.ProblemError && err.status === 422) {
      say((err.problem && err.problem.detail) || 'The username or password is wrong.');
      password.value = '';
      password.focus();
    } else if (err instanceof api.ProblemError && err.status === 429) {
      const seconds = err.retryAfter ?? 60;
      say(`Too many sign-in attempts. Wait ${span(seconds)}, then try again.`);
      submit.disabled = true; // until the server takes attempts again
      clearTimeout(wakeTimer);
      wakeTimer = setTimeout(() => { submit.disabled = false; }, seconds * 1000);
    } else if (err instanceof api.ProblemError && err.status === 502) {
      say('The service that checks sign-ins did not answer. Try again.', { canRetry: true });
    } else if (err instanceof api.ProblemError && err.status === 409) {
      say('Someone is signed in here already: sign out first.');
      session.recheck();
    } else {
      say(api.describeError(err), { canRetry: api.noAnswer(err) });
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    if (!checkFields(form)) return; // said at the field: both are needed
    problem.hidden = true;
    busy(true);
    try {
      await session.signIn(username.value.trim(), password.value);
      goOn(); // unless this page went on already (the user change showed it again)
    } catch (err) {
      busy(false);
      refused(err);
    }
  });
  retry.addEventListener('click', () => form.requestSubmit());
  return () => clearTimeout(wakeTimer);
}
