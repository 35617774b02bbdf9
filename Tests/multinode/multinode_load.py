"""The bounded mixed load of the rolling-restart test (test_failover.py), and its checks: writers
with If-Match and SSE watchers through nginx while every node is restarted one after the other,
then one is killed with SIGKILL. test_harness.py runs it on one SQLite node to check the harness."""

from __future__ import annotations

import time
from dataclasses import dataclass

from multinode_client import WRITTEN, IfMatchWriter, Watcher, call, expect, gaps, new_session

SOLO = 4            # sessions with one writer each (one more session is shared by two writers)
SETTLE = 1.5        # seconds of load before, between and after the node changes
CATCH_UP = 10.0     # seconds the watchers get to reach each session's final version


@dataclass
class Rolled:
    tokens: list[str]
    writers: list[IfMatchWriter]
    watchers: list[Watcher]         # watchers[i] watches tokens[i]
    finals: dict[str, dict]         # each session's list read back through nginx at the end
    steps: list[str]


def roll(cluster, victim_index: int = 1) -> Rolled:
    """Under load through nginx, restarts every node one after the other (SIGTERM, start), then
    kill -9s nodes[victim_index] (a single node is started again). Stops every client, even when
    something fails."""
    base = cluster.base
    tokens = [new_session(base) for _ in range(SOLO + 1)]
    writers = [IfMatchWriter(base, token, f"s{i}") for i, token in enumerate(tokens[:SOLO])]
    writers += [IfMatchWriter(base, tokens[-1], "shared-a"), IfMatchWriter(base, tokens[-1], "shared-b")]
    watchers = [Watcher(base, token, path=WRITTEN, name=f"watch-{i}") for i, token in enumerate(tokens)]
    steps: list[str] = []
    try:
        try:
            for watcher in watchers:
                watcher.start()
            for watcher in watchers:
                assert watcher.wait_open(5), f"{watcher.name}: no first event through nginx within 5 s: {watcher.errors}"
            for writer in writers:
                writer.start()
            time.sleep(SETTLE)
            for node in cluster.nodes:
                began = time.monotonic()
                node.restart()
                steps.append(f"restart {node.name}: {time.monotonic() - began:.2f} s")
                time.sleep(SETTLE)
            victim = cluster.nodes[min(victim_index, len(cluster.nodes) - 1)]
            victim.kill9()
            steps.append(f"kill -9 {victim.name}")
            if len(cluster.nodes) == 1:
                victim.start()
            time.sleep(SETTLE * 2)
        finally:
            for writer in writers:
                writer.stop()
        finals = {token: expect(call(base, "GET", f"/api/views/{WRITTEN}", token), 200,
                                "reading a session back through nginx after the restarts").json() for token in tokens}
        for watcher, token in zip(watchers, tokens):
            watcher.wait_for_version(finals[token]["version"], CATCH_UP)
    finally:
        for watcher in watchers:
            watcher.stop()
    return Rolled(tokens, writers, watchers, finals, steps)


def check_acknowledged(rolled: Rolled) -> str:
    """Every acknowledged write is in the store: no version acknowledged twice, the read-back is
    at or after the last acknowledged version (with its inputs when equal), and the watcher saw
    each acknowledged version with the acknowledged inputs. Returns a summary line."""
    by_token: dict[str, list] = {}
    for writer in rolled.writers:
        assert not writer.log.unexpected, f"{writer.name}: {writer.log.unexpected}"
        by_token.setdefault(writer.token, []).extend(writer.log.acks)
    total = sum(len(w.log.acks) for w in rolled.writers)
    assert total >= 50, f"only {total} writes acknowledged under load: the nodes barely served ({rolled.steps})"
    for token, acks in by_token.items():
        # Two writes answered as the very version they made (If-Match n, answered n + 1): one of
        # them is lost. An answer may show a later version than its own write (another writer's
        # write right after it, on the same node): that version is shared, and nothing is lost.
        versions = [a.version for a in acks if a.base is None or a.version == a.base + 1]
        twice = sorted({v for v in versions if versions.count(v) > 1})
        assert not twice, f"two writes were acknowledged as making the same version(s) {twice}: one of them is lost"
        last = max(acks, key=lambda a: a.version)
        final = rolled.finals[token]
        assert final["version"] >= last.version, (
            f"read back version {final['version']}, older than the acknowledged {last.version}")
        if final["version"] == last.version:
            assert final["inputs"] == last.inputs, (
                f"version {last.version}: read back {final['inputs']}, acknowledged {last.inputs}")
        seen = {e.version: e.inputs for e in rolled.watchers[rolled.tokens.index(token)].events}
        for acked in acks:
            assert acked.version in seen, f"acknowledged version {acked.version} was never pushed to the watcher"
            assert seen[acked.version] == acked.inputs, (
                f"version {acked.version} was acknowledged with {acked.inputs} but pushed as {seen[acked.version]}")
    conflicts = sum(w.log.conflicts for w in rolled.writers)
    ambiguous = sum(w.log.ambiguous for w in rolled.writers)
    return (f"{total} writes acknowledged, {conflicts} conflicts (412), {ambiguous} without a clear answer; "
            f"{'; '.join(rolled.steps)}")


def check_watchers(rolled: Rolled) -> str:
    """Every watcher's versions only increased, with no gap unless a full snapshot covered it, up
    to its session's final version; every stream was ended by the restarts and resumed."""
    covered_total = 0
    for watcher, token in zip(rolled.watchers, rolled.tokens):
        problems, covered = gaps(watcher)
        covered_total += covered
        assert not problems, f"{watcher.name} (connections {watcher.connections}): {problems[:5]}"
        final = rolled.finals[token]["version"]
        last = watcher.events[-1].version if watcher.events else None
        assert last == final, (
            f"{watcher.name} should reach the final version {final} within {CATCH_UP} s, its last is {last}")
    reconnects = [w.connections - 1 for w in rolled.watchers]
    assert all(reconnects), f"the restarts should have ended every watcher's stream at least once: {reconnects}"
    return f"{sum(reconnects)} reconnects with Last-Event-ID, {covered_total} jumps covered by a full snapshot"


def check_sessions(rolled: Rolled) -> None:
    """No session was lost: no 401 for any of them; streams refused only while a node was away."""
    lost = [f"{w.name}: {w.log.unauthorized}" for w in rolled.writers if w.log.unauthorized]
    lost += [f"{w.name}: {w.unauthorized}" for w in rolled.watchers if w.unauthorized]
    assert not lost, f"a session that existed got 401 (lost): {lost}"
    other = sorted({s for w in rolled.watchers for s in w.statuses if s not in (200, 502, 503, 504)})
    assert not other, f"event streams were refused with {other}"
