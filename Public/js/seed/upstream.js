// The seed apps' upstream panel on their Lab page (/lab): latency and failure rate per fake-upstream endpoint (GET/PATCH /api/upstream).
// Not a view model, so it uses the API directly instead of the binder. A value out of range is
// said at its field (field-error.js), checked before sending and again when the server refuses
// one (its problem names the field, "endpoints.travel.failureRate"); other failures are toasts.
// Changing it needs an administrator (401: the sign-in page, then back here; 403: said here).

import * as api from '/js/api.js';
import { checkFields, showFieldError } from '/js/field-error.js';
import { instantiate } from '/js/templates.js';

/** GET /api/upstream -> {seed, endpoints: {name: {latencyMs, failureRate, ...}}} */
async function getUpstream() {
  return (await api.request('GET', '/api/upstream')).data;
}

/** PATCH /api/upstream with a merge patch -> the new configuration. */
async function patchUpstream(patch) {
  return (await api.request('PATCH', '/api/upstream', { body: patch, contentType: 'application/merge-patch+json' })).data;
}

const FIELDS = ['latencyMs', 'failureRate'];

/** A refusal for want of a user or a role: the sign-in page, or said in `status`; true if it was one. */
function needsAdmin(err, status, ctx) {
  if (api.signInRequired(err)) { ctx.askToSignIn(); return true; }
  if (api.notAllowed(err)) { status.textContent = 'Not saved: only an administrator may change the upstream.'; return true; }
  return false;
}

export function mountUpstreamPanel(section, ctx) {
  const form = section.querySelector('#upstream-form');
  const list = section.querySelector('#upstream-endpoints');
  const status = section.querySelector('#upstream-status');
  let config = null;

  const show = (next) => {
    config = next;
    section.querySelector('#upstream-seed').textContent = next.seed ?? '–';
    list.replaceChildren(...Object.entries(next.endpoints || {}).map(([name, settings]) => {
      const fieldset = instantiate('tpl-upstream-endpoint').firstElementChild;
      fieldset.dataset.endpoint = name;
      fieldset.querySelector('legend').textContent = name;
      for (const field of FIELDS) {
        const input = fieldset.querySelector(`[name="${field}"]`);
        input.id = `upstream-${name}-${field}`;
        input.value = settings[field] ?? '';
      }
      return fieldset;
    }));
  };

  // Only what changed goes into the merge patch.
  const collectPatch = () => {
    const endpoints = {};
    for (const fieldset of list.querySelectorAll('fieldset[data-endpoint]')) {
      const name = fieldset.dataset.endpoint;
      for (const field of FIELDS) {
        const input = fieldset.querySelector(`[name="${field}"]`);
        if (input.value === '') continue;
        const value = Number(input.value);
        if (!Number.isFinite(value) || value === config.endpoints[name][field]) continue;
        (endpoints[name] ||= {})[field] = field === 'latencyMs' ? Math.round(value) : value;
      }
    }
    return Object.keys(endpoints).length ? { endpoints } : null;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!config) return;
    if (!checkFields(form)) { status.textContent = 'Not saved: see the marked field.'; return; }
    const patch = collectPatch();
    if (!patch) { status.textContent = 'Nothing changed.'; return; }
    status.textContent = 'Saving…';
    try {
      show(await patchUpstream(patch));
      status.textContent = 'Saved.';
    } catch (err) {
      status.textContent = '';
      if (needsAdmin(err, status, ctx)) return;
      const field = err instanceof api.ProblemError && err.problem && /^endpoints\.([^.]+)\.([^.]+)$/.exec(err.problem.field || '');
      const input = field && section.querySelector(`#upstream-${CSS.escape(field[1])}-${CSS.escape(field[2])}`);
      if (input) {
        showFieldError(input, String(err.problem.detail || '').replace(/^'[^']*':\s*/, ''));
        input.focus();
        status.textContent = 'Not saved: see the marked field.';
        return;
      }
      ctx.notify({ title: 'Upstream not changed', message: api.describeError(err), details: api.problemDetails(err) });
    }
  });

  // Every endpoint failing, or none: the quickest way to see each screen's error and its recovery.
  const setAll = async (failureRate, said) => {
    if (!config) return;
    const endpoints = Object.fromEntries(Object.keys(config.endpoints || {}).map((name) => [name, { failureRate }]));
    status.textContent = 'Saving…';
    try {
      show(await patchUpstream({ endpoints }));
      status.textContent = said;
    } catch (err) {
      status.textContent = '';
      if (needsAdmin(err, status, ctx)) return;
      ctx.notify({ title: 'Upstream not changed', message: api.describeError(err), details: api.problemDetails(err) });
    }
  };
  section.querySelector('#upstream-break')?.addEventListener('click', () => setAll(1, 'Saved: every endpoint fails now.'));
  section.querySelector('#upstream-heal')?.addEventListener('click', () => setAll(0, 'Saved: no endpoint fails now.'));

  getUpstream().then(show).catch((err) => {
    status.textContent = `Unavailable: ${api.describeError(err)}`;
  });
}
