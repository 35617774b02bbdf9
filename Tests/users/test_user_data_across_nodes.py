"""A user's data across devices and nodes on PostgreSQL (issue 37): Li Lei's favourite recipes (a
`UserRecords` of the seed app) are one set, whichever session and node changes them. Her laptop's
session on node B follows the recipe list; her phone's session on node A marks C-41 as a favourite:
the laptop's stream shows it, Han Meimei (on B too) never sees it, and both nodes still show it after
they restart (the data belongs to the user, not to a session). A token replaced by a sign-in on
node A is refused on node B, which held that session in memory.

Two nodes on a PostgreSQL database of their own (upstream latency 0). Time budget: 40 s (two node
restarts are most of it)."""

from __future__ import annotations

import json
import time

import pytest

from bindery_support import HAN_MEIMEI, LI_LEI
from users_client import EventStream, new_session, request, sign_in

pytestmark = pytest.mark.postgres

WAIT = 10.0   # seconds a node gets to hear another's commit or notice


@pytest.fixture(scope="module")
def cluster(cluster_factory):
    return cluster_factory(2, name="user-data")


def signed_in(base: str, account) -> str:
    answer = sign_in(base, account)
    assert answer.status == 200, answer
    return answer.json()["token"]


def favourites(base: str, token: str) -> dict[str, bool]:
    answer = request(base, "GET", "/api/views/recipes", token=token)
    assert answer.status == 200, answer
    return {row["id"]: row["outputs"]["favourite"] for row in answer.json()["outputs"]["recipes"]}


def mark(base: str, token: str, recipe: str, favourite: bool):
    answer = request(base, "POST", "/api/views/recipes/commands/favourite", {"id": recipe, "favourite": favourite},
                     headers={"Prefer": "wait=10"}, token=token)
    assert answer.status == 200, answer
    return answer


def shows_c41_favourite(stream: EventStream) -> bool:
    for event in stream.events:
        if event.kind == "snapshot" and '"favourite":true' in event.data.replace(" ", ""):
            return True
        if event.kind == "patch" and "favourite" in event.data and "true" in event.data:
            return True
    return False


def test_a_users_favourites_follow_them_across_sessions_and_nodes_and_stay_theirs(cluster):
    a, b = cluster.nodes
    phone, laptop, han = signed_in(a.base, LI_LEI), signed_in(b.base, LI_LEI), signed_in(b.base, HAN_MEIMEI)
    assert favourites(b.base, laptop)["c41"] is False
    stream = EventStream(b.base, "/api/events?views=recipes", laptop)
    try:
        assert stream.wait_for(lambda s: "snapshot" in s.kinds(), 5), (stream.status, stream.kinds(), stream.error)
        mark(a.base, phone, "c41", True)
        assert stream.wait_for(shows_c41_favourite, WAIT), f"the laptop's stream never showed it: {stream.kinds()}"
    finally:
        stream.close()
    assert favourites(b.base, laptop)["c41"] is True
    assert favourites(a.base, phone) == {"c41": True, "d76": False}
    assert favourites(b.base, han) == {"c41": False, "d76": False}, "another user's favourites are not hers"
    anonymous = new_session(b.base)
    assert favourites(b.base, anonymous) == {"c41": False, "d76": False}
    refused = request(b.base, "POST", "/api/views/recipes/commands/favourite", {"id": "d76", "favourite": True},
                      token=anonymous)
    assert refused.status == 401, refused

    # The favourites are the user's, not a session's: new sessions after both nodes restarted see them.
    for node in (a, b):
        node.stop()
        node.start()
    later = signed_in(a.base, LI_LEI)
    assert favourites(a.base, later)["c41"] is True
    mark(a.base, later, "c41", False)
    assert favourites(b.base, signed_in(b.base, LI_LEI))["c41"] is False


def test_a_token_replaced_on_one_node_is_refused_on_the_other(cluster):
    a, b = cluster.nodes
    old = new_session(a.base)
    written = request(b.base, "PATCH", "/api/views/form", {"phone": "13800000000"}, token=old)
    assert written.status == 200, written     # node B now holds the session in memory
    answer = sign_in(a.base, HAN_MEIMEI, token=old)
    assert answer.status == 200, answer
    new = answer.json()["token"]
    refused = None
    for _ in range(int(WAIT / 0.1)):
        refused = request(b.base, "GET", "/api/views/form", token=old)
        if refused.status == 401:
            break
        time.sleep(0.1)
    assert refused is not None and refused.status == 401, f"node B still serves the old token: {refused}"
    kept = request(b.base, "GET", "/api/views/form", token=new)
    assert kept.status == 200, kept
    assert kept.json()["inputs"]["phone"] == "13800000000", "the session kept its state under its new token"
    assert json.loads(kept.body)["outputs"]["signedInAs"] == "Han Meimei"
