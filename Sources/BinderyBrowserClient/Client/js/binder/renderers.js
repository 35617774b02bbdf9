// renderers.js — the data-output kinds: how one output value is shown on one element.
//
//   text (default; src for <img>) | hidden | shown | color (data-color, see paint) | src | runs (rich text) | busy
//   (aria-busy) | valid (aria-invalid) | error ({message, code}, hidden when null) | options
//   (<select> from [{id, name}]) | @attribute (sets that attribute, removes it on null/false; an
//   aria-* attribute says "true" or "false" for a boolean, as ARIA wants) | .property (sets that
//   DOM property: .checked, .value, .hidden, .disabled and a few more, PROPERTIES below) |
//   class.name (the class `name` on while the value is truthy, off otherwise; other classes stay).
//
// An attribute is what the page was loaded with; a property is what the element does now: a
// checkbox the user clicked no longer follows its `checked` attribute, but always its property.

import { UPSTREAM_PLAIN, errorFacts, isUpstreamError } from '../api.js';

/**
 * A colour named by the view model ("red", "black", "blue"): data-color keeps the
 * name (CSS shows the palette's readable shade of it), --bound-color the value for any other.
 */
function paint(el, color) {
  if (color) {
    el.dataset.color = String(color);
    el.style.setProperty('--bound-color', String(color));
  } else {
    delete el.dataset.color;
    el.style.removeProperty('--bound-color');
  }
}

// Output renderers: (element, value) -> void
const RENDERERS = {
  text(el, v) { el.textContent = v == null ? '' : String(v); },
  hidden(el, v) { el.hidden = Boolean(v); },
  shown(el, v) { el.hidden = !v; },
  color: paint,
  busy(el, v) { el.setAttribute('aria-busy', String(Boolean(v))); },
  // The view model's verdict, kept in data-model-invalid; an error said at the field
  // (field-error.js) also makes the control invalid while it shows.
  valid(el, v) {
    el.dataset.modelInvalid = String(!v);
    el.setAttribute('aria-invalid', String(!v || el.hasAttribute('data-field-error')));
  },
  src(el, v) {
    if (v) {
      if (el.getAttribute('src') !== v) el.setAttribute('src', v);
      el.hidden = false;
    } else {
      el.removeAttribute('src');
      el.hidden = true;
    }
  },
  // Rich text (an attributed string): {text, runs: [{text, color, fontSize}]}.
  runs(el, v) {
    el.replaceChildren();
    if (v == null) { el.hidden = true; return; }
    el.hidden = false;
    if (typeof v === 'string') { el.textContent = v; return; }
    const runs = Array.isArray(v.runs) && v.runs.length ? v.runs : [{ text: v.text ?? '' }];
    for (const run of runs) {
      const span = document.createElement('span');
      span.textContent = run.text ?? '';
      if (run.color) paint(span, run.color);
      if (run.fontSize) span.style.fontSize = `${run.fontSize}px`;
      if (run.bold) span.style.fontWeight = 'bold';
      el.append(span);
    }
  },
  // An error object {message, code, origin, ...}: a plain sentence — the element's
  // data-error-message ("The places could not be loaded."), else a general one for an upstream
  // failure, else the error's message — with the code and the upstream's own words in a "Details"
  // disclosure, and OK to put it away (binder/command-errors.js shows it again when the command fails again).
  // The element hides while there is none; data-has-error says one is set, shown or not, and
  // data-dismissed that the user put it away (the screen's empty state shows instead).
  error(el, v) {
    if (v == null) { el.hidden = true; el.replaceChildren(); delete el.dataset.hasError; delete el.dataset.dismissed; return; }
    const message = document.createElement('p');
    message.className = 'banner-message';
    message.textContent = el.dataset.errorMessage
      || (isUpstreamError(v) ? UPSTREAM_PLAIN : (typeof v === 'string' ? v : v.message) || 'Something went wrong.');
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'Details';
    const facts = document.createElement('pre');
    facts.textContent = typeof v === 'string' ? v : errorFacts(v);
    details.append(summary, facts);
    const ok = document.createElement('button');
    ok.type = 'button';
    ok.className = 'banner-ok secondary';
    ok.textContent = 'OK';
    ok.addEventListener('click', () => {
      el.hidden = true;
      el.dataset.dismissed = '';
      el.closest('main')?.querySelector('h1')?.focus();
    });
    el.replaceChildren(message, details, ok);
    el.dataset.hasError = '';
    delete el.dataset.dismissed;
    el.hidden = false;
  },
  // <select> options from [{id, name}] (data-option-value / data-option-label rename the keys).
  options(el, v) {
    const valueKey = el.dataset.optionValue || 'id';
    const labelKey = el.dataset.optionLabel || 'name';
    const keep = el.value;
    el.replaceChildren(...(v || []).map((o) => new Option(String(o[labelKey]), String(o[valueKey]))));
    el.value = keep;
  },
};

// The DOM properties an output may set (`.name`): booleans, and the value of a field. No other
// (an output must never set innerHTML).
const PROPERTIES = {
  checked: Boolean,
  indeterminate: Boolean,
  selected: Boolean,
  open: Boolean,
  hidden: Boolean,
  disabled: Boolean,
  readOnly: Boolean,
  required: Boolean,
  value: (v) => (v == null ? '' : String(v)),
};

/** Shows value on el as the given kind. */
export function renderOutput(el, kind, value) {
  if (kind.startsWith('class.')) { el.classList.toggle(kind.slice(6), Boolean(value)); return; }
  if (kind.startsWith('@')) {
    const attr = kind.slice(1);
    if (value == null || (value === false && !attr.startsWith('aria-'))) el.removeAttribute(attr);
    else if (typeof value === 'boolean') el.setAttribute(attr, attr.startsWith('aria-') ? String(value) : '');
    else el.setAttribute(attr, String(value));
    return;
  }
  if (kind.startsWith('.')) {
    const name = kind.slice(1);
    const coerce = PROPERTIES[name];
    if (!coerce) { console.warn(`binder: the output property "${name}" is not one an output may set`, el); return; }
    const next = coerce(value);
    if (el[name] !== next) el[name] = next;
    return;
  }
  const render = RENDERERS[kind];
  if (!render) { console.warn(`binder: unknown output kind "${kind}"`, el); return; }
  render(el, value);
}
