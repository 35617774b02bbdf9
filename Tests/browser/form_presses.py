"""What the tests of commands pressed on the login form share (test_command_presses.py,
test_implicit_submission.py): the form filled up to its last key, the network slowed and the event
stream held off around a press, and the page's own count of the commands it sent.

The login form's Clear is enabled only while the phone and the password are valid: typing the
password's last character and pressing Clear at once presses a button the page still shows
disabled (the write that enables it is on its way). As on a slow network, the write's snapshot
comes only with its answer, 100 ms late: DevTools' network emulation delays every answer while the
key and the press go, and the event stream (whose open connection it would not delay) is held off.
The press thus always lands during the write, as Enter right after a fast typist's last key does.
"""

from __future__ import annotations

from contextlib import contextmanager

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from pages import css, stream_state, wait

PHONE_REST = "12345678"     # after the form's "186": a valid mobile number
PASSWORD = "secret12"       # 8 characters: valid; 7 are not
SLOW = {"offline": False, "latency": 100, "downloadThroughput": -1, "uploadThroughput": -1}
FAST = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def watch_commands(driver):
    """From now on the page counts the commands it sends (js/trace.js, the inspector's record);
    the network may be emulated (DevTools)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.__commandsSent = [];
        import('/js/trace.js').then((t) => {
          t.watch((r) => { if (r.type === 'request' && r.phase === 'sent' && r.method === 'POST') window.__commandsSent.push(r.url); });
          done(true);
        });
    """)


def commands_sent(driver, name):
    return [u for u in driver.execute_script("return window.__commandsSent") if u.endswith(f"/commands/{name}")]


@contextmanager
def slow_answers(driver):
    """Every answer 100 ms late (DevTools' network emulation) while the block runs."""
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW)
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", FAST)


@contextmanager
def no_event_stream(driver):
    """The page's event stream held off: snapshots come only with the answers of its requests."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
    driver.execute_script("window.__bindery.dropStream()")
    wait(driver, lambda: stream_state(driver) != "open")
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def type_and_click(driver, element, keys, button, clicks=1):
    """One WebDriver action, no pointer travel: the keys, then the click(s), as fast as a hand."""
    chain = ActionChains(driver, duration=0).send_keys_to_element(element, keys)
    for _ in range(clicks):
        chain = chain.click(button)
    chain.perform()


def fill_all_but_the_last_key(driver):
    """Phone valid, password one character short: the snapshot says Clear is not enabled."""
    phone, password = css(driver, "#phone"), css(driver, "#password")
    wait(driver, lambda: cleared(driver))
    phone.send_keys(Keys.END, PHONE_REST)
    password.send_keys(PASSWORD[:-1])
    # Both written and answered, and Clear shown unavailable (disabled: no write on its way).
    wait(driver, lambda: driver.execute_script(
        "return document.getElementById('form-output').textContent === arguments[0]"
        " && document.getElementById('clear').disabled", f"手机号:186{PHONE_REST}, 密码:{PASSWORD[:-1]}"),
        message="Clear is not shown unavailable once the writes are answered")
    return phone, password


def cleared(driver):
    return driver.execute_script(
        "return document.getElementById('phone').value === '186' && document.getElementById('password').value === ''")
