// commands-view.js — the commands of a snapshot as a table: name, concurrency policy (serial,
// concurrent, cancelPrevious, queue: what executing it again while it runs does) and state.

/** The state of one command in words: "running", "enabled", "disabled", and its last error. */
export function commandState(state) {
  if (!state) return 'unknown';
  if (state.executing) return 'running';
  return state.enabled ? 'enabled' : 'disabled';
}

function cell(tag, text, className) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

/** Fills the <tbody> `body` from snapshot.commands; says so when there are none. */
export function renderCommands(body, commands) {
  const entries = Object.entries(commands || {});
  if (entries.length === 0) {
    const row = document.createElement('tr');
    const none = cell('td', 'This view model has no commands.', 'hint');
    none.colSpan = 3;
    row.append(none);
    body.replaceChildren(row);
    return;
  }
  body.replaceChildren(...entries.map(([name, state]) => {
    const row = document.createElement('tr');
    row.dataset.command = name;
    const status = cell('td', commandState(state), `state state-${commandState(state)}`);
    if (state && state.error) {
      const message = typeof state.error === 'string' ? state.error : state.error.message || JSON.stringify(state.error);
      status.append(cell('span', `error: ${message}`, 'state-error'));
    }
    row.append(cell('th', name), cell('td', (state && state.policy) || '–'), status);
    row.firstChild.scope = 'row';
    return row;
  }));
}
