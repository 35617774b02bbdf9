"""The phases of bench-multinode on a started cluster: writes through nginx, the notification phase
(writers on node 1, the other nodes following, holding or never seeing the sessions) and the
notify-to-push lag from node 1 to the last node."""

from __future__ import annotations

import sys
import time

from .binary import REPO
from .multinode_measure import listeners, measured

# Tests/multinode's cluster and clients, shared with the multi-node tests.
sys.path[:0] = [str(REPO / "Tests"), str(REPO / "Tests/multinode")]
from multinode_client import IfMatchWriter, Watcher, call, etag_version, expect, new_session  # noqa: E402


def write_for(cfg, writers):
    began = time.monotonic()
    for w in writers:
        w.start()
    time.sleep(cfg.seconds)
    for w in writers:
        w.stop()
    elapsed = time.monotonic() - began
    return (sum(len(w.log.acks) for w in writers), elapsed, sum(w.log.conflicts for w in writers),
            sum(w.log.ambiguous + len(w.log.unexpected) for w in writers))


def writes(cfg, cluster, postgres, database):
    tokens = [new_session(cluster.base) for _ in range(cfg.writers)]
    writers = [IfMatchWriter(cluster.base, t, f"b{i}", pause=0) for i, t in enumerate(tokens)]
    return (*measured(cluster, postgres, database, lambda: write_for(cfg, writers)), listeners(postgres, database))


def roles(cfg, count):
    """What each node does in the notification phase: node 1 writes; the others as BENCH_FANOUT_ROLES
    says (its last word repeated), by default node 2 follows (with 3+ nodes) and the rest hold."""
    if cfg.roles:
        rest = [cfg.roles[min(i, len(cfg.roles) - 1)] for i in range(count - 1)]
    else:
        rest = ["follows" if count >= 3 and i == 0 else "holds" for i in range(count - 1)]
    return ["writes"] + rest


def fanout(cfg, cluster, postgres, database):
    """Writers on node 1 directly; the other nodes follow every session (an event stream each),
    hold them (read once), or never see them, by role."""
    one = cluster.nodes[0]
    role = roles(cfg, len(cluster.nodes))
    tokens = [new_session(one.base) for _ in range(cfg.writers)]
    for token in tokens:
        for node, what in zip(cluster.nodes, role):
            if what != "none":
                expect(call(node.base, "GET", "/api/views/form", token), 200, f"reading the form on {node.name}")
    watchers = [Watcher(node.base, t, name=f"fan{i}-{node.name}") for node, what in zip(cluster.nodes, role)
                if what == "follows" for i, t in enumerate(tokens)]
    for w in watchers:
        w.start()
    try:
        for w in watchers:
            if not w.wait_open(5):
                raise RuntimeError(f"no first event on {w.name}: {w.errors}")
        idle = measured(cluster, postgres, database, lambda: time.sleep(cfg.idle_seconds))[1]
        writers = [IfMatchWriter(one.base, t, f"f{i}", pause=0) for i, t in enumerate(tokens)]
        result, usage, delta, xacts = measured(cluster, postgres, database, lambda: write_for(cfg, writers))
        return result, usage, delta, xacts, idle, role, listeners(postgres, database)
    finally:
        for w in watchers:
            w.stop()


def lag(cfg, cluster):
    a, b = cluster.nodes[0], cluster.nodes[-1]
    token = new_session(a.base)
    watcher = Watcher(b.base, token, name="lag")
    watcher.start()
    try:
        if not watcher.wait_open(5):
            raise RuntimeError(f"no first event on node B: {watcher.errors}")
        from_send, from_ack = [], []
        for n in range(cfg.samples):
            sent = time.monotonic()
            response = expect(call(a.base, "PATCH", "/api/views/form", token, {"phone": f"139{n:08d}"}), 200)
            acked, version = time.monotonic(), etag_version(response)
            if not watcher.wait_for_version(version, 5):
                raise RuntimeError(f"version {version} (PATCH on node A) did not reach node B within 5 s")
            arrived = next(e.at for e in watcher.events if e.version == version)
            from_send.append((arrived - sent) * 1000)
            from_ack.append((arrived - acked) * 1000)
        return from_send, from_ack
    finally:
        watcher.stop()
