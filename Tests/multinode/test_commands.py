"""Deferred commands across nodes (issue 11, item 4): a command runs on the node that accepted it,
the other nodes show it as executing while that node renews its lease, and once the node is
killed the command shows as interrupted everywhere as soon as the lease lapses."""

from __future__ import annotations

import time

import pytest

from multinode_client import call, expect, new_session

pytestmark = pytest.mark.postgres

LEASE = 3            # seconds (--command-lease): renewed every second, checked every second
SLOW = 60_000        # ms of upstream latency: the load outlives the test
# The tests slow the fake upstream down with PATCH /api/upstream: these nodes let anyone (the
# admin rule of that route is Tests/users/test_upstream_control.py's).
OPEN_UPSTREAM = ["--open-upstream-control"]


def list_on(base: str, token: str) -> dict:
    return expect(call(base, "GET", "/api/views/list", token), 200).json()


def test_a_killed_nodes_command_shows_interrupted_once_its_lease_lapses(cluster_factory, postgres, timings):
    cluster = cluster_factory(postgres.url(postgres.create_database()), 2,
                              extra=["--command-lease", str(LEASE), *OPEN_UPSTREAM], with_nginx=False)
    one, two = cluster.nodes
    token = new_session(one.base)
    assert list_on(two.base, token)["commands"]["load"]["executing"] is False, "node 2 holds the list before the load"
    endpoints = {"travel": {"latencyMs": SLOW}, "hotel": {"latencyMs": SLOW}}
    expect(call(one.base, "PATCH", "/api/upstream", body={"endpoints": endpoints}), 200)
    expect(call(one.base, "POST", "/api/views/list/commands/load", token), 202, "the load runs on node 1")

    # Node 2 hears of the start through the change feed (reads elsewhere are eventually
    # consistent, within the notify-to-push lag)...
    deadline = time.monotonic() + 2.0
    while not list_on(two.base, token)["commands"]["load"]["executing"] and time.monotonic() < deadline:
        time.sleep(0.02)
    # ...then, for longer than the lease, node 1's renewals keep the command running there.
    deadline = time.monotonic() + 2 * LEASE
    while time.monotonic() < deadline:
        shown = list_on(two.base, token)["commands"]["load"]
        assert shown["executing"] is True and shown["error"] is None, f"node 2 shows node 1's running load: {shown}"
        time.sleep(0.25)
    refused = call(two.base, "POST", "/api/views/list/commands/load", token)
    assert refused.status_code == 409, f"a second serial load on node 2 is refused while node 1 runs one: {refused.text}"

    one.kill9()
    killed = time.monotonic()
    while True:
        shown = list_on(two.base, token)["commands"]["load"]
        elapsed = time.monotonic() - killed
        if not shown["executing"] or elapsed > 4 * LEASE:
            break
        time.sleep(0.1)
    timings[f"a killed node's command shown interrupted after (lease {LEASE} s)"] = elapsed
    assert shown["executing"] is False, f"still executing {elapsed:.1f} s after node 1 died: {shown}"
    assert shown["error"] and shown["error"]["message"].startswith("Interrupted"), shown
    # At most a lease and a third after the last renewal, plus the renewals' and checks' rounds.
    assert elapsed <= LEASE + 2 * LEASE / 3 + 1.5, f"interrupted only after {elapsed:.1f} s"

    # The interruption is committed: node 1, back, does not show the load running either, and the
    # command runs again.
    one.start()
    again = list_on(one.base, token)
    assert again["commands"]["load"]["executing"] is False and again["commands"]["load"]["enabled"], again
    loaded = expect(call(two.base, "POST", "/api/views/list/commands/load", token, headers={"Prefer": "wait=10"}), 200)
    assert loaded.json()["commands"]["load"]["error"] is None


STOP_LEASE = 9       # seconds: a long lease, so a clean stop that gives it up is seen well before it lapses


def test_a_stopped_nodes_command_shows_interrupted_before_its_lease_would_lapse(cluster_factory, postgres, timings):
    """SIGTERM (a deploy, a scale-in): the node gives up its leases as it stops, so the other nodes
    show its command interrupted at their next check (every third of the lease), not a lease later."""
    cluster = cluster_factory(postgres.url(postgres.create_database()), 2,
                              extra=["--command-lease", str(STOP_LEASE), *OPEN_UPSTREAM], with_nginx=False)
    one, two = cluster.nodes
    token = new_session(one.base)
    endpoints = {"travel": {"latencyMs": SLOW}, "hotel": {"latencyMs": SLOW}}
    expect(call(one.base, "PATCH", "/api/upstream", body={"endpoints": endpoints}), 200)
    expect(call(one.base, "POST", "/api/views/list/commands/load", token), 202, "the load runs on node 1")
    deadline = time.monotonic() + 5.0
    while not list_on(two.base, token)["commands"]["load"]["executing"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list_on(two.base, token)["commands"]["load"]["executing"] is True, "node 2 shows node 1's running load"

    one.stop()
    stopped = time.monotonic()
    while True:
        shown = list_on(two.base, token)["commands"]["load"]
        elapsed = time.monotonic() - stopped
        if not shown["executing"] or elapsed > 3 * STOP_LEASE:
            break
        time.sleep(0.1)
    timings[f"a stopped node's command shown interrupted after (lease {STOP_LEASE} s)"] = elapsed
    assert shown["executing"] is False, f"still executing {elapsed:.1f} s after node 1 stopped: {shown}"
    assert shown["error"] and shown["error"]["message"].startswith("Interrupted"), shown
    # Given up: a third of the lease for node 2's next check. Not given up, the lease would lapse
    # at least two thirds of it after the stop (node 1 renewed it at most a third before).
    assert elapsed < 2 * STOP_LEASE / 3, f"interrupted only after {elapsed:.1f} s: the lease was not given up"
