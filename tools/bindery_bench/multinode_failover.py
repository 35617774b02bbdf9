"""bench-multinode's failover phase (issue 43, item 5): BENCH_FAILOVER_SESSIONS private sessions
made through nginx, each with an event stream through nginx (multinode_client.Watcher: it
reconnects with Last-Event-ID) and a writer through nginx (If-Match, a pause of
BENCH_FAILOVER_PAUSE between writes). Each round kill -9s the node nginx's ring gives the most
sessions, and for each of its sessions measures the time from the kill to the next acknowledged
write and to the stream's next event; then restarts the node, waits until nginx sends its sessions
back (its requests counter grows) and reconnects their streams (so that each round kills streams
on the owner). Afterwards: every acknowledged version in its session's stream exactly once with the
acknowledged inputs, no gap (multinode_client.gaps), nothing acknowledged twice, no session lost."""

from __future__ import annotations

import socket
import time
from collections import Counter

from .multinode_measure import counters
from .multinode_phases import address, new_session, ring  # multinode_phases puts Tests/ on the path
from multinode_client import WRITTEN, IfMatchWriter, Watcher, call, expect, gaps  # noqa: E402

WAIT = 15.0         # s: the longest a round waits for every session's next write and event
BACK = 15.0         # s: the longest a restarted node waits for its sessions to come back


def reconnect(watcher: Watcher) -> None:
    """Ends the watcher's current stream: it connects again with Last-Event-ID, through nginx."""
    conn = watcher._conn
    if conn is not None and conn.sock is not None:
        try:
            conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def first_after(times, moment):
    later = [t for t in times if t > moment]
    return min(later) - moment if later else None


def one_round(cluster, placing, tokens, writers, watchers, last):
    owners = Counter(placing.owner(t) for t in tokens)
    victim_address, _ = owners.most_common(1)[0]
    victim = next(n for n in cluster.nodes if address(n) == victim_address)
    mine = [i for i, t in enumerate(tokens) if placing.owner(t) == victim_address]
    killed = time.monotonic()
    victim.kill9()
    deadline = killed + WAIT
    while time.monotonic() < deadline:
        if all(any(a.at > killed for a in writers[i].log.acks) and any(e.at > killed for e in watchers[i].events)
               for i in mine):
            break
        time.sleep(0.05)
    acked = [first_after([a.at for a in writers[i].log.acks], killed) for i in mine]
    resumed = [first_after([e.at for e in watchers[i].events], killed) for i in mine]
    victim.start()
    began, back = time.monotonic(), None
    while time.monotonic() < began + BACK:
        if counters(victim)[4] >= 2 * len(mine):   # each session's writer has read and written there
            back = time.monotonic() - began
            break
        time.sleep(0.1)
    if not last:   # the next round kills streams on the owner again
        for i in mine:
            reconnect(watchers[i])
        time.sleep(1.0)
    return {"victim": victim.name, "sessions": len(mine), "acked": acked, "resumed": resumed, "back": back}


def checks(tokens, writers, watchers, finals):
    """lost, doubled, gap problems and other problems, as lists of strings."""
    lost, doubled, problems, other = [], [], [], []
    for i, (token, writer, watcher) in enumerate(zip(tokens, writers, watchers)):
        other += [f"session {i}: {u}" for u in writer.log.unexpected]
        if writer.log.unauthorized or watcher.unauthorized:
            lost.append(f"session {i}: 401 (session lost)")
        made = [a.version for a in writer.log.acks if a.base is None or a.version == a.base + 1]
        doubled += [f"session {i}: version {v} acknowledged twice" for v, n in Counter(made).items() if n > 1]
        pushed = Counter(e.version for e in watcher.events)
        doubled += [f"session {i}: version {v} pushed {n} times" for v, n in pushed.items() if n > 1]
        inputs = {e.version: e.inputs for e in watcher.events}
        for ack in writer.log.acks:
            if ack.version not in inputs:
                lost.append(f"session {i}: acknowledged version {ack.version} never pushed")
            elif inputs[ack.version] != ack.inputs:
                lost.append(f"session {i}: version {ack.version} acknowledged {ack.inputs}, pushed {inputs[ack.version]}")
        if writer.log.acks and finals[token] < max(a.version for a in writer.log.acks):
            lost.append(f"session {i}: read back version {finals[token]}, older than an acknowledged one")
        problems += [f"session {i}: {p}" for p in gaps(watcher)[0]]
    return lost, doubled, problems, other


def failover(cfg, cluster):
    """A dict: rounds (list of one_round's dicts), writes, ambiguous, lost, doubled, gaps, other."""
    placing = ring(cluster)
    tokens = [new_session(cluster.base) for _ in range(cfg.failover_sessions)]
    watchers = [Watcher(cluster.base, t, path=WRITTEN, name=f"failover-watch{i}", max_seconds=3600)
                for i, t in enumerate(tokens)]
    writers = [IfMatchWriter(cluster.base, t, f"failover{i}", pause=cfg.failover_pause, max_seconds=3600)
               for i, t in enumerate(tokens)]
    rounds = []
    try:
        try:
            for w in watchers:
                w.start()
            for w in watchers:
                if not w.wait_open(5):
                    raise RuntimeError(f"{w.name}: no first event through nginx within 5 s: {w.errors}")
            for w in writers:
                w.start()
            time.sleep(cfg.failover_warmup)
            for n in range(cfg.failover_rounds):
                rounds.append(one_round(cluster, placing, tokens, writers, watchers, n == cfg.failover_rounds - 1))
        finally:
            for w in writers:
                w.stop()
        finals = {t: expect(call(cluster.base, "GET", f"/api/views/{WRITTEN}", t), 200,
                            "reading a session back after the failovers").json()["version"] for t in tokens}
        for watcher, token in zip(watchers, tokens):
            watcher.wait_for_version(finals[token], 10)
    finally:
        for w in watchers:
            w.stop()
    lost, doubled, problems, other = checks(tokens, writers, watchers, finals)
    return {"rounds": rounds, "writes": sum(len(w.log.acks) for w in writers),
            "ambiguous": sum(w.log.ambiguous for w in writers), "conflicts": sum(w.log.conflicts for w in writers),
            "reconnects": sum(w.connections - 1 for w in watchers),
            "lost": lost, "doubled": doubled, "gaps": problems, "other": other}
