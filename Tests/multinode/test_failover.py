"""Through nginx, under a bounded mixed load, every node is restarted one after the other, then
one is killed with SIGKILL (issue 11). Afterwards every acknowledged write is in the store, every
watcher's versions only increased with no gap (or a full snapshot covered it), and no session was
lost (no 401 for a session that existed).

The load (multinode_load.py): one writer per session for most sessions and two writers sharing one
session (they conflict: 412, re-read, go on), all PATCHing the session's list (its current city)
with If-Match through nginx; one SSE watcher per session through nginx, resuming with Last-Event-ID
whenever its node goes away."""

from __future__ import annotations

import pytest

from multinode_client import WRITTEN, call, etag_version, expect
from multinode_load import check_acknowledged, check_sessions, check_watchers, roll

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def rolled(pg_cluster):
    return roll(pg_cluster)


def test_every_acknowledged_write_is_in_the_store(rolled, pg_cluster):
    summary = check_acknowledged(rolled)
    # Read every session on a surviving node directly too, not only through nginx.
    alive = next(n for n in pg_cluster.nodes if n.running)
    for token in rolled.tokens:
        direct = expect(call(alive.base, "GET", f"/api/views/{WRITTEN}", token), 200, f"reading on {alive.name}")
        assert etag_version(direct) >= rolled.finals[token]["version"]
    print(f"\n{summary}")


def test_watchers_versions_only_increase_without_gaps(rolled):
    print(f"\n{check_watchers(rolled)}")


def test_no_session_was_lost(rolled):
    check_sessions(rolled)
