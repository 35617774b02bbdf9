"""What the browser tests share: waiting for a condition, finding elements, opening a screen and
waiting until it has settled (its data shown, nothing loading)."""

from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

DESKTOP = (1280, 800)
PHONE = (390, 844)


def wait(driver, condition, timeout=10, message=""):
    """Polls `condition` until it holds. An element replaced between finding and reading it (a
    screen re-rendered meanwhile) is only a reason to look again."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(), message)


def css(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def all_css(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def path_of(driver):
    return driver.execute_script("return location.pathname")


def stream_state(driver):
    return driver.execute_script("return document.documentElement.dataset.stream")


def open_screen(driver, base_url, path):
    """Loads a page and waits until its view model's event stream is open."""
    driver.get(base_url + path)
    wait(driver, lambda: stream_state(driver) == "open", message=f"event stream of {path} did not open")


def settled(driver):
    """Nothing on the page is loading: no top progress bar, no busy screen or list."""
    return driver.execute_script(
        "return getComputedStyle(document.getElementById('progress')).display === 'none'"
        " && !document.querySelector('main [aria-busy=\"true\"]')")


def usable(control):
    """Enabled: not `disabled`, and not `aria-disabled` (a focused button whose command runs keeps
    its focus that way)."""
    return control.is_enabled() and control.get_attribute("aria-disabled") != "true"


def idle(button):
    return usable(button) and button.get_attribute("aria-busy") != "true"


def set_viewport(driver, size):
    """Makes the page's viewport exactly `size` (CSS px), whatever the window's frame takes; below
    720 px wide as a phone's (mobile: overlay scroll bars, the viewport meta tag applies)."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 720})
