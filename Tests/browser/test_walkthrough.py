"""A new user clicking through every screen at desktop and phone size meets no dead end and no
hidden message: each one once found (issue 14's findings, second look), checked fixed."""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from bindery_support import LI_LEI, sign_in_browser
from pages import PHONE, all_css, css, open_screen, path_of, set_viewport, usable, wait


def viewport_box(driver, element):
    return driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)


def covered(driver, element):
    """Whether something else is drawn over the middle of `element` (a toast, a fixed bar)."""
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        "return !(top === arguments[0] || arguments[0].contains(top))", element)


def test_an_upstream_value_out_of_range_is_said_at_its_field_on_a_phone(driver, base_url, upstream, screenshot):
    """Before, the panel's error was a toast that covered the very field it named."""
    set_viewport(driver, PHONE)
    driver.get(base_url + "/lab")
    wait(driver, lambda: len(all_css(driver, "#upstream-endpoints fieldset")) >= 5)
    rate = css(driver, "#upstream-travel-failureRate")
    rate.clear()
    rate.send_keys("7")
    css(driver, "#upstream-apply").click()
    error = wait(driver, lambda: css(driver, "#upstream-travel-failureRate-error"))
    assert error.text.startswith("✗ ") and "1" in error.text, error.text
    assert rate.get_attribute("aria-invalid") == "true"
    assert "upstream-travel-failureRate-error" in rate.get_attribute("aria-describedby")
    assert driver.switch_to.active_element == rate
    assert css(driver, "#upstream-status").text == "Not saved: see the marked field."
    assert not all_css(driver, "#toasts .toast"), "no toast over the field"
    assert not covered(driver, rate) and not covered(driver, error)
    screenshot("upstream-field-error-phone")
    # Editing the field puts the error away.
    rate.send_keys(Keys.BACKSPACE, "0.5")
    wait(driver, lambda: not all_css(driver, "#upstream-travel-failureRate-error"))
    assert rate.get_attribute("aria-invalid") is None

    # A refusal the page could not foresee (here: its own check taken away) lands at the field too.
    latency = css(driver, "#upstream-hotel-latencyMs")
    driver.execute_script("arguments[0].removeAttribute('max')", latency)
    latency.clear()
    latency.send_keys("99999999")
    css(driver, "#upstream-apply").click()
    error = wait(driver, lambda: css(driver, "#upstream-hotel-latencyMs-error"))
    assert "60000" in error.text and "endpoints." not in error.text and "'" not in error.text, error.text
    assert not all_css(driver, "#toasts .toast")


def test_a_page_that_is_gone_links_back_to_its_screen(driver, base_url, upstream):
    """Before, a removed item's page offered only the index: now it points back to its list. (With a
    reliable upstream: while the list's upstream fails, the page says the load failed instead.)"""
    for path, back, title in (("/list/items/nonexistent", "/list", "Points of interest"),
                              ("/recipes/nonexistent/edit", "/recipes", "Film recipes")):
        driver.get(base_url + path)
        wait(driver, lambda: css(driver, "main h1").text == "Not found", message=path)
        link = css(driver, "main .not-found-parent a")
        assert link.get_attribute("pathname") == back and link.text == f"← {title}", (path, link.text)
        assert "There is nothing here" in css(driver, "main .banner").text
    link.click()
    wait(driver, lambda: path_of(driver) == "/recipes")
    wait(driver, lambda: css(driver, "main h1").text == "Film recipes")


def test_no_button_works_before_the_screen_knows_its_state(driver, base_url, upstream, screenshot):
    """Before, a direct photo link showed an empty heading and enabled buttons until its data came."""
    open_screen(driver, base_url, "/gallery")  # the gallery has imported its photos
    wait(driver, lambda: len(all_css(driver, "#gallery-grid .thumb")) > 2, timeout=15)
    driver.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        driver.execute_script("window.__bindery.navigate('/gallery/photos/1')")
        wait(driver, lambda: all_css(driver, "main #next"))
        assert css(driver, "main .screen").get_attribute("aria-busy") == "true"
        assert not usable(css(driver, "#next")) and not usable(css(driver, "#prev"))
        heading = css(driver, "main h1")
        assert heading.text == "" and heading.size["height"] > 0, "the heading is a placeholder bar"
        screenshot("photo-before-its-data")
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
    wait(driver, lambda: css(driver, "main h1").text != "", timeout=15)
    wait(driver, lambda: usable(css(driver, "#next")) and usable(css(driver, "#prev")))


def test_a_step_without_a_name_or_duration_is_said_at_its_fields(driver, base_url, screenshot):
    """Before, "Add step" with empty fields got a toast saying only that a value was not accepted."""
    sign_in_browser(driver, base_url, LI_LEI)  # adding a recipe needs a user
    open_screen(driver, base_url, "/recipes")
    css(driver, "#new-recipe-name").send_keys("Empty steps")
    css(driver, "#add-recipe-button").click()
    wait(driver, lambda: path_of(driver).endswith("/edit"))
    wait(driver, lambda: css(driver, "#edit-name").get_attribute("value") == "Empty steps")
    css(driver, "#add-step-button").click()
    wait(driver, lambda: all_css(driver, "#step-name-error") and all_css(driver, "#step-seconds-error"))
    assert driver.switch_to.active_element == css(driver, "#step-name")
    assert not all_css(driver, "#toasts .toast")
    screenshot("recipe-step-errors")
    css(driver, "#step-name").send_keys("Stop bath")
    css(driver, "#step-seconds").send_keys("60")
    css(driver, "#add-step-button").click()
    wait(driver, lambda: [e.get_attribute("value") for e in all_css(driver, "#edit-steps .step-name")] == ["Stop bath"])
    assert not all_css(driver, ".field-error")


def test_on_a_phone_reconnecting_covers_neither_the_brand_nor_the_inspector_button(driver, base_url, screenshot):
    """The header scrolls away on a phone, so "Reconnecting…" is fixed at the top: between the
    brand and the Inspector button, not over either."""
    set_viewport(driver, PHONE)
    open_screen(driver, base_url, "/form")
    driver.execute_script("window.__bindery.dropStream()")
    indicator = css(driver, "#connection")
    assert indicator.is_displayed()
    pill = viewport_box(driver, indicator)
    for other in ("#inspector-toggle", ".brand"):
        box = viewport_box(driver, css(driver, other))
        apart = pill["right"] <= box["left"] or box["right"] <= pill["left"] or pill["bottom"] <= box["top"]
        assert apart, f"'Reconnecting…' {pill} overlaps {other} {box}"
    screenshot("reconnecting-phone")
    wait(driver, lambda: not indicator.is_displayed(), timeout=15)
