"""PATCH /api/upstream changes the fake upstream for every session, so by default only an
administrator may (issue 37): without a session, or with an anonymous one, 401 with
`WWW-Authenticate: Bearer`; signed in as Han Meimei (no role), 403; as Li Lei (an administrator),
200 and the settings change. Refused, nothing changes; reading them (GET) stays open, and lists the
new `accounts` endpoint. A server started with `--open-upstream-control` (for tests and demos) lets
anyone change them.

Two servers on SQLite (upstream latency 0). Time budget: 5 s (about 1 s here)."""

from __future__ import annotations

from bindery_support import HAN_MEIMEI, LI_LEI
from users_client import new_session, request, sign_in

SLOWER = {"endpoints": {"hotel": {"latencyMs": 250}}}


def settings(base: str) -> dict:
    answer = request(base, "GET", "/api/upstream")
    assert answer.status == 200, f"GET /api/upstream without a session: {answer}"
    return answer.json()


def change(base: str, token: str | None = None):
    return request(base, "PATCH", "/api/upstream", SLOWER, token=token, content_type="application/merge-patch+json")


def test_only_an_administrator_changes_the_upstream(server):
    base = server.base
    before = settings(base)
    assert set(before["endpoints"]) >= {"accounts", "travel", "hotel"}, before["endpoints"]
    assert before["endpoints"]["hotel"]["latencyMs"] == 0
    for who, token in (("no session", None), ("an anonymous session", new_session(base))):
        refused = change(base, token)
        assert refused.status == 401, f"{who}: {refused}"
        assert refused.json()["title"] == "Sign-in required", refused
        assert refused.header("WWW-Authenticate") == "Bearer", refused.headers
    refused = change(base, sign_in(base, HAN_MEIMEI).json()["token"])
    assert refused.status == 403, f"Han Meimei (no role): {refused}"
    assert refused.json()["title"] == "Not allowed", refused
    assert settings(base) == before, "a refused PATCH changed the upstream"
    allowed = change(base, sign_in(base, LI_LEI).json()["token"])
    assert allowed.status == 200, f"Li Lei (admin): {allowed}"
    assert allowed.json()["endpoints"]["hotel"]["latencyMs"] == 250
    assert settings(base)["endpoints"]["hotel"]["latencyMs"] == 250


def test_an_open_upstream_control_lets_anyone(server_factory):
    base = server_factory("open", ["--open-upstream-control"]).base
    allowed = change(base)
    assert allowed.status == 200, f"without a session, --open-upstream-control: {allowed}"
    assert settings(base)["endpoints"]["hotel"]["latencyMs"] == 250
