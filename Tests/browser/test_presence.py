"""Presence: who else is on a screen, and in which field (js/presence.js), between two browsers
(two sessions, two users) on the recipe editor.

Time budget: at most 60 s for the file (about 10 s for the first test, 5 s for the second, about
20 s for the third, which waits out the server's 12 s expiry of a client that left without a word)."""

from __future__ import annotations

import time


from pages import all_css, css, open_screen, wait

EDITOR = "/recipes/c41/edit"


def my_name(driver, path):
    """The presence name the server gave this browser's session (what the others see)."""
    return driver.execute_script(
        "return fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.json()).then(d => d.you.name)",
        f"/api/views/{path}/presence")


def chips(driver):
    """The chips' words, one line each ("TO Teal Otter is editing Blurb": initials first)."""
    return [" ".join(c.text.split()) for c in all_css(driver, ".presence-bar .presence-chip")]


def test_who_is_here_and_in_which_field(driver, other, base_url, screenshot):
    open_screen(driver, base_url, EDITOR)   # A
    open_screen(other, base_url, EDITOR)    # B
    a_name = my_name(driver, EDITOR.strip("/"))
    b_name = my_name(other, EDITOR.strip("/"))
    a_id = driver.execute_script(
        "return fetch(arguments[0]).then(r => r.json()).then(d => d.you.id)", f"/api/views{EDITOR}/presence")
    assert a_name and b_name and a_name != b_name

    # B sees A's chip, and A sees B's; nobody sees themselves.
    wait(other, lambda: any(a_name in c for c in chips(other)), message="B did not see A arrive")
    wait(driver, lambda: any(b_name in c for c in chips(driver)), message="A did not see B")
    assert not any(b_name in c for c in chips(other))
    assert css(other, ".presence-bar").is_displayed()
    other.save_screenshot(str(screenshot("presence-chips")))

    # A goes into Blurb: B sees the marker on Blurb, with A's name, said to screen readers too.
    css(driver, "#edit-blurb").click()
    blurb = css(other, "#edit-blurb")
    wait(other, lambda: a_id in (blurb.get_attribute("data-presence") or "").split(), message="no marker on Blurb")
    label = css(other, "#edit-blurb ~ .presence-label, .presence-host > .presence-label")
    # (Others may be there too: a browser of an earlier test that left without a word, for 12 s.)
    assert a_name in label.text.split(", ")
    described = blurb.get_attribute("aria-describedby").split()
    sentences = [other.execute_script("return document.getElementById(arguments[0]).textContent", i) for i in described]
    assert any(a_name in t and "editing this field." in t for t in sentences), sentences
    wait(other, lambda: f"{a_name} is editing Blurb" in " ".join(chips(other)))
    own = driver.execute_script("return fetch(arguments[0]).then(r => r.json()).then(d => d.you.id)",
                                f"/api/views{EDITOR}/presence")
    assert own not in (css(driver, "#edit-blurb").get_attribute("data-presence") or "").split(), "no marker for yourself"
    other.save_screenshot(str(screenshot("presence-marker")))

    # A moves to a step's seconds (a child view model's input): the marker follows.
    seconds = all_css(driver, "#edit-steps .step-seconds")[0]
    seconds.click()
    wait(other, lambda: a_id not in (blurb.get_attribute("data-presence") or "").split(), message="the Blurb marker stayed")
    wait(other, lambda: a_id in (all_css(other, "#edit-steps .step-seconds")[0].get_attribute("data-presence") or "").split(),
         message="no marker on the first step's seconds")
    wait(other, lambda: f"{a_name} is editing Seconds" in " ".join(chips(other)))

    # A navigates away: B's chip goes at once (DELETE), not after the expiry.
    started = time.monotonic()
    driver.execute_script("window.__bindery.navigate('/recipes')")
    wait(other, lambda: not any(a_name in c for c in chips(other)), timeout=5, message="A's chip stayed after A left")
    assert time.monotonic() - started < 5
    assert not all_css(other, f'[data-presence~="{a_id}"]')


def test_a_closed_tab_is_gone_at_once_and_you_see_your_own_name(driver, other, base_url):
    """A tab closed (pagehide says goodbye with a keepalive DELETE): the others' chip goes within
    a couple of seconds, not at the expiry. The bar leads with your own name, as others see it."""
    open_screen(other, base_url, EDITOR)
    first = driver.current_window_handle
    driver.get(f"{base_url}/healthz")
    driver.switch_to.new_window("tab")
    open_screen(driver, base_url, EDITOR)
    a_name, b_name = my_name(driver, EDITOR.strip("/")), my_name(other, EDITOR.strip("/"))
    wait(other, lambda: any(a_name in c for c in chips(other)))
    wait(other, lambda: css(other, ".presence-you").text == f"You are {b_name}",
         message="B's bar does not say who B is to the others")
    driver.close()
    driver.switch_to.window(first)
    started = time.monotonic()
    wait(other, lambda: not any(a_name in c for c in chips(other)), timeout=5, message="the closed tab's chip stayed")
    assert time.monotonic() - started < 3


def test_a_browser_that_goes_without_a_word_is_forgotten_after_12_s(driver, other, base_url):
    open_screen(driver, base_url, EDITOR)
    open_screen(other, base_url, EDITOR)
    a_name = my_name(driver, EDITOR.strip("/"))
    wait(other, lambda: any(a_name in c for c in chips(other)))
    # No goodbye: A's DELETE never leaves (as when the machine sleeps or the network goes), and
    # the browser is gone with its heartbeat.
    driver.execute_script("""
        const real = window.fetch;
        window.fetch = (url, init = {}) => (init.method === 'DELETE' && String(url).endsWith('/presence'))
            ? new Promise(() => {}) : real(url, init);""")
    driver.quit()
    started = time.monotonic()
    wait(other, lambda: not any(a_name in c for c in chips(other)), timeout=20, message="A was not forgotten within 20 s")
    gone = time.monotonic() - started
    assert gone > 5, f"A disappeared after {gone:.0f} s: was a goodbye sent after all?"
