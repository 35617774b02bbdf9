// timeline-panel.js — the inspector's timeline and the timing of the version shown: each version,
// newest first, filtered by the member search, with how long it took when this page wrote it
// (latency.js), and the phases of the version chosen against the screen's budget. Methods of the
// Inspector (inspector.js mixes them in): they read its history, selection, query and latency log.

import { renderLatency, timelineNote } from './latency-view.js';
import { renderTimeline } from './timeline.js';

export const timelinePanel = {
  /** The timeline: each version, newest first, with how long it took when this page wrote it. */
  renderTimelineList() {
    const history = this.history;
    const live = this.selected == null;
    const latest = history && history.latest();
    const q = this.query.trim().toLowerCase();
    const matches = (name) => !q || name.toLowerCase().includes(q);
    const path = this.binder && this.binder.path;
    const budgets = this.budgets();
    const timeline = this.part('timeline');
    this.part('live').hidden = live;
    this.part('timeline-status').textContent = !history ? 'This screen has no view model.'
      : live ? 'Following the live version. Choose a version to travel back to it.'
        : `Showing version ${this.selected}, not the live one${latest ? ` (version ${latest.version})` : ''}.`;
    if (history && history.list().length) {
      timeline.hidden = false;
      this.part('timeline-empty').hidden = true;
      renderTimeline(timeline, history, {
        selected: this.selected,
        matches: (names) => !q || names.some(matches),
        onSelect: (version, options) => this.select(version, options),
        note: (version) => timelineNote(this.latency.about(path, version), budgets),
      });
      if (!timeline.children.length) { timeline.hidden = true; this.part('timeline-empty').hidden = false; }
    } else {
      timeline.replaceChildren();
      timeline.hidden = true;
      this.part('timeline-empty').hidden = false;
    }
    this.part('timeline-empty').textContent = q && history && history.list().length
      ? `No version changed a member named like “${this.query.trim()}”.` : 'No versions yet.';
  },

  /** How long the version shown took: its phases, its time to the stream, the screen's budget. */
  renderVersionTiming() {
    const section = this.part('latency');
    const path = this.binder && this.binder.path;
    section.hidden = !path;
    if (!path) return;
    const latest = this.history && this.history.latest();
    const live = this.selected == null;
    const shown = live ? (this.binder.snapshot || (latest && latest.snapshot)) : { version: this.selected };
    const version = shown ? shown.version : null;
    renderLatency(section, {
      version,
      about: version == null ? null : this.latency.about(path, version),
      budgets: this.budgets(),
      writes: this.latency.writesOf(path),
    });
  },
};
