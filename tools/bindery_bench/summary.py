"""The targets of issues 32 and 13 against what one `scripts/bench` run measured.

    scripts/bench-summary SUMMARY.tsv [WIDE_CONNECTIONS]      (python -m bindery_bench summary)

SUMMARY.tsv holds "key<TAB>value" lines written by scripts/bench and its probes; a key written once
per run (BENCH_RUNS) has one value per run, in order. A ratio is computed within each run and the
median of those is reported, with their range; any other figure is the median of its values. A
target whose figures are missing is shown as not measured, with the reason (Hummingbird skipped
with BENCH_HUMMINGBIRD=0, the C references with BENCH_BASELINE=0, a probe skipped). Prints a table
per issue, issue 32's first; never fails on a target (exit 0).
"""
from __future__ import annotations

import statistics
import sys

HEARTBEAT_SECONDS = 15   # bindery's default --heartbeat, when the streams probe did not note its own
NOISY_CORES = 0.3        # other processes (or the hypervisor) took this much of the 2 cores: suspect


def load(path):
    """Every value of every key, in the order written."""
    values = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("\t")
            values.setdefault(key, []).append(value)
    return values


def main(args: list[str], smoke: bool = False) -> int:
    if not args:
        sys.exit("usage: scripts/bench-summary SUMMARY.tsv [WIDE_CONNECTIONS]")
    v = load(args[0])
    wide = args[1] if len(args) > 1 else "256"

    def per_run(key):
        """The key's values in the order written (one per run for the wrk cases), None where a
        value is not a number (a case that measured nothing), so runs stay aligned."""
        result = []
        for value in v.get(key, []):
            try:
                result.append(float(value))
            except ValueError:
                result.append(None)
        return result

    def nums(key):
        """The key's values that are numbers."""
        return [x for x in per_run(key) if x is not None]

    def run_ratios(a_key, b_key):
        """a over b within each run where both measured something."""
        return [x / y for x, y in zip(per_run(a_key), per_run(b_key)) if x is not None and y]

    def num(key):
        found = nums(key)
        return statistics.median(found) if found else None

    sections = []   # (title, rows)

    def section(title):
        sections.append((title, []))

    def row(target, measured, met):
        sections[-1][1].append((target, measured, {True: "met", False: "not met", None: "-"}[met]))

    def noise(*cases):
        """A warning when something else on the machine took CPU during one of the cases, in any run."""
        busy = []
        for case in cases:
            other, steal = per_run(f"other:{case}"), per_run(f"steal:{case}")
            loud = [(o or 0) + (s or 0) for o, s in zip(other, steal) if (o or 0) + (s or 0) >= NOISY_CORES]
            if loud:
                busy.append(f"{case} beside up to {max(loud):.1f} busy cores"
                            + (f" in {len(loud)} of {len(other)} runs" if len(other) > 1 else ""))
        return "; NOISY: " + ", ".join(busy) if busy else ""

    def ratio(a_key, b_key, need, target, b_name, b_runs=None, b_cases=None, unit="req/s", at_most=False):
        """a over b within each run, median over runs, against `need` (a floor, or a ceiling with
        at_most). b_runs: b's per-run values when b is not one key (the faster C reference)."""
        b_values = b_runs if b_runs is not None else per_run(b_key)
        a, b = nums(a_key), [x for x in b_values if x is not None]
        if not a or not b:
            row(target, f"not measured ({b_name} missing)" if a else "not measured", None)
            return
        ratios = [x / y for x, y in zip(per_run(a_key), b_values) if x is not None and y]
        if not ratios:
            row(target, f"not measured ({b_name} answered nothing)", None)
            return
        median = statistics.median(ratios)
        runs = f"median of {len(ratios)} runs, {min(ratios):.2f}-{max(ratios):.2f}x; " if len(ratios) > 1 else ""
        cases = (a_key.split(":", 1)[1],) + tuple(b_cases or (b_key.split(":", 1)[1],))
        scale, fmt = (1000, "{:,.1f} vs {:,.1f} ms") if unit == "ms" else (1, "{:,.0f} vs {:,.0f} req/s")
        figures = fmt.format(statistics.median(a) / scale, statistics.median(b) / scale)
        row(target, f"{median:.2f}x ({runs}{figures}){noise(*cases)}",
            median <= need if at_most else median >= need)

    def cost(case, *references):
        """Context: the server CPU per request of `case` and its references (medians over the runs).
        wrk shares the machine's cores with the server, so req/s ratios also carry wrk's own cost."""
        mine = num(f"us:{case}")
        if mine is None:
            return
        parts = [f"{mine:.0f} us"]
        for reference, name in references:
            theirs = num(f"us:{reference}")
            if theirs:
                parts.append(f"{name} {theirs:.0f} us")
        row("  (context) server CPU per request", "; ".join(parts), None)

    section("Issue 32 targets")
    hb = "Hummingbird reference"
    ratio("rps:patch", "rps:hb-patch", 1.0, "durable PATCH >= 1.0x Hummingbird PATCH", hb)
    ratio("rps:patch-mem", "rps:hb-patch", 2.0, "memory-store PATCH >= 2.0x Hummingbird PATCH", hb)
    ratio(f"p99:patch-c{wide}", f"p99:hb-patch-c{wide}", 1.0,
          f"PATCH p99 at {wide} connections <= Hummingbird's", hb, unit="ms", at_most=True)
    # The faster C layout of each run: two SO_REUSEPORT daemons (c-ref) or a pool of two (c-ref-pool).
    reuse, pool = per_run("rps:c-ref"), per_run("rps:c-ref-pool")
    if len(pool) < len(reuse):
        pool += [None] * (len(reuse) - len(pool))
    faster = [max((x for x in pair if x is not None), default=None) for pair in zip(reuse, pool)]
    ratio("rps:get", None, 0.6, "GET >= 0.6x the faster raw C reference", "C reference",
          b_runs=faster, b_cases=("c-ref", "c-ref-pool"))
    wins = [("pool" if (p or 0) > (r or 0) else "reuseport") for r, p in zip(reuse, pool) if r or p]
    if wins:
        row("  (context) C references", f"{num('rps:c-ref') or 0:,.0f} req/s SO_REUSEPORT, "
            f"{num('rps:c-ref-pool') or 0:,.0f} req/s thread pool; faster: "
            + ", ".join(f"{w} {wins.count(w)}x" for w in ("reuseport", "pool") if w in wins), None)
    ratio("rps:get", "rps:hb-get", 3.5, "GET >= 3.5x Hummingbird GET", hb)
    requested, opened = num("streams_requested"), num("streams_open")
    streams_cpu, beat_s = num("streams_cpu_pct"), num("streams_heartbeat_s") or HEARTBEAT_SECONDS
    target = "100,000 idle streams <= 1 % of a core with heartbeats"
    if opened is None or streams_cpu is None:
        row(target, "not measured", None)
    else:
        failed = num("streams_failed") or 0
        of = f" of {requested:,.0f}" if requested and requested > opened else ""
        text = f"{streams_cpu:.2f} % at {opened:,.0f}{of} open" + (f" ({failed:,.0f} not open)" if failed else "")
        window = num("streams_idle_window_s") or 0
        text += f", {window:.0f} s window, heartbeat {beat_s:.0f} s"
        if window < 2 * beat_s and num("streams_round_us_per_stream") is None:
            text += " (no heartbeat round in the window: NOT included)"
        extrapolated = num("streams_cpu_pct_at_100k")
        if opened < 100_000 and extrapolated is not None:
            text += f"; 100,000 not measured (linear: ~{extrapolated:.2f} %)"
        first = v.get("streams_first_failure", [None])[-1]
        if first:
            text += f"; first failure: {first}"
        # Below 100,000 only an excess decides: more streams cost more heartbeats, never less.
        if opened >= 100_000:
            met = streams_cpu <= 1.0 and not failed
        else:
            met = False if streams_cpu > 1.0 else None
        row(target, text, met)
        us = num("streams_round_us_per_stream")
        if us is not None:
            row("  (context) a heartbeat round", f"{us:.1f} us a stream; first limit: "
                + v.get("streams_first_limit", ["?"])[-1], None)
    rss, heap = num("streams_rss_per_stream_bytes"), num("streams_heap_per_stream_bytes")
    if rss is None:
        row("memory per open stream (reported)", "not measured", None)
    else:
        slab = num("streams_slab_per_stream_bytes")
        row("memory per open stream (reported)", f"{rss / 1024:.1f} KB RSS"
            + (f", {heap / 1024:.1f} KB heap" if heap is not None else "")
            + (f"; kernel slab {slab / 1024:.1f} KB (machine-wide, both ends)" if slab is not None else "")
            + f", at {opened:,.0f} streams", None)

    section("Issue 13 targets")
    ratio("rps:get", "rps:c-ref", 0.6, "GET snapshot >= 0.6x raw C req/s (SO_REUSEPORT)", "C reference")
    ratio("rps:get", "rps:hb-get", 3, "GET snapshot >= 3x Hummingbird GET", "Hummingbird reference")
    cost("get", ("c-ref", "raw C"), ("hb-get", "Hummingbird"))
    ratio("rps:patch", "rps:hb-patch", 2, "PATCH >= 2x Hummingbird PATCH", "Hummingbird reference")
    cost("patch", ("patch-mem", "memory store"), ("hb-patch", "Hummingbird"))
    batch, wide_batch = num("batch:patch"), num(f"batch:patch-c{wide}")
    if batch is not None:
        row("  (context) store writes per transaction", f"{batch:.1f} in patch"
            + (f", {wide_batch:.1f} in patch-c{wide}" if wide_batch is not None else ""), None)
    mem_ratios = run_ratios("rps:patch-mem", "rps:hb-patch")
    if mem_ratios:
        row("  (context) PATCH on --store memory", f"{statistics.median(mem_ratios):.2f}x "
            f"({num('rps:patch-mem'):,.0f} vs {num('rps:hb-patch'):,.0f} req/s)", None)

    p99, hb99 = num(f"p99:patch-c{wide}"), num(f"p99:hb-patch-c{wide}")
    if p99 is None:
        row(f"PATCH p99 at {wide} connections <= 10 ms", "not measured", None)
    else:
        p99s = nums(f"p99:patch-c{wide}")
        spread = f" (median of {len(p99s)} runs, {min(p99s) / 1000:.1f}-{max(p99s) / 1000:.1f} ms)" if len(p99s) > 1 else ""
        context = f"; Hummingbird {hb99 / 1000:.1f} ms" if hb99 is not None else ""
        row(f"PATCH p99 at {wide} connections <= 10 ms",
            f"{p99 / 1000:.1f} ms{spread}{context}{noise(f'patch-c{wide}')}", p99 <= 10_000)

    store = "sqlite" if "memory_sqlite_form_heap" in v else "memory"
    for step, limit, target in (("form", 4, "idle session (form rendered) <= 4 KB"),
                                ("list", 30, "session with a loaded list <= 30 KB")):
        heap, rss = num(f"memory_{store}_{step}_heap"), num(f"memory_{store}_{step}_rss")
        other = "memory" if store == "sqlite" else "sqlite"
        other_heap = num(f"memory_{other}_{step}_heap")
        if heap is None:
            row(target, "not measured", None)
            continue
        failures = num(f"memory_{store}_{step}_failures") or 0
        text = f"{heap / 1024:.1f} KB heap, {rss / 1024:.1f} KB RSS ({store})"
        if other_heap is not None:
            text += f"; {other}: {other_heap / 1024:.1f} KB heap"
        if failures:
            text += f"; {failures:.0f} FAILED"
        row(target, text, heap <= limit * 1024 and not failures)
    quiet = num(f"memory_{store}_quiet_heap")
    if quiet is not None:
        failures = num(f"memory_{store}_quiet_failures") or 0
        row("  (context) a quiet session, hibernated", f"{quiet / 1024:.1f} KB heap over all sessions ({store})"
            + (f"; {failures:.0f} STILL IN MEMORY" if failures else ""), None)

    events, change = num("sse_change_events"), num("sse_change_bytes")
    if events is None:
        row("city change on a loaded list <= 2 KB/watcher", "not measured", None)
    else:
        text = (f"{change:,.0f} B in {events:.0f} event(s): {v.get('sse_change_kinds', ['?'])[-1]} "
                f"(snapshot {num('sse_first_bytes') or 0:,.0f} B)")
        row("city change on a loaded list <= 2 KB/watcher", text, events >= 1 and change <= 2048)

    opened, quiet, beat = num("streams_open"), num("streams_idle_quiet_cpu_pct"), num("streams_heartbeat_round_ms")
    if opened is None:
        row("10,000 idle SSE streams, ~0 server CPU", "not measured", None)
    else:
        failed = num("streams_failed") or 0
        parts = [f"{opened:,.0f} open" + (f", {failed:.0f} failed" if failed else "")]
        average = None
        if quiet is not None:
            parts.append(f"{quiet:.2f} % of a core between heartbeats")
            if beat is not None:
                beat_s = num("streams_heartbeat_s") or HEARTBEAT_SECONDS
                average = quiet + beat / (beat_s * 1000) * 100
                parts.append(f"{average:.2f} % with the {beat_s:.0f} s heartbeat ({beat:.0f} ms a round)")
        total = num("streams_idle_cpu_pct")
        if average is None and total is not None:
            average = total
            parts.append(f"{total:.2f} % over the idle window")
        met = None if average is None else (opened >= 10_000 and average <= 1.0)
        row("10,000 idle SSE streams, ~0 server CPU (<= 1 %)", "; ".join(parts), met)

    watchers, p50, worst = num("fanout_watchers"), num("fanout_last_p50_ms"), num("fanout_last_max_ms")
    if watchers is None:
        row("1,000 watchers of one view model <= 50 ms", "not measured", None)
    elif p50 is None:
        row("1,000 watchers of one view model <= 50 ms", f"{watchers:.0f} watchers: events missing", False)
    else:
        row("1,000 watchers of one view model <= 50 ms",
            f"last watcher {p50:.1f} ms after the answer (p50 of rounds; max {worst:.1f} ms), {watchers:.0f} watchers",
            watchers >= 1000 and p50 <= 50)

    every = [r for _, rows in sections for r in rows]
    width = max(len(r[0]) for r in every)
    mwidth = max(len(r[1]) for r in every)
    print()
    print("Ratios are within each run, then the median over runs; a shared machine moves absolute numbers.")
    print(f"NOISY: other processes and the hypervisor's steal took >= {NOISY_CORES} of the 2 cores during a case.")
    print("met: '-' is a figure without a target, or one not measured; a reference missing was skipped")
    print("(BENCH_HUMMINGBIRD=0, BENCH_BASELINE=0) or did not build or start (scripts/bench says which).")
    for title, rows in sections:
        print()
        print(f"{title}, this run:")
        print(f"{'target':<{width}}  {'measured':<{mwidth}}  met")
        print(f"{'-' * width}  {'-' * mwidth}  -------")
        for target, measured, met in rows:
            print(f"{target:<{width}}  {measured:<{mwidth}}  {met}")
    return 0

