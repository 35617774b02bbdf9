"""Enter in a form whose default button is a command's (implicit submission) is never dropped
while the write it follows is on its way (issue 41): typed-then-Enter runs the command every time
once the write's snapshot enables it; if that snapshot leaves it disabled, the page says why and
sends nothing. The login form's view model, shown by ENTER_FORM (the seed's template replaced in
the page): its Clear is the form's submit button. form_presses.py says how the Enter always lands
during the write.

Time budget: 20 s for the module (20 presses of about 0.6 s each, and one refused press).
"""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from form_presses import (PASSWORD, cleared, commands_sent, fill_all_but_the_last_key, no_event_stream, slow_answers,
                          watch_commands)
from pages import all_css, css, open_screen, stream_state, wait

PRESSES = 20

ENTER_FORM = """
<section class="screen screen-form">
  <h1 tabindex="-1">Login form, Enter clears</h1>
  <form novalidate>
    <label for="phone">Phone</label> <input id="phone" type="tel" data-input="phone">
    <label for="password">Password</label> <input id="password" type="password" data-input="password">
    <p id="form-output" data-output="output"></p>
    <button id="clear" type="submit" data-command="clear">Clear</button>
  </form>
</section>
"""


def open_enter_form(driver, base_url):
    open_screen(driver, base_url, "/")
    driver.execute_script("document.getElementById('tpl-form').innerHTML = arguments[0]", ENTER_FORM)
    driver.execute_script("window.__bindery.navigate('/form')")
    wait(driver, lambda: stream_state(driver) == "open" and css(driver, "main h1").text == "Login form, Enter clears")
    wait(driver, lambda: cleared(driver))


def test_typed_then_enter_at_once_submits_every_time(driver, base_url):
    open_enter_form(driver, base_url)
    watch_commands(driver)
    with no_event_stream(driver):
        for done in range(PRESSES):
            _, password = fill_all_but_the_last_key(driver)
            with slow_answers(driver):
                password.send_keys(PASSWORD[-1] + Keys.ENTER)
                wait(driver, lambda: cleared(driver), timeout=5,
                     message=f"Enter pressed during the password's write was lost after {done} of {PRESSES}")
    assert len(commands_sent(driver, "clear")) == PRESSES
    assert not all_css(driver, "#toasts .toast")


def test_a_press_the_write_does_not_enable_is_told_why_and_not_sent(driver, base_url):
    open_enter_form(driver, base_url)
    watch_commands(driver)
    _, password = fill_all_but_the_last_key(driver)
    with no_event_stream(driver), slow_answers(driver):
        password.send_keys(Keys.BACKSPACE + Keys.ENTER)  # still too short: Clear stays disabled
        toast = wait(driver, lambda: css(driver, "#toasts .toast"), message="the refused press said nothing")
        assert toast.get_attribute("role") == "alert"
        assert "“Clear” can’t be done with what was entered." in toast.text
    assert css(driver, "#password").get_attribute("value") == PASSWORD[:-2]
    assert commands_sent(driver, "clear") == []
    wait(driver, lambda: css(driver, "#clear").get_attribute("disabled") is not None)
