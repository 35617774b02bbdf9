"""Figures for issues 11 and 32 (scripts/bench-multinode): Bindery nodes on a real PostgreSQL behind
nginx, all started here on 127.0.0.1 in temporary directories (never system services), bounded in
time, and stopped here (Tests/multinode's cluster: their logs are kept in artifacts/).

  scripts/bench-multinode                 writes/s through nginx with 1, 2 and 3 nodes, the CPU each
                                          part used, the notifications each node handled, what one
                                          notification costs a node, and the notify-to-push lag
  BINDERY_BIN=path scripts/bench-multinode     the binary (default .build/debug/bindery)
  BENCH_BINS="/tmp/before /tmp/after"     several binaries, measured alternately (before/after figures)
  BENCH_NODES="1 3" BENCH_RUNS=3          node counts (default "1 2 3"); runs of everything (default 1)
  BENCH_SECONDS=10 BENCH_WRITERS=8 BENCH_LAG_SAMPLES=200
  BENCH_FANOUT=0                          skip the notification phase; BENCH_LAG_SAMPLES=0 skips the lag
  BENCH_FANOUT_ROLES="holds none"         roles of nodes 2, 3, … in it (follows, holds, none)
  BENCH_STORE=memory scripts/bench-multinode   one node on the memory store (or `sqlite`)
  --smoke                                 1 s windows, 2 writers, 5 lag samples (the store, nodes as set)

What each phase does and prints: scripts/bench-multinode's header.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import multinode_phases as phases
from . import multinode_report as report
from . import proc
from multinode_cluster import Cluster, Postgres, binary_path  # noqa: E402 (on the path multinode_phases sets)


class Settings:
    def __init__(self, smoke: bool):
        env = lambda name, full, small: os.environ.get(name, small if smoke else full)  # noqa: E731
        self.seconds = float(env("BENCH_SECONDS", "10", "1"))
        self.writers = int(env("BENCH_WRITERS", "8", "2"))
        self.samples = int(env("BENCH_LAG_SAMPLES", "200", "5"))
        self.store = os.environ.get("BENCH_STORE", "postgres")
        if self.store not in ("postgres", "memory", "sqlite"):
            sys.exit("BENCH_STORE: postgres, memory or sqlite")
        self.runs = max(1, int(os.environ.get("BENCH_RUNS", "1")))
        self.fanout = os.environ.get("BENCH_FANOUT", "1") != "0"
        self.roles = os.environ.get("BENCH_FANOUT_ROLES", "").split()
        if any(r not in ("follows", "holds", "none") for r in self.roles):
            sys.exit("BENCH_FANOUT_ROLES: words among follows, holds, none")
        self.idle_seconds = 1.0 if smoke else 3.0
        self.counts = ([int(n) for n in os.environ.get("BENCH_NODES", "1 2 3").split()]
                       if self.store == "postgres" else [1])
        self.bins = [str(Path(b).resolve()) for b in os.environ.get("BENCH_BINS", "").split()] or [str(binary_path())]
        for b in self.bins:
            if not Path(b).exists():
                sys.exit(f"no server binary at {b} (swift build, or set BINDERY_BIN / BENCH_BINS)")


def main(args: list[str], smoke: bool) -> int:
    if args:
        sys.exit("usage: scripts/bench-multinode [--smoke] (settings in BENCH_* variables)")
    cfg = Settings(smoke)
    postgres = Postgres("bench-postgres") if cfg.store == "postgres" else None
    rows, fans, lags = [], [], {}
    try:
        if postgres:
            postgres.start()
        for run in range(1, cfg.runs + 1):
            order = 1 if run % 2 else -1
            for binary in cfg.bins[::order]:
                os.environ["BINDERY_BIN"] = binary
                for count in cfg.counts[::order]:
                    measure(cfg, postgres, run, binary, count, rows, fans, lags)
    finally:
        if postgres:
            postgres.stop()
    report.writes(cfg, rows)
    report.notifications(cfg, fans)
    report.lag(cfg, lags)
    return 0


def measure(cfg, postgres, run, binary, count, rows, fans, lags):
    """One cluster of `count` nodes of `binary` on a fresh database: its phases' figures appended."""
    database = postgres.create_database("bench") if postgres else None
    workdir = Path(tempfile.mkdtemp(prefix="bindery-bench-"))
    store = (postgres.url(database) if postgres
             else f"sqlite:{workdir}/bench.sqlite" if cfg.store == "sqlite" else "memory")
    cluster = Cluster(store, count, workdir, name=f"bench{count}")
    name = report.label(binary)
    try:
        cluster.start(parallel=True)
        load = proc.loadavg()
        rows.append((run, name, count, load, *phases.writes(cfg, cluster, postgres, database)))
        if cfg.fanout and postgres and count >= 2:
            fans.append((run, name, count, *phases.fanout(cfg, cluster, postgres, database)))
        if cfg.samples and run == 1 and count == max(cfg.counts) and count > 1:
            lags[name] = phases.lag(cfg, cluster)
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"run {run} {name} {count} node(s) done", file=sys.stderr, flush=True)
