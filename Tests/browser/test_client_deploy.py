"""An open page follows a deploy (issue 39, part 5): when the client the server serves changes (the
fingerprint of its files), a page made from the old files learns it — from the `Bindery-Client`
header of any answer of the API, or the event stream's `client` event — and reloads at a safe
moment, keeping its URL and what the user typed; when nothing changed, nothing reloads.

Each test has a server of its own serving a copy of the thin client (`deployable_server`,
`--client-dir`): a deploy is a change of one of its files while the server runs, which changes the
fingerprint as a new release does (a restart on the changed files would too).

- A deploy while the user is mid-composition (an IME's, its text in no outbox yet) and the form's
  writes cannot reach the server (blocked in the browser): the page waits for the composition to
  end, then reloads with the edit unacknowledged; the new page runs the new files at the same URL
  (query and hash), shows the edit from the tab's outbox, focuses the field again and sends the
  edit once the server can be reached.
- Writes, a dropped stream and a server restart on the same files: the page stays as it is.

Runtime budget: at most 30 s for the file (about 15 s here: two servers, one restarted, two browsers).
"""

from __future__ import annotations

import urllib.request

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.keys import Keys

from bindery_support import api_session
from pages import css, stream_state, wait
from test_safe_retries import SAVED, kept, save_state, server_view

FORM_API = "*/api/views/form"  # the form's snapshot and writes, not its presence or the stream
COMPOSE = "arguments[0].dispatchEvent(new CompositionEvent(arguments[1], {bubbles: true, data: arguments[2]}))"


def served_client(base: str) -> str:
    """The fingerprint the server names in an answer of its API."""
    with urllib.request.urlopen(f"{base}/api/views", timeout=10) as response:
        return response.headers["Bindery-Client"]


def deploy(driver) -> dict:
    """What the page's js/deploy.js knows: {own, wanted, resting, flying, composing, waits, reloaded}."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " import('/js/deploy.js').then((m) => done(m.deployState()), (e) => done({error: String(e)}));")


def page_client(driver) -> str | None:
    return driver.execute_script("const m = document.querySelector('meta[name=\"bindery-client\"]'); return m && m.content")


def still_here(driver) -> bool | None:
    """Whether the marker set before is still on `window` (None while the page is being replaced)."""
    try:
        return driver.execute_script("return window.__beforeDeploy === true")
    except WebDriverException:
        return None


def open_form(driver, url: str):
    driver.get(url)
    wait(driver, lambda: stream_state(driver) == "open", timeout=15, message="the form's stream did not open")
    phone = css(driver, "#phone")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    driver.execute_script("window.__beforeDeploy = true")
    return phone


def test_a_deploy_reloads_the_page_at_a_safe_moment_keeping_its_url_and_the_unsent_edit(driver, deployable_server):
    server = deployable_server
    before = served_client(server.base)
    url = f"{server.base}/form?from=deploy#top"
    phone = open_form(driver, url)
    assert page_client(driver) == before == deploy(driver)["own"]

    # The form's writes fail (as if the server were away for them), and the user starts composing.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [FORM_API]})
    phone.click()
    phone.send_keys(Keys.END)
    driver.execute_script(COMPOSE, phone, "compositionstart", "")
    phone.send_keys("99")

    # The deploy: a new file of the client, while the server runs.
    with open(server.client / "js" / "app.js", "a", encoding="utf-8") as app:
        app.write("\nwindow.__release = 'two';\n")
    wait(driver, lambda: served_client(server.base) != before, timeout=5, message="the server did not serve the new client")
    after = served_client(server.base)
    # Told by the stream (or by the answer to a request of the page's).
    wait(driver, lambda: deploy(driver)["wanted"] == after, timeout=5, message="the page did not learn of the deploy")

    # Mid-composition: the page waits (the look for a safe moment declined at least a second).
    wait(driver, lambda: deploy(driver)["waits"] >= 6, message="the page did not look for a safe moment")
    assert still_here(driver), "the page reloaded in the middle of a composition"
    assert "bindery:unsent:form" not in kept(driver), "a composition's text is in no outbox before it ends"

    # The composition ends: its text goes to the outbox at once, its write fails, the page reloads
    # (a second later: nothing typed meanwhile).
    driver.execute_script(COMPOSE, phone, "compositionend", "99")
    assert kept(driver)["bindery:unsent:form"]["edits"]["phone"]["value"] == "18699"
    assert server_view(driver, server.base, "form")["inputs"]["phone"] == "186", "the form's writes were not blocked"
    wait(driver, lambda: still_here(driver) is False, timeout=10, message="the page did not reload after the deploy")

    wait(driver, lambda: page_client(driver) == after, message="the new page is not the new client's")
    assert driver.current_url == url
    # The page names its client before its modules have run: wait for the new app.js to have run.
    wait(driver, lambda: driver.execute_script("return window.__release") == "two",
         message="the new page does not run the new files")
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "18699", timeout=10,
         message="the edit typed before the reload is not in the field")
    # Kept across the reload until the server acknowledges it to this page (the old page's last
    # try on its way out, a keepalive write, may have brought it there meanwhile).
    assert kept(driver)["bindery:unsent:form"]["edits"]["phone"]["value"] == "18699"
    wait(driver, lambda: driver.execute_script("return document.activeElement && document.activeElement.id") == "phone",
         message="the field the user was typing in has not got the focus back")

    # The server reachable again: the kept edit reaches it, and nothing reloads again.
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    wait(driver, lambda: server_view(driver, server.base, "form")["inputs"]["phone"] == "18699", timeout=20,
         message="the edit kept across the reload did not reach the server")
    wait(driver, lambda: "bindery:unsent:form" not in kept(driver), message="the outbox still keeps the sent edit")
    # "Saved", or nothing said when the page found its edit already there (the keepalive's).
    wait(driver, lambda: save_state(driver)[0] in ("saved", "idle"), message=f"the header says {save_state(driver)}")
    state = deploy(driver)
    assert state["own"] == after and state["wanted"] is None and not state["reloaded"], state


def test_nothing_changed_nothing_reloads(driver, deployable_server):
    server = deployable_server
    fingerprint = served_client(server.base)
    # The contract: the stream says the client first (`event: client`), as the answers' header does.
    token = api_session(server.base).token
    request = urllib.request.Request(f"{server.base}/api/events?views=form", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as stream:
        lines = [stream.readline().decode().strip() for _ in range(4)]
    assert lines == ["retry: 2000", "", "event: client", f'data: {{"fingerprint":"{fingerprint}"}}'], lines

    phone = open_form(driver, f"{server.base}/form")
    assert page_client(driver) == fingerprint
    phone.click()
    phone.send_keys(Keys.END, "12")
    wait(driver, lambda: save_state(driver) == SAVED)

    driver.execute_script("window.__bindery.dropStream()")
    wait(driver, lambda: stream_state(driver) == "reconnecting", message="the stream was not dropped")
    wait(driver, lambda: stream_state(driver) == "open", timeout=15, message="the stream did not come back")
    server.stop()
    wait(driver, lambda: stream_state(driver) == "reconnecting", message="the page did not notice the server was gone")
    server.start()  # the same files: the same client
    wait(driver, lambda: stream_state(driver) == "open", timeout=20, message="the stream did not reconnect after the restart")
    phone.send_keys("3")
    wait(driver, lambda: server_view(driver, server.base, "form")["inputs"]["phone"] == "186123", timeout=20)
    wait(driver, lambda: save_state(driver) == SAVED)

    assert served_client(server.base) == fingerprint
    assert still_here(driver), "the page reloaded though the client did not change"
    state = deploy(driver)
    assert state["wanted"] is None and state["resting"] == [] and not state["reloaded"], state

