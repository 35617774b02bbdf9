// templates.js — clones the <template>s of index.html. A `data-include="tpl-id"` slot inside a
// template is filled with that template's content at clone time, recursively, so screens can
// share parts (the POI cell of the list and of the item page).

/** Clones a <template> (element or id) and expands data-include slots recursively. */
export function instantiate(template) {
  const tpl = typeof template === 'string' ? document.getElementById(template) : template;
  if (!tpl) throw new Error(`missing template ${template}`);
  const fragment = tpl.content.cloneNode(true);
  for (const slot of fragment.querySelectorAll('[data-include]')) {
    const id = slot.getAttribute('data-include');
    slot.removeAttribute('data-include');
    slot.append(instantiate(id));
  }
  return fragment;
}
