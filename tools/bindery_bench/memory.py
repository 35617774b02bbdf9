"""Memory per session: a fresh server, N sessions that do nothing more (for scale), N sessions that
each render the form, then N sessions that each load the list; the server's growth divided by N.
Then every session is left quiet until it hibernates (leaves memory for the store,
--session-hibernate-after): what a quiet session costs, over all 3N. Once on the memory store,
once on the default store (SQLite, in a temporary directory).

  scripts/bench-memory [N]            N sessions per step (default 2000; --smoke: 5)
  BINDERY_BIN=path/to/bindery scripts/bench-memory   use an existing binary instead of building
  BENCH_MEMORY_STORES="memory sqlite"                which stores to probe (default both)
  BENCH_SUMMARY_FILE=path             append "key<TAB>value" lines for scripts/bench's summary
  BENCH_HIBERNATE_AFTER=60            seconds a quiet session stays in memory (0: skip that step;
                                      --smoke: 1)
  BENCH_MEMORY_CONCURRENCY=32         connections creating sessions

Measured per step: the resident set (VmRSS of /proc/PID/status) and the C heap in use
(process_heap_bytes{state="in_use"} of /metrics, glibc's mallinfo2: steadier than RSS, which
keeps freed pages), and Bindery's own bindery_session_snapshot_bytes_per_session.
Benchmarks are never part of the tests' verdict on time.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from . import binary, server
from .memory_probe import Probe


def main(args: list[str], smoke: bool) -> int:
    sessions = int(args[0]) if args else (5 if smoke else 2000)
    stores = os.environ.get("BENCH_MEMORY_STORES", "memory sqlite").split()
    concurrency = int(os.environ.get("BENCH_MEMORY_CONCURRENCY", "32"))
    hibernate = float(os.environ.get("BENCH_HIBERNATE_AFTER", "1" if smoke else "60"))
    for store in stores:
        if store not in ("memory", "sqlite"):
            sys.exit(f"unknown store {store} (memory or sqlite)")
    bin_path = binary.bindery()
    status = 0
    with tempfile.TemporaryDirectory() as work:
        for store in stores:
            store_arg = "memory" if store == "memory" else f"sqlite:{work}/memory-probe.sqlite"
            room = str(sessions * 3 + 100)
            # Room for 3N sessions from one address, created as fast as the client can. The sweep runs
            # every second but finds nothing to do until the steps are over: nothing expires, and no
            # session is quiet for the hibernation delay before the last step ends.
            bindery = server.bindery(bin_path, [*server.QUIET, "--store", store_arg, "--max-sessions", room,
                                                "--max-sessions-per-address", room, "--session-creation-burst", room,
                                                "--session-sweep-interval", "1",
                                                "--session-hibernate-after", f"{hibernate:g}"],
                                     Path(work) / f"server-{store}.log")
            try:
                probe = Probe(bindery.port, bindery.pid, sessions, concurrency, store, hibernate,
                              settle_first=0.2 if smoke else 1.0, poll=0.2 if smoke else 0.5)
                status = asyncio.run(probe.run()) or status
                bindery.check_alive(f"the memory probe ({store})")
                bindery.print_log_tail(5, "  server log (errors):")
            finally:
                bindery.stop()
    return status
