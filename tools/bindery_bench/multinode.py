"""Figures for issues 11, 32 and 43 (scripts/bench-multinode): Bindery nodes on a real PostgreSQL
behind nginx, all started here on 127.0.0.1 in temporary directories (never system services),
bounded in time, and stopped here (Tests/multinode's cluster: their logs are kept in artifacts/).

  scripts/bench-multinode                 writes/s through nginx with 1, 2 and 3 nodes (each session
                                          on its owner), the CPU each part used, changes received per
                                          write, the CPU of nodes that own no session written, the
                                          shared recipe, the failover, the notification phase, the
                                          notify-to-push lag, and issue 43's targets beside the figures
  BINDERY_BIN=path scripts/bench-multinode     the binary (default .build/debug/bindery)
  BENCH_BINS="/tmp/before /tmp/after"     several binaries, measured alternately (before/after figures)
  BENCH_NODES="1 2 3 6 12" BENCH_RUNS=3   node counts (default "1 2 3"); runs of everything (default 1)
  BENCH_SECONDS=10 BENCH_WRITERS=8 BENCH_LAG_SAMPLES=200
  BENCH_OWNED=0                           skip the phase with every session owned by node 1
  BENCH_SHARED=0 BENCH_SHARED_WRITERS=4   the shared-recipe phase (default on for postgres, off in --smoke)
  BENCH_FAILOVER=0                        the failover phase (default on for postgres, off in --smoke), at
                                          the largest count of 2 or more, every run;
  BENCH_FAILOVER_ROUNDS=3 BENCH_FAILOVER_SESSIONS=12 BENCH_FAILOVER_PAUSE=0.1
  BENCH_FANOUT=0                          skip the notification phase; BENCH_LAG_SAMPLES=0 skips the lag
  BENCH_FANOUT_ROLES="holds none"         roles of nodes 2, 3, … in it (follows, holds, none)
  BENCH_STORE=memory scripts/bench-multinode   one node on the memory store (or `sqlite`)
  --smoke                                 1 s windows, 2 writers, 5 lag samples, 4 failover sessions and
                                          1 round (the store, nodes, phases as set)

What each phase does and prints: scripts/bench-multinode's header.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from . import multinode_failover
from . import multinode_phases as phases
from . import multinode_report as report
from . import multinode_shared
from . import multinode_summary as summary
from . import multinode_measure
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
        self.idle_seconds = 0.5 if smoke else 3.0
        self.let_go_wait = 0.2 if smoke else 1.2   # s before the warm-up writes (phases.settle)
        postgres = "1" if self.store == "postgres" and not smoke else "0"
        self.owned = os.environ.get("BENCH_OWNED", "1") != "0"
        self.shared = os.environ.get("BENCH_SHARED", postgres) != "0" and self.store == "postgres"
        self.shared_writers = int(env("BENCH_SHARED_WRITERS", "4", "2"))
        self.failover = os.environ.get("BENCH_FAILOVER", postgres) != "0" and self.store == "postgres"
        self.failover_rounds = int(env("BENCH_FAILOVER_ROUNDS", "3", "1"))
        self.failover_sessions = int(env("BENCH_FAILOVER_SESSIONS", "12", "4"))
        self.failover_pause = float(os.environ.get("BENCH_FAILOVER_PAUSE", "0.1"))
        self.failover_warmup = 0.5 if smoke else 1.0   # s of writes before the first kill
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
    if smoke:
        multinode_measure.STATS_WAIT = 0.0
    postgres = Postgres("bench-postgres") if cfg.store == "postgres" else None
    rows, owns, shares, fails, fans, lags = [], [], [], [], [], {}
    try:
        if postgres:
            postgres.start()
        for run in range(1, cfg.runs + 1):
            order = 1 if run % 2 else -1
            for binary in cfg.bins[::order]:
                os.environ["BINDERY_BIN"] = binary
                for count in cfg.counts[::order]:
                    measure(cfg, postgres, run, binary, count, rows, owns, shares, fails, fans, lags)
    finally:
        if postgres:
            postgres.stop()
    report.writes(cfg, rows)
    summary.owned(cfg, owns)
    summary.shared(cfg, shares)
    summary.failover(cfg, fails)
    report.notifications(cfg, fans)
    report.lag(cfg, lags)
    summary.summary(cfg, rows, owns, shares, fails)
    return 0


def measure(cfg, postgres, run, binary, count, rows, owns, shares, fails, fans, lags):
    """One cluster of `count` nodes of `binary` on a fresh database: its phases' figures appended.
    The failover phase comes last: it kills and restarts a node."""
    database = postgres.create_database("bench") if postgres else None
    workdir = Path(tempfile.mkdtemp(prefix="bindery-bench-"))
    store = (postgres.url(database) if postgres
             else f"sqlite:{workdir}/bench.sqlite" if cfg.store == "sqlite" else "memory")
    cluster = Cluster(store, count, workdir, name=f"bench{count}")
    name = report.label(binary)
    try:
        began = time.monotonic()

        def done(phase):
            nonlocal began
            print(f"run {run} {name} {count} node(s): {phase} in {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
            began = time.monotonic()

        cluster.start(parallel=True)
        done("started")
        load = proc.loadavg()
        idle = phases.idle(cfg, cluster, postgres, database) if count > 1 else None
        rows.append((run, name, count, load, *phases.writes(cfg, cluster, postgres, database), idle))
        done("writes")
        if cfg.owned and count > 1:
            owns.append((run, name, count, *phases.owned(cfg, cluster, postgres, database), idle))
            done("sessions owned by node 1")
        if cfg.shared:
            shares.append((run, name, count, *multinode_shared.shared(cfg, cluster, postgres, database)))
            done("shared recipe")
        if cfg.fanout and postgres and count >= 2:
            fans.append((run, name, count, *phases.fanout(cfg, cluster, postgres, database)))
            done("notifications")
        if cfg.samples and run == 1 and count == max(cfg.counts) and count > 1:
            lags[name] = phases.lag(cfg, cluster)
            done("lag")
        if cfg.failover and count == max(cfg.counts) and count > 1:
            fails.append((run, name, count, multinode_failover.failover(cfg, cluster)))
            done("failover")
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"run {run} {name} {count} node(s) done", file=sys.stderr, flush=True)
