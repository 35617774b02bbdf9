// screen-links.js — the list of the app's screens on a home page: a link to each view of the
// catalogue with its URL. The client's home uses it, and so can an app's own home.

/** Fills `list` (a <ul>) with a link to each of `views` (the catalogue's). */
export function showScreenLinks(list, views) {
  list.replaceChildren(...views.map((v) => {
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
