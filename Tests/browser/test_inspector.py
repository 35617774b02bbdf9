"""The live view-model inspector: the screen's snapshot, its versions over the event stream, its
commands and the curl line of the last action, beside the screen (under it on a phone)."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accessibility import audit, blocking, describe
from pages import PHONE, all_css, css, open_screen, set_viewport, wait


def active_id(driver):
    return driver.execute_script("return document.activeElement && document.activeElement.id")


def viewport_box(driver, element):
    return driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)


def part(driver, name):
    return css(driver, f'#inspector [data-part="{name}"]')


def test_the_inspector_shows_a_patch_its_new_version_and_its_curl_line(driver, base_url, screenshot):
    open_screen(driver, base_url, "/form")
    toggle, panel = css(driver, "#inspector-toggle"), css(driver, "#inspector")
    assert not panel.is_displayed() and toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    wait(driver, lambda: panel.is_displayed())
    assert toggle.get_attribute("aria-expanded") == "true"
    assert active_id(driver) == "inspector-title", "focus moves into the panel"
    assert panel.get_attribute("aria-labelledby") == "inspector-title"  # a labelled region
    assert part(driver, "path").text == "/api/views/form"
    wait(driver, lambda: '"phone": "186"' in part(driver, "json").text)
    commands = {row.get_attribute("data-command"): row.text for row in all_css(driver, "#inspector tbody tr")}
    assert "serial" in commands["clear"] and "disabled" in commands["clear"], commands

    phone = css(driver, "#phone")
    phone.click()
    phone.send_keys(Keys.END, "7")
    outcome = part(driver, "outcome")
    wait(driver, lambda: re.search(r"PATCH /api/views/form · Answered 200: version \d+", outcome.text),
         message=f"no PATCH in the inspector: {outcome.text!r}")
    version = int(re.search(r"version (\d+)", outcome.text).group(1))
    assert version == driver.execute_script("return window.__bindery.snapshot.version")
    wait(driver, lambda: part(driver, "version").text == f"version {version} (live)")
    # The member that changed is marked, and named in words.
    changed = [m.find_element(By.CSS_SELECTOR, ".j-line").get_attribute("data-pointer")
               for m in all_css(driver, "#inspector mark")]
    assert "/inputs/phone" in changed and "/outputs/output" in changed, changed
    assert "inputs.phone" in part(driver, "changed").text
    # The curl line repeats the write, conditional on the version the page showed.
    curl = part(driver, "curl").text
    assert curl.startswith(f"curl -X PATCH '{base_url}/api/views/form'"), curl
    assert 'Authorization: Bearer $BINDERY_TOKEN' in curl
    assert "Content-Type: application/merge-patch+json" in curl
    assert f"If-Match: \"{version - 1}\"" in curl, curl
    assert "--data '{\"phone\":\"1867\"}'" in curl, curl
    # The same version arrived over the event stream, as a JSON Patch, with its size.
    wait(driver, lambda: all_css(driver, f'#inspector [data-part="stream"] li[data-version="{version}"]'))
    pushed = css(driver, f'#inspector [data-part="stream"] li[data-version="{version}"]')
    assert pushed.get_attribute("data-kind") == "patch" and re.search(r"\d+ B", pushed.text), pushed.text
    screenshot("inspector-desktop")
    violations = blocking(audit(driver))
    assert not violations, describe("inspector open (desktop)", violations)

    # Escape closes it and gives focus back to the toggle; the backquote key opens it again.
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(driver, lambda: not panel.is_displayed())
    assert active_id(driver) == "inspector-toggle"
    css(driver, "main h1").click()
    driver.switch_to.active_element.send_keys("`")
    wait(driver, lambda: panel.is_displayed())
    # ... but typing a backquote in a field is typing.
    phone.click()
    phone.send_keys("`")
    assert panel.is_displayed()


def test_the_inspector_is_usable_on_a_phone_and_follows_navigation(driver, base_url, upstream, screenshot):
    set_viewport(driver, PHONE)
    open_screen(driver, base_url, "/courses")
    wait(driver, lambda: len(all_css(driver, "#course-list .course-cell")) >= 8, timeout=15)
    css(driver, "#inspector-toggle").click()
    panel = css(driver, "#inspector")
    wait(driver, lambda: panel.is_displayed())
    wait(driver, lambda: "courses" in part(driver, "json").text)
    box = viewport_box(driver, panel)
    assert box["left"] >= 0 and box["right"] <= 390 and box["bottom"] <= 844 and box["top"] > 200, box
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    # The screen stays usable above the sheet: its last row can be scrolled into view and opened.
    last = all_css(driver, "#course-list .course-cell")[-1]
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert viewport_box(driver, last)["bottom"] <= box["top"] + 1, "the last row hides under the inspector"
    screenshot("inspector-phone")
    violations = blocking(audit(driver))
    assert not violations, describe("inspector open (phone)", violations)
    # It stays open across navigation and follows the screen in view.
    css(driver, '#nav a[href="/form"]').click()
    wait(driver, lambda: part(driver, "path").text == "/api/views/form")
    wait(driver, lambda: '"phone"' in part(driver, "json").text)
    css(driver, '#inspector [data-part="close"]').click()
    wait(driver, lambda: not panel.is_displayed())
