"""Idempotency-Key across nodes on PostgreSQL (issue 28, item 1): the key is claimed with the
request's write in the shared database, so a retry on another node, or after the first node was
killed, gets the first answer and applies nothing; two nodes running the same request at once add
one step, not two."""

from __future__ import annotations

import threading
import uuid

import pytest

from bindery_support import LI_LEI, sign_in
from multinode_client import call, expect

pytestmark = pytest.mark.postgres

EDIT = "/api/views/recipes/c41/edit"


def steps_named(base: str, token: str, name: str) -> int:
    steps = expect(call(base, "GET", EDIT, token), 200).json()["outputs"]["steps"]
    return sum(1 for step in steps if step["inputs"]["name"] == name)


def add_step(base: str, token: str, key: str, name: str):
    return call(base, "POST", f"{EDIT}/commands/addStep", token, body={"name": name, "durationSeconds": 30},
                headers={"Idempotency-Key": key, "Prefer": "wait=5"})


def test_a_retry_on_another_node_or_after_a_kill_gets_the_first_answer(cluster_factory, postgres):
    cluster = cluster_factory(postgres.url(postgres.create_database()), 2, with_nginx=False)
    one, two = cluster.nodes
    token = sign_in(one.base, LI_LEI)   # adding a step needs a signed-in session
    name = f"rinse-{uuid.uuid4().hex[:6]}"
    key = str(uuid.uuid4())
    first = add_step(one.base, token, key, name)
    assert first.status_code == 200, first.text
    retry = add_step(two.base, token, key, name)
    assert retry.status_code == 200 and retry.headers.get("Idempotent-Replayed") == "true", retry.headers
    assert retry.content == first.content, "the first answer, byte for byte"
    one.kill9()
    one.start()
    again = add_step(one.base, token, key, name)
    assert again.headers.get("Idempotent-Replayed") == "true" and again.content == first.content
    assert steps_named(two.base, token, name) == 1
    other = call(two.base, "POST", f"{EDIT}/commands/addStep", token, body={"name": "other", "durationSeconds": 1},
                 headers={"Idempotency-Key": key})
    assert other.status_code == 422, other.text


def test_the_same_request_on_two_nodes_at_once_adds_one_step(cluster_factory, postgres):
    cluster = cluster_factory(postgres.url(postgres.create_database()), 2, with_nginx=False)
    one, two = cluster.nodes
    token = sign_in(one.base, LI_LEI)   # adding a step needs a signed-in session
    outcomes: list[tuple[int, str | None]] = []
    refusals: list[str] = []
    names = []
    for _ in range(10):
        name = f"once-{uuid.uuid4().hex[:6]}"
        names.append(name)
        key = str(uuid.uuid4())
        barrier = threading.Barrier(2)

        def send(base: str) -> None:
            barrier.wait()
            answer = add_step(base, token, key, name)
            outcomes.append((answer.status_code, answer.headers.get("Idempotent-Replayed")))
            if answer.status_code not in (200, 409):
                refusals.append(answer.text)

        threads = [threading.Thread(target=send, args=(node.base,)) for node in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    for name in names:
        assert steps_named(one.base, token, name) == 1, f"{name} added twice: {outcomes}"
    # Every answer is the first one's, a replay of it, or "still running" (409, retry later).
    print(f"same key on two nodes at once, 10 times: {sorted(outcomes, key=str)}")
    # Two transactions locking the same rows in opposite orders are a deadlock PostgreSQL breaks
    # by refusing one: the writer runs that transaction again rather than answering 503.
    assert not refusals, refusals
