"""Sign-in attempts are limited per account and per client address (issue 37): after 5 wrong
passwords for one account within 15 minutes, every sign-in for it is refused 429 with
Retry-After — the right password too, from any address, through the route and through the login
form's `signIn` command — while other accounts still sign in; after 20 failures from one address
(for as many accounts), that address is refused 429 for every account, and another address is
not. A wrong password and a phone that has no account get the same problem, so an answer never
tells whether an account exists.

Each test sends from loopback addresses of its own (127.0.0.X), and the module has a server of its
own (the limits live in its memory). Time budget: 20 s (about 6 s here: each attempt runs bcrypt)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bindery_support import HAN_MEIMEI, LI_LEI, Account
from users_client import new_session, request, sign_in

ACCOUNT_LIMIT = 5
ADDRESS_LIMIT = 20
WINDOW = 900        # seconds
NOBODY = Account("13900000000", "passw0rd", "nobody", "-")     # a valid phone number with no account


def assert_throttled(answer, what: str) -> int:
    """A 429 problem with a Retry-After within the window; answers the Retry-After."""
    assert answer.status == 429, f"{what}: {answer}"
    assert answer.header("Content-Type") == "application/problem+json", answer.headers
    assert answer.json()["title"] == "Too many sign-in attempts", answer
    retry_after = int(answer.header("Retry-After"))
    assert 0 < retry_after <= WINDOW, f"{what}: Retry-After {retry_after}"
    assert not answer.cookies, f"{what}: a refused sign-in sets no cookie: {answer.cookies}"
    return retry_after


def test_five_wrong_passwords_lock_the_account_for_every_address(server):
    base = server.base
    for n in range(ACCOUNT_LIMIT):
        wrong = sign_in(base, HAN_MEIMEI, password=f"wrong-{n}", source="127.0.0.21")
        assert wrong.status == 422 and wrong.json()["title"] == "Sign-in failed", f"wrong password {n + 1}: {wrong}"
    assert_throttled(sign_in(base, HAN_MEIMEI, password="wrong-5", source="127.0.0.21"), "the 6th wrong password")
    # The right password does not get through the lockout, from this address or another, and the
    # session it was sent for stays anonymous.
    token = new_session(base, source="127.0.0.22")
    assert_throttled(sign_in(base, HAN_MEIMEI, token=token, source="127.0.0.22"), "the right password, locked")
    assert request(base, "GET", "/api/session", token=token).json()["user"] is None
    assert_throttled(sign_in(base, HAN_MEIMEI, source="127.0.0.21"), "the right password from the first address")
    # Through the login form: its signIn command is refused the same way, and changes nothing.
    typed = request(base, "PATCH", "/api/views/form", {"phone": HAN_MEIMEI.phone, "password": HAN_MEIMEI.password},
                    token=token, source="127.0.0.22")
    assert typed.status == 200, typed
    command = request(base, "POST", "/api/views/form/commands/signIn", token=token, source="127.0.0.22")
    assert command.status == 429 and int(command.header("Retry-After")) > 0, command
    form = request(base, "GET", "/api/views/form", token=token).json()
    assert form["outputs"]["signedInAs"] is None and form["inputs"]["password"] == HAN_MEIMEI.password, form
    # Another account, from the same address, still signs in: the limit is the account's.
    other = sign_in(base, LI_LEI, source="127.0.0.21")
    assert other.status == 200, f"another account from the same address: {other}"


def test_twenty_failures_from_one_address_lock_the_address_for_every_account(server):
    base = server.base
    for n in range(ADDRESS_LIMIT):
        stranger = Account(f"1391111{n:04d}", "passw0rd", "nobody", "-")  # one failure per account
        wrong = sign_in(base, stranger, source="127.0.0.23")
        assert wrong.status == 422, f"failure {n + 1} from 127.0.0.23: {wrong}"
    assert_throttled(sign_in(base, NOBODY, source="127.0.0.23"), "the 21st failure from the address")
    assert_throttled(sign_in(base, LI_LEI, source="127.0.0.23"), "the right password from the locked address")
    # Another address is not locked, and the account is not either.
    assert sign_in(base, LI_LEI, source="127.0.0.24").status == 200


def test_attempts_sent_all_at_once_meet_the_same_limit(server):
    """Twenty wrong passwords for one account sent together, none answered before the others
    left: the limit counts an attempt when it starts, so five are checked and fifteen refused."""
    burst = Account("13700000001", "passw0rd", "burst", "-")    # no such account: counted all the same
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda n: sign_in(server.base, burst, password=f"burst-{n}", source="127.0.0.41"),
                                range(20)))
    statuses = sorted(answer.status for answer in answers)
    assert statuses.count(422) == ACCOUNT_LIMIT, statuses
    assert statuses.count(429) == 20 - ACCOUNT_LIMIT, statuses
    for answer in answers:
        if answer.status == 429:
            assert_throttled(answer, "an attempt beyond the limit, sent with the others")


def test_a_wrong_password_and_an_unknown_phone_get_the_same_problem(server):
    base = server.base
    wrong = sign_in(base, LI_LEI, password="passw0rd!", source="127.0.0.25")
    unknown = sign_in(base, NOBODY, source="127.0.0.26")
    assert wrong.status == unknown.status == 422, (wrong, unknown)
    assert wrong.body == unknown.body, f"the answers tell the cases apart:\n{wrong}\n{unknown}"
    assert wrong.header("Content-Type") == unknown.header("Content-Type") == "application/problem+json"
    assert not wrong.cookies and not unknown.cookies
    # The login form's signIn command: one problem for both, too.
    answers = []
    for account, password, source in ((LI_LEI, "passw0rd!", "127.0.0.27"), (NOBODY, NOBODY.password, "127.0.0.28")):
        token = new_session(base, source=source)
        typed = request(base, "PATCH", "/api/views/form", {"phone": account.phone, "password": password}, token=token,
                        source=source)
        assert typed.status == 200 and typed.json()["commands"]["signIn"]["enabled"], typed
        answers.append(request(base, "POST", "/api/views/form/commands/signIn", token=token, source=source))
    assert answers[0].status == answers[1].status == 422, answers
    assert answers[0].body == answers[1].body, f"the form's answers tell the cases apart:\n{answers[0]}\n{answers[1]}"
