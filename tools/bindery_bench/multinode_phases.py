"""The phases of bench-multinode on a started cluster: the idle window, writes through nginx (each
session on the node nginx's ring gives it), writes through nginx to sessions all owned by node 1
(the others' CPU), the notification phase (writers on node 1 directly, the other nodes following,
holding or never seeing the sessions) and the notify-to-push lag from node 1 to the last node.
The shared recipe and the failover: multinode_shared.py, multinode_failover.py."""

from __future__ import annotations

import sys
import time

from .binary import REPO
from .multinode_measure import listeners, measured

# Tests/multinode's cluster and clients, shared with the multi-node tests.
sys.path[:0] = [str(REPO / "Tests"), str(REPO / "Tests/multinode")]
from multinode_client import IfMatchWriter, Watcher, call, etag_version, expect, new_session  # noqa: E402
from nginx_ring import Ring  # noqa: E402


def address(node):
    return f"127.0.0.1:{node.port}"


def ring(cluster):
    """nginx's consistent-hash ring of the cluster's nodes (Tests/multinode/nginx_ring.py)."""
    return Ring([address(n) for n in cluster.nodes])


def idle(cfg, cluster, postgres, database):
    """The CPU of every part with nothing to do, for cfg.idle_seconds (each node's idle rate)."""
    return measured(cluster, postgres, database, lambda: time.sleep(cfg.idle_seconds))[1]


def settle(cfg, cluster, tokens):
    """Sessions made through nginx are made on any node (a first request has no key: nginx places
    it by $request_id) and then belong to the node the ring gives their token. Once the maker's
    copy has gone unused for over a second, a short burst of writes through nginx tells the maker
    once and it lets go (after 1 s unused: SessionRegistry): the window after this sees the steady
    state. cfg.let_go_wait: 1.2 s (0.2 in a smoke run: the makers may still hold). One node: nothing."""
    if len(cluster.nodes) < 2:
        return
    time.sleep(cfg.let_go_wait)
    warm = [IfMatchWriter(cluster.base, t, f"warm{i}", pause=0.05) for i, t in enumerate(tokens)]
    for w in warm:
        w.start()
    time.sleep(0.5)
    for w in warm:
        w.stop()
    time.sleep(0.3)


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
    """BENCH_WRITERS sessions made through nginx, each written by one writer through nginx (so on
    its owner): (result, usage, counters' deltas, PostgreSQL transactions, LISTEN connections)."""
    tokens = [new_session(cluster.base) for _ in range(cfg.writers)]
    settle(cfg, cluster, tokens)
    writers = [IfMatchWriter(cluster.base, t, f"b{i}", pause=0) for i, t in enumerate(tokens)]
    return (*measured(cluster, postgres, database, lambda: write_for(cfg, writers)), listeners(postgres, database))


def owned(cfg, cluster, postgres, database):
    """The writes phase with every session owned by node 1 (sessions made through nginx until the
    ring gives BENCH_WRITERS of them to node 1): the other nodes serve none of their requests, so
    whatever CPU they spend above idle is what a private write costs the nodes that do not own it."""
    home, placing = address(cluster.nodes[0]), ring(cluster)
    tokens, made = [], 0
    while len(tokens) < cfg.writers:
        made += 1
        if made > 40 * cfg.writers * len(cluster.nodes):
            raise RuntimeError(f"{made} sessions made, {len(tokens)} placed on node 1 by the ring")
        token = new_session(cluster.base)
        if placing.owner(token) == home:
            tokens.append(token)
    settle(cfg, cluster, tokens)
    writers = [IfMatchWriter(cluster.base, t, f"o{i}", pause=0) for i, t in enumerate(tokens)]
    return measured(cluster, postgres, database, lambda: write_for(cfg, writers))


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
