// field-error.js — an error shown at the field it is about (not in a toast that may cover it):
// a line under the field, the field marked aria-invalid and described by that line. The
// browser's own constraint checks (required, min, max) are shown the same way before anything
// is sent; the error goes away as soon as the field is edited.

function errorLine(input) {
  const id = `${input.id}-error`;
  let line = document.getElementById(id);
  if (!line) {
    line = document.createElement('small');
    line.id = id;
    line.className = 'field-error';
    (input.closest('label') || input).after(line);
    input.addEventListener('input', () => clearFieldError(input), { once: true });
  }
  return line;
}

/** Shows `message` under `input` (which needs an id) and marks it invalid. */
export function showFieldError(input, message) {
  const line = errorLine(input);
  line.textContent = `✗ ${message}`;
  input.setAttribute('data-field-error', '');
  input.setAttribute('aria-invalid', 'true');
  const described = (input.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
  if (!described.includes(line.id)) input.setAttribute('aria-describedby', [...described, line.id].join(' '));
}

export function clearFieldError(input) {
  const line = document.getElementById(`${input.id}-error`);
  if (line) line.remove();
  input.removeAttribute('data-field-error');
  // Invalid still if its view model says so (renderers.js, the `valid` kind).
  if (input.dataset.modelInvalid) input.setAttribute('aria-invalid', input.dataset.modelInvalid);
  else input.removeAttribute('aria-invalid');
  const described = (input.getAttribute('aria-describedby') || '').split(/\s+/).filter((id) => id && id !== `${input.id}-error`);
  if (described.length) input.setAttribute('aria-describedby', described.join(' ')); else input.removeAttribute('aria-describedby');
}

/**
 * The browser's checks of every field of `form` (required, min, max, step...), each failure
 * shown at its field; focus goes to the first. Answers whether all passed.
 */
export function checkFields(form) {
  const invalid = [...form.elements].filter((el) => el.willValidate && !el.checkValidity());
  for (const el of form.elements) if (el.id && el.willValidate && el.checkValidity()) clearFieldError(el);
  for (const el of invalid) showFieldError(el, el.validationMessage);
  if (invalid.length) invalid[0].focus();
  return invalid.length === 0;
}
