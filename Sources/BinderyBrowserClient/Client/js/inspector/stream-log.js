// stream-log.js — the last versions that arrived over the screen's event stream, newest first:
// the version, whether it came as a whole snapshot or as a JSON Patch, and its size in bytes.

const SHOWN = 12;

function clockTime(at) {
  const d = new Date(at);
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** "1.2 kB" / "214 B". */
export function formatBytes(bytes) {
  return bytes >= 1000 ? `${(bytes / 1000).toFixed(1)} kB` : `${bytes} B`;
}

/** Fills the list `list` from trace records of type "event", oldest first. */
export function renderStreamLog(list, events) {
  const shown = events.slice(-SHOWN).reverse();
  if (shown.length === 0) {
    const empty = document.createElement('li');
    empty.className = 'hint';
    empty.textContent = 'Nothing yet: versions appear here as the server pushes them.';
    list.replaceChildren(empty);
    return;
  }
  list.replaceChildren(...shown.map((e) => {
    const item = document.createElement('li');
    item.dataset.version = String(e.version);
    item.dataset.kind = e.kind;
    const version = document.createElement('strong');
    version.textContent = `v${e.version}`;
    const time = document.createElement('time');
    time.dateTime = new Date(e.at).toISOString();
    time.textContent = clockTime(e.at);
    item.append(version, ` ${e.kind} · ${formatBytes(e.bytes)} · `, time);
    return item;
  }));
}
