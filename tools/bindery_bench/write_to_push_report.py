"""What bench-write-to-push reads from the server (Server-Timing, /metrics) and how it prints a W."""

from __future__ import annotations

from .figures import SummaryFile, pct
from .rawhttp import request

PUSH_METRIC = "bindery_write_to_push_seconds_count"
BREACH_METRIC = "bindery_latency_budget_breaches_total"


def server_timing(value):
    """`parse;dur=0.041, apply;dur=0.210, ...` -> {"parse": 0.041, ...} (ms)."""
    phases = {}
    for entry in (value or "").split(","):
        name, *params = [part.strip() for part in entry.split(";")]
        for param in params:
            key, _, dur = param.partition("=")
            if name and key.strip() == "dur":
                try:
                    phases[name] = float(dur.strip().strip('"'))
                except ValueError:
                    pass
    return phases


async def metric_lines(port):
    """The form's write→push count and write→push budget breaches in /metrics (None when absent)."""
    _, _, body = await request(port, "GET", "/metrics")
    push = breach = None
    for line in body.decode(errors="replace").splitlines():
        if line.startswith(PUSH_METRIC) and 'screen="form"' in line:
            push = line
        elif line.startswith(BREACH_METRIC) and 'screen="form"' in line and 'measure="write_to_push"' in line:
            breach = line
    return push, breach


def metric_value(line):
    return float(line.rsplit(None, 1)[-1]) if line else 0.0


def report(n_watchers, n_live, rows, bad, missing_events, dropped, pushes_counted, breaches, push_metric_seen):
    summary = SummaryFile()
    answered = len(rows)
    with_header = sum(1 for r in rows if r["header"])
    no_push = sum(1 for r in rows if r["header"] and r["push"] is None)
    print(f"writes: {answered + sum(bad.values())} sent, {answered} answered 200 with a version"
          + (", failed: " + ", ".join(f"{k} x {v}" for k, v in sorted(bad.items())) if bad else "")
          + f"; watcher events missing (30 s): {missing_events}; streams dropped by the server: {len(dropped)}")
    if answered and not with_header:
        print("  NO Server-Timing HEADER on the PATCH answers: the server's write→commit and write→push are not")
        print("  measured by this binary; only the client-side figures below are.")
    elif with_header < answered:
        print(f"  {answered - with_header} of {answered} answers had no Server-Timing header")
    if no_push:
        print(f"  {no_push} of {with_header} answers with Server-Timing had no push phase (missing write→push)")
    print(f"  {'':<26} {'n':>5} {'p50':>10} {'p99':>10} {'max':>10}")
    figures = [("server write→commit", "commit", "write_to_commit"),
               ("server write→push", "push", "write_to_push"),
               ("client PATCH round trip", "rtt", "patch_round_trip"),
               ("client send→last watcher", "last", "send_to_last_watcher")]
    w = f"w{n_watchers}"
    for words, key, name in figures:
        values = [r[key] for r in rows if r[key] is not None]
        if values:
            p50, p99, top = pct(values, 50), pct(values, 99), max(values)
            print(f"  {words:<26} {len(values):>5} {p50:>7.3f} ms {p99:>7.3f} ms {top:>7.3f} ms")
            summary(f"{name}_p50_ms_{w}", f"{p50:.3f}")
            summary(f"{name}_p99_ms_{w}", f"{p99:.3f}")
            summary(f"{name}_max_ms_{w}", f"{top:.3f}")
        else:
            print(f"  {words:<26} {0:>5} {'-':>10} {'-':>10} {'-':>10}")
    if push_metric_seen:
        print(f"  server counted during this W: {pushes_counted:.0f} writes in {PUSH_METRIC}{{screen=\"form\"}}, "
              f"{breaches:.0f} over the 25 ms write→push budget")
    else:
        print(f"  /metrics has no {PUSH_METRIC}{{screen=\"form\"}} line")
    summary(f"write_to_push_watchers_{w}", n_live)
    summary(f"write_to_push_writes_{w}", answered)
    summary(f"write_to_push_missing_{w}", no_push + (answered - with_header))
    summary(f"write_to_push_budget_breaches_{w}", f"{breaches:.0f}")
