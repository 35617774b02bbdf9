// Index page "/": links to each screen of the catalogue. Not a view model. An app's own
// screens/home.js (and .html) replaces it.

export function mount(root, ctx) {
  root.querySelector('#screen-links').replaceChildren(...ctx.views.map((v) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = v.url;
    a.textContent = v.title;
    const code = document.createElement('code');
    code.textContent = v.url;
    li.append(a, ' ', code);
    return li;
  }));
}
