"""Writers of one shared record wait their turn (issue 43, item 3): four signed-in writers, two on
each of two nodes, add steps to the same recipe at once. A write that another node committed
first is applied again on the newer version by the server (SharedCollection.writePatience), so
every step is acknowledged on its first try, or its second at worst, and present exactly once;
none is refused for contention. Budget: about 20 s."""

from __future__ import annotations

import threading
import uuid

import pytest

from bindery_support import LI_LEI, sign_in
from multinode_client import call, expect

pytestmark = pytest.mark.postgres

EDIT = "/api/views/recipes/c41/edit"
WRITERS_PER_NODE = 2
STEPS_PER_WRITER = 8


def test_four_writers_on_two_nodes_add_steps_to_one_recipe_without_a_refusal(cluster_factory, postgres):
    cluster = cluster_factory(postgres.url(postgres.create_database()), 2, with_nginx=False)
    writers = [(node, sign_in(node.base, LI_LEI)) for node in cluster.nodes for _ in range(WRITERS_PER_NODE)]
    run = uuid.uuid4().hex[:6]
    tries: dict[str, int] = {}
    refusals: list[str] = []
    errors: list[str] = []
    barrier = threading.Barrier(len(writers), timeout=30)

    def write(index: int, node, token: str) -> None:
        try:
            barrier.wait()
            for n in range(STEPS_PER_WRITER):
                name = f"{run}-w{index}-s{n}"
                key = str(uuid.uuid4())
                for attempt in range(1, 6):
                    answer = call(node.base, "POST", f"{EDIT}/commands/addStep", token,
                                  body={"name": name, "durationSeconds": 30},
                                  headers={"Idempotency-Key": key, "Prefer": "wait=10"})
                    if answer.status_code == 200:
                        tries[name] = attempt
                        break
                    refusals.append(f"{name} try {attempt}: {answer.status_code} {answer.text[:120]}")
                else:
                    errors.append(f"{name}: not acknowledged in 5 tries")
        except Exception as error:  # reported below, with the others
            errors.append(f"writer {index}: {error!r}")

    threads = [threading.Thread(target=write, args=(i, node, token)) for i, (node, token) in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    expected = WRITERS_PER_NODE * len(cluster.nodes) * STEPS_PER_WRITER
    assert len(tries) == expected, f"{len(tries)} of {expected} steps acknowledged"
    late = {name: attempt for name, attempt in tries.items() if attempt > 2}
    assert not late, f"steps acknowledged only after their second try: {late}; refusals: {refusals}"
    assert not refusals, f"refused for contention: {refusals}"
    steps = expect(call(cluster.nodes[0].base, "GET", EDIT, writers[0][1]), 200).json()["outputs"]["steps"]
    names = [step["inputs"]["name"] for step in steps if step["inputs"]["name"].startswith(run)]
    assert sorted(names) == sorted(tries), "every acknowledged step once, and nothing else"
    first = sum(1 for attempt in tries.values() if attempt == 1)
    print(f"\n{expected} steps from {len(writers)} writers on 2 nodes: {first} on the first try, no refusal")
