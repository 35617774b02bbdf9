"""The nodes' LISTEN connection is killed from the database side (`pg_terminate_backend`) while
a node writes and another node's watchers wait for pushes (issue 11): the node reconnects with
back-off, listens again and catches up from the version log, so watchers still get every version.

A LISTEN connection is recognised from pg_stat_activity as one whose last statement was LISTEN
(an idle connection that only listens shows `LISTEN "channel"`) or whose application_name names
listening (e.g. `bindery-listen`); see Postgres.terminate_listeners."""

from __future__ import annotations

import time

import pytest

from multinode_client import WRITTEN, IfMatchWriter, Watcher, call, expect, gaps, new_session

pytestmark = pytest.mark.postgres

SESSIONS = 3
CATCH_UP = 10.0     # seconds: back-off, re-LISTEN and catch-up must bring watchers up to date within this


def test_watchers_get_every_version_when_the_listen_connection_is_killed(pg_cluster):
    postgres, database = pg_cluster.postgres, pg_cluster.database
    watched, writing = pg_cluster.nodes[0], pg_cluster.nodes[1]
    tokens = [new_session(writing.base) for _ in range(SESSIONS)]
    watchers = [Watcher(watched.base, token, path=WRITTEN, name=f"listen-watch-{i}") for i, token in enumerate(tokens)]
    writers = [IfMatchWriter(writing.base, token, f"listen-{i}", pause=0.05) for i, token in enumerate(tokens)]
    killed_rounds = []
    try:
        for watcher in watchers:
            watcher.start()
        for watcher in watchers:
            assert watcher.wait_open(5), f"{watcher.name}: no first event within 5 s: {watcher.errors}"
        deadline = time.monotonic() + 10
        while not any(b["query"].upper().startswith("LISTEN") or "listen" in b["application_name"].lower()
                      for b in postgres.backends(database)):
            assert time.monotonic() < deadline, (
                "no LISTEN connection in pg_stat_activity within 10 s of watching: expected each node to hold one "
                f"whose last statement is LISTEN or whose application_name names listening; backends: "
                f"{postgres.backends(database)}")
            time.sleep(0.1)
        for writer in writers:
            writer.start()
        for _ in range(3):
            time.sleep(1.0)
            killed = postgres.terminate_listeners(database)
            assert killed, f"no LISTEN connection to terminate; backends: {postgres.backends(database)}"
            killed_rounds.append(len(killed))
        time.sleep(1.0)
    finally:
        for writer in writers:
            writer.stop()
    try:
        for writer in writers:
            assert not writer.log.unexpected and not writer.log.unauthorized, (writer.name, writer.log)
            assert writer.log.acks, f"{writer.name}: no write acknowledged while the LISTEN connections were killed"
        for watcher, writer in zip(watchers, writers):
            last = writer.log.acks[-1].version
            assert watcher.wait_for_version(last, CATCH_UP), (
                f"{watcher.name} on {watched.name} never got version {last} (written on {writing.name}) within "
                f"{CATCH_UP} s after its LISTEN connection was killed: last seen {watcher.versions()[-3:]}")
            problems, _ = gaps(watcher)
            assert not problems, f"{watcher.name}: {problems[:5]}"
            seen = {e.version: e.inputs for e in watcher.events}
            missing = [a.version for a in writer.log.acks if a.version not in seen]
            assert not missing, f"{watcher.name}: acknowledged versions never pushed: {missing[:10]}"
            assert all(seen[a.version] == a.inputs for a in writer.log.acks), f"{watcher.name}: pushed inputs differ"
            assert watcher.connections == 1, (
                f"{watcher.name}: the stream itself should have stayed open (only the database connection died), "
                f"it was opened {watcher.connections} times")
        # The nodes still serve and still push after all that.
        token = tokens[0]
        city = next(c for c in (1, 10) if c != watchers[0].events[-1].inputs["currentCityId"])
        expect(call(writing.base, "PATCH", f"/api/views/{WRITTEN}", token, {"currentCityId": city}), 200)
        assert watchers[0].wait_for(lambda w: w.events[-1].inputs.get("currentCityId") == city, CATCH_UP), (
            "a PATCH after the kills did not reach the watcher on the other node")
    finally:
        for watcher in watchers:
            watcher.stop()
    print(f"\nLISTEN backends terminated per round: {killed_rounds}; "
          f"versions pushed: {[len(w.events) for w in watchers]}")
