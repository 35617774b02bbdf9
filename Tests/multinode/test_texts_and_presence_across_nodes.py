"""Collaborative texts and presence across nodes on PostgreSQL (issue 27): text edits sent to
three nodes at once on stale revisions are ordered by the record's version (a node that loses the
race reloads, transforms again and retries) and every node ends with the same text holding each
marker once; a repeated edit id sent to another node applies nothing; presence said on one node
(by a signed-in user: shown with the user's name) reaches a stream on another and leaves it.
Budget: 30 s."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import requests

from bindery_support import HAN_MEIMEI, LI_LEI, sign_in
from multinode_client import TIMEOUT, auth, call, expect, new_session

pytestmark = pytest.mark.postgres

EDIT = "/api/views/recipes/d76/edit"
MARKERS = 30            # edits per client
SETTLE = 5.0            # seconds for every node to show the last edit


def post_edit(base: str, token: str, edit: dict) -> requests.Response:
    return call(base, "POST", f"{EDIT}/inputs/blurb/ops", token, edit)


def test_edits_sent_to_three_nodes_at_once_merge_in_one_order(pg_cluster):
    nodes = pg_cluster.nodes
    # Editing the text needs a signed-in session: one per node, the two demo accounts in turn.
    tokens = [sign_in(node.base, (LI_LEI, HAN_MEIMEI)[i % 2]) for i, node in enumerate(nodes)]
    start = expect(call(nodes[0].base, "GET", f"{EDIT}/inputs/blurb", tokens[0]), 200).json()
    errors: list[str] = []
    answers: dict[str, list[dict]] = {}

    def typist(index: int) -> None:
        node, token, rng = nodes[index], tokens[index], random.Random(index)
        base, mine = start["revision"], []
        for n in range(MARKERS):
            marker = f"<{'abc'[index]}{n:02d}>"
            # Always at the start of the text as this client last knew it: valid on any base, and
            # often stale by the time it arrives (the others edit meanwhile).
            edit = {"id": f"{index}-{n}", "base": base, "ops": [{"p": 0, "si": marker}]}
            answer = post_edit(node.base, token, edit)
            if answer.status_code != 200:
                errors.append(f"{node.name} {edit}: {answer.status_code} {answer.text[:200]}")
                return
            mine.append({**answer.json(), "sent": edit})
            if rng.random() < 0.7:
                base = answer.json()["revision"]  # sometimes keep typing on an older revision
        answers[node.name] = mine

    threads = [threading.Thread(target=typist, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors

    revisions = sorted(a["revision"] for mine in answers.values() for a in mine)
    assert len(set(revisions)) == 3 * MARKERS, "every edit got a revision of its own"
    last = revisions[-1]
    deadline = time.monotonic() + SETTLE
    texts = {}
    while time.monotonic() < deadline:
        texts = {node.name: call(node.base, "GET", f"{EDIT}/inputs/blurb", tokens[0]).json() for node in nodes}
        if all(t["revision"] == last for t in texts.values()):
            break
        time.sleep(0.05)
    assert all(t["revision"] == last for t in texts.values()), f"not every node shows revision {last}: {texts}"
    assert len({t["text"] for t in texts.values()}) == 1, f"the nodes disagree: {texts}"
    text = next(iter(texts.values()))["text"]
    assert text.endswith(start["text"])
    for index in range(3):
        markers = [f"<{'abc'[index]}{n:02d}>" for n in range(MARKERS)]
        for marker in markers:
            assert text.count(marker) == 1, f"{marker} should be in the text once: {text}"
        positions = [text.index(m) for m in markers]
        assert positions == sorted(positions, reverse=True), f"client {index}'s markers out of order: {text}"

    # A retry of an edit (its answer lost) on another node answers the first answer again.
    latest = answers[nodes[0].name][-1]
    again = expect(post_edit(nodes[2].base, tokens[0], latest["sent"]), 200)
    assert again.json()["revision"] == latest["revision"]
    after = call(nodes[1].base, "GET", f"{EDIT}/inputs/blurb", tokens[1]).json()
    assert after == {"text": text, "revision": last}, "the retry applied nothing"


def test_presence_said_on_one_node_reaches_a_stream_on_another(pg_cluster):
    one, two, _ = pg_cluster.nodes
    # The typist is signed in (presence shows the user's name); the watcher only reads.
    typist, watcher = sign_in(one.base, HAN_MEIMEI), new_session(two.base)
    events: list[dict] = []
    stop = threading.Event()

    def follow() -> None:
        with requests.get(f"{two.base}{EDIT}/events", headers={**auth(watcher), "Accept": "text/event-stream"},
                          stream=True, timeout=(TIMEOUT, 10)) as response:
            kind = None
            for line in response.iter_lines(decode_unicode=True):
                if stop.is_set():
                    return
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "presence":
                    events.append(json.loads(line[6:]))
                elif line == "":
                    kind = None

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    time.sleep(0.5)  # the stream is open on node 2

    here = expect(call(one.base, "PUT", f"{EDIT}/presence", typist, {"field": "blurb"}), 200).json()
    assert here["you"]["name"] == HAN_MEIMEI.name, f"a signed-in session's presence shows its user's name: {here}"
    assert wait(lambda: any(o["id"] == here["you"]["id"] and o["field"] == "blurb"
                            for e in events for o in e["others"])), f"node 2's stream never saw it: {events}"
    seen = call(two.base, "GET", f"{EDIT}/presence", watcher).json()
    assert [o["name"] for o in seen["others"]] == [here["you"]["name"]]

    expect(call(one.base, "DELETE", f"{EDIT}/presence", typist), 200)
    assert wait(lambda: events and events[-1]["others"] == []), f"node 2 never saw them leave: {events}"
    stop.set()


def wait(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False
