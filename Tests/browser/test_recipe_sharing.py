"""Shared recipes between users: deleting one asks first and can be undone; whoever has it open is
told who deleted it, keeps what they typed, and can restore it or copy its text; a plain field
changed by someone else while you edit it asks which value stays. Two browsers (two sessions) or a
browser and an API session, each signed in: anonymous sessions only read the recipes, only a
recipe's owner deletes and restores it, and only an administrator (Li Lei) the first-start ones
(c41, d76). Time budget: about 30 s for the file."""

from __future__ import annotations


from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from pages import all_css, css, open_screen, usable, wait


def names(driver):
    return [e.text for e in all_css(driver, "#recipe-list .recipe-name")]


def delete_button(driver, recipe_id):
    return css(driver, f'#recipe-list [data-key="{recipe_id}"] .recipe-delete')


def presence_name(driver, path):
    return driver.execute_script(
        "return fetch(arguments[0]).then(r => r.json()).then(d => d.you.name)", f"/api/views/{path}/presence")


def test_a_deleted_recipe_open_elsewhere_keeps_its_text_and_can_be_restored(driver, other, base_url, screenshot):
    # D-76 belongs to nobody: only an administrator deletes and restores it. A and B are Li Lei on
    # two devices (two browsers, two sessions).
    call = api_session(base_url, LI_LEI)
    sign_in_browser(other, base_url, LI_LEI)
    sign_in_browser(driver, base_url, LI_LEI)
    try:
        open_screen(other, base_url, "/recipes/d76/edit")  # B edits D-76
        seconds = all_css(other, "#edit-steps .step-seconds")[0]
        wait(other, lambda: seconds.get_attribute("value") == "405")
        open_screen(driver, base_url, "/recipes")            # A looks at the list
        wait(driver, lambda: "D-76 Tri-X 400" in names(driver))
        a_name = presence_name(driver, "recipes")

        # Delete asks first: a real dialog; Escape (or Cancel) keeps the recipe.
        delete_button(driver, "d76").click()
        dialog = css(driver, "#delete-dialog")
        wait(driver, lambda: dialog.get_attribute("open") is not None)
        assert "D-76 Tri-X 400" in dialog.text
        assert driver.switch_to.active_element == css(driver, "#delete-cancel"), "Cancel is the safe default"
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait(driver, lambda: dialog.get_attribute("open") is None)
        assert "D-76 Tri-X 400" in names(driver)
        assert driver.switch_to.active_element == delete_button(driver, "d76"), "focus back on Delete"

        delete_button(driver, "d76").click()
        wait(driver, lambda: dialog.get_attribute("open") is not None)
        css(driver, "#delete-confirm").click()
        wait(driver, lambda: "D-76 Tri-X 400" not in names(driver), message="not deleted")
        toast = wait(driver, lambda: css(driver, "#toasts .toast"))
        # A toast rises in from transparent: its text reads as empty until it shows.
        wait(driver, lambda: "Deleted D-76 Tri-X 400" in toast.text, message=f"toast says {toast.text!r}")
        assert toast.find_element(By.CSS_SELECTOR, ".toast-action").text == "Undo"

        # B is told who deleted it; the page still shows the recipe, and B's typing stays.
        banner = css(other, ".deleted-banner")
        wait(other, lambda: banner.is_displayed(), message="B was not told")
        assert banner.get_attribute("role") == "alert"
        assert f"{a_name} deleted this recipe." in " ".join(banner.text.split())
        film = css(other, "#edit-film")
        other.execute_script("arguments[0].focus()", film)
        Select(film).select_by_value("colourSlide")  # the server can't take it now
        wait(other, lambda: all_css(other, "#toasts .toast"), message="no word that it was not saved")
        assert film.get_attribute("value") == "colourSlide", "what the user chose stays"
        assert css(other, "#edit-name").get_attribute("value") == "D-76 Tri-X 400"
        screenshot("recipe-deleted-banner")
        other.save_screenshot(str(screenshot("recipe-deleted-banner")).replace(".png", "-b.png"))

        # Copy text: name, blurb and the steps as the fields show them.
        other.execute_script("""
            window.__copied = null;
            navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };""")
        css(other, ".deleted-copy").click()
        wait(other, lambda: other.execute_script("return window.__copied"))
        copied = other.execute_script("return window.__copied")
        assert copied.startswith("D-76 Tri-X 400\nKodak Tri-X 400")
        assert "\n\n1. Developer — " in copied and "\n4. Wash — " in copied
        wait(other, lambda: "Copied" in css(other, ".deleted-copied").text)

        # B restores it: back in A's list, the banner goes, and B's held edit is sent.
        restore = css(other, ".deleted-restore")
        wait(other, lambda: usable(restore))
        restore.click()
        wait(driver, lambda: "D-76 Tri-X 400" in names(driver), message="not back in A's list")
        wait(other, lambda: not banner.is_displayed())
        wait(other, lambda: call("GET", "/api/views/recipes/d76/edit")["inputs"]["filmType"] == "colourSlide",
             message="the edit held while it was deleted was not sent after Restore")
    finally:
        listed = [r["id"] for r in call("GET", "/api/views/recipes")["outputs"]["recipes"]]
        if "d76" not in listed:
            call("POST", "/api/views/recipes/commands/restore", {"id": "d76"})
        call("PATCH", "/api/views/recipes/d76/edit", {"filmType": "blackAndWhite"})


def test_a_deleted_recipes_editor_still_shows_its_steps_as_they_were(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)  # hers; the browser, anonymous, only reads it
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Gone"})["navigate"].split("/")[2]
    call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep",
         {"name": "Developer", "durationSeconds": 405, "temperatureCelsius": 20})
    open_screen(driver, base_url, f"/recipes/{recipe_id}/edit")
    seconds = wait(driver, lambda: css(driver, "#edit-steps .step-seconds"))
    wait(driver, lambda: seconds.get_attribute("value") == "405")
    call("POST", "/api/views/recipes/commands/delete", {"id": recipe_id})
    wait(driver, lambda: css(driver, ".deleted-banner").is_displayed())
    assert seconds.get_attribute("value") == "405"
    assert css(driver, "#edit-steps .step-temperature").get_attribute("value") == "20"


def test_undo_brings_a_deleted_recipe_back(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Undo me"})["navigate"].split("/")[2]
    sign_in_browser(driver, base_url, HAN_MEIMEI)  # its owner deletes it, and undoes that
    open_screen(driver, base_url, "/recipes")
    wait(driver, lambda: "Undo me" in names(driver))
    delete_button(driver, recipe_id).click()
    wait(driver, lambda: css(driver, "#delete-dialog").get_attribute("open") is not None)
    css(driver, "#delete-confirm").send_keys(Keys.ENTER)  # keyboard
    wait(driver, lambda: "Undo me" not in names(driver))
    undo = wait(driver, lambda: css(driver, "#toasts .toast-action"))
    undo.click()
    wait(driver, lambda: "Undo me" in names(driver), message="Undo did not restore it")
    assert not all_css(driver, "#toasts .toast")
    assert recipe_id in [r["id"] for r in call("GET", "/api/views/recipes")["outputs"]["recipes"]]


def test_a_plain_field_changed_elsewhere_while_editing_it_asks(driver, base_url, screenshot):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Contested"})["navigate"].split("/")[2]
    edit = f"/api/views/recipes/{recipe_id}/edit"
    sign_in_browser(driver, base_url, LI_LEI)  # any user may edit it
    open_screen(driver, base_url, f"/recipes/{recipe_id}/edit")
    film = css(driver, "#edit-film")
    wait(driver, lambda: film.get_attribute("value") == "colourNegative")
    driver.execute_script("arguments[0].focus()", film)
    Select(film).select_by_value("colourSlide")  # mine, sent and acknowledged
    wait(driver, lambda: call("GET", edit)["inputs"]["filmType"] == "colourSlide")

    # Someone else picks another film while the select still has the focus: asked, not replaced.
    call("PATCH", edit, {"filmType": "blackAndWhite"})
    question = wait(driver, lambda: css(driver, '[data-conflict="filmType"]'), message="no question")
    assert "Someone else changed this while you were editing it." in question.text
    assert "Colour slide (E-6)" in question.text and "Black and white" in question.text
    assert film.get_attribute("value") == "colourSlide", "what the user chose stays"
    screenshot("recipe-online-conflict")
    question.find_element(By.CSS_SELECTOR, ".conflict-keep").click()
    wait(driver, lambda: call("GET", edit)["inputs"]["filmType"] == "colourSlide", message="Keep mine was not sent")
    assert not all_css(driver, ".conflict")

    # Again, and this time the other value is taken.
    Select(film).select_by_value("blackAndWhiteSlide")
    wait(driver, lambda: call("GET", edit)["inputs"]["filmType"] == "blackAndWhiteSlide")
    call("PATCH", edit, {"filmType": "colourNegative"})
    question = wait(driver, lambda: css(driver, '[data-conflict="filmType"]'))
    question.find_element(By.CSS_SELECTOR, ".conflict-take").click()
    wait(driver, lambda: film.get_attribute("value") == "colourNegative")
    assert call("GET", edit)["inputs"]["filmType"] == "colourNegative"

    # Not editing it (focus elsewhere): someone else's change simply shows.
    css(driver, "#edit-name").click()
    call("PATCH", edit, {"filmType": "colourSlide"})
    wait(driver, lambda: film.get_attribute("value") == "colourSlide")
    assert not all_css(driver, ".conflict")
