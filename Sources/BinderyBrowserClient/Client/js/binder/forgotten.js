// forgotten.js — the question asked when the server no longer knows this page's session (it
// expired, or its store was reset) while the user had typed here: the server now shows a fresh
// view model, and what the user typed is only in the page. Said plainly, with the choice to start
// again keeping what they typed (the default) or from scratch. Template: tpl-session-lost.

import { instantiate } from '../templates.js';

/** Shows the question at the top of the screen `root`; returns a function that removes it. */
export function askToStartAgain(root, { keep, fresh }) {
  const panel = instantiate('tpl-session-lost').firstElementChild;
  const close = () => panel.remove();
  panel.querySelector('.session-keep').addEventListener('click', () => { close(); keep(); });
  panel.querySelector('.session-fresh').addEventListener('click', () => { close(); fresh(); });
  const heading = root.querySelector('h1');
  if (heading) heading.after(panel); else root.prepend(panel);
  return close;
}
