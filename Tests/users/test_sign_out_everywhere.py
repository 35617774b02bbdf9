"""Signing out across nodes on PostgreSQL (issue 37): Li Lei is signed in twice, in a session on
node A and another on node B (each talking to its node directly), each following its form over an
event stream; Han Meimei is signed in on node B, following hers. Li Lei signs out everywhere on A:
both of her streams get `end` and close, both of her tokens are 401 on both nodes, and Han
Meimei's session on B is untouched (her stream still pushes, her token still works). Signing out
one session on one node ends its stream on the other. A session signed in on one node is served
by the other at once (the sign-in's notice to the other nodes must not end it).

Two nodes on a PostgreSQL database of their own (upstream latency 0). Time budget: 30 s (about 15 s
here, most of it the sixteen sign-ins of the last test)."""

from __future__ import annotations

import json

import pytest

from bindery_support import HAN_MEIMEI, LI_LEI
from users_client import EventStream, new_session, request, sign_in

pytestmark = pytest.mark.postgres

STREAM = "/api/events?views=form"   # the streams of several views: `event: end` when the session ends
WAIT = 10.0                         # seconds a node gets to hear another's notice and end its streams


@pytest.fixture(scope="module")
def nodes(cluster_factory):
    return cluster_factory(2, name="sign-out").nodes


def signed_in(base: str, account) -> str:
    answer = sign_in(base, account)
    assert answer.status == 200, answer
    return answer.json()["token"]


def opened(base: str, token: str) -> EventStream:
    stream = EventStream(base, STREAM, token)
    assert stream.wait_for(lambda s: "snapshot" in s.kinds(), 5), (
        f"no first snapshot on {base}: status {stream.status}, {stream.kinds()}, {stream.error}")
    return stream


def ended(stream: EventStream) -> bool:
    return stream.closed and "end" in stream.kinds()


def phone_pushed(stream: EventStream, phone: str) -> bool:
    return any(e.kind in ("snapshot", "patch") and phone in e.data for e in stream.events)


def test_sign_out_everywhere_ends_every_session_of_the_user_on_every_node(nodes):
    a, b = nodes
    li_a, li_b, han_b = signed_in(a.base, LI_LEI), signed_in(b.base, LI_LEI), signed_in(b.base, HAN_MEIMEI)
    streams = {"li@A": opened(a.base, li_a), "li@B": opened(b.base, li_b), "han@B": opened(b.base, han_b)}
    try:
        answer = request(a.base, "POST", "/api/session/sign-out-everywhere", token=li_a)
        assert answer.status == 200, answer
        assert answer.json() == {"ended": 2}, answer
        for name in ("li@A", "li@B"):
            assert streams[name].wait_for(ended, WAIT), (
                f"{name}'s stream did not get `end` and close within {WAIT} s: {streams[name].kinds()}, "
                f"closed {streams[name].closed}")
        for token in (li_a, li_b):
            for node in (a, b):
                refused = request(node.base, "GET", "/api/views/form", token=token)
                assert refused.status == 401, f"Li Lei's token on {node.name} after signing out everywhere: {refused}"
        # Han Meimei's session on B: her stream still open and pushing, her token good on both nodes.
        han = streams["han@B"]
        assert not han.closed and "end" not in han.kinds(), han.kinds()
        typed = request(a.base, "PATCH", "/api/views/form", {"phone": "13800000001"}, token=han_b)
        assert typed.status == 200, typed
        assert han.wait_for(lambda s: phone_pushed(s, "13800000001"), WAIT), han.kinds()
        for node in (a, b):
            who = request(node.base, "GET", "/api/session", token=han_b)
            assert who.status == 200 and who.json()["user"]["name"] == HAN_MEIMEI.name, who
    finally:
        for stream in streams.values():
            stream.close()


def test_signing_out_on_one_node_ends_the_sessions_stream_on_the_other(nodes):
    a, b = nodes
    token = signed_in(b.base, HAN_MEIMEI)
    stream = opened(b.base, token)
    try:
        answer = request(a.base, "POST", "/api/session/sign-out", token=token)
        assert answer.status == 204, answer
        assert any(c.startswith("bindery_session=;") for c in answer.cookies), f"the cookie is cleared: {answer.cookies}"
        assert stream.wait_for(ended, WAIT), f"the stream on B did not end within {WAIT} s: {stream.kinds()}"
        for node in (a, b):
            assert request(node.base, "GET", "/api/views/form", token=token).status == 401, node.name
        end = next(e for e in stream.events if e.kind == "end")
        assert json.loads(end.data).get("end") is True, end
    finally:
        stream.close()


ROUNDS = 16     # each about 0.6 s in a debug build (bcrypt, a recipe added)


def test_a_session_signed_in_on_one_node_is_served_at_once_by_the_other(nodes):
    """What a client behind nginx does: it signs in (on one node), and its next request, with the
    new token, lands on the node the new token's place in the ring names, often another: here it adds a recipe (a write only a user may
    make). Every such request is answered: the sign-in's notice to the other nodes (drop what you
    hold under the old token) must not end the session the other node has just loaded under the
    new one."""
    a, b = nodes
    answers = {}
    for n in range(ROUNDS):
        old = new_session(a.base)
        token = sign_in(a.base, (LI_LEI, HAN_MEIMEI)[n % 2], token=old).json()["token"]
        added = request(b.base, "POST", "/api/views/recipes/commands/add", {"name": f"Signed in on A {n}"}, token=token,
                        headers={"Prefer": "wait=10"})
        answers.setdefault(added.status, []).append(added.body[:160].decode(errors="replace"))
    assert set(answers) == {200}, (
        f"{ROUNDS} recipes added on node B right after signing in on node A: "
        + "; ".join(f"{status} x{len(bodies)} ({bodies[0]})" for status, bodies in answers.items()))
