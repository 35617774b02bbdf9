// writer.js — the coalescing writer of one view model's inputs (PATCH with a JSON merge patch).
// One request in flight; edits made meanwhile coalesce into the next request; failures caused by
// the network are retried with the shared back-off so nothing typed is lost; a refusal (4xx) drops
// the edits and re-reads the server's truth.

import * as api from '../api.js';
import { Backoff } from '../backoff.js';

export class InputWriter {
  constructor(binder, path) {
    this.binder = binder;
    this.path = path;
    this.pending = new Map(); // name -> {binding, value, seq}
    this.inflight = null;
    this.retryTimer = null;
    this.backoff = new Backoff();
  }

  get idle() { return !this.inflight && this.pending.size === 0; }

  queue(binding, value, seq) {
    this.pending.set(binding.name, { binding, value, seq });
    if (!this.retryTimer) this.send();
  }

  send() {
    if (this.inflight || this.pending.size === 0 || this.binder.stopped) return this.inflight;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const batch = this.pending;
    this.pending = new Map();
    const body = Object.fromEntries([...batch].map(([name, e]) => [name, e.value]));
    this.inflight = (async () => {
      try {
        const snapshot = await api.patchInputs(this.path, body);
        this.backoff.reset();
        for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
        this.binder.receive(snapshot, { origin: 'write', path: this.path });
      } catch (err) {
        if (err instanceof api.ProblemError && err.status < 500) {
          // Refused (422 wrong type, 412, ...): drop these edits and show the server's truth.
          for (const e of batch.values()) e.binding.ackSeq = Math.max(e.binding.ackSeq, e.seq);
          this.binder.notify({ title: 'Input refused', message: api.describeError(err) });
          this.binder.resync();
        } else {
          // Network trouble: put the edits back (unless newer ones replaced them) and retry.
          for (const [name, e] of batch) if (!this.pending.has(name)) this.pending.set(name, e);
          this.retryTimer = setTimeout(() => { this.retryTimer = null; this.send(); }, this.backoff.next());
        }
      } finally {
        this.inflight = null;
      }
      if (!this.retryTimer) this.send();
    })();
    return this.inflight;
  }

  /** Sends what is pending and waits (a few rounds at most) for it to be acknowledged. */
  async flush() {
    for (let round = 0; round < 3 && !this.idle; round += 1) {
      await (this.inflight || this.send());
    }
  }

  /** Last chance when the page goes away: fire-and-forget with keepalive. */
  flushOnExit() {
    clearTimeout(this.retryTimer);
    if (this.pending.size === 0) return;
    const body = Object.fromEntries([...this.pending].map(([name, e]) => [name, e.value]));
    this.pending.clear();
    api.patchInputs(this.path, body, { keepalive: true }).catch(() => {});
  }
}
