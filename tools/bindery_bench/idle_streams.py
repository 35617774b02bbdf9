"""Idle cost, memory and fan-out latency of Bindery's event streams (Server-Sent Events), on loopback.

  scripts/bench-idle-streams            200 streams, 10 per session (20 sessions)
  scripts/bench-idle-streams 100000     100,000 streams (issue 32): limits are raised to fit
  BINDERY_BIN=path/to/bindery scripts/bench-idle-streams     use an existing binary
  BENCH_STREAMS_PER_SESSION=10 BENCH_ROUNDS=5 (0: no fan-out rounds)
  BENCH_IDLE_SECONDS=30               the idle window (default: two heartbeat intervals)
  BENCH_HEARTBEAT=15                  the server's --heartbeat (default: the binary's own default)
  BENCH_STREAMS_PER_ADDRESS=21000     streams per client source address (default: 3/4 of the
                                      ephemeral port range)
  BENCH_WATCHERS=1000 scripts/bench-idle-streams 10000   also 1,000 watchers of ONE session's form
  BENCH_SUMMARY_FILE=path             append "key<TAB>value" lines for scripts/bench's summary
  --smoke                             20 streams, heartbeat 1 s, a 2 s window, 1 round, 5 watchers

What it measures, what could cap N before the server does and what it does about it: scripts/
bench-idle-streams' header. Never part of the tests' verdict on time.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from . import binary, idle_setup, limits, proc, server
from .idle_probe import Probe


def main(args: list[str], smoke: bool) -> int:
    env = lambda name, full, small: os.environ.get(name, small if smoke else full)  # noqa: E731
    streams = int(args[0]) if args else (20 if smoke else 200)
    per_session = int(os.environ.get("BENCH_STREAMS_PER_SESSION", "10"))
    rounds = int(env("BENCH_ROUNDS", "5", "1"))
    watchers = int(env("BENCH_WATCHERS", "0", "5"))
    sessions = (streams + per_session - 1) // per_session + 1
    bin_path = binary.bindery()
    if smoke and "BENCH_HEARTBEAT" not in os.environ:
        os.environ["BENCH_HEARTBEAT"] = "1"
    heartbeat = idle_setup.heartbeat(bin_path)
    idle_seconds = int(env("BENCH_IDLE_SECONDS", str(2 * heartbeat), "2"))
    connections, hard_error, max_fds = idle_setup.descriptors(streams, watchers, sessions)
    sources, per_address = idle_setup.sources(streams, watchers)
    raised = idle_setup.server_limits(streams, watchers, sessions, per_session, connections)
    print(f"server limits raised: {' '.join(raised)}; --heartbeat {heartbeat} (ulimit -n {limits.open_files()[0]})")
    with tempfile.TemporaryDirectory() as work:
        # Warnings too: the server says so when the open-file limit makes it lower --max-connections.
        options = [opt if opt != "error" else "warning" for opt in server.QUIET]
        bindery = server.bindery(bin_path, [*options, "--heartbeat", str(heartbeat), *raised], Path(work) / "server.log")

        def probe():
            limit = next((line.split() for line in Path(f"/proc/{bindery.pid}/limits").read_text().splitlines()
                          if line.startswith("Max open files")), None)
            if limit:
                print(f"server: open-file limit {limit[3]} (hard {limit[4]})")
            for line in bindery.log_text().splitlines():
                print(f"  server log: {line}")
            return asyncio.run(Probe(bindery.port, bindery.pid, streams, per_session, idle_seconds, rounds, watchers,
                                     heartbeat, per_address, sources, max_fds, hard_error).run())
        status = bindery.serve_probe(probe)
    print(f"load: {proc.loadavg(3)}")
    return status
