// latency-view.js — how long a version took, in the inspector: the screen's latency budget, the
// server's phases of the write that made the version (a stacked bar, decorative, and the same in
// words: "parse 0.04 · apply 0.21 · commit 1.30 · push 0.02 ms"), when it came over this page's
// stream, whether it met the budget and how many of the page's writes did not. Every verdict is
// said in words with an icon (✓ ✗ ○), never by colour alone. Made in JS: index.html is shared.

import { budgetWords, judge, measured, measureWords, tally, usableBudgets } from './budget.js';
import { clockTime } from './timeline.js';

const ICONS = { met: '✓', over: '✗', 'no-watcher': '○', 'no-change': '○' };

/** "0.04" / "3.1" / "250": a few significant digits of milliseconds. */
export function formatMs(ms) {
  if (ms == null || !Number.isFinite(ms)) return '?';
  if (Math.abs(ms) < 10) return ms.toFixed(2);
  if (Math.abs(ms) < 100) return ms.toFixed(1);
  return String(Math.round(ms));
}

/** An element `tag` with `className` and `text`, and `data` as its data attributes. */
function el(tag, className, text = '', data = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  for (const [k, v] of Object.entries(data)) node.dataset[k] = String(v);
  return node;
}

/** The empty section the details go in (put after the timeline by inspector.js). */
export function latencySection() {
  const section = el('section', 'inspector-latency', '', { part: 'latency' });
  section.setAttribute('aria-labelledby', 'inspector-latency-title');
  const title = el('h3', '', 'Timing');
  title.id = 'inspector-latency-title';
  const parts = ['latency-budget', 'latency-version', 'latency-bar', 'latency-phases', 'latency-stream', 'latency-verdict', 'latency-count'];
  section.append(title, ...parts.map((part) => el(part === 'latency-bar' ? 'div' : 'p', part, '', { part })));
  section.querySelector('[data-part="latency-bar"]').setAttribute('aria-hidden', 'true');
  return section;
}

/** The server's phases as a bar (each segment as wide as its share) and as words. */
function renderPhases(bar, words, timing) {
  const phases = timing.filter((m) => m.name !== 'total' && typeof m.dur === 'number' && m.dur >= 0);
  const sum = phases.reduce((s, m) => s + m.dur, 0);
  bar.replaceChildren(...(sum > 0 ? phases.map((m) => {
    const segment = el('span', `phase phase-${m.name}`);
    segment.style.width = `${(100 * m.dur) / sum}%`;
    return segment;
  }) : []));
  bar.hidden = !(sum > 0);
  words.replaceChildren('Server: ');
  timing.forEach((m, i) => {
    if (i > 0) words.append(' · ');
    const phase = el('span', 'phase-words', '', { phase: m.name, ms: m.dur ?? '' });
    phase.append(el('i', `swatch phase-${m.name}`), `${m.name} ${formatMs(m.dur)}${m.desc ? ` (${m.desc})` : ''}`);
    phase.firstChild.setAttribute('aria-hidden', 'true');
    words.append(phase);
  });
  words.append(' ms');
  words.hidden = false;
}

/** One write's verdict in words, with its icon: "✓ Within budget: write → push 1.57 ms ≤ 25 ms." */
export function verdictWords({ state, results }, timing) {
  const sums = results.map((r) => `${measureWords(r.budget.measure)} ${formatMs(r.ms)} ms ${r.met ? '≤' : '>'} ${Number(r.budget.limitMs)} ms`).join('; ');
  if (state === 'met') return `Within budget: ${sums}.`;
  if (state === 'over') return `Over budget: ${sums}.`;
  if (state === 'no-watcher') {
    const commit = measured(timing, 'write_to_commit');
    return `No watcher: nothing was pushed, so write → push was not measured${commit == null ? '' : ` (write → commit ${formatMs(commit)} ms)`}.`;
  }
  if (state === 'no-change') return 'Nothing changed (no commit): no budget applies.';
  return '';
}

/**
 * The short note of a version in the timeline ("write → push 1.57 ms ✓ within budget"), or null:
 * only for a version this page wrote. {text, state}.
 */
export function timelineNote(about, budgets) {
  const { write, streamAfter } = about;
  if (!write) return null;
  const verdict = judge(budgets, write.timing);
  const push = measured(write.timing, 'write_to_push');
  const commit = measured(write.timing, 'write_to_commit');
  const time = push != null ? `write → push ${formatMs(push)} ms` : commit != null ? `write → commit ${formatMs(commit)} ms`
    : streamAfter != null ? `seen after ${formatMs(streamAfter)} ms` : 'written here';
  const said = { met: ' ✓ within budget', over: ' ✗ over budget', 'no-watcher': ' ○ no watcher' }[verdict.state] || '';
  return { text: `${time}${said}`, state: verdict.state };
}

/**
 * Fills `section` (latencySection()) for `version` of the view model in view: `about` is the
 * LatencyLog's account of it, `budgets` the screen's, `writes` all the page's writes on it.
 */
export function renderLatency(section, { version, about, budgets, writes }) {
  const part = (name) => section.querySelector(`[data-part="${name}"]`);
  const usable = usableBudgets(budgets);
  const { write, arrival, streamAfter, seenIn } = about || {};
  part('latency-budget').textContent = usable.length ? `Budget: ${usable.map(budgetWords).join('; ')}` : '';
  part('latency-budget').hidden = !usable.length;

  const timing = (write && write.timing) || [];
  const how = !write ? '' : write.command ? `the command ${write.command}` : `a ${write.method}`;
  part('latency-version').textContent = version == null ? 'No version yet.'
    : write ? `Version ${version}: written by this page (${how}${write.replayed ? ', answered again from its first answer' : ''}).`
      : arrival ? `Version ${version} came from elsewhere (another tab or client, or the server's own work): it arrived on this page's stream at ${clockTime(arrival.wall)}.`
        : `Version ${version}: no timing known (this page did not write it, and it did not come over this page's stream).`;

  if (timing.length) renderPhases(part('latency-bar'), part('latency-phases'), timing);
  else { part('latency-bar').hidden = true; part('latency-phases').hidden = true; part('latency-phases').replaceChildren(); }

  const here = [];
  if (write && write.answeredAfter != null) here.push(`answered after ${formatMs(write.answeredAfter)} ms`);
  if (write) here.push(streamAfter == null ? 'not seen on the stream yet'
    : `seen on the stream after ${formatMs(streamAfter)} ms${seenIn !== version ? ` (within version ${seenIn})` : ''}`);
  part('latency-stream').textContent = here.length ? `Here: ${here.join(', ')} (from when the request left).` : '';
  part('latency-stream').hidden = !here.length;
  part('latency-stream').dataset.ms = write && streamAfter != null ? String(streamAfter) : '';

  const verdict = write ? judge(usable, timing) : { state: 'none', results: [] };
  const words = verdictWords(verdict, timing);
  part('latency-verdict').replaceChildren(...(words ? [iconOf(verdict.state), words] : []));
  part('latency-verdict').dataset.state = verdict.state;
  part('latency-verdict').hidden = !words;

  const count = tally(usable, writes || []);
  const observed = count.observed.filter((o) => o.ms != null)
    .map((o) => `p${o.budget.percentile ?? 100} here: ${formatMs(o.ms)} ms (${measureWords(o.budget.measure)}, ${o.count} measured)`);
  part('latency-count').replaceChildren(...(!usable.length ? [] : count.judged === 0
    ? ['No write of this page has been measured against the budget yet.']
    : [iconOf(count.over ? 'over' : 'met'), `${count.over} of ${count.judged} write${count.judged === 1 ? '' : 's'} seen here over budget${observed.length ? ` · ${observed.join(' · ')}` : ''}.`]));
  part('latency-count').dataset.over = String(count.over);
  part('latency-count').dataset.judged = String(count.judged);
  part('latency-count').hidden = !usable.length;
}

/** The icon of a verdict, hidden from screen readers (the words beside it say the same). */
function iconOf(state) {
  const icon = el('span', `verdict-icon verdict-${state}`, `${ICONS[state] || '–'} `);
  icon.setAttribute('aria-hidden', 'true');
  return icon;
}
