"""Session fixation over HTTP (issue 37): signing in gives the session a new token, and the token it
had before — one an attacker may have planted — is refused from then on, whichever way the
session signed in: POST /api/session/sign-in with a bearer token, the login form's `signIn`
command, or a browser-like client whose credential is the session cookie. The new token is the
same session: what it held before the sign-in (the form's phone, the list's city, each at its
version) is still there.

One server on SQLite (upstream latency 0). Time budget: 5 s (about 1 s here)."""

from __future__ import annotations

import re

from bindery_support import HAN_MEIMEI, LI_LEI
from users_client import cookie_value, new_session, request, sign_in

PHONE = "13912345678"       # typed before signing in: must survive it
CITY = 20


def write_before_sign_in(base: str, token: str) -> tuple[dict, dict]:
    """The form's phone and the list's city written, as an anonymous session; answers both snapshots."""
    form = request(base, "PATCH", "/api/views/form", {"phone": PHONE}, token=token)
    assert form.status == 200, form
    listed = request(base, "PATCH", "/api/views/list", {"currentCityId": CITY}, token=token)
    assert listed.status == 200, listed
    return form.json(), listed.json()


def assert_old_token_refused(base: str, old: str) -> None:
    """Every use of the token from before the sign-in is 401: a read, a write, a command, a stream."""
    for method, path, body in (("GET", "/api/views/form", None), ("PATCH", "/api/views/form", {"phone": "1"}),
                               ("POST", "/api/views/list/commands/load", None), ("GET", "/api/session", None),
                               ("GET", "/api/views/form/events", None)):
        answer = request(base, method, path, body, token=old, headers={"Prefer": "wait=0"})
        assert answer.status == 401, f"{method} {path} with the token from before the sign-in: {answer}"
        assert answer.json()["title"] == "Unknown session", answer


def assert_same_session(base: str, token: str, phone: str, listed: dict, account) -> None:
    """`token` is the session of before, signed in as `account`: the list is at the version and
    city it had, and the form holds `phone` (its version may be later: it shows who signed in)."""
    who = request(base, "GET", "/api/session", token=token)
    assert who.status == 200 and who.json()["user"]["name"] == account.name, who
    now = request(base, "GET", "/api/views/list", token=token).json()
    assert (now["version"], now["inputs"]) == (listed["version"], listed["inputs"]), now
    shown = request(base, "GET", "/api/views/form", token=token).json()
    assert shown["inputs"]["phone"] == phone and shown["outputs"]["signedInAs"] == account.name, shown


def test_the_sign_in_route_rotates_the_token_and_keeps_the_state(server):
    base = server.base
    old = new_session(base)
    form, listed = write_before_sign_in(base, old)
    answer = sign_in(base, LI_LEI, token=old)
    assert answer.status == 200, answer
    new = answer.json()["token"]
    assert new != old and re.fullmatch(r"[0-9a-f]{32}", new), answer
    assert answer.json()["user"] == {"id": LI_LEI.user_id, "name": LI_LEI.name, "roles": list(LI_LEI.roles)}
    assert [cookie_value(c) for c in answer.cookies] == [new], answer.cookies
    assert_old_token_refused(base, old)
    assert_same_session(base, new, PHONE, listed, LI_LEI)
    assert request(base, "GET", "/api/views/form", token=new).json()["version"] >= form["version"]


def test_the_forms_sign_in_command_rotates_the_token_and_keeps_the_state(server):
    base = server.base
    old = new_session(base)
    _, listed = write_before_sign_in(base, old)
    typed = request(base, "PATCH", "/api/views/form", {"phone": HAN_MEIMEI.phone, "password": HAN_MEIMEI.password},
                    token=old)
    assert typed.status == 200 and typed.json()["commands"]["signIn"]["enabled"], typed
    answer = request(base, "POST", "/api/views/form/commands/signIn", token=old)
    assert answer.status == 200, answer
    body = answer.json()
    new = body["token"]
    assert new != old, body
    assert [cookie_value(c) for c in answer.cookies] == [new], answer.cookies
    assert body["outputs"]["signedInAs"] == HAN_MEIMEI.name, body
    assert body["inputs"] == {"phone": HAN_MEIMEI.phone, "password": ""}, "the password is cleared once used"
    assert_old_token_refused(base, old)
    assert_same_session(base, new, HAN_MEIMEI.phone, listed, HAN_MEIMEI)


def test_a_cookie_client_gets_the_rotated_cookie_and_the_old_cookie_is_a_stranger(server):
    base = server.base
    made = request(base, "PUT", "/api/session")
    assert made.status == 201, made
    old = cookie_value(made.cookies[0])
    written = request(base, "PATCH", "/api/views/form", {"phone": PHONE}, cookie=old,
                      content_type="application/merge-patch+json")
    assert written.status == 200, written
    answer = sign_in(base, LI_LEI, cookie=old)
    assert answer.status == 200, answer
    new = answer.json()["token"]
    assert [cookie_value(c) for c in answer.cookies] == [new] and new != old, answer.cookies
    # The new cookie is the session, signed in, with what it typed.
    shown = request(base, "GET", "/api/views/form", cookie=new).json()
    assert shown["inputs"]["phone"] == PHONE and shown["outputs"]["signedInAs"] == LI_LEI.name, shown
    # The old cookie names no session any more: it reads as a stranger would, signed in as nobody,
    # without the phone.
    who = request(base, "GET", "/api/session", cookie=old)
    assert who.status == 200 and who.json()["user"] is None, who
    stranger = request(base, "GET", "/api/views/form", cookie=old).json()
    assert stranger["inputs"]["phone"] == "186" and stranger["outputs"]["signedInAs"] is None, stranger
    again = request(base, "GET", "/api/session", cookie=new)
    assert again.json()["user"]["name"] == LI_LEI.name, again
