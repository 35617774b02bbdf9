"""Two people typing into one collaborative text through two nodes on one PostgreSQL database: A's
browser talks to node 1, B's to node 2, each at 10 characters per second for 20 s into the recipe
c41's blurb (Tests/collab_typing.py). The operations each node applies are transformed against
those the other committed, and the `edits` events of both reach both browsers: both fields end
equal to the text every node serves, with every character of each typist, in order, and each
caret right after its typist's last character after every keystroke.

Runtime budget: at most 90 s for the file (the cluster's start, two browsers, 21 s of typing).
"""

from __future__ import annotations

import pytest

from bindery_support import api_session, browsers
from collab_typing import open_editor, slow_network, type_together

pytestmark = pytest.mark.postgres

RECIPE = "c41"


@pytest.fixture
def two_browsers():
    """Two browsers, two users."""
    with browsers(2) as drivers:
        yield drivers


def test_two_people_typing_through_two_nodes_keep_every_character(pg_cluster, two_browsers):
    one, two, three = pg_cluster.nodes
    call = api_session(one.base)
    path = f"/api/views/recipes/{RECIPE}/edit"
    call("PATCH", path, {"blurb": ""}, content_type="application/merge-patch+json")
    a, b = two_browsers
    open_editor(a, one.base, RECIPE)
    open_editor(b, two.base, RECIPE)
    slow_network(a, 80)
    slow_network(b, 120)
    figures = type_together(a, b, lambda: call("GET", f"{path}/inputs/blurb")["text"], seconds=20, rate=10)
    assert figures["typed A"] == figures["typed B"] == 200 and figures["final length"] == 400
    assert figures["client A"]["diverged"] == figures["client B"]["diverged"] == 0
    final = call("GET", f"{path}/inputs/blurb")["text"]
    for node in (two, three):
        assert api_session(node.base)("GET", f"{path}/inputs/blurb")["text"] == final, f"{node.name} serves another text"
