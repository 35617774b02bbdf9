// budget.js — a screen's latency budgets (the catalogue's `latencyBudgets`: [{measure, limitMs,
// percentile}]) and how the page's writes fared against them, from the server's phases of each
// answer (../server-timing.js): write → commit is parse + apply + commit, write → push is that plus
// push. A write nobody watched has no push; a write that changed nothing has no commit.

import { durationOf, hasMetric } from '../server-timing.js';

const MEASURES = {
  write_to_commit: { words: 'write → commit', last: 'commit', before: ['parse', 'apply'] },
  write_to_push: { words: 'write → push', last: 'push', before: ['parse', 'apply', 'commit'] },
};

/** The budgets of `list` the inspector can judge: a known measure and a limit in ms. */
export function usableBudgets(list) {
  return (list || []).filter((b) => b && MEASURES[b.measure] && Number.isFinite(Number(b.limitMs)));
}

/** "write → push". */
export function measureWords(measure) {
  return MEASURES[measure] ? MEASURES[measure].words : String(measure).replace(/_/g, ' ');
}

/** "write → push ≤ 25 ms (p99)". */
export function budgetWords(budget) {
  const percentile = Number.isFinite(Number(budget.percentile)) ? ` (p${budget.percentile})` : '';
  return `${measureWords(budget.measure)} ≤ ${Number(budget.limitMs)} ms${percentile}`;
}

/**
 * The milliseconds of `measure` in `timing` (the server's phases), or null: its last phase (commit,
 * push) must be there with a duration; the phases before it count when the server names them.
 */
export function measured(timing, measure) {
  const spec = MEASURES[measure];
  const last = spec && durationOf(timing, spec.last);
  if (last == null) return null;
  return spec.before.reduce((sum, phase) => sum + (durationOf(timing, phase) || 0), last);
}

/**
 * How one write fared against `budgets`: {state, results}. state is 'none' (no budget), 'unknown'
 * (the answer had no Server-Timing), 'no-change' (no commit: nothing to judge), 'no-watcher' (a
 * write → push budget, nothing pushed, no write → commit budget), 'met' or 'over' (by results:
 * [{budget, ms, met}], one per budget that could be measured).
 */
export function judge(budgets, timing) {
  const usable = usableBudgets(budgets);
  if (!usable.length) return { state: 'none', results: [] };
  if (!timing || !timing.length) return { state: 'unknown', results: [] };
  if (!hasMetric(timing, 'commit')) return { state: 'no-change', results: [] };
  const results = usable.map((budget) => ({ budget, ms: measured(timing, budget.measure) }))
    .filter((r) => r.ms != null)
    .map((r) => ({ ...r, met: r.ms <= Number(r.budget.limitMs) }));
  if (!results.length) return { state: hasMetric(timing, 'push') ? 'unknown' : 'no-watcher', results };
  return { state: results.every((r) => r.met) ? 'met' : 'over', results };
}

/** The `percentile`th of `values` (nearest rank), or null for none. */
export function percentileOf(values, percentile) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, percentile)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)];
}

/**
 * The page's writes (each with its `timing`) against `budgets`: {judged, over, observed}, judged
 * counting the writes that could be measured, over those that broke a budget, observed per budget
 * the percentile it names over the writes seen here ([{budget, ms, count}]).
 */
export function tally(budgets, writes) {
  const usable = usableBudgets(budgets);
  const verdicts = writes.map((w) => judge(usable, w.timing));
  const observed = usable.map((budget) => {
    const values = verdicts.flatMap((v) => v.results.filter((r) => r.budget === budget).map((r) => r.ms));
    return { budget, ms: percentileOf(values, Number(budget.percentile) || 100), count: values.length };
  });
  return {
    judged: verdicts.filter((v) => v.state === 'met' || v.state === 'over').length,
    over: verdicts.filter((v) => v.state === 'over').length,
    observed,
  };
}
