"""bench-idle-streams against its running server: sessions with their form rendered, N streams
opened and waited for, memory per open stream, then the idle window, the fan-out rounds and the
watchers (idle_window, idle_fanout), and last every stream closed and the server's gauge checked."""

from __future__ import annotations

import asyncio
import collections
import json
import math
import time

from . import idle_fanout, idle_window, proc, sse
from .figures import SummaryFile, mib
from .idle_stream import NOT_ATTEMPTED, Budget, SourceStream
from .rawhttp import request

STALL_SECONDS = 20


class Probe:
    def __init__(self, port, pid, n_streams, per_session, idle_seconds, rounds, n_watchers, heartbeat_s,
                 per_address, sources, max_descriptors, hard_limit_error):
        self.port, self.pid, self.n_streams, self.per_session = port, pid, n_streams, per_session
        self.idle_seconds, self.rounds, self.n_watchers, self.heartbeat_s = idle_seconds, rounds, n_watchers, heartbeat_s
        self.per_address, self.sources = per_address, sources
        self.max_descriptors, self.hard_limit_error = max_descriptors, hard_limit_error
        self.summary = SummaryFile()
        self.budget = Budget(max(200, (n_streams + n_watchers) // 100))

    def stream(self, index, token):
        return SourceStream(self.port, index, token, self.gate, self.budget, self.sources, self.per_address)

    async def new_sessions(self, count):
        gate = asyncio.Semaphore(32)

        async def one():
            async with gate:
                status, _, body = await request(self.port, "POST", "/api/sessions")
            assert status == 201, f"POST /api/sessions -> {status}"
            return json.loads(body)["token"]
        return await asyncio.gather(*(one() for _ in range(count)))

    async def metrics_text(self):
        """/metrics, or "" when it cannot be had (a server at its connection limit, no descriptor left)."""
        try:   # a server out of descriptors leaves new connections in its backlog: do not wait forever
            status, _, body = await asyncio.wait_for(request(self.port, "GET", "/metrics"), 10)
        except (OSError, asyncio.TimeoutError) as e:
            print(f"  (/metrics: {type(e).__name__}: {e or 'no answer in 10 s'})")
            return ""
        return body.decode(errors="replace") if status == 200 else ""

    async def memory(self):
        """(RSS, C heap in use) of the server once its heap stops moving (answers' tasks finish late)."""
        last = None
        for _ in range(20):
            heap = metric(await self.metrics_text(), 'process_heap_bytes{state="in_use"}')
            if heap is None or (last is not None and abs(heap - last) < 256 * 1024):
                break
            last = heap
            await asyncio.sleep(0.5)
        return proc.rss(self.pid), heap

    async def render_forms(self, tokens):
        """GET every session's form once: its view model is live before the streams (memory baseline)."""
        gate = asyncio.Semaphore(32)

        async def one(token):
            async with gate:
                status, _, _ = await request(self.port, "GET", "/api/views/form", {"Authorization": f"Bearer {token}"})
            return status
        statuses = await asyncio.gather(*(one(t) for t in tokens))
        return sum(1 for s in statuses if s != 200)

    async def run(self):
        self.gate = asyncio.Semaphore(256)
        n_sessions = math.ceil(self.n_streams / self.per_session)
        tokens = await self.new_sessions(n_sessions)
        unrendered = await self.render_forms(tokens)
        if unrendered:
            print(f"({unrendered} of {n_sessions} forms did not render: their streams will render them)")
        rss0, heap0 = await self.memory()
        slab0, available0 = proc.meminfo("Slab"), proc.meminfo("MemAvailable")
        print(f"before the streams: {n_sessions} sessions with their form rendered; server RSS {mib(rss0)}, "
              f"heap in use {mib(heap0 or 0)}; machine: {mib(available0)} available")

        streams = [self.stream(i, tokens[i % n_sessions]) for i in range(self.n_streams)]
        t0 = time.monotonic()
        sse.start(streams)
        await until_connected(streams)
        failed = [s for s in streams if s.error or s.version is None]
        opened = self.n_streams - len(failed)
        print(f"streams: {self.n_streams} over {n_sessions} sessions ({self.per_session} per session) from "
              f"{len(self.sources)} source address(es); {opened} had their first snapshot after "
              f"{(time.monotonic() - t0) * 1000:.0f} ms; not open: {len(failed)}")
        first_failure = self.report_failures(failed, "stream")
        text = await self.metrics_text()
        open_gauge = [line for line in text.splitlines() if line.startswith("bindery_event_streams_open")]
        fds, max_fds = metric(text, "process_open_fds"), metric(text, "process_max_fds")
        if text:
            print(f"server: {open_gauge[0] if open_gauge else 'bindery_event_streams_open not found'}; "
                  f"{fds or 0:,.0f} descriptors open of {max_fds or 0:,.0f}")
        else:
            print("server: /metrics not answered (a server at its connection limit has no room for it)")
        self.summary("streams_requested", self.n_streams)
        self.summary("streams_open", opened)
        self.summary("streams_failed", len(failed))
        if first_failure:
            self.summary("streams_first_failure", first_failure)

        # Memory per open stream: the growth since the baseline. The kernel's side of each connection
        # (socket, buffers, epoll entry) is slab memory, not RSS: machine-wide, both ends, shown apart.
        await asyncio.sleep(1)
        rss1, heap1 = await self.memory()
        slab1 = proc.meminfo("Slab")
        rss_per = (rss1 - rss0) / opened if opened else None
        heap_per = (heap1 - heap0) / opened if opened and heap0 is not None and heap1 is not None else None
        slab_per = (slab1 - slab0) / opened if opened else None
        if opened:
            print(f"memory: server RSS {mib(rss0)} -> {mib(rss1)} = {rss_per:,.0f} B per open stream; heap in use "
                  + (f"{heap_per:,.0f} B per stream" if heap_per is not None else "n/a")
                  + f"; machine slab +{mib(slab1 - slab0)} = {slab_per:,.0f} B per stream (kernel, both ends "
                  f"of each connection, and anything else running)")
            self.summary("streams_rss_per_stream_bytes", f"{rss_per:.0f}")
            self.summary("streams_heap_per_stream_bytes", "" if heap_per is None else f"{heap_per:.0f}")
            self.summary("streams_slab_per_stream_bytes", f"{slab_per:.0f}")

        await idle_window.measure(self, streams, opened, rss1, rss_per, slab_per, available0)
        round_rows = await idle_fanout.rounds(self, streams)
        watcher_streams, watcher_fail = [], 0
        if self.n_watchers:
            watcher_streams, watcher_fail = await idle_fanout.watchers(self)
        dropped = await self.close_all(streams + watcher_streams)
        return 1 if failed or dropped or watcher_fail or any(r[6] or r[7] for r in round_rows) else 0

    async def close_all(self, streams):
        """Closes everything and checks that the server let go of every stream."""
        dropped = await sse.close_all(streams)
        # A suspended stream notices its client left only when it next writes (the heartbeat).
        gauge = None
        closed_at = time.monotonic()
        for _ in range((2 * self.heartbeat_s + 10) * 10):   # the first heartbeat to a closed socket may still succeed
            await asyncio.sleep(0.1)
            _, _, metrics = await request(self.port, "GET", "/metrics")
            lines = [line for line in metrics.decode().splitlines() if line.startswith("bindery_event_streams_open")]
            gauge = lines[0] if lines else None
            if gauge and gauge.split()[-1] in ("0", "0.0"):
                break
        print()
        print(f"streams dropped by the server during the run: {len(dropped)}")
        print(f"after closing every stream: {gauge} after {time.monotonic() - closed_at:.1f} s")
        return dropped

    def report_failures(self, failed, label):
        """Failures by error, most frequent first, and the first one in time on each side (the server's
        answers, this client's own errors): what gave out first. Returns the first one's text."""
        tried = [s for s in failed if s.error != NOT_ATTEMPTED]
        if not tried:
            return None
        counts = collections.Counter(s.error or f"no snapshot (no stream progressed for {STALL_SECONDS} s)" for s in tried)
        for error, count in counts.most_common(6):
            print(f"  {count} x {error}")
        if len(failed) > len(tried):
            print(f"  {len(failed) - len(tried)} not attempted: stopped after {self.budget.stop_after} failures")
        timed = sorted((s for s in tried if s.failed_at is not None), key=lambda s: s.failed_at)
        firsts = []
        for side, mine in (("server", False), ("client", True)):
            first = next((s for s in timed if s.error.startswith("client:") == mine), None)
            if first:
                firsts.append(f"{label} {first.index} (from {first.source}): {first.error}")
                print(f"  first failure ({side} side): {firsts[-1]}")
        return firsts[0] if firsts else f"{len(tried)} {label}s without a snapshot"


def metric(text, name):
    """The value of the first line of /metrics that starts with `name` (with its labels), or None."""
    for line in text.splitlines():
        if line.startswith(name):
            try:
                return float(line.split()[-1])
            except ValueError:
                return None
    return None


async def until_connected(streams):
    """Until every stream has its first snapshot or failed, or none has for STALL_SECONDS (a server
    that stopped accepting leaves connections in its backlog, unanswered)."""
    last, since = -1, time.monotonic()
    while True:
        done = sum(1 for s in streams if s.connected.is_set())
        if done == len(streams):
            return
        if done != last:
            last, since = done, time.monotonic()
        elif time.monotonic() - since > STALL_SECONDS:
            return
        await asyncio.sleep(0.5)
