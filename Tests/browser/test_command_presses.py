"""A command pressed while a write of its view model is on its way is never dropped (issue 41): it
waits for that write's snapshot, then runs if the command is enabled there; one press is one
command. On the seed's login form: the password's last key, then a click on Clear at once, while
the page still shows Clear disabled (form_presses.py says how the press always lands during the
write). Enter, and a press the write leaves disabled: test_implicit_submission.py.

Time budget: 25 s for the module (20 presses of about 0.6 s each, and one double click).
"""

from __future__ import annotations

from form_presses import (PASSWORD, cleared, commands_sent, fill_all_but_the_last_key, no_event_stream, slow_answers,
                          type_and_click, watch_commands)
from pages import all_css, css, open_screen, usable, wait

PRESSES = 20


def test_typed_then_clicked_at_once_runs_every_time(driver, base_url):
    open_screen(driver, base_url, "/form")
    watch_commands(driver)
    with no_event_stream(driver):
        for done in range(PRESSES):
            _, password = fill_all_but_the_last_key(driver)
            with slow_answers(driver):
                type_and_click(driver, password, PASSWORD[-1], css(driver, "#clear"))
                wait(driver, lambda: cleared(driver), timeout=5,
                     message=f"Clear pressed during the password's write was lost after {done} of {PRESSES}")
    assert len(commands_sent(driver, "clear")) == PRESSES  # one press, one command
    assert not all_css(driver, "#toasts .toast")


def test_pressed_twice_during_the_write_runs_once(driver, base_url):
    open_screen(driver, base_url, "/form")
    watch_commands(driver)
    _, password = fill_all_but_the_last_key(driver)
    with no_event_stream(driver), slow_answers(driver):
        type_and_click(driver, password, PASSWORD[-1], css(driver, "#clear"), clicks=2)
        wait(driver, lambda: cleared(driver), timeout=5)
    # A second press, had it been kept, would have been sent (or refused, with a notice) as soon as
    # the first one's answer came: before the page showed the form cleared.
    assert len(commands_sent(driver, "clear")) == 1
    assert not all_css(driver, "#toasts .toast")
    # Unavailable again (the fields are empty); focused, so aria-disabled rather than disabled.
    wait(driver, lambda: not usable(css(driver, "#clear")) and css(driver, "#clear").get_attribute("aria-busy") == "false")
