"""Two people typing into one collaborative text through nginx in front of two nodes on one
PostgreSQL database (nginx places each browser's session on a node by its token: on one node or
on two, as the tokens fall; test_texts_and_presence_across_nodes.py types on two nodes for sure), signed
in as the two demo accounts (Li Lei and Han Meimei), each at 10 characters per second for 20 s into
the recipe c41's blurb (Tests/collab_typing.py). The operations each node applies are transformed
against those the other committed, and the `edits` events of both reach both browsers: both fields
end equal to the text every node serves, with every character of each typist, in order, and each
caret right after its typist's last character after every keystroke.

Runtime budget: at most 90 s for the file (the cluster's start, two browsers, 21 s of typing).
"""

from __future__ import annotations

import pytest

from bindery_support import HAN_MEIMEI, LI_LEI, api_session, browsers
from collab_typing import open_editor, slow_network, type_together

# It asserts a time bound (or types against the clock): it runs alone, when no other test does
# (scripts/test's last step), so the machine's other work does not decide its verdict.
pytestmark = [pytest.mark.postgres, pytest.mark.alone]

RECIPE = "c41"


@pytest.fixture
def two_browsers():
    """Two browsers, two users (each signs in as a demo account of its own: editing needs a user)."""
    with browsers(2) as drivers:
        yield drivers


def test_two_people_typing_through_two_nodes_keep_every_character(cluster_factory, postgres, database, two_browsers):
    cluster = cluster_factory(postgres.url(database), 2, parallel=True)
    one, two = cluster.nodes
    call = api_session(one.base, LI_LEI)
    path = f"/api/views/recipes/{RECIPE}/edit"
    call("PATCH", path, {"blurb": ""}, content_type="application/merge-patch+json")
    a, b = two_browsers
    open_editor(a, cluster.base, RECIPE, LI_LEI)
    open_editor(b, cluster.base, RECIPE, HAN_MEIMEI)
    slow_network(a, 80)
    slow_network(b, 120)
    figures = type_together(a, b, lambda: call("GET", f"{path}/inputs/blurb")["text"], seconds=20, rate=10)
    assert figures["typed A"] == figures["typed B"] == 200 and figures["final length"] == 400
    assert figures["client A"]["diverged"] == figures["client B"]["diverged"] == 0
    final = call("GET", f"{path}/inputs/blurb")["text"]
    assert api_session(two.base)("GET", f"{path}/inputs/blurb")["text"] == final, f"{two.name} serves another text"
    used = set(cluster.nginx.upstreams_used())
    assert {f"127.0.0.1:{n.port}" for n in cluster.nodes} <= used, f"nginx used only {used}: not two nodes"
