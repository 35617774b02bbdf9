"""The fan-out of bench-idle-streams: every session's form PATCHed at once, timed until each stream has
the new version; then W watchers of one session's form, one PATCH per round (from a process of its
own), timed from the answer to the last watcher."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time

from . import proc
from .figures import pct
from .patcher import Patcher
from .rawhttp import request
from . import sse


async def rounds(p, streams):
    """BENCH_ROUNDS rounds of one PATCH per session; the rows printed (and returned)."""
    # Fan-out: PATCH every session at once; time until each stream has the new version.
    by_session = {}
    for s in streams:
        by_session.setdefault(s.token, []).append(s)
    live = [s for s in streams if not s.error and s.version is not None]
    round_rows = []
    refusals = {}   # status of a failed PATCH (0: no answer) -> count, over all p.rounds
    for r in range(p.rounds):
        ticks_a = proc.ticks(p.pid)
        start = time.monotonic()
        patch_done = {}

        async def patch(token, value):
            status, _, body = await request(
                p.port, "PATCH", "/api/views/form",
                {"Authorization": f"Bearer {token}", "Content-Type": "application/merge-patch+json"},
                json.dumps({"phone": value}))
            patch_done[token] = (time.monotonic(), status, json.loads(body or b"{}").get("version"))

        futures = {}
        for s in live:
            fut = asyncio.get_running_loop().create_future()
            s.waiters = [(s.version + 1, fut)]
            futures[s] = fut
        await asyncio.gather(*(patch(t, f"186{r:02d}{i:06d}") for i, t in enumerate(by_session)))
        await asyncio.wait(futures.values(), timeout=30)   # (wait_for would cancel the late ones)
        missing = [s for s, f in futures.items() if not f.done()]
        arrivals = [f.result() - start for f in futures.values() if f.done()]
        bad = [v for v in patch_done.values() if v[1] != 200]
        for v in bad:
            refusals[v[1]] = refusals.get(v[1], 0) + 1
        # Latency per stream from its own session's PATCH response.
        after_response = [f.result() - patch_done[s.token][0] for s, f in futures.items()
                          if f.done() and s.token in patch_done]
        ticks_b = proc.ticks(p.pid)
        patches_s = max(v[0] for v in patch_done.values()) - start
        round_rows.append((r + 1, patches_s, pct(arrivals, 50) if arrivals else float("nan"),
                           pct(arrivals, 99) if arrivals else float("nan"),
                           max(arrivals) if arrivals else float("nan"),
                           max(after_response) if after_response else float("nan"),
                           len(missing), len(bad), (ticks_b - ticks_a) / proc.HZ * 1000))
        for s in live:
            s.waiters = []
        await asyncio.sleep(0.3)

    if round_rows:   # BENCH_ROUNDS=0: no fan-out
        print()
        print(f"fan-out: {len(by_session)} concurrent PATCHes (one per session), "
              f"{len(live)} streams waiting for the new version; times from the first PATCH sent")
        print(f"{'round':>5} {'PATCHes':>9} {'p50':>8} {'p99':>8} {'all':>8} {'after-resp':>10} "
              f"{'missing':>7} {'non-200':>7} {'srv-cpu':>8}")
        for row in round_rows:
            n, p, a50, a99, amax, aresp, miss, bad, cpu = row
            print(f"{n:>5} {p * 1000:>7.1f}ms {a50 * 1000:>6.1f}ms {a99 * 1000:>6.1f}ms "
                  f"{amax * 1000:>6.1f}ms {aresp * 1000:>8.1f}ms {miss:>7} {bad:>7} {cpu:>6.1f}ms")
        print("  PATCHes: until the last PATCH response; p50/p99/all: until streams had the event;")
        print("  after-resp: worst stream, measured from its own session's PATCH response;")
        print("  srv-cpu: server CPU (10 ms ticks) for the round, PATCH requests included.")
        print("  missing: streams of sessions whose PATCH failed count as missing too (they get no new version).")
        if refusals:
            print("  failed PATCHes by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(refusals.items())))
    return round_rows


async def watchers(p):
    """p.n_watchers streams on ONE session's form; p.rounds of one PATCH each, timed to the last watcher."""
    (token,) = await p.new_sessions(1)
    watchers = [p.stream(p.n_streams + i, token) for i in range(p.n_watchers)]
    failed, live, ms = await sse.open_all(watchers)
    print()
    print(f"watchers: {p.n_watchers} streams on one session's form (with the {p.n_streams} streams above still "
          f"open); all had their first snapshot in {ms:.0f} ms; failed: {len(failed)}")
    sse.print_failures(failed)
    rows = []
    patcher = await Patcher().start(p.port)
    for r in range(p.rounds):
        await asyncio.sleep(0.5)
        version = max(w.version for w in live)
        futures = []
        for w in live:
            fut = asyncio.get_running_loop().create_future()
            w.waiters = [(version + 1, fut)]
            futures.append(fut)
        cpu0 = time.process_time()
        answer = await patcher.patch(token, {"phone": f"139{r:02d}{os.getpid() % 1000000:06d}"})
        await asyncio.wait(futures, timeout=30)
        if "error" in answer:
            print(f"  round {r + 1}: the PATCH failed: {answer['error']}")
            answer = {"sent": time.monotonic(), "answered": time.monotonic(), "status": 0}
        sent, answered, status = answer["sent"], answer["answered"], answer["status"]
        client_cpu = time.process_time() - cpu0
        arrivals = [f.result() for f in futures if f.done()]
        missing = len(futures) - len(arrivals)
        last = max(arrivals) if arrivals else float("nan")
        rows.append((r + 1, status, answered - sent, pct(arrivals, 50) - answered if arrivals else float("nan"),
                     last - answered, last - sent, missing, client_cpu))
        for w in live:
            w.waiters = []
    print(f"fan-out to {len(live)} watchers of one view model, one PATCH per round:")
    await patcher.stop()
    print(f"{'round':>5} {'status':>6} {'PATCH':>8} {'p50':>8} {'last':>8} {'last-sent':>9} {'missing':>7} {'client-cpu':>10}")
    for n, status, patch_s, p50, last, last_sent, missing, client_cpu in rows:
        print(f"{n:>5} {status:>6} {patch_s * 1000:>6.1f}ms {p50 * 1000:>6.1f}ms {last * 1000:>6.1f}ms "
              f"{last_sent * 1000:>7.1f}ms {missing:>7} {client_cpu * 1000:>8.1f}ms")
    print("  PATCH: its round trip (from a separate process); p50/last: when half/all of the watchers had")
    print("  the event, from the PATCH's answer (negative: before the answer); last-sent: the last watcher,")
    print("  from the send. client-cpu: this Python client's CPU during the round: reading 1,000 events one")
    print("  by one in one thread is part of 'last', so it is an upper bound of the server's fan-out.")
    lasts = [row[4] for row in rows if row[6] == 0]
    if lasts and len(live) == p.n_watchers:
        p.summary("fanout_watchers", len(live))
        p.summary("fanout_last_p50_ms", f"{statistics.median(lasts) * 1000:.1f}")
        p.summary("fanout_last_max_ms", f"{max(lasts) * 1000:.1f}")
        p.summary("fanout_last_sent_max_ms", f"{max(row[5] for row in rows) * 1000:.1f}")
    else:
        p.summary("fanout_watchers", len(live))
    return watchers, len(failed) + sum(row[6] for row in rows) + sum(1 for row in rows if row[1] != 200)

