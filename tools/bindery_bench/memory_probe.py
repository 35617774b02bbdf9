"""One store's memory probe: the steps of bench-memory against a running server, printed as a table
and appended to the summary file."""

from __future__ import annotations

import asyncio
import json
import re
import time

from . import proc
from .figures import SummaryFile, kb
from .rawhttp import Connection


async def nothing(conn, auth):
    return None


async def render_form(conn, auth):
    status, body = await conn.request("GET", "/api/views/form", auth)
    return None if status == 200 else f"GET form -> {status}"


async def load_list(conn, auth):
    status, body = await conn.request("POST", "/api/views/list/commands/load", {**auth, "Prefer": "wait=30"})
    if status != 200:
        return f"load -> {status}"
    snapshot = json.loads(body)
    if not snapshot.get("outputs", {}).get("items"):
        return "load -> no items"
    return None


class Probe:
    def __init__(self, port, pid, n, concurrency, store, hibernate, settle_first=1.0, poll=0.5):
        self.port, self.pid, self.n, self.concurrency = port, pid, n, concurrency
        self.store, self.hibernate, self.settle_first, self.poll = store, hibernate, settle_first, poll
        self.summary = SummaryFile()

    async def metrics(self, conn):
        _, body = await conn.request("GET", "/metrics")
        text = body.decode()

        def value(name):
            m = re.search(r"^" + re.escape(name) + r" ([0-9.e+]+)$", text, re.M)
            return float(m.group(1)) if m else None
        return {"heap": value('process_heap_bytes{state="in_use"}'),
                "snapshot": value("bindery_session_snapshot_bytes_per_session"),
                "hibernated": value("bindery_sessions_hibernated_total") or 0}

    async def create_sessions(self, count, then):
        """count sessions over `concurrency` connections; `then(conn, auth)` runs in each."""
        failures = []
        queue = asyncio.Queue()
        for i in range(count):
            queue.put_nowait(i)

        async def worker():
            conn = Connection(self.port)
            while not queue.empty():
                queue.get_nowait()
                status, body = await conn.request("POST", "/api/sessions")
                if status != 201:
                    failures.append(f"POST /api/sessions -> {status}")
                    continue
                problem = await then(conn, {"Authorization": "Bearer " + json.loads(body)["token"]})
                if problem:
                    failures.append(problem)
            conn.close()
        await asyncio.gather(*(worker() for _ in range(self.concurrency)))
        return failures

    async def settle(self, conn):
        """Waits until the heap stops moving (the last answers' tasks finish after the answer)."""
        await asyncio.sleep(self.settle_first)
        last = None
        for _ in range(10):
            m = await self.metrics(conn)
            if last is not None and last["heap"] is not None and abs(m["heap"] - last["heap"]) < 64 * 1024:
                return m
            last = m
            await asyncio.sleep(self.poll)
        return last

    async def run(self):
        n, conn = self.n, Connection(self.port)
        # Warm-up: one session of each kind, so one-time costs (fixtures, code paths, allocator arenas,
        # the store's caches) are in the baseline, not spread over the first step.
        await self.create_sessions(2, render_form)
        await self.create_sessions(2, load_list)
        base = await self.settle(conn)
        base_rss = proc.rss(self.pid)
        start, start_rss = base, base_rss
        print(f"store {self.store}: {n} sessions per step, {self.concurrency} connections; after a warm-up of 4 "
              f"sessions: heap in use {kb(base['heap'] or 0)}, RSS {kb(base_rss)}")
        rows = []
        for name, then in (("bare", nothing), ("form", render_form), ("list", load_list)):
            t0 = time.monotonic()
            failures = await self.create_sessions(n, then)
            took = time.monotonic() - t0
            m = await self.settle(conn)
            now_rss = proc.rss(self.pid)
            made = max(1, n - len(failures))   # a failed session costs (nearly) nothing: count the others
            heap_per = (m["heap"] - base["heap"]) / made if m["heap"] is not None and base["heap"] is not None else None
            rows.append((name, took, len(failures), heap_per, (now_rss - base_rss) / made, m["snapshot"], failures[:3]))
            base, base_rss = m, now_rss
        if self.hibernate > 0:
            rows.append(await self.quiet(conn, start, start_rss))
        self.report(rows)
        conn.close()
        return 1 if any(r[2] for r in rows) else 0

    async def quiet(self, conn, start, start_rss):
        """Every session (3N and the warm-up's) unused and quiet: they leave memory at the first sweep
        after the delay. Measured against the heap before the first step."""
        n, t0 = self.n, time.monotonic()
        expected = 3 * n + 4
        while time.monotonic() - t0 < self.hibernate + 30:
            await asyncio.sleep(min(2, self.hibernate + 1))
            m = await self.metrics(conn)
            if m["hibernated"] >= expected:
                break
        m = await self.settle(conn)
        now_rss = proc.rss(self.pid)
        missing = max(0, expected - int(m["hibernated"]))
        return ("quiet", time.monotonic() - t0, missing,
                (m["heap"] - start["heap"]) / (3 * n) if m["heap"] is not None and start["heap"] is not None else None,
                (now_rss - start_rss) / (3 * n), m["snapshot"],
                [f"{missing} sessions still in memory"] if missing else [])

    def report(self, rows):
        print(f"  {'step':<38} {'took':>7} {'fail':>5} {'heap/session':>13} {'RSS/session':>12} {'snapshots/session':>18}")
        labels = {"bare": "bare: POST /api/sessions only",
                  "form": "form: POST /api/sessions + GET form",
                  "list": "list: POST /api/sessions + load list",
                  "quiet": f"quiet: all 3N hibernated ({self.hibernate:.0f} s)"}
        for name, took, fails, heap_per, rss_per, snap, examples in rows:
            print(f"  {labels[name]:<38} {took:>6.1f}s {fails:>5} "
                  f"{kb(heap_per) if heap_per is not None else 'n/a':>13} {kb(rss_per):>12} "
                  f"{kb(snap) if snap is not None else 'n/a':>18}")
            for e in examples:
                print(f"    failure: {e}")
            self.summary(f"memory_{self.store}_{name}_heap", heap_per if heap_per is not None else "")
            self.summary(f"memory_{self.store}_{name}_rss", rss_per)
            self.summary(f"memory_{self.store}_{name}_failures", fails)
        print("  heap: glibc's bytes in use (process_heap_bytes); RSS: VmRSS; snapshots: Bindery's own")
        print("  bindery_session_snapshot_bytes_per_session over all live sessions at that point.")
