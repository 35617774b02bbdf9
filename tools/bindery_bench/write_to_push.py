"""Write → push latency of one view model (the form) with 1 and with 1,000 watchers, on loopback.

  scripts/bench-write-to-push                W = 1 and W = 1000 watchers, 200 writes each
  BINDERY_BIN=path/to/bindery scripts/bench-write-to-push      use an existing binary
  BENCH_WATCHERS="1 1000" BENCH_WRITES=200   the watcher counts, in order, and the writes per count
  BENCH_SUMMARY_FILE=path                    append "key<TAB>value" lines for scripts/bench's summary
  --smoke                                    W = 1 and 5, 5 writes (unless the variables say)

One server (SQLite store in a temporary directory, the per-session stream limit raised to the
largest W). For each W: a new session, W `GET /api/views/form/events` streams with its bearer
token, all waited for until each has its first snapshot; then BENCH_WRITES sequential PATCHes of
`/api/views/form` (a new phone each time, on one keep-alive connection from a process of its own,
so the answer's time is taken when it arrives, not when the busy event loop of the watchers gets
round to it). For each write it takes
  - the server's own figures, from the answer's `Server-Timing` (ms, phases contiguous from the
    request's receipt): write→commit = parse+apply+commit, write→push = that + push (the version
    written to the last watcher); a write without `push` is counted as missing;
  - the client's: the PATCH round trip, and send → the last of the W watchers has received the
    event with the answer's version (CLOCK_MONOTONIC across both processes). One Python thread
    reads the W streams, so with many watchers this is an upper bound of the server's fan-out.
Every watcher must have the version before the next PATCH goes out. Per W it prints p50, p99 and
max of the four, and the writes the server counted in `bindery_write_to_push_seconds` and as
breaches of the form's 25 ms write→push budget (`bindery_latency_budget_breaches_total`) during
that W; at the end, those two /metrics lines as they stand. Every stream is closed before the next
W and at the end. Never part of the tests' verdict on time: it reports.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from . import binary, limits, proc, server
from .patcher import Patcher
from .rawhttp import request
from . import sse
from .sse import Stream
from .write_to_push_report import PUSH_METRIC, BREACH_METRIC, metric_lines, metric_value, report, server_timing


async def run_watchers(port, wi, n_watchers, n_writes, patcher):
    """W streams on one new session's form, then the writes; returns the failures."""
    status, _, body = await request(port, "POST", "/api/sessions")
    if status != 201:
        print(f"POST /api/sessions -> {status}: {body[:200]!r}")
        return 1
    token = json.loads(body)["token"]
    gate = asyncio.Semaphore(256)
    watchers = [Stream(port, i, token, gate) for i in range(n_watchers)]
    failed, live, ms = await sse.open_all(watchers)
    print()
    print(f"W = {n_watchers}: {n_watchers} streams on one session's form, all had their first snapshot in "
          f"{ms:.0f} ms; failed: {len(failed)}")
    sse.print_failures(failed)
    push0, breach0 = await metric_lines(port)

    rows = []          # per answered write: dict of the figures (ms; None when not known)
    bad = {}           # status or error of a write without a usable answer -> count
    missing_events = 0
    for i in range(n_writes):
        for w in live:
            w.arrivals.clear()
            w.waiters = []
        answer = await patcher.patch(token, {"phone": f"13{wi % 10}{i:08d}"})
        if "error" in answer or answer["status"] != 200 or answer["version"] is None:
            if "error" in answer:
                key = answer["error"]
            elif answer["status"] != 200:
                key = f"status {answer['status']}"
            else:
                key = "200 without a version"
            bad[key] = bad.get(key, 0) + 1
            if len(bad) == 1 and bad[key] == 1 and answer.get("body"):
                print(f"  first failed write: {key}: {answer['body']}")
            continue
        version = answer["version"]
        futures, arrivals = [], []
        for w in live:
            t = w.reached(version)
            if t is not None:
                arrivals.append(t)
            else:
                fut = asyncio.get_running_loop().create_future()
                w.waiters = [(version, fut)]
                futures.append(fut)
        if futures:
            await asyncio.wait(futures, timeout=30)   # (wait_for would cancel the late ones)
        arrivals += [f.result() for f in futures if f.done()]
        missing = len(live) - len(arrivals)
        missing_events += missing
        phases = server_timing(answer["timing"])
        to_commit = (sum(phases.get(p, 0.0) for p in ("parse", "apply", "commit"))
                     if "commit" in phases else None)
        to_push = to_commit + phases["push"] if to_commit is not None and "push" in phases else None
        rows.append({
            "header": answer["timing"] is not None,
            "commit": to_commit,
            "push": to_push,
            "rtt": (answer["answered"] - answer["sent"]) * 1000,
            "last": (max(arrivals) - answer["sent"]) * 1000 if arrivals and not missing else None,
        })

    push1, breach1 = await metric_lines(port)
    dropped = await sse.close_all(watchers)
    report(n_watchers, len(live), rows, bad, missing_events, dropped,
           metric_value(push1) - metric_value(push0), metric_value(breach1) - metric_value(breach0),
           push1 is not None)
    return len(failed) + sum(bad.values()) + missing_events + len(dropped)


async def probe(port, n_writes, watcher_counts):
    print(f"{n_writes} sequential writes per W; W = {', '.join(map(str, watcher_counts))}")
    patcher = await Patcher().start(port)
    problems = 0
    try:
        for wi, n_watchers in enumerate(watcher_counts):
            problems += await run_watchers(port, wi, n_watchers, n_writes, patcher)
    finally:
        await patcher.stop()
    push, breach = await metric_lines(port)
    print()
    print("/metrics at the end:")
    print("  " + (push or PUSH_METRIC + '{screen="form"} not found'))
    print("  " + (breach or BREACH_METRIC + '{screen="form",measure="write_to_push"} not found (no breach yet, or no budget)'))
    print("  write→commit/push: from the answers' Server-Timing (parse+apply+commit[+push]); PATCH round trip")
    print("  and send→last watcher: from a separate client process; 'last watcher' is read by one Python")
    print("  thread for all W streams, so with many watchers it bounds the server's fan-out from above.")
    return 1 if problems else 0


def main(args: list[str], smoke: bool) -> int:
    if args:
        sys.exit("usage: scripts/bench-write-to-push [--smoke] (settings in BENCH_* variables)")
    counts_text = os.environ.get("BENCH_WATCHERS", "1 5" if smoke else "1 1000")
    writes_text = os.environ.get("BENCH_WRITES", "5" if smoke else "200")
    for w in counts_text.split():
        if not (w.isdigit() and int(w) > 0):
            sys.exit(f"BENCH_WATCHERS: '{w}' is not a positive count")
    if not (writes_text.isdigit() and int(writes_text) > 0):
        sys.exit(f"BENCH_WRITES: '{writes_text}' is not a positive count")
    counts, writes = [int(w) for w in counts_text.split()], int(writes_text)
    max_watchers = max([1, *counts])
    bin_path = binary.bindery()
    # Our own sockets: one per watcher plus a few (the server raises its own limit to the hard limit).
    limits.raise_open_files(max_watchers + 512)
    soft, hard = limits.open_files()
    if soft < max_watchers + 64:
        sys.exit(f"ulimit -n is {soft} (hard limit {hard}): too low for {max_watchers} streams")
    with tempfile.TemporaryDirectory() as work:
        # Room for the largest W's streams, the PATCH connection, /metrics and session requests.
        raised = ["--max-connections", str(max_watchers + 512), "--max-connections-per-ip", str(max_watchers + 256),
                  "--max-streams", str(max_watchers + 16), "--max-streams-per-session", str(max_watchers)]
        print(f"server limits raised: {' '.join(raised)} (ulimit -n {soft})")
        bindery = server.Server([bin_path, "serve", "--store", f"sqlite:{work}/bench.sqlite", "--public-dir", "Public",
                                 "--log-level", "error", *raised], Path(work) / "server.log")
        bindery.wait(seconds=30)
        status = bindery.serve_probe(lambda: asyncio.run(probe(bindery.port, writes, counts)))
    print(f"load: {proc.loadavg(3)}")
    return status
