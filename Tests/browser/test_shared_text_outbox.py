"""Typing into a shared text is never lost (issue 38): the collaborative fields' unsent operations
live in the tab's outbox (sessionStorage), a recipe deleted and restored while open reconnects its
editor, and the save state tells the truth at the field and in the header.

- Deleted while typing, then restored: A (a browser, Li Lei) types in a recipe's blurb; C (its
  owner, over the API) deletes it; A types on (the field says it is not saved, and why); C undoes
  the delete; A types again and B (the owner, in a second browser) types at the start. Deleted
  again while A types mid-word, B presses Restore on the banner. The server ends with every
  keystroke once, in both fields as on the server.
- kill -9 of the server mid-typing (behind the gateway of test_safe_retries, which serves the
  page while the server is down), typing on during the outage, then: staying on the page; a reload
  while it is down (no screen shows until the catalogue of views comes back: the header says the
  text waits); navigating away and Back while it is down (the editor shows the kept text, and
  what is typed there is merged, not a whole-field write). Each time the server's final text holds
  every keystroke exactly once, and the field and header say "not sent" while it is not.

Runtime budget: at most 150 s for the file (about 60 s here: two more browsers, three server starts).
"""

from __future__ import annotations

import json
import urllib.request
import uuid

from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from pages import css, wait

FIELD = "#edit-blurb"


def new_recipe(base: str, blurb: str) -> tuple[str, object]:
    """A recipe of Han Meimei's with `blurb`; answers its id and her API session."""
    call = api_session(base, HAN_MEIMEI)
    recipe = call("POST", "/api/views/recipes/commands/add", {"name": f"Outbox {uuid.uuid4().hex[:6]}"})["navigate"].split("/")[2]
    call("PATCH", f"/api/views/recipes/{recipe}/edit", {"blurb": blurb}, content_type="application/merge-patch+json")
    return recipe, call


def server_text(base: str, recipe: str) -> str:
    """The blurb as the server holds it (a session of its own, straight to the server)."""
    call = api_session(base, HAN_MEIMEI)
    return call("GET", f"/api/views/recipes/{recipe}/edit/inputs/blurb")["text"]


def open_blurb(driver, base: str, recipe: str):
    """The recipe's editor with its blurb bound and the stream open; the caret at the end."""
    driver.get(f"{base}/recipes/{recipe}/edit")
    wait(driver, lambda: driver.execute_script(
        "return document.documentElement.dataset.stream === 'open' && document.querySelector(arguments[0]) !== null", FIELD),
        timeout=15, message=f"the editor of {recipe} did not open")
    field = css(driver, FIELD)
    field.click()
    field.send_keys(Keys.CONTROL, Keys.END)
    return field


def field_state(driver) -> tuple[str, str]:
    """(data-save-state, the line under it) of the blurb."""
    return tuple(driver.execute_script(
        "const el = document.querySelector(arguments[0]); const id = (el.getAttribute('aria-describedby') || '').split(' ')"
        ".find((i) => i.startsWith('field-state-')); const line = id && document.getElementById(id);"
        " return [el.dataset.saveState || 'idle', line ? line.textContent : ''];", FIELD))


def header_state(driver) -> str:
    return driver.execute_script("return document.getElementById('save-state').dataset.state || 'idle'")


def value(driver) -> str | None:
    return driver.execute_script("const el = document.querySelector(arguments[0]); return el && el.value", FIELD)


def kept_text(driver, recipe: str) -> dict | None:
    raw = driver.execute_script("return sessionStorage.getItem(arguments[0])", f"bindery:unsent:recipes/{recipe}/edit")
    return ((json.loads(raw) if raw else {}).get("texts") or {}).get("blurb")


def type_slowly(field, text: str) -> None:
    for character in text:
        field.send_keys(character)


def post_ops(base: str, call, recipe: str, ops: list) -> dict:
    """Another user's edit of the blurb over the API (on the server's current revision)."""
    path = f"/api/views/recipes/{recipe}/edit/inputs/blurb"
    revision = call("GET", path)["revision"]
    return call("POST", f"{path}/ops", {"id": f"b-{uuid.uuid4().hex}", "base": revision, "ops": ops})


def editor_as_li_lei(driver, server, gateway) -> tuple[str, object]:
    """A new recipe whose blurb is "Before kill.", open in the browser (Li Lei, through the
    gateway) with the caret at the end of its blurb: answers the recipe's id and the field."""
    recipe, _ = new_recipe(server.base, "Before kill.")
    sign_in_browser(driver, gateway.base, LI_LEI)
    return recipe, open_blurb(driver, gateway.base, recipe)


def outage(driver, server):
    server.kill9()
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "reconnecting",
         timeout=15, message="the page did not notice the server was gone")


# ---------------------------------------------------------------------------------- tests

def test_a_recipe_deleted_and_restored_while_typing_keeps_every_keystroke(base_url, two_browsers):
    a, b = two_browsers  # A: Li Lei; B: Han Meimei, the owner, in a browser; C: her over the API
    recipe, owner = new_recipe(base_url, "Before delete.")
    sign_in_browser(a, base_url, LI_LEI)
    sign_in_browser(b, base_url, HAN_MEIMEI)
    field = open_blurb(a, base_url, recipe)
    field_b = open_blurb(b, base_url, recipe)

    owner("POST", "/api/views/recipes/commands/delete", {"id": recipe})
    wait(a, lambda: css(a, ".deleted-banner").is_displayed(), message="A's editor did not show the deletion")
    type_slowly(field, " During delete.")
    wait(a, lambda: field_state(a)[0] == "unsaved", message="the field did not say its text is not saved")
    assert "deleted" in field_state(a)[1], field_state(a)
    assert header_state(a) == "unsaved"
    assert kept_text(a, recipe)["buffer"], "what was typed while deleted is not in the outbox"

    owner("POST", "/api/views/recipes/commands/restore", {"id": recipe})  # the Undo
    wait(a, lambda: server_text(base_url, recipe) == "Before delete. During delete.", timeout=15,
         message="what A typed while the recipe was deleted was not sent after the Undo")
    type_slowly(field, " After undo.")
    wait(b, lambda: value(b).endswith("After undo."), message=f"B's field shows {value(b)!r}")
    field_b.send_keys(Keys.CONTROL, Keys.HOME)
    type_slowly(field_b, "B: ")
    expected = "B: Before delete. During delete. After undo."
    wait(a, lambda: server_text(base_url, recipe) == expected, timeout=15,
         message=f"the server has {server_text(base_url, recipe)!r}")
    wait(a, lambda: value(a) == expected, message=f"A's field shows {value(a)!r}")

    # Deleted again while A types mid-word; B presses Restore on the banner later.
    owner("POST", "/api/views/recipes/commands/delete", {"id": recipe})
    wait(a, lambda: css(a, ".deleted-banner").is_displayed())
    type_slowly(field, " More")
    wait(a, lambda: field_state(a)[0] == "unsaved")
    wait(b, lambda: css(b, ".deleted-restore").is_displayed())
    css(b, ".deleted-restore").click()
    expected += " More"
    wait(a, lambda: server_text(base_url, recipe) == expected, timeout=15,
         message=f"after Restore the server has {server_text(base_url, recipe)!r}")
    for d in (a, b):
        wait(d, lambda: value(d) == expected, message=f"a field shows {value(d)!r}")
    wait(a, lambda: field_state(a)[0] in ("saved", "idle") and header_state(a) == "saved")


def test_typing_through_a_kill_while_staying_on_the_page_arrives_once(driver, restartable_server, gateway):
    recipe, field = editor_as_li_lei(driver, restartable_server, gateway)
    type_slowly(field, " D")
    wait(driver, lambda: server_text(restartable_server.base, recipe) == "Before kill. D")

    outage(driver, restartable_server)
    type_slowly(field, "uring the outage.")
    wait(driver, lambda: field_state(driver)[0] == "offline", timeout=20, message="the field did not say it waits")
    assert "Not sent yet" in field_state(driver)[1]
    assert header_state(driver) == "offline"

    restartable_server.start()
    wait(driver, lambda: server_text(restartable_server.base, recipe) == "Before kill. During the outage.", timeout=30,
         message="what was typed during the outage did not arrive once")
    wait(driver, lambda: field_state(driver)[0] == "saved" and header_state(driver) == "saved", timeout=15)
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open", timeout=10,
         message="the event stream did not reconnect promptly once a write got through")


def test_typing_through_a_kill_and_a_reload_while_down_arrives_once(driver, restartable_server, gateway):
    recipe, field = editor_as_li_lei(driver, restartable_server, gateway)
    outage(driver, restartable_server)
    type_slowly(field, " Typed while down.")
    wait(driver, lambda: kept_text(driver, recipe) and kept_text(driver, recipe).get("buffer"), timeout=10)

    driver.refresh()  # the gateway serves the page; the API answers 502
    # No screen shows before the catalogue of views comes (it needs the server): the header says
    # that what was typed waits, and the tab still keeps it.
    wait(driver, lambda: header_state(driver) == "offline", timeout=20,
         message="after the reload the page did not say that text waits to be sent")
    assert kept_text(driver, recipe)["buffer"], "the reload lost the kept operations"

    restartable_server.start()
    driver.refresh()  # and reloaded again once the server is back, as a user would
    wait(driver, lambda: server_text(restartable_server.base, recipe) == "Before kill. Typed while down.", timeout=45,
         message="the kept text did not arrive once after the restart")
    wait(driver, lambda: value(driver) == "Before kill. Typed while down.", timeout=15)
    wait(driver, lambda: header_state(driver) == "saved", timeout=15)


def test_typing_through_a_kill_then_away_and_back_while_down_arrives_once(driver, restartable_server, gateway):
    recipe, field = editor_as_li_lei(driver, restartable_server, gateway)
    outage(driver, restartable_server)
    type_slowly(field, " Gone")
    css(driver, "#edit-back").click()  # the app's own link: a navigation within the page
    wait(driver, lambda: driver.execute_script("return document.querySelector(arguments[0]) === null", FIELD), timeout=10)
    driver.back()
    field = wait(driver, lambda: css(driver, FIELD), timeout=15)
    wait(driver, lambda: value(driver) == "Before kill. Gone", timeout=15,
         message=f"back on the editor during the outage it shows {value(driver)!r}")
    field.send_keys(Keys.CONTROL, Keys.END)
    type_slowly(field, " and back.")

    restartable_server.start()
    expected = "Before kill. Gone and back."
    wait(driver, lambda: server_text(restartable_server.base, recipe) == expected, timeout=45,
         message=f"the server has {server_text(restartable_server.base, recipe)!r}")
    wait(driver, lambda: value(driver) == expected)
