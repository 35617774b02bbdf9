"""Clients retry safely (issue 28, item 2): every write (PATCH of inputs) and every command (POST)
carries an Idempotency-Key, and a request whose answer did not come is sent again with the same
key and the same body; unsent edits and commands are kept in the tab's sessionStorage across a
reload (a password only as its length); the header's save state says "Saving…", "Saved" or
"Offline — will send".

The outage is the app server down behind a gateway (`answer_gateway.Gateway`), as in production
behind nginx (docs/operations.md): while the server is down it keeps serving the client's files it
has seen (so a reload during the outage shows the page) and answers anything else with 502; it
can also lose an answer after the server applied the request.
"""

from __future__ import annotations

import json
import re
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.keys import Keys

from accessibility import audit, blocking, describe
from bindery_support import LI_LEI, sign_in_browser
from pages import PHONE, all_css, css, open_screen, set_viewport, usable, wait

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
OFFLINE = ("offline", "Offline — will send")
SAVED = ("saved", "Saved")
NETWORK_OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


# ---------------------------------------------------------------------------------- helpers

def save_state(driver):
    """(data-state, text) of the header's save state."""
    return tuple(driver.execute_script(
        "const e = document.getElementById('save-state'); return [e.dataset.state || 'idle', e.textContent.trim()]"))


def kept(driver) -> dict:
    """Everything this tab's sessionStorage holds, parsed where it is JSON."""
    raw = driver.execute_script("return Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k)]))")
    return {k: json.loads(v) if k.startswith("bindery:unsent:") else v for k, v in raw.items()}


def kept_raw(driver) -> str:
    return driver.execute_script("return Object.keys(sessionStorage).map((k) => k + '=' + sessionStorage.getItem(k)).join('\\n')")


def unsent_keys(driver) -> list[str]:
    return [k for k in kept(driver) if k.startswith("bindery:unsent:")]


def stream_state(driver):
    return driver.execute_script("return document.documentElement.dataset.stream")


def server_view(driver, base: str, path: str) -> dict:
    """The view model as the server holds it in the browser's session (its cookie, straight to
    the server, not through the gateway)."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    request = urllib.request.Request(f"{base}/api/views/{path}", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def server_replays(base: str) -> bool:
    """Whether this server build answers a repeated Idempotency-Key with its first answer (the
    client must work either way: an older build ignores the header)."""
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/sessions", data=b"", method="POST"), timeout=10) as r:
        token = json.loads(r.read())["token"]
    answers = []
    for _ in range(2):
        request = urllib.request.Request(
            f"{base}/api/views/form", data=b'{"phone": "1"}', method="PATCH",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/merge-patch+json",
                     "Idempotency-Key": "probe-safe-retries-0001"})
        with urllib.request.urlopen(request, timeout=10) as r:
            answers.append(r.headers.get("Idempotent-Replayed"))
    return answers[1] == "true"


def sent_by_the_page(driver, method: str) -> list[dict]:
    """The page's own account of the writes it sent (js/trace.js, the inspector's record)."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/trace.js').then((t) => done(t.recent((r) => r.type === 'request' && r.phase === 'sent'
          && r.method === arguments[0]).map((r) => ({url: r.url, key: r.headers['Idempotency-Key'] || null, body: r.body}))));
    """, method)


def open_form(driver, base):
    open_screen(driver, base, "/form")
    phone, password, output = css(driver, "#phone"), css(driver, "#password"), css(driver, "#form-output")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    return phone, password, output


def server_down(driver, server):
    server.kill9()
    wait(driver, lambda: stream_state(driver) == "reconnecting", timeout=15,
         message="the page did not notice the server was gone")


# ---------------------------------------------------------------------------------- tests

def test_typing_during_an_outage_survives_a_reload_and_is_sent_when_the_server_returns(
        driver, restartable_server, gateway, screenshot):
    phone, password, output = open_form(driver, gateway.base)
    assert save_state(driver) == ("idle", ""), "nothing said before anything was written"
    phone.click()
    phone.send_keys(Keys.END, "12")
    wait(driver, lambda: output.text == "手机号:18612, 密码:")
    wait(driver, lambda: save_state(driver) == SAVED, message="no 'Saved' after an acknowledged write")

    server_down(driver, restartable_server)
    phone.send_keys("345678")
    wait(driver, lambda: save_state(driver) == OFFLINE, message="the page did not say it will send later")
    assert kept(driver)["bindery:unsent:form"]["edits"]["phone"]["value"] == "18612345678"
    assert css(driver, "#save-state").get_attribute("role") == "status"
    assert not blocking(audit(driver)), describe("the form, offline", blocking(audit(driver)))
    screenshot("safe-retries-offline")

    # Reloaded while the server is still down: the gateway serves the page, the API answers 502.
    driver.refresh()
    wait(driver, lambda: save_state(driver) == OFFLINE, timeout=20,
         message="after the reload, the page did not say that what was typed waits to be sent")
    assert kept(driver)["bindery:unsent:form"]["edits"]["phone"]["value"] == "18612345678"
    screenshot("safe-retries-offline-reloaded")

    restartable_server.start()
    phone = wait(driver, lambda: css(driver, "#phone"), timeout=30)
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:", timeout=45,
         message="what was typed during the outage did not reach the server")
    assert css(driver, "#phone").get_attribute("value") == "18612345678"
    wait(driver, lambda: save_state(driver) == SAVED, timeout=15)
    wait(driver, lambda: not unsent_keys(driver), message="sessionStorage still keeps what was sent")
    inputs = server_view(driver, restartable_server.base, "form")["inputs"]
    assert inputs == {"phone": "18612345678", "password": ""}, inputs  # exactly what was typed, once
    screenshot("safe-retries-saved")


def test_without_a_gateway_a_reload_during_the_outage_keeps_the_edits_for_the_next_load(driver, restartable_server):
    """With nothing in front of the server, a reload while it is down shows the browser's own
    error page; the tab's sessionStorage outlives it, and the next load of the page sends it."""
    phone, _, output = open_form(driver, restartable_server.base)
    phone.click()
    phone.send_keys(Keys.END, "99")
    wait(driver, lambda: output.text == "手机号:18699, 密码:")
    server_down(driver, restartable_server)
    phone.send_keys("1")
    wait(driver, lambda: save_state(driver) == OFFLINE)
    driver.refresh()  # the browser's error page: nothing of ours runs
    assert not driver.execute_script("return document.getElementById('save-state')")
    restartable_server.start()
    open_screen(driver, restartable_server.base, "/form")
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:186991, 密码:", timeout=30,
         message="what was typed before the reload was not sent by the next load")
    assert css(driver, "#phone").get_attribute("value") == "186991"
    wait(driver, lambda: save_state(driver) == SAVED)
    wait(driver, lambda: not unsent_keys(driver))


def test_a_write_whose_answer_is_lost_is_sent_again_with_the_same_key_and_body(driver, restartable_server, gateway):
    """The gateway lets the PATCH reach the server (which applies it) and drops its answer: the
    page gets no answer, so it must send the very same request again — same Idempotency-Key, same
    body — and a later edit is a new write with a new key."""
    replays = server_replays(restartable_server.base)
    phone, _, output = open_form(driver, gateway.base)
    gateway.lose_next_answer("PATCH", "/api/views/form")
    phone.click()
    phone.send_keys(Keys.END, "7")
    wait(driver, lambda: len([r for r in gateway.requests("PATCH", "/api/views/form") if r["status"]]) >= 2,
         timeout=20, message="the write whose answer was lost was not sent again")
    first, second = gateway.requests("PATCH", "/api/views/form")[:2]
    assert first["lost"] and first["status"] == 200, first  # the server applied it; the page never heard
    assert UUID.match(first["key"] or ""), first
    assert (second["key"], second["body"], second["if_match"]) == (first["key"], first["body"], first["if_match"]), (first, second)
    assert json.loads(second["body"]) == {"phone": "1867"}
    assert second["status"] == 200 and not second["lost"]
    if replays:
        assert second["replayed"] == "true", second  # the first answer again, nothing applied twice
    wait(driver, lambda: save_state(driver) == SAVED, timeout=15)
    assert output.text == "手机号:1867, 密码:"
    assert server_view(driver, restartable_server.base, "form")["inputs"]["phone"] == "1867"
    # The page's own record says the same: one key, sent twice.
    sent = [r for r in sent_by_the_page(driver, "PATCH") if r["url"] == "/api/views/form"]
    assert [r["key"] for r in sent[:2]] == [first["key"]] * 2, sent

    # Typing on is a new write: a new key.
    phone.send_keys("8")
    wait(driver, lambda: output.text == "手机号:18678, 密码:")
    patches = gateway.requests("PATCH", "/api/views/form")
    assert patches[-1]["key"] != first["key"] and UUID.match(patches[-1]["key"]), patches
    assert json.loads(patches[-1]["body"]) == {"phone": "18678"}


def test_a_password_is_never_kept_in_session_storage(driver, restartable_server, gateway, screenshot):
    """Only the password's length is kept; after a reload its field says it must be typed again."""
    secret = "Zebra-Secret-93"
    _, password, output = open_form(driver, gateway.base)

    def nothing_of_it_kept(typed: str):
        raw = kept_raw(driver)
        assert typed not in raw, f"the password's text is in sessionStorage: {raw}"
        return True

    # Online: each write on its way is kept (a reload may come before its answer): never the text.
    typed = ""
    for ch in secret[:6]:
        password.send_keys(ch)
        typed += ch
        if len(typed) >= 3:
            nothing_of_it_kept(typed)
    wait(driver, lambda: output.text == f"手机号:186, 密码:{typed}")

    server_down(driver, restartable_server)
    for ch in secret[6:]:
        password.send_keys(ch)
        typed += ch
        nothing_of_it_kept(typed)
    wait(driver, lambda: save_state(driver) == OFFLINE)
    record = kept(driver)["bindery:unsent:form"]
    assert record["edits"]["password"]["secret"] is True, record
    assert record["edits"]["password"]["length"] == len(secret), record
    assert "value" not in record["edits"]["password"] and "base" not in record["edits"]["password"], record
    nothing_of_it_kept(secret)
    nothing_of_it_kept(secret[6:])

    driver.refresh()
    wait(driver, lambda: save_state(driver)[0] in ("offline", "idle"), timeout=20)
    nothing_of_it_kept(secret)
    restartable_server.start()
    note = wait(driver, lambda: css(driver, "#password-unsent"), timeout=45,
                message="the password field does not say that it must be typed again")
    assert "type it again" in note.text and f"({len(secret)} characters)" in note.text, note.text
    password = css(driver, "#password")
    assert "password-unsent" in password.get_attribute("aria-describedby").split()
    # What the server holds: nothing, after its restart (sensitive inputs never reach the store).
    assert password.get_attribute("value") == "", "the field shows what the server holds"
    assert not blocking(audit(driver)), describe("the password to type again", blocking(audit(driver)))
    screenshot("safe-retries-password-retype")

    # Typed again: sent, the note goes, nothing kept any more.
    password.send_keys(secret)
    wait(driver, lambda: css(driver, "#form-output").text == f"手机号:186, 密码:{secret}", timeout=15)
    assert not all_css(driver, "#password-unsent")
    wait(driver, lambda: not unsent_keys(driver))
    wait(driver, lambda: save_state(driver) == SAVED)
    nothing_of_it_kept(secret)


def test_a_command_pressed_during_an_outage_is_sent_after_a_reload_with_its_key(driver, restartable_server, gateway):
    """Pressed while the server is down, the page reloaded: sent once the server is back, with the
    key it had when it was pressed (the server answers a key it has seen with its first answer).
    The recipes' `add` (a user's: the browser signs in), whose answer opens the new recipe: not the
    form's Clear, which a restart disables (it needs a password, and the server keeps none)."""
    name = f"Pressed offline {uuid.uuid4().hex[:8]}"
    sign_in_browser(driver, gateway.base, LI_LEI)
    open_screen(driver, gateway.base, "/recipes")
    wait(driver, lambda: len(all_css(driver, "#recipe-list .recipe-cell")) > 0)
    css(driver, "#new-recipe-name").send_keys(name)
    add = css(driver, "#add-recipe-button")

    server_down(driver, restartable_server)
    add.click()
    wait(driver, lambda: save_state(driver) == OFFLINE)
    commands = kept(driver)["bindery:unsent:recipes"]["commands"]
    assert [(c["name"], c["body"]) for c in commands] == [("add", {"name": name})], commands
    key = commands[0]["key"]
    assert UUID.match(key)

    driver.refresh()
    wait(driver, lambda: save_state(driver) == OFFLINE, timeout=20)
    restartable_server.start()
    wait(driver, lambda: driver.execute_script("return location.pathname").endswith("/edit"), timeout=45,
         message="the command pressed during the outage was not executed")
    wait(driver, lambda: css(driver, "#edit-name").get_attribute("value") == name)
    posts = gateway.requests("POST", "/api/views/recipes/commands/add")
    assert posts and all(p["key"] == key for p in posts), posts
    assert [p["status"] for p in posts].count(200) == 1, posts
    wait(driver, lambda: not unsent_keys(driver))
    assert recipes_named(driver, restartable_server.base, name) == 1


@pytest.mark.parametrize("reload", [False, True], ids=["same-page", "after-a-reload"])
def test_edits_typed_after_a_waiting_command_are_sent_after_it(driver, restartable_server, gateway, reload):
    """Offline: typed, pressed Clear, typed again (and, the second time, reloaded while still
    offline). When the server is back the edits go first, then the command, then what was typed
    after it: the server ends with what the field shows."""
    phone, password, output = open_form(driver, gateway.base)
    phone.click()
    phone.send_keys(Keys.END, "12345678")
    password.send_keys("passw0rd")
    wait(driver, lambda: output.text == "手机号:18612345678, 密码:passw0rd")
    clear = css(driver, "#clear")
    wait(driver, lambda: usable(clear))

    server_down(driver, restartable_server)
    password.send_keys("9")      # before the command
    clear.click()
    wait(driver, lambda: save_state(driver) == OFFLINE)
    phone.click()
    phone.send_keys(Keys.END, "0")  # after it
    assert phone.get_attribute("value") == "186123456780"
    if reload:
        record = kept(driver)["bindery:unsent:form"]
        assert record["later"]["phone"]["value"] == "186123456780", record
        assert record["edits"]["password"] == {"secret": True, "length": 9, "id": record["edits"]["password"]["id"]}, record
        driver.refresh()
        wait(driver, lambda: save_state(driver) == OFFLINE, timeout=20)
    restartable_server.start()
    try:
        wait(driver, lambda: css(driver, "#form-output").text == "手机号:186123456780, 密码:", timeout=45,
             message="the command and the edits around it did not land in order")
    except Exception:  # what the page and the gateway saw, for the report
        print("page:", css(driver, "#form-output").text, css(driver, "#phone").get_attribute("value"),
              save_state(driver), [e.text for e in all_css(driver, ".conflict")])
        print("kept:", kept_raw(driver))
        print("writer:", driver.execute_script(WRITER_STATE))
        with gateway.lock:
            print("writes:", *[r for r in gateway.writes if "presence" not in r["path"]], sep="\n  ")
        raise
    wait(driver, lambda: save_state(driver) == SAVED, timeout=15)
    assert server_view(driver, restartable_server.base, "form")["inputs"] == {"phone": "186123456780", "password": ""}
    # In the order the server took them: the edit typed before Clear, Clear, the edit typed after.
    with gateway.lock:
        taken = [(r["method"], r["body"], r["status"]) for r in gateway.writes
                 if r["method"] in ("PATCH", "POST") and r["status"] in (200, 409)]
    command = next(i for i, (m, _, _) in enumerate(taken) if m == "POST")
    after = next(i for i, (m, b, s) in enumerate(taken) if m == "PATCH" and s == 200 and "186123456780" in b)
    assert command < after, taken
    if reload:
        # After a reload the password typed before it is gone (never stored), and the restarted
        # server holds none (sensitive inputs never reach the store): Clear, which needs both
        # fields valid, is refused as not enabled, and what was typed after it still goes after it.
        assert taken[command][2] == 409, taken
    else:
        assert taken[command][2] == 200, taken
        before = next(i for i, (m, b, s) in enumerate(taken) if m == "PATCH" and s == 200 and "passw0rd9" in b)
        assert before < command, taken


# The form's input writer as the page holds it (binder/writer.js), for a failure's report.
WRITER_STATE = """
const b = window.__bindery && window.__bindery.binder;
const w = b && b.writers.get('form');
if (!w) return 'no writer';
return JSON.stringify({stopped: b.stopped, forgotten: Boolean(b.forgotten), version: b.version,
  pending: [...w.pending.keys()], later: [...w.later.keys()], holds: w.holds, inflight: Boolean(w.inflight),
  unanswered: w.unanswered && {body: w.unanswered.body, check: w.unanswered.check},
  retryTimer: Boolean(w.retryTimer), recovering: w.recovering, waiting: w.waiting,
  conflicts: [...w.conflicts.keys()], held: [...w.held.keys()], orphans: Object.keys(w.orphans),
  exited: w.exited, stream: document.documentElement.dataset.stream});
"""


def recipes_named(driver, base: str, name: str) -> int:
    return sum(1 for r in server_view(driver, base, "recipes")["outputs"]["recipes"] if r["outputs"]["name"] == name)


def test_a_command_pressed_offline_waits_and_goes_when_the_network_returns(driver, base_url, screenshot):
    """No "cannot be reached" notice any more: the command waits ("Offline — will send") and
    is sent, with its key, once the network is back; it then does what it does (add navigates)."""
    name = f"Offline recipe {uuid.uuid4().hex[:8]}"
    sign_in_browser(driver, base_url, LI_LEI)  # adding a recipe needs a user
    open_screen(driver, base_url, "/recipes")
    wait(driver, lambda: len(all_css(driver, "#recipe-list .recipe-cell")) > 0)
    css(driver, "#new-recipe-name").send_keys(name)
    button = css(driver, "#add-recipe-button")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", NETWORK_OFFLINE)
    try:
        button.click()
        wait(driver, lambda: save_state(driver) == OFFLINE)
        assert not all_css(driver, "#toasts .toast"), "it will be sent: nothing to tell the user to do"
        assert css(driver, "#new-recipe-name").get_attribute("value") == name, "what was typed stays"
        [command] = kept(driver)["bindery:unsent:recipes"]["commands"]
        assert command["name"] == "add" and command["body"] == {"name": name} and UUID.match(command["key"])
        screenshot("safe-retries-command-offline")
        # On a phone the header's one short line holds it, nothing overlaps, nothing scrolls sideways.
        set_viewport(driver, PHONE)
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert not driver.execute_script("""
            const a = document.getElementById('save-state').getBoundingClientRect();
            return [...document.querySelectorAll('.app-header > :not(#save-state)')].some((e) => {
              const b = e.getBoundingClientRect();
              return b.width && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            });"""), "the save state overlaps another part of the header"
        screenshot("safe-retries-command-offline-phone")
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**NETWORK_OFFLINE, "offline": False})
    wait(driver, lambda: driver.execute_script("return location.pathname").endswith("/edit"), timeout=30,
         message="the command was not sent when the network came back")
    wait(driver, lambda: css(driver, "#edit-name").get_attribute("value") == name)
    assert recipes_named(driver, base_url, name) == 1
    assert not unsent_keys(driver)
    assert not all_css(driver, "#toasts .toast")


def test_a_command_whose_answer_is_lost_is_sent_again_with_its_key(driver, restartable_server, gateway):
    """`add` is not idempotent by itself (each one adds a recipe): its answer lost, the page sends
    it again with the same key and body, and a server that keeps keys runs it once."""
    replays = server_replays(restartable_server.base)
    name = f"Lost answer {uuid.uuid4().hex[:8]}"
    sign_in_browser(driver, gateway.base, LI_LEI)  # adding a recipe needs a user
    open_screen(driver, gateway.base, "/recipes")
    wait(driver, lambda: len(all_css(driver, "#recipe-list .recipe-cell")) > 0)
    css(driver, "#new-recipe-name").send_keys(name)
    gateway.lose_next_answer("POST", "/api/views/recipes/commands/add")
    css(driver, "#add-recipe-button").click()
    wait(driver, lambda: driver.execute_script("return location.pathname").endswith("/edit"), timeout=30,
         message="the command whose answer was lost was not sent again")
    posts = gateway.requests("POST", "/api/views/recipes/commands/add")
    assert len(posts) == 2, posts
    first, second = posts
    assert first["lost"] and first["status"] == 200, first
    assert UUID.match(first["key"] or "") and (second["key"], second["body"]) == (first["key"], first["body"]), posts
    assert json.loads(second["body"]) == {"name": name}
    if replays:
        assert second["replayed"] == "true", second
        assert recipes_named(driver, restartable_server.base, name) == 1, "run twice"
    assert not all_css(driver, "#toasts .toast")
