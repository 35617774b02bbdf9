// backoff.js — the client's one retry schedule: 1 s, 2 s, 4 s, 8 s, then every 15 s. Everything
// that retries (input writes and commands, sent again with their Idempotency-Key; the event
// stream; loading the screen catalogue) counts its attempts with a Backoff, jittered, so they all
// slow down alike when the server is away and many tabs don't come back in step.

const STEPS_MS = [1000, 2000, 4000, 8000, 15000];

export class Backoff {
  /** jitter: spread each delay over [step/2, step) so that many tabs don't retry in step. */
  constructor({ jitter = false } = {}) {
    this.jitter = jitter;
    this.attempt = 0;
  }

  /** The delay before the next attempt, in ms; counts the attempt. */
  next() {
    const step = STEPS_MS[Math.min(this.attempt, STEPS_MS.length - 1)];
    this.attempt += 1;
    return this.jitter ? step / 2 + Math.random() * step / 2 : step;
  }

  /** Back to the shortest delay (after a success). */
  reset() { this.attempt = 0; }
}

/**
 * Runs task() until it resolves, waiting the back-off between failures. A failure for which
 * retryable(err) is false is thrown at once; onRetry(err, delay) is told about each retry.
 */
export async function retry(task, { backoff = new Backoff({ jitter: true }), retryable = () => true, onRetry = () => {} } = {}) {
  for (;;) {
    try {
      return await task();
    } catch (err) {
      if (!retryable(err)) throw err;
      const delay = backoff.next();
      onRetry(err, delay);
      await new Promise((resolve) => { setTimeout(resolve, delay); });
    }
  }
}
