"""The demo's behaviour (issue 29): the recipe timer's one Start/Pause toggle with "Step N of M",
its progress and its announcements, without an error for a run that ends by design; the home
page's cards and the Lab page; one error pattern on every screen that loads from the upstream
(a plain sentence, Details with the code, Try again, an empty state after OK, a photo link that
says the upstream failed rather than "Not found"); row buttons named after their row. axe runs on
the screens changed here."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from accessibility import audit, blocking, describe
from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from pages import all_css, css, idle, open_screen, path_of, settled, usable, wait


def new_recipe(call, name, steps):
    """A recipe every session shares, with `steps` [(name, seconds)]: its id."""
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": name})["navigate"].split("/")[2]
    for step, seconds in steps:
        call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep", {"name": step, "durationSeconds": seconds})
    return recipe_id


def toasts(driver):
    return [t.text for t in all_css(driver, "#toasts .toast")]


def no_blocking_axe_issue(driver, where):
    found = blocking(audit(driver))
    assert not found, describe(where, found)


# ---------------------------------------------------------------------------------- the timer

def test_timer_toggles_start_pause_start_and_announces_steps_and_done(driver, base_url, screenshot):
    call = api_session(base_url, HAN_MEIMEI)  # adding a recipe needs a user; its timer, anyone
    recipe_id = new_recipe(call, "Quick run", [("Developer", 3), ("Stop", 1)])
    open_screen(driver, base_url, f"/recipes/{recipe_id}/timer")
    toggle = css(driver, "#timer-toggle")
    wait(driver, lambda: toggle.text == "Start" and usable(toggle))
    assert css(driver, "#timer-position").text == "Step 1 of 2"
    progress = css(driver, "#timer-progress")
    assert progress.accessible_name == "Overall progress"
    assert not all_css(driver, "#timer-start") and not all_css(driver, "#timer-pause")  # one toggle
    for secondary in ("#timer-next-step", "#timer-reset"):
        assert "secondary" in css(driver, secondary).get_attribute("class").split()
    live = css(driver, "#timer-announce")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"

    toggle.click()
    wait(driver, lambda: toggle.text == "Pause" and usable(toggle), message="Start did not become Pause")
    assert toggle.get_attribute("aria-busy") != "true", "Start shows a spinner for the whole run"
    toggle.click()  # Pause ends the run by design: the Start request's 409 "Command cancelled" is no error
    wait(driver, lambda: toggle.text in ("Resume", "Start") and usable(toggle), message="Pause did not stop the run")
    assert not driver.execute_script("return window.__bindery.snapshot.outputs.running")
    toggle.click()
    wait(driver, lambda: toggle.text == "Pause")
    wait(driver, lambda: css(driver, "#timer-position").text == "Step 2 of 2", timeout=6)
    wait(driver, lambda: live.get_attribute("textContent").startswith("Step 2 of 2: Stop"),
         message="the new step was not announced")
    wait(driver, lambda: "Done" in live.get_attribute("textContent"), timeout=6, message="the end was not announced")
    assert css(driver, "#timer-done").is_displayed()
    assert progress.get_attribute("value") == progress.get_attribute("max")
    wait(driver, lambda: toggle.text == "Start" and not usable(toggle))
    assert toasts(driver) == [], f"a run that ended by design showed an error: {toasts(driver)}"
    screenshot("demo-timer-done")
    no_blocking_axe_issue(driver, "timer")

    # Reset, start, and Reset again while it runs: ended by design too, no toast.
    css(driver, "#timer-reset").click()
    wait(driver, lambda: toggle.text == "Start" and usable(toggle))
    toggle.click()
    wait(driver, lambda: toggle.text == "Pause")
    css(driver, "#timer-reset").click()
    wait(driver, lambda: toggle.text == "Start" and usable(toggle))
    assert css(driver, "#timer-position").text == "Step 1 of 2"
    assert toasts(driver) == []


# ---------------------------------------------------------------------------------- home and lab

def test_home_shows_a_card_per_screen_and_the_lab_holds_the_upstream(driver, base_url, upstream, screenshot):
    driver.get(base_url + "/")
    wait(driver, lambda: len(all_css(driver, "#home-cards .home-card")) >= 6)
    cards = {c.find_element(By.CSS_SELECTOR, "a").get_attribute("pathname"): c.find_element(By.CSS_SELECTOR, ".home-card-try").text
             for c in all_css(driver, "#home-cards .home-card")}
    assert {"/form", "/list", "/gallery", "/courses", "/recipes", "/lab"} <= set(cards)
    assert all(cards.values()), cards
    assert "two windows" in cards["/form"]
    assert not all_css(driver, "#upstream"), "the upstream panel belongs to the Lab now"
    screenshot("demo-home")
    no_blocking_axe_issue(driver, "home")

    css(driver, '#nav a[href="/lab"]').click()
    wait(driver, lambda: path_of(driver) == "/lab")
    wait(driver, lambda: len(all_css(driver, "#upstream-endpoints fieldset")) >= 5)
    assert driver.title == "Lab · Bindery"
    assert css(driver, '#nav a[href="/lab"]').get_attribute("aria-current") == "page"
    css(driver, "#upstream-break").click()
    wait(driver, lambda: css(driver, "#upstream-status").text.startswith("Saved"))
    assert upstream.original is not None
    assert all(e["failureRate"] == 1 for e in upstream.current()["endpoints"].values())
    css(driver, "#upstream-heal").click()
    wait(driver, lambda: css(driver, "#upstream-status").text == "Saved: no endpoint fails now.")
    no_blocking_axe_issue(driver, "lab")
    # A direct load of the Lab's address shows it too (the client routes it).
    driver.get(base_url + "/lab")
    wait(driver, lambda: css(driver, "main h1").text == "Lab")


# ---------------------------------------------------------------------------------- errors

ERROR_SCREENS = [
    # (page, endpoints to fail, banner, failed state, Try again, what shows once loaded)
    ("/list", ("travel", "hotel"), "#list-error", "#list-failed", "#list-retry", "#poi-list .poi-cell"),
    ("/courses", ("courses",), "#courses-error", "#courses-failed", "#courses-retry", "#course-list .course-cell"),
    ("/gallery", ("photos",), "#gallery-error", "#gallery-failed", "#gallery-retry", "#gallery-grid .thumb"),
]


@pytest.mark.parametrize("page,endpoints,banner_id,failed_id,retry_id,loaded", ERROR_SCREENS,
                         ids=[s[0].strip("/") for s in ERROR_SCREENS])
def test_an_upstream_failure_is_said_plainly_and_can_be_tried_again(driver, base_url, upstream, screenshot,
                                                                     page, endpoints, banner_id, failed_id, retry_id, loaded):
    upstream.patch({name: {"failureRate": 1} for name in endpoints})
    open_screen(driver, base_url, page)
    banner = css(driver, banner_id)
    wait(driver, lambda: banner.is_displayed(), timeout=15, message=f"{page}: no error shown")
    message = banner.find_element(By.CSS_SELECTOR, ".banner-message").text
    assert "could not be loaded" in message and "Bad Network" not in message, message
    details = banner.find_element(By.CSS_SELECTOR, "details")
    details.find_element(By.CSS_SELECTOR, "summary").click()
    facts = details.find_element(By.CSS_SELECTOR, "pre").text
    assert "Code: 500" in facts and "Bad Network" in facts, facts
    assert toasts(driver) == []
    screenshot(f"demo-error{page.replace('/', '-')}")
    no_blocking_axe_issue(driver, f"{page} failed")

    # OK puts the banner away; the list area is not blank: it says so and offers Try again.
    banner.find_element(By.CSS_SELECTOR, ".banner-ok").click()
    wait(driver, lambda: not banner.is_displayed())
    failed = css(driver, failed_id)
    assert failed.is_displayed() and failed.text.startswith("No "), failed.text
    retry = css(driver, retry_id)
    assert retry.text == "Try again"
    # Still failing: the one message comes back, no toast.
    wait(driver, lambda: idle(retry), timeout=15)
    retry.click()
    wait(driver, lambda: banner.is_displayed(), timeout=15, message="failing again did not say so")
    assert toasts(driver) == []

    upstream.patch({name: {"failureRate": 0} for name in endpoints})
    wait(driver, lambda: idle(retry), timeout=15)
    retry.click()
    wait(driver, lambda: len(all_css(driver, loaded)) > 1, timeout=15, message="Try again did not load")
    wait(driver, lambda: not banner.is_displayed() and not failed.is_displayed())


def test_a_photo_link_while_the_upstream_fails_says_so_not_not_found(driver, base_url, upstream, screenshot):
    upstream.patch({"photos": {"failureRate": 1}})
    driver.get(base_url + "/gallery/photos/2")  # a fresh session: the gallery has imported nothing
    wait(driver, lambda: css(driver, "main h1").text == "Could not load this page", timeout=15,
         message="a photo link while the upstream fails must not say Not found")
    assert "Not found" not in driver.title
    banner = css(driver, "main .banner")
    assert "did not answer properly" in banner.find_element(By.CSS_SELECTOR, ".banner-message").text
    banner.find_element(By.CSS_SELECTOR, "summary").click()
    assert "Code: 500" in banner.find_element(By.CSS_SELECTOR, "pre").text
    screenshot("demo-photo-upstream-failed")
    no_blocking_axe_issue(driver, "photo link, upstream failed")

    upstream.patch({"photos": {"failureRate": 0}})
    css(driver, "main .load-retry").click()
    wait(driver, lambda: css(driver, "#photo-position").text.startswith("Photo 3 of"), timeout=15)
    assert path_of(driver) == "/gallery/photos/2"

    # What is really missing is still "Not found".
    driver.get(base_url + "/gallery/photos/999")
    wait(driver, lambda: css(driver, "main h1").text == "Not found", timeout=15)


# ---------------------------------------------------------------------------------- row names

def test_row_buttons_say_which_row(driver, base_url, screenshot):
    # Delete shows where the user may delete: her own recipes and, an administrator, the first ones.
    call = api_session(base_url, LI_LEI)
    recipe_id = new_recipe(call, "Named rows", [("Developer", 60), ("Stop bath", 30), ("Fixer", 300)])
    sign_in_browser(driver, base_url, LI_LEI)
    open_screen(driver, base_url, "/recipes")
    wait(driver, lambda: any(b.accessible_name == "Delete recipe Named rows" for b in all_css(driver, ".recipe-delete")))
    deletes = [b.accessible_name for b in all_css(driver, ".recipe-delete") if b.is_displayed()]
    # Each is named after its own row (other tests on this server may have made equal names).
    assert all(name.startswith("Delete recipe ") and name != "Delete recipe " for name in deletes), deletes
    assert deletes.count("Delete recipe Named rows") == 1, deletes
    assert "Delete recipe D-76 Tri-X 400" in deletes
    no_blocking_axe_issue(driver, "recipes")

    open_screen(driver, base_url, f"/recipes/{recipe_id}/edit")
    wait(driver, lambda: len(all_css(driver, "#edit-steps .step-row")) == 3)
    wait(driver, lambda: css(driver, "#edit-steps .step-row:last-child .step-remove").accessible_name == "Remove step Fixer")
    ups = [b.accessible_name for b in all_css(driver, "#edit-steps .step-up")][1:]  # the first row can't move up
    removes = [b.accessible_name for b in all_css(driver, "#edit-steps .step-remove")]
    assert ups == ["Move step Stop bath up", "Move step Fixer up"], ups
    assert removes == ["Remove step Developer", "Remove step Stop bath", "Remove step Fixer"], removes
    wait(driver, lambda: settled(driver))
    no_blocking_axe_issue(driver, "recipe editor")

    # The names follow the rows: Fixer moved up is now the second row's.
    css(driver, "#edit-steps .step-row:last-child .step-up").click()
    wait(driver, lambda: [b.accessible_name for b in all_css(driver, "#edit-steps .step-remove")]
         == ["Remove step Developer", "Remove step Fixer", "Remove step Stop bath"])
