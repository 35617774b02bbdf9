"""A sign-in sent by another site is refused (issue 37, login CSRF): a page elsewhere that posts
our sign-in form — with its own credentials, to sign the visitor's browser in as the attacker, or
riding on the visitor's cookie — gets 403, sets no cookie and signs nothing in, whether the browser
says so with `Origin` or with `Sec-Fetch-Site`; the same goes for the login form's `signIn`
command. The same request from our own origin signs in (the refusal is about the site, not the
credentials).

One server on SQLite (upstream latency 0). Time budget: 5 s (about 1 s here)."""

from __future__ import annotations

import pytest

from bindery_support import LI_LEI
from users_client import cookie_value, metric, request, sign_in

ELSEWHERE = [
    {"Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},   # a sibling subdomain is another site's page all the same
    {"Origin": "null"},                # a sandboxed frame or a redirect from another site
]


def browser_session(base: str) -> str:
    """A browser's session: PUT /api/session, the token its cookie carries."""
    made = request(base, "PUT", "/api/session")
    assert made.status == 201, made
    return cookie_value(made.cookies[0])


def assert_refused(answer, what: str) -> None:
    assert answer.status == 403, f"{what}: {answer}"
    assert answer.json()["title"] == "Cross-site request refused", answer
    assert not answer.cookies, f"{what}: a refused sign-in sets no cookie: {answer.cookies}"


@pytest.mark.parametrize("headers", ELSEWHERE, ids=lambda h: "-".join(f"{k}:{v}" for k, v in h.items()))
def test_a_sign_in_from_another_site_signs_nobody_in(server, headers):
    base = server.base
    # Without a cookie: the attacker's credentials, to sign the visitor's browser in as the attacker.
    live = metric(base, "bindery_sessions_live")
    assert_refused(sign_in(base, LI_LEI, headers=headers), f"a cookie-less sign-in with {headers}")
    assert metric(base, "bindery_sessions_live") == live, "a refused sign-in made a session"
    # With the visitor's cookie: the session stays anonymous, under the same token.
    cookie = browser_session(base)
    assert_refused(sign_in(base, LI_LEI, cookie=cookie, headers=headers), f"a sign-in with a cookie and {headers}")
    who = request(base, "GET", "/api/session", cookie=cookie)
    assert who.status == 200 and who.json()["user"] is None, who
    # The login form's signIn command, sent by another site with the visitor's cookie.
    typed = request(base, "PATCH", "/api/views/form", {"phone": LI_LEI.phone, "password": LI_LEI.password},
                    cookie=cookie, content_type="application/merge-patch+json")
    assert typed.status == 200, typed
    assert_refused(request(base, "POST", "/api/views/form/commands/signIn", cookie=cookie, headers=headers),
                   f"the form's signIn with {headers}")
    form = request(base, "GET", "/api/views/form", cookie=cookie).json()
    assert form["outputs"]["signedInAs"] is None and form["inputs"]["password"] == LI_LEI.password, form
    assert request(base, "GET", "/api/session", cookie=cookie).json()["user"] is None


def test_the_same_sign_in_from_our_own_pages_signs_in(server):
    base = server.base
    cookie = browser_session(base)
    ours = {"Origin": base, "Sec-Fetch-Site": "same-origin"}
    answer = sign_in(base, LI_LEI, cookie=cookie, headers=ours)
    assert answer.status == 200, answer
    new = cookie_value(answer.cookies[0])
    assert request(base, "GET", "/api/session", cookie=new).json()["user"]["name"] == LI_LEI.name
    # Without a cookie, the sign-in makes the session it signs in (what the refusals above did not).
    live = metric(base, "bindery_sessions_live")
    assert sign_in(base, LI_LEI, headers=ours).status == 200
    assert metric(base, "bindery_sessions_live") == live + 1
