"""Browser tests of the thin client in Public/, against a real server (see conftest.py)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, LI_LEI, sign_in, sign_in_browser
from pages import all_css, css, idle, open_screen, path_of, usable, wait

# The view model's "red" and "black" (seed 000 Demo 2), shown in the palette's readable shades
# (#b3261e: 6.5:1 on white, where CSS red is 4.0:1; #1d1d1f). data-color keeps the name.
RED = "rgb(179, 38, 30)"
BLACK = "rgb(29, 29, 31)"


# ---------------------------------------------------------------------------------- helpers

def color(driver, element):
    return driver.execute_script("return getComputedStyle(arguments[0]).color", element)


def cell_kinds(driver):
    return [c.get_attribute("data-kind") for c in all_css(driver, "#poi-list .poi-cell")]


# ---------------------------------------------------------------------------------- index

def test_index_links_every_screen_and_the_lab_shows_upstream_panel(driver, base_url, upstream, screenshot):
    driver.get(base_url + "/")
    wait(driver, lambda: len(all_css(driver, "#home-cards a")) >= 3)
    hrefs = {a.get_attribute("pathname") for a in all_css(driver, "#home-cards a")}
    assert {"/form", "/list", "/gallery", "/courses", "/lab"} <= hrefs
    assert {a.get_attribute("pathname") for a in all_css(driver, "#nav a")} == hrefs
    assert driver.title == "Bindery"
    screenshot("index")

    # The Lab's panel writes the upstream configuration.
    css(driver, '#nav a[href="/lab"]').click()
    wait(driver, lambda: len(all_css(driver, "#upstream-endpoints fieldset")) >= 5)
    endpoints = {f.get_attribute("data-endpoint") for f in all_css(driver, "#upstream-endpoints fieldset")}
    assert {"travel", "hotel", "photos", "photoDetails", "courses"} <= endpoints
    rate = css(driver, "#upstream-travel-failureRate")
    rate.clear()
    rate.send_keys("0.5")
    css(driver, "#upstream-apply").click()
    wait(driver, lambda: css(driver, "#upstream-status").text == "Saved.")
    with urllib.request.urlopen(f"{base_url}/api/upstream") as resp:
        assert json.loads(resp.read())["endpoints"]["travel"]["failureRate"] == 0.5

    # Links route in-page.
    driver.back()
    wait(driver, lambda: path_of(driver) == "/")
    link = wait(driver, lambda: next(a for a in all_css(driver, "#home-cards a") if a.get_attribute("pathname") == "/form"))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    wait(driver, lambda: path_of(driver) == "/form")
    wait(driver, lambda: css(driver, "main h1").text == "Login form")


# The page's fetch answers the next `add` command with this 500 problem (a server failure that
# is final: a command sent while the network is away waits and is sent later instead, see
# test_safe_retries.py).
FAIL_NEXT_ADD = """
const original = window.fetch;
window.fetch = function (input, init) {
  const url = typeof input === 'string' ? input : input.url;
  if (url.includes('/commands/add') && !window.__failedOnce) {
    window.__failedOnce = true;
    const problem = {type: 'about:blank', title: 'Internal error', status: 500, detail: 'The disk is full.'};
    return Promise.resolve(new Response(JSON.stringify(problem),
      {status: 500, headers: {'Content-Type': 'application/problem+json'}}));
  }
  return original.call(this, input, init);
};
"""


def test_a_notice_is_in_plain_words_and_stays_on_its_page(driver, base_url, screenshot):
    # A command the server fails: a toast says so in plain words, the cause behind "Details".
    open_screen(driver, base_url, "/recipes")
    wait(driver, lambda: len(all_css(driver, "#recipe-list .recipe-cell")) > 0)
    css(driver, "#new-recipe-name").send_keys("Failing recipe")
    driver.execute_script(FAIL_NEXT_ADD)
    css(driver, "#add-recipe-button").click()
    toast = wait(driver, lambda: css(driver, "#toasts .toast"))
    # The toast rises in from transparent (0.2 s): Selenium reads no text until it shows.
    message = wait(driver, lambda: toast.find_element(By.CSS_SELECTOR, ".toast-message").text)
    assert message == "Something went wrong on the server. Try again.", message
    details = toast.find_element(By.CSS_SELECTOR, ".toast-details")
    details.find_element(By.CSS_SELECTOR, "summary").click()
    wait(driver, lambda: "HTTP 500" in details.text and "The disk is full." in details.text)
    assert css(driver, "#new-recipe-name").get_attribute("value") == "Failing recipe", "what was typed stays"
    screenshot("toast-details")
    # It was about the recipes: it does not follow the user to the next page.
    css(driver, '#nav a[href="/form"]').click()
    wait(driver, lambda: path_of(driver) == "/form")
    assert not all_css(driver, "#toasts .toast")


def test_a_refused_value_is_said_at_its_field_and_kept(driver, base_url, screenshot):
    """Before, the field kept showing a value the server had refused while the page showed the
    server's: a toast, gone on the next page, was the only trace."""
    open_screen(driver, base_url, "/form")
    phone, output = css(driver, "#phone"), css(driver, "#form-output")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    phone.send_keys(Keys.END, "1" * 62)  # 65 characters: the view model takes at most 64
    error = wait(driver, lambda: css(driver, "#phone-error"))
    assert error.text == "✗ Not accepted: longer than 64 characters.", error.text
    assert phone.get_attribute("aria-invalid") == "true" and "phone-error" in phone.get_attribute("aria-describedby")
    assert phone.get_attribute("value") == "186" + "1" * 62, "what was typed is kept"
    assert not all_css(driver, "#toasts .toast"), "said once, at the field"
    screenshot("form-refused-at-field")
    # One character less is accepted: the error goes, the server takes it.
    phone.send_keys(Keys.BACKSPACE)
    wait(driver, lambda: output.text == "手机号:" + "186" + "1" * 61 + ", 密码:")
    assert not all_css(driver, "#phone-error")
    assert phone.get_attribute("aria-invalid") == "true"  # still not a phone number, as the view model says


# ---------------------------------------------------------------------------------- routes

def catalogue(base_url):
    with urllib.request.urlopen(f"{base_url}/api/views") as resp:
        return json.loads(resp.read())["views"]


def test_routes_come_from_the_catalogue(driver, base_url, screenshot):
    views = catalogue(base_url)
    children = [c for v in views for c in v["children"]]
    assert {c["name"] for c in children} >= {"item", "photo"}
    assert all(c["url"] == "/" + c["pattern"] and c["api"] == "/api/views/" + c["pattern"] for c in children)

    open_screen(driver, base_url, "/form")
    assert driver.title == "Login form · Bindery"
    nav = [(a.get_attribute("pathname"), a.text) for a in all_css(driver, "#nav a")]
    # The screens of the catalogue, then the app's own pages (Public/screens/lab.html: data-nav).
    assert nav == [(v["url"], v["title"]) for v in views] + [("/lab", "Lab")]
    assert css(driver, "#nav a[aria-current=page]").get_attribute("pathname") == "/form"
    # Enter in a bound form must not submit it natively (that would reload the page).
    driver.execute_script("window.__marker = 1")
    css(driver, "#phone").send_keys(Keys.ENTER)
    time.sleep(0.3)
    assert driver.execute_script("return window.__marker") == 1

    gallery = next(v for v in views if v["name"] == "gallery")
    open_screen(driver, base_url, gallery["url"])
    assert driver.title == f"{gallery['title']} · Bindery"

    # A {param} is one path segment; an integer parameter takes digits only; nothing else matches.
    for path in ("/gallery/photos/x", "/list/items/a/b", "/form/extra"):
        driver.get(base_url + path)
        wait(driver, lambda: css(driver, "main h1").text == "Not found", message=f"{path} should not match")
        assert driver.title == "Not found · Bindery"
    screenshot("not-found")


# ---------------------------------------------------------------------------------- form

def test_form_binds_typing_colours_output_and_clear(driver, base_url, screenshot):
    open_screen(driver, base_url, "/form")
    phone, password = css(driver, "#phone"), css(driver, "#password")
    output, clear = css(driver, "#form-output"), css(driver, "#clear")

    wait(driver, lambda: phone.get_attribute("value") == "186")
    assert password.get_attribute("value") == ""
    assert output.text == "手机号:186, 密码:"
    assert color(driver, phone) == RED and color(driver, password) == RED
    assert phone.get_attribute("data-color") == "red" and password.get_attribute("data-color") == "red"
    # Validity in words as well as colour, in the hint the field is described by.
    assert phone.get_attribute("aria-describedby") == "phone-hint"
    assert css(driver, "#phone-hint").text == "✗ Not valid yet: 11 digits, starting 13, 15 or 18."
    assert css(driver, "#password-hint").text == "✗ Not valid yet: at least 8 characters."
    assert not usable(clear)
    screenshot("form-initial")

    # Typed as fast as WebDriver can: every keystroke must survive the round trips.
    phone.click()
    phone.send_keys(Keys.END, "12345678")
    wait(driver, lambda: output.text == "手机号:18612345678, 密码:")
    assert phone.get_attribute("value") == "18612345678"
    wait(driver, lambda: color(driver, phone) == BLACK)
    assert phone.get_attribute("aria-invalid") == "false" and phone.get_attribute("data-color") == "black"
    assert css(driver, "#phone-hint").text == "✓ Valid mobile number."
    assert color(driver, password) == RED and not usable(clear)

    password.send_keys("secret12")
    wait(driver, lambda: output.text == "手机号:18612345678, 密码:secret12")
    wait(driver, lambda: color(driver, password) == BLACK)
    assert css(driver, "#password-hint").text == "✓ Long enough."
    wait(driver, lambda: usable(clear))
    screenshot("form-valid")

    clear.click()
    wait(driver, lambda: phone.get_attribute("value") == "186" and password.get_attribute("value") == "")
    wait(driver, lambda: output.text == "手机号:186, 密码:")
    assert color(driver, phone) == RED and color(driver, password) == RED
    wait(driver, lambda: not usable(clear))

    # The state lives on the server: a reload shows the same view model.
    phone.send_keys(Keys.END, "1")
    wait(driver, lambda: output.text == "手机号:1861, 密码:")
    open_screen(driver, base_url, "/form")
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "1861")


def test_form_keeps_keystrokes_and_caret_on_a_slow_network(driver, base_url):
    open_screen(driver, base_url, "/form")
    phone = css(driver, "#phone")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    # Every request and event now takes 300 ms more, so answers to earlier writes (older
    # versions) land while the user is still typing. They must neither eat keystrokes nor move
    # the caret, which sits in the middle of the text here.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        phone.click()
        phone.send_keys(Keys.HOME, Keys.ARROW_RIGHT)  # caret after the "1"
        typed = "1"
        for key in "23456789":
            phone.send_keys(key)
            typed += key
            time.sleep(0.1)
            # Checked after every key: a stale snapshot must not even transiently replace the text.
            assert phone.get_attribute("value") == typed + "86"
        wait(driver, lambda: css(driver, "#form-output").text == "手机号:12345678986, 密码:")
        assert phone.get_attribute("value") == "12345678986"
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_two_tabs_of_one_session_follow_each_other(driver, base_url):
    open_screen(driver, base_url, "/form")
    first = driver.current_window_handle
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186")
    driver.switch_to.new_window("tab")
    try:
        open_screen(driver, base_url, "/form")
        phone = css(driver, "#phone")
        wait(driver, lambda: phone.get_attribute("value") == "186")
        phone.send_keys(Keys.END, "12345678")
        wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:")
        driver.switch_to.window(first)
        wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "18612345678")
        wait(driver, lambda: color(driver, css(driver, "#phone")) == BLACK)
        css(driver, "#password").send_keys("secret12")
        wait(driver, lambda: usable(css(driver, "#clear")))
        css(driver, "#clear").click()
        wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186")
    finally:
        second = next(h for h in driver.window_handles if h != first)
        driver.switch_to.window(second)
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186"
         and css(driver, "#password").get_attribute("value") == "")
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:186, 密码:")


PATCH_SPY = """
const Original = window.EventSource;
window.__streams = [];
window.__patches = 0;
window.EventSource = class extends Original {
  constructor(url, options) {
    super(url, options);
    window.__streams.push(String(url));
    this.addEventListener('patch', () => { window.__patches += 1; });
  }
};
"""


def test_live_updates_arrive_as_json_patches_and_apply(driver, base_url):
    spy = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PATCH_SPY})
    try:
        open_screen(driver, base_url, "/form")
        phone = css(driver, "#phone")
        wait(driver, lambda: phone.get_attribute("value") == "186")
        # One stream of the page's (the browser's) views, GET /api/events: patches always on.
        assert any("/api/events?views=" in url and "form" in url for url in driver.execute_script("return window.__streams")), (
            "the thin client follows the form over the multiplexed stream, which sends patch events")
        phone.send_keys(Keys.END, "12345678")
        wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:")
        wait(driver, lambda: driver.execute_script("return window.__patches") > 0,
             message="the stream delivered JSON Patch events")
        before = driver.execute_script("return window.__patches")
        css(driver, "#password").send_keys("secret12")
        wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:secret12")
        wait(driver, lambda: driver.execute_script("return window.__patches") > before)
        # The patched document is the server's: the page shows the version the server serves.
        served = driver.execute_async_script(
            "fetch('/api/views/form').then(r => r.json()).then(j => arguments[0](j.version))")
        wait(driver, lambda: css(driver, "#form [data-version], [data-version]").get_attribute("data-version") == str(served))
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": spy["identifier"]})


def test_back_from_an_item_restores_the_row_scroll_and_focus(driver, base_url, upstream, screenshot):
    driver.set_window_size(390, 844)
    try:
        load_list(driver, base_url)
        rows = all_css(driver, "#poi-list li[data-key]")
        assert len(rows) > 4, "a loaded list has rows"
        key = rows[-1].get_attribute("data-key")
        row = rows[-1].find_element(By.CSS_SELECTOR, ".poi-cell")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        scrolled = driver.execute_script("return window.scrollY")
        row.send_keys(Keys.ENTER)
        wait(driver, lambda: path_of(driver).startswith("/list/items/"))
        driver.back()
        wait(driver, lambda: path_of(driver) == "/list")
        wait(driver, lambda: driver.execute_script(
            "const row = document.activeElement && document.activeElement.closest('[data-key]');"
            "return row && row.dataset.key") == key, message="focus is back on the row that was opened")
        wait(driver, lambda: abs(driver.execute_script("return window.scrollY") - (scrolled or 0)) < 40,
             message=f"the list is scrolled back to where it was ({scrolled})")
        assert scrolled and scrolled > 0, "the row was below the fold"
        screenshot("list-back-restored")
    finally:
        driver.set_window_size(1280, 800)


def test_unknown_addresses_show_a_page_and_the_password_is_never_live(driver, base_url, screenshot):
    driver.get(base_url + "/nope")
    wait(driver, lambda: "Not found" in driver.title)
    assert css(driver, "#nav a"), "the not-found page keeps the navigation"
    screenshot("not-found")
    driver.get(base_url + "/form/")
    wait(driver, lambda: path_of(driver) == "/form")
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186")
    live = driver.execute_script(
        "return [...document.querySelectorAll('[aria-live]')].filter(e => e.getAttribute('aria-live') !== 'off')"
        ".some(e => e.contains(document.getElementById('form-output')))")
    assert not live, "the echo of the password is not in a live region"
    assert css(driver, "#form-output").get_attribute("lang") == "zh-Hans", "the Chinese echo is marked as Chinese"
    icon = driver.execute_script("return document.querySelector('link[rel=icon]').href")
    with urllib.request.urlopen(icon, timeout=5) as response:
        assert response.headers["Content-Type"].startswith("image/svg+xml")


# ---------------------------------------------------------------------------------- list

def load_list(driver, base_url):
    open_screen(driver, base_url, "/list")
    reload = css(driver, "#reload")
    wait(driver, lambda: idle(reload))
    reload.click()
    wait(driver, lambda: idle(reload), timeout=15)
    return reload


def test_list_loads_scenic_then_hotel_cells(driver, base_url, upstream, screenshot):
    load_list(driver, base_url)
    wait(driver, lambda: len(cell_kinds(driver)) > 0)
    kinds = cell_kinds(driver)
    assert "scenic" in kinds and "hotel" in kinds
    assert kinds == sorted(kinds, key=lambda k: k != "scenic"), f"scenic cells must come first: {kinds}"
    assert not css(driver, "#list-error").is_displayed()

    scenic = css(driver, '#poi-list .poi-cell[data-kind="scenic"]')
    assert scenic.find_element(By.CSS_SELECTOR, ".poi-title").text
    price = scenic.find_element(By.CSS_SELECTOR, ".poi-price")
    assert re.fullmatch(r"from ¥\d+\.\d\d", price.text), price.text  # the upstream's prices are in yuan
    runs = price.find_elements(By.CSS_SELECTOR, ".poi-amount span")
    assert runs and driver.execute_script("return getComputedStyle(arguments[0]).fontSize", runs[-1]) == "10px"
    assert scenic.find_element(By.CSS_SELECTOR, ".poi-footer").text  # areaName or cityName
    hotel = css(driver, '#poi-list .poi-cell[data-kind="hotel"]')
    assert not hotel.find_element(By.CSS_SELECTOR, ".poi-price").is_displayed()
    assert not hotel.find_element(By.CSS_SELECTOR, ".poi-footer").is_displayed()
    screenshot("list")

    # The city <select> is two-way bound to the integer input currentCityId.
    from selenium.webdriver.support.ui import Select
    city = Select(css(driver, "#city"))
    if len(city.options) > 1:
        other = next(o for o in city.options if not o.is_selected())
        chosen = int(other.get_attribute("value"))
        city.select_by_value(str(chosen))
        wait(driver, lambda: driver.execute_script(
            "return window.__bindery.snapshot.inputs.currentCityId") == chosen)

    driver.set_window_size(390, 844)
    screenshot("list-phone")
    driver.set_window_size(1280, 900)

    # Selecting a cell navigates (command select answers navigate) to the item's own page.
    title = scenic.find_element(By.CSS_SELECTOR, ".poi-title").text
    scenic.click()
    wait(driver, lambda: path_of(driver).startswith("/list/items/"))
    wait(driver, lambda: css(driver, "main h1").text == title)
    wait(driver, lambda: driver.title == f"{title} · Bindery")  # the catalogue's titleMember
    screenshot("list-item")
    driver.back()
    wait(driver, lambda: path_of(driver) == "/list")
    wait(driver, lambda: len(cell_kinds(driver)) == len(kinds))


def test_list_shows_progress_not_an_empty_list_while_it_loads(driver, base_url, upstream, screenshot):
    upstream.patch({"travel": {"latencyMs": 1500}, "hotel": {"latencyMs": 1500}})
    driver.get(base_url + "/list")
    wait(driver, lambda: css(driver, "#progress").is_displayed(), message="no progress bar on first load")
    seen_progress_with_screen = []

    def loaded_without_claiming_empty():
        assert not css(driver, "main .empty").is_displayed(), "'No places yet' while loading"
        if css(driver, "#progress").is_displayed() and all_css(driver, "#poi-list"):
            seen_progress_with_screen.append(True)
        return len(cell_kinds(driver)) > 0

    wait(driver, loaded_without_claiming_empty, timeout=20)
    assert seen_progress_with_screen, "the screen showed no progress while its list loaded"
    wait(driver, lambda: not css(driver, "#progress").is_displayed())


def test_list_shows_upstream_failure(driver, base_url, upstream, screenshot):
    upstream.patch({"travel": {"failureRate": 1}})
    load_list(driver, base_url)
    banner = css(driver, "#list-error")
    wait(driver, lambda: banner.is_displayed())
    assert cell_kinds(driver) == []  # the seed clears the items on error
    # One failure, one message (the seed's one alert with OK): the banner, no toast besides.
    assert not all_css(driver, "#toasts .toast")
    assert not css(driver, "main .empty").is_displayed()  # not "No places yet" besides
    # Plain words; the upstream's code and words only on demand, behind "Details".
    message = banner.find_element(By.CSS_SELECTOR, ".banner-message")
    assert message.text == "The places could not be loaded: the travel service did not answer properly."
    details = banner.find_element(By.CSS_SELECTOR, "details")
    assert "500" not in banner.text and "Bad Network" not in banner.text
    details.find_element(By.CSS_SELECTOR, "summary").click()
    wait(driver, lambda: "500" in details.find_element(By.CSS_SELECTOR, "pre").text)
    screenshot("list-error")
    banner.find_element(By.CSS_SELECTOR, ".banner-ok").click()
    wait(driver, lambda: not banner.is_displayed())
    # Failing again brings the one message back.
    css(driver, "#reload").click()
    wait(driver, lambda: banner.is_displayed(), timeout=15)
    assert not all_css(driver, "#toasts .toast")

    upstream.patch({"travel": {"failureRate": 0}})
    css(driver, "#reload").click()
    wait(driver, lambda: len(cell_kinds(driver)) > 0, timeout=15)
    wait(driver, lambda: not banner.is_displayed())


# ---------------------------------------------------------------------------------- courses

def course_cells(driver):
    return all_css(driver, "#course-list .course-cell")


def course_row(cell):
    return (cell.find_element(By.CSS_SELECTOR, ".course-name").text,
            cell.find_element(By.CSS_SELECTOR, ".course-detail").text,
            cell.get_attribute("data-cell-type"))


def test_courses_load_on_display_and_a_cell_opens_its_course(driver, base_url, upstream, screenshot):
    upstream.patch({"courses": {"latencyMs": 300}})  # long enough to see it load by itself
    open_screen(driver, base_url, "/courses")
    wait(driver, lambda: len(course_cells(driver)) >= 8, timeout=15, message="the courses did not load on display")
    assert not css(driver, "#courses-error").is_displayed()
    rows = [course_row(c) for c in course_cells(driver)]
    assert all(name for name, _, _ in rows)
    # The seed's rule: 35 lessons shows the count and no accessory, 36 "more than 30" and a disclosure.
    assert any(detail == "課程數量:35" and kind == "none" for _, detail, kind in rows), rows
    assert any(detail == "多于30門課程" and kind == "detailDisclosureButton" for _, detail, kind in rows), rows
    disclosure = next(c for c in course_cells(driver) if c.get_attribute("data-cell-type") == "detailDisclosureButton")
    plain = next(c for c in course_cells(driver) if c.get_attribute("data-cell-type") == "none")
    after = "return getComputedStyle(arguments[0], '::after').content"
    assert "ⓘ" in driver.execute_script(after, disclosure)
    assert driver.execute_script(after, plain) in ("none", "normal")
    screenshot("courses")

    name = course_row(disclosure)[0]
    disclosure.click()
    wait(driver, lambda: re.fullmatch(r"/courses/[^/]+", path_of(driver)) is not None)
    wait(driver, lambda: css(driver, "main h1").text == name)
    wait(driver, lambda: driver.title == f"{name} · Bindery")  # the catalogue's titleMember
    assert int(css(driver, "#course-lessons").text) > 35
    assert css(driver, "#course-detail").text == "多于30門課程"
    screenshot("course")
    driver.back()
    wait(driver, lambda: path_of(driver) == "/courses")
    wait(driver, lambda: [course_row(c) for c in course_cells(driver)] == rows)


def test_a_course_link_opens_in_a_fresh_session(driver, base_url, upstream, screenshot):
    open_screen(driver, base_url, "/courses/c02")
    wait(driver, lambda: css(driver, "main h1").text == "Swift 程式設計進階", timeout=15)
    assert css(driver, "#course-lessons").text == "35"
    assert css(driver, "#course-detail").text == "課程數量:35"
    css(driver, ".crumbs a").click()
    wait(driver, lambda: path_of(driver) == "/courses")
    wait(driver, lambda: len(course_cells(driver)) >= 8)
    screenshot("course-deep-link")


def test_courses_show_upstream_failure(driver, base_url, upstream, screenshot):
    upstream.patch({"courses": {"failureRate": 1}})
    open_screen(driver, base_url, "/courses")
    banner = css(driver, "#courses-error")
    wait(driver, lambda: banner.is_displayed() and "could not be loaded" in banner.text, timeout=15)
    assert course_cells(driver) == []
    screenshot("courses-error")
    upstream.patch({"courses": {"failureRate": 0}})
    css(driver, "#reload-courses").click()
    wait(driver, lambda: len(course_cells(driver)) >= 8, timeout=15)
    wait(driver, lambda: not banner.is_displayed())


# ---------------------------------------------------------------------------------- gallery

def test_a_failed_gallery_import_can_be_tried_again(driver, base_url, upstream, screenshot):
    # Before, a failed import was a dead end: no retry, still failed after the upstream
    # recovered, across reloads, until the session expired.
    upstream.patch({"photos": {"failureRate": 1}})
    open_screen(driver, base_url, "/gallery")
    banner = css(driver, "#gallery-error")
    wait(driver, lambda: banner.is_displayed() and "could not be loaded" in banner.text, timeout=15)
    retry = css(driver, "#gallery-retry")
    wait(driver, lambda: retry.is_displayed(), message="no retry next to the error")
    screenshot("gallery-error")
    upstream.patch({"photos": {"failureRate": 0}})
    retry.click()
    wait(driver, lambda: len(all_css(driver, "#gallery-grid .thumb")) > 1, timeout=15)
    wait(driver, lambda: not banner.is_displayed() and not retry.is_displayed())


def image_loaded(driver, img):
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)


def test_gallery_opens_photo_and_back_returns(driver, base_url, upstream, screenshot):
    upstream.patch({"photoDetails": {"latencyMs": 1000}})  # long enough to see the progress
    open_screen(driver, base_url, "/gallery")
    wait(driver, lambda: len(all_css(driver, "#gallery-grid .thumb")) > 1, timeout=15)
    wait(driver, lambda: all(image_loaded(driver, i) for i in all_css(driver, "#gallery-grid .thumb img")))
    count = len(all_css(driver, "#gallery-grid .thumb"))
    screenshot("gallery")

    thumb = all_css(driver, "#gallery-grid li")[1]
    index = thumb.get_attribute("data-key")
    thumb.find_element(By.CSS_SELECTOR, ".thumb").click()
    wait(driver, lambda: path_of(driver) == f"/gallery/photos/{index}")
    wait(driver, lambda: css(driver, "#photo-progress").is_displayed(), message="no progress while loading")
    screenshot("photo-loading")
    image = css(driver, "#photo-image")
    wait(driver, lambda: image.is_displayed() and image_loaded(driver, image), timeout=15)
    assert not css(driver, "#photo-progress").is_displayed()
    assert css(driver, "main h1").text
    assert driver.title == f"{css(driver, 'main h1').text} · Bindery"
    assert css(driver, "#photo-position").text == f"Photo {int(index) + 1} of {count}"
    screenshot("photo")

    # next answers navigate to the neighbour's page, replacing the history entry: Back leaves the
    # photos at once instead of walking through them one by one.
    css(driver, "#next").click()
    wait(driver, lambda: path_of(driver) == f"/gallery/photos/{int(index) + 1}")
    css(driver, "#next").click()
    wait(driver, lambda: path_of(driver) == f"/gallery/photos/{int(index) + 2}")
    driver.back()
    wait(driver, lambda: path_of(driver) == "/gallery")
    wait(driver, lambda: len(all_css(driver, "#gallery-grid .thumb")) == count)


def test_photo_page_is_shareable(driver, base_url, upstream):
    # Load the gallery once (its photos come from the upstream), then open a photo's URL directly:
    # a full page load of /gallery/photos/0 in the same session, as a bookmark or reload would.
    open_screen(driver, base_url, "/gallery")
    wait(driver, lambda: len(all_css(driver, "#gallery-grid .thumb")) > 0, timeout=15)
    open_screen(driver, base_url, "/gallery/photos/0")
    image = css(driver, "#photo-image")
    wait(driver, lambda: image.is_displayed() and image_loaded(driver, image), timeout=15)
    assert not usable(css(driver, "#prev"))  # no neighbour before the first photo


# ---------------------------------------------------------------------------------- stream

def test_dropped_stream_shows_reconnecting_then_recovers(driver, base_url, screenshot):
    open_screen(driver, base_url, "/form")
    indicator = css(driver, "#connection")
    assert not indicator.is_displayed()

    driver.execute_script("window.__bindery.dropStream()")
    assert indicator.is_displayed()
    assert driver.execute_script("return document.documentElement.dataset.stream") == "reconnecting"
    screenshot("reconnecting")
    wait(driver, lambda: not indicator.is_displayed(), timeout=15)

    # A write that bypasses the page's binder can only reach the page over the new stream.
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/views/form', {method: 'PATCH', credentials: 'same-origin',
              headers: {'Content-Type': 'application/merge-patch+json'},
              body: JSON.stringify({phone: '13800138000'})}).then(r => done(r.status), e => done(String(e)));
    """)
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "13800138000")
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:13800138000, 密码:")
    wait(driver, lambda: color(driver, css(driver, "#phone")) == BLACK)


def test_typing_while_offline_is_kept_and_sent_later(driver, base_url):
    open_screen(driver, base_url, "/form")
    password = css(driver, "#password")
    driver.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        password.send_keys("offline12")
        time.sleep(1.5)  # at least one failed write and retry
        assert password.get_attribute("value") == "offline12"
        assert css(driver, "#form-output").text == "手机号:186, 密码:"  # nothing acknowledged yet
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:186, 密码:offline12", timeout=20)
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open",
         timeout=20)


# ---------------------------------------------------------------------------------- restart

def test_form_survives_a_server_restart(driver, restartable_server, screenshot):
    """Typed values outlive a kill -9 of the server (the store is a SQLite file): the open page
    reconnects to the restarted server and shows the same values — no reset to the initial form,
    no keystroke lost or sent twice, also for keys typed while the server was down."""
    base = restartable_server.base
    open_screen(driver, base, "/form")
    phone, password, output = css(driver, "#phone"), css(driver, "#password"), css(driver, "#form-output")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    phone.click()
    phone.send_keys(Keys.END, "1234")
    password.send_keys("pa")
    # The output is computed by the server: once it shows both, both writes were acknowledged.
    wait(driver, lambda: output.text == "手机号:1861234, 密码:pa")
    before = driver.execute_script("return window.__bindery.snapshot.version")

    restartable_server.kill9()
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "reconnecting",
         timeout=15, message="the page did not notice the server was gone")
    # Typed while the server is down: kept in the page, sent once it is back.
    phone.send_keys("5678")
    password.send_keys("ssw0rd")
    assert phone.get_attribute("value") == "18612345678"
    assert password.get_attribute("value") == "passw0rd"
    screenshot("form-server-down")

    restartable_server.start()
    versions = [before]

    def reconnected_without_reset():
        # Checked on every poll: the page must never show anything but what was typed.
        assert phone.get_attribute("value") == "18612345678"
        assert password.get_attribute("value") == "passw0rd"
        version = driver.execute_script("return window.__bindery.snapshot && window.__bindery.snapshot.version")
        if version is not None:
            assert version >= versions[-1], f"the page's version went back: {versions} then {version}"
            versions.append(version)
        return (driver.execute_script("return document.documentElement.dataset.stream") == "open"
                and output.text == "手机号:18612345678, 密码:passw0rd")

    wait(driver, reconnected_without_reset, timeout=30, message="the page did not come back with the typed values")
    assert usable(css(driver, "#clear"))  # both valid now: the snapshot is the server's, not a reset
    # Read after the wait: the poll's own version read may precede the snapshot the output shows.
    after = driver.execute_script("return window.__bindery.snapshot.version")
    assert after >= versions[-1] and after > before, (before, versions, after)
    screenshot("form-after-restart")

    # The restarted server holds it in the same session: a fresh page load shows the same values.
    open_screen(driver, base, "/form")
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:passw0rd")
    assert css(driver, "#phone").get_attribute("value") == "18612345678"
    assert css(driver, "#password").get_attribute("value") == "passw0rd"


# ---------------------------------------------------------------------------------- recovery

OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
ONLINE = {**OFFLINE, "offline": False}


def patch_as_the_page(driver, base, path, body):
    """A write in the page's own session, made elsewhere (another tab, a script): the browser's
    session cookie, no Origin (as curl)."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    req = urllib.request.Request(f"{base}/api/views/{path}", data=json.dumps(body).encode(), method="PATCH",
                                 headers={"Cookie": cookie, "Content-Type": "application/merge-patch+json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def has_unsent_edits(driver):
    """The page's writer lost a write to the network and holds the edits until it can recover."""
    return driver.execute_script(
        "const b = window.__bindery.binder; return !!b && [...b.writers.values()].some((w) => w.recovering)")


def edit_offline_while_the_server_changes(driver, base, keys, server_phone):
    """Types `keys` into the phone field with the browser offline, then changes the phone in the
    same session from outside, then goes online again."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
    try:
        for control, text in keys:
            control.send_keys(text)
        wait(driver, lambda: has_unsent_edits(driver), message="the offline write did not fail")
        patch_as_the_page(driver, base, "form", {"phone": server_phone})
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)


def test_an_offline_edit_that_meets_another_change_asks_the_user(driver, base_url, screenshot):
    """LiveView's bar for form recovery: unsent text wins unless the server changed the same field
    meanwhile; then both are shown and the user chooses. Fields changed only here are sent."""
    open_screen(driver, base_url, "/form")
    phone, password, output = css(driver, "#phone"), css(driver, "#password"), css(driver, "#form-output")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    phone.click()
    phone.send_keys(Keys.END)
    edit_offline_while_the_server_changes(driver, base_url, [(phone, "999"), (password, "mine1234")], "13800000000")

    question = wait(driver, lambda: css(driver, '[data-conflict="phone"]'), timeout=20,
                    message="no question about the phone")
    assert "186999" in question.text and "13800000000" in question.text
    assert phone.get_attribute("value") == "186999"  # what the user typed stays in the field
    # The password was changed only here: sent without asking (with If-Match), and no question.
    wait(driver, lambda: output.text == "手机号:13800000000, 密码:mine1234", timeout=20)
    assert not all_css(driver, '[data-conflict="password"]')
    assert phone.get_attribute("value") == "186999"
    screenshot("form-conflict")

    question.find_element(By.CSS_SELECTOR, ".conflict-keep").click()
    wait(driver, lambda: output.text == "手机号:186999, 密码:mine1234")
    assert not all_css(driver, ".conflict")
    assert driver.switch_to.active_element == phone

    # Again, and this time the user takes the server's value.
    edit_offline_while_the_server_changes(driver, base_url, [(phone, "1")], "13900000000")
    question = wait(driver, lambda: css(driver, '[data-conflict="phone"]'), timeout=20)
    assert "1869991" in question.text and "13900000000" in question.text
    question.find_element(By.CSS_SELECTOR, ".conflict-take").click()
    wait(driver, lambda: phone.get_attribute("value") == "13900000000")
    wait(driver, lambda: output.text == "手机号:13900000000, 密码:mine1234")
    assert not all_css(driver, ".conflict")


def test_a_forgotten_session_is_said_plainly_and_what_was_typed_is_kept(driver, restartable_server, screenshot):
    """The server restarts without the session (its store was lost): the page says so, keeps
    every character typed, and starts again with them when the user says so."""
    base = restartable_server.base
    open_screen(driver, base, "/form")
    phone, password, output = css(driver, "#phone"), css(driver, "#password"), css(driver, "#form-output")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    phone.click()
    phone.send_keys(Keys.END, "1234")
    password.send_keys("pa")
    wait(driver, lambda: output.text == "手机号:1861234, 密码:pa")

    restartable_server.kill9()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{restartable_server.store}{suffix}").unlink(missing_ok=True)
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "reconnecting",
         timeout=15)
    phone.send_keys("5678")  # typed while the server is away: unsent
    restartable_server.start()

    notice = wait(driver, lambda: css(driver, ".session-lost"), timeout=30, message="the page did not say it")
    assert "no longer knows your session" in notice.text
    assert phone.get_attribute("value") == "18612345678" and password.get_attribute("value") == "pa"
    screenshot("form-session-forgotten")

    notice.find_element(By.CSS_SELECTOR, ".session-keep").click()
    wait(driver, lambda: output.text == "手机号:18612345678, 密码:pa", timeout=15)
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open")
    assert not all_css(driver, ".session-lost")
    # Stored in the new session: a fresh page load shows it.
    open_screen(driver, base, "/form")
    wait(driver, lambda: css(driver, "#form-output").text == "手机号:18612345678, 密码:pa")


# ---------------------------------------------------------------------------------- recipes

def api_session(base_url, account=HAN_MEIMEI):
    """A session of its own for the HTTP API (not the browser's cookie), signed in as `account`:
    an anonymous session may read the recipes, not add or change them."""
    token = sign_in(base_url, account)

    def call(method, path, body=None, wait_seconds=None):
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        if wait_seconds:
            headers["Prefer"] = f"wait={wait_seconds}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{base_url}{path}", data=data, method=method, headers=headers)
        with urllib.request.urlopen(req, timeout=15) as resp:
            return json.loads(resp.read() or b"null")
    return call


def new_recipe(call, name, steps):
    """Adds a recipe with `steps` [(name, seconds)] through the API; answers its id."""
    added = call("POST", "/api/views/recipes/commands/add", {"name": name}, wait_seconds=10)
    recipe_id = added["navigate"].split("/")[2]
    for step, seconds in steps:
        call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep",
             {"name": step, "durationSeconds": seconds}, wait_seconds=10)
    return recipe_id


def recipe_names(driver):
    return [e.text for e in all_css(driver, "#recipe-list .recipe-name")]


def test_recipes_list_add_edit_and_detail(driver, base_url, screenshot):
    sign_in_browser(driver, base_url, LI_LEI)
    open_screen(driver, base_url, "/recipes")
    wait(driver, lambda: "C-41 colour negative" in recipe_names(driver))
    screenshot("recipes")
    css(driver, "#new-recipe-name").send_keys("Browser E-6")
    css(driver, "#add-recipe-button").click()
    wait(driver, lambda: re.fullmatch(r"/recipes/r[0-9a-f]{8}/edit", path_of(driver)) is not None,
         message="add did not open the new recipe's editor")
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open")
    wait(driver, lambda: css(driver, "#edit-name").get_attribute("value") == "Browser E-6")
    css(driver, "#edit-blurb").send_keys("Six baths")
    css(driver, "#step-name").send_keys("First developer")
    css(driver, "#step-seconds").send_keys("390")
    css(driver, "#step-temp").send_keys("38")
    css(driver, "#add-step-button").click()
    wait(driver, lambda: [e.get_attribute("value") for e in all_css(driver, "#edit-steps .step-name")] == ["First developer"])
    screenshot("recipe-edit")
    recipe_id = path_of(driver).split("/")[2]
    css(driver, "#edit-back").click()
    wait(driver, lambda: path_of(driver) == f"/recipes/{recipe_id}")
    wait(driver, lambda: css(driver, "#recipe-blurb").text == "Six baths")
    assert usable(css(driver, "#start-timer"))
    screenshot("recipe")


def test_a_recipe_edit_shows_in_another_tab_and_another_session(driver, base_url):
    call = api_session(base_url)
    recipe_id = new_recipe(call, "Two tabs", [("Developer", 60)])
    sign_in_browser(driver, base_url, LI_LEI)  # any user may edit it
    open_screen(driver, base_url, f"/recipes/{recipe_id}")
    first = driver.current_window_handle
    wait(driver, lambda: css(driver, "#recipe-name").text == "Two tabs")
    driver.switch_to.new_window("tab")
    try:
        open_screen(driver, base_url, f"/recipes/{recipe_id}/edit")
        name = css(driver, "#edit-name")
        wait(driver, lambda: name.get_attribute("value") == "Two tabs")
        name.send_keys(" (edited)")
        driver.switch_to.window(first)
        wait(driver, lambda: css(driver, "#recipe-name").text == "Two tabs (edited)",
             message="the edit in the other tab did not show")
        # Another session (another user) edits through the API: pushed here too.
        call("PATCH", f"/api/views/recipes/{recipe_id}/edit", {"blurb": "from elsewhere"})
        wait(driver, lambda: css(driver, "#recipe-blurb").text == "from elsewhere")
    finally:
        second = next(h for h in driver.window_handles if h != first)
        driver.switch_to.window(second)
        driver.close()
        driver.switch_to.window(first)


def test_the_timer_counts_down_live(driver, base_url, screenshot):
    call = api_session(base_url)
    recipe_id = new_recipe(call, "Quick timer", [("Developer", 2), ("Fixer", 2)])
    open_screen(driver, base_url, f"/recipes/{recipe_id}")
    wait(driver, lambda: usable(css(driver, "#start-timer")))
    css(driver, "#start-timer").click()
    wait(driver, lambda: path_of(driver) == f"/recipes/{recipe_id}/timer")
    wait(driver, lambda: css(driver, "#timer-clock").text == "0:02")
    assert css(driver, "#timer-step").text == "Developer"
    assert css(driver, "#timer-next").text == "Fixer"
    css(driver, "#timer-toggle").click()
    wait(driver, lambda: css(driver, "#timer-clock").text == "0:01", timeout=5, message="the timer did not count")
    wait(driver, lambda: css(driver, "#timer-step").text == "Fixer", timeout=5, message="the timer did not advance")
    assert css(driver, "#timer-next").text == ""
    screenshot("recipe-timer")
    wait(driver, lambda: css(driver, "#timer-clock").text == "0:00", timeout=5)
    wait(driver, lambda: usable(css(driver, "#timer-reset")) and not usable(css(driver, "#timer-toggle")))


def test_a_deleted_recipes_open_page_says_so_and_can_restore_it(driver, base_url):
    """The page keeps showing the recipe as it was, says it was deleted (by an API session: no
    presence there) and offers Restore (test_recipe_sharing.py: by whom, the editor). Only its
    owner may restore it: the page is hers too."""
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = new_recipe(call, "Doomed", [])
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, f"/recipes/{recipe_id}")
    wait(driver, lambda: css(driver, "#recipe-name").text == "Doomed")
    assert not usable(css(driver, "#start-timer"))
    call("POST", "/api/views/recipes/commands/delete", {"id": recipe_id}, wait_seconds=10)
    banner = css(driver, ".deleted-banner")
    wait(driver, lambda: banner.is_displayed(), message="the deleted recipe's page did not say so")
    assert "deleted this recipe." in banner.text
    assert css(driver, "#recipe-name").text == "Doomed"
    css(driver, ".deleted-restore").click()
    wait(driver, lambda: not banner.is_displayed())
    assert recipe_id in [r["id"] for r in call("GET", "/api/views/recipes")["outputs"]["recipes"]]


# ---------------------------------------------------------------------------------- offline navigation

def test_navigation_while_the_server_is_away_completes_when_it_returns(driver, restartable_server, screenshot):
    """A link followed while the server is down shows that the app waits for it, and the screen
    arrives by itself once the server is back: no reload, no console error."""
    base = restartable_server.base
    open_screen(driver, base, "/form")
    restartable_server.kill9()
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "reconnecting",
         timeout=15, message="the page did not notice the server was gone")
    css(driver, '#nav a[href="/recipes"]').click()
    wait(driver, lambda: path_of(driver) == "/recipes")
    wait(driver, lambda: css(driver, "#connection").is_displayed())
    # The screen says it is waiting, not that there is nothing: the top bar, no empty state.
    wait(driver, lambda: css(driver, "#progress").is_displayed())
    assert css(driver, "main .screen").get_attribute("aria-busy") == "true"
    assert not css(driver, "main .empty").is_displayed()
    screenshot("navigation-offline")

    restartable_server.start()
    wait(driver, lambda: css(driver, "main h1").text == "Film recipes", timeout=30)
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open",
         timeout=30)
    assert css(driver, "main [data-version]").get_attribute("data-version")
    assert not css(driver, "#connection").is_displayed()
    wait(driver, lambda: not css(driver, "#progress").is_displayed())
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "net::" not in e["message"]
              and "Failed to load resource" not in e["message"]]
    assert not any("dynamically imported module" in e["message"] for e in severe), severe
    screenshot("navigation-after-offline")
