"""Undo and redo in a shared text take back this browser's own edits only (issue 38, item 4):
Ctrl+Z after someone else typed in the field removes what this user typed (where it now is) and
leaves the other's text; Ctrl+Shift+Z puts it back. The browser's own history could do neither:
a remote edit wipes it, and it would take back the other's typing too.

Runtime budget: at most 40 s for the file (about 10 s here).
"""

from __future__ import annotations

import uuid

from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from pages import css, wait

FIELD = "#edit-blurb"


def test_undo_takes_back_only_my_edits_after_someone_else_typed(driver, base_url):
    owner = api_session(base_url, HAN_MEIMEI)
    recipe = owner("POST", "/api/views/recipes/commands/add", {"name": f"Undo {uuid.uuid4().hex[:6]}"})["navigate"].split("/")[2]
    path = f"/api/views/recipes/{recipe}/edit/inputs/blurb"
    owner("PATCH", f"/api/views/recipes/{recipe}/edit", {"blurb": "Shared."}, content_type="application/merge-patch+json")
    text = lambda: owner("GET", path)["text"]  # noqa: E731
    value = lambda: css(driver, FIELD).get_attribute("value")  # noqa: E731

    sign_in_browser(driver, base_url, LI_LEI)
    driver.get(f"{base_url}/recipes/{recipe}/edit")
    wait(driver, lambda: value() == "Shared.", timeout=15)
    field = css(driver, FIELD)
    field.click()
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(" Mine.")
    wait(driver, lambda: text() == "Shared. Mine.")

    # Han Meimei types at the start, over the API.
    owner("POST", f"{path}/ops", {"id": f"b-{uuid.uuid4().hex}", "base": owner("GET", path)["revision"],
                                  "ops": [{"p": 0, "si": "Hers: "}]})
    wait(driver, lambda: value() == "Hers: Shared. Mine.")

    field.send_keys(Keys.CONTROL, "z")
    wait(driver, lambda: text() == "Hers: Shared.", message=f"after Ctrl+Z the server has {text()!r}")
    assert value() == "Hers: Shared."
    field.send_keys(Keys.CONTROL, "z")  # nothing more of mine to undo: hers stays
    field.send_keys(Keys.CONTROL, Keys.SHIFT, "z")
    wait(driver, lambda: text() == "Hers: Shared. Mine.", message=f"after Ctrl+Shift+Z the server has {text()!r}")
    assert value() == "Hers: Shared. Mine."
