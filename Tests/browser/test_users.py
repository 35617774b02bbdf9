"""Users in the browser (issue 37): who is signed in (the header), the sign-in page and its way
back to the deep link that needed a user, the login form's `signIn` command, inputs read-only for a
session that may not change them, and every tab of a browser following a sign-in and a sign-out
(js/session.js, js/account-menu.js, js/read-only.js, screens/sign-in.*, binder/hub.js's reset).

The seed server's demo accounts (bindery_support: Li Lei, an administrator; Han Meimei) are checked
by its fake upstream. Each wrong password counts against the account's five per 15 minutes: this
file types two.

Time budget: 60 s for the file (45 s measured; the ten tabs' test, on a server of its own, about 20 s)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from selenium.webdriver.common.keys import Keys

from accessibility import audit, blocking, describe
from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from pages import DESKTOP, PHONE, all_css, css, open_screen, path_of, set_viewport, settled, stream_state, usable, wait

RECIPE = "c41"
EDITOR = f"/recipes/{RECIPE}/edit"


# ---------------------------------------------------------------------------------- helpers

def account(driver) -> str:
    """What the header's account says (also what a phone shows only to a screen reader)."""
    return driver.execute_script("return document.getElementById('account').textContent.replace(/\\s+/g, ' ').trim()")


def here(driver) -> str:
    return driver.execute_script("return location.pathname + location.search")


def read_only(driver, selector) -> bool:
    """A text control is readonly, a select disabled: either way the user can't change it."""
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el.readOnly || el.disabled", selector)


def editor_locked(driver) -> bool:
    controls = ["#edit-name", "#edit-blurb", "#edit-film"]
    steps = all_css(driver, "#edit-steps [data-input]")
    return bool(steps) and all(read_only(driver, s) for s in controls) and all(
        s.get_attribute("readonly") is not None or s.get_attribute("disabled") is not None for s in steps)


def editor_unlocked(driver) -> bool:
    return not any(read_only(driver, s) for s in ("#edit-name", "#edit-blurb", "#edit-film")) \
        and not all_css(driver, "[data-access-read-only]") and not all_css(driver, "#read-only-hint")


def sign_in_on_the_page(driver, account_=LI_LEI, password=None):
    """Types the phone number and password into the sign-in page and submits."""
    wait(driver, lambda: path_of(driver) == "/sign-in" and all_css(driver, ".sign-in-form #sign-in-username"))
    phone, secret = css(driver, "#sign-in-username"), css(driver, "#sign-in-password")
    phone.clear()
    phone.send_keys(account_.phone)
    secret.clear()
    secret.send_keys(password or account_.password)
    css(driver, ".sign-in-submit").click()


def storage_text(driver) -> str:
    return driver.execute_script(
        "const all = (s) => Object.keys(s).map((k) => k + '=' + s.getItem(k)).join('\\n');"
        "return all(sessionStorage) + '\\n' + all(localStorage)")


# ---------------------------------------------------------------------------------- (d) read-only

def test_an_anonymous_visitor_reads_the_recipe_editor_with_a_hint_to_sign_in(driver, base_url, screenshot):
    open_screen(driver, base_url, EDITOR)
    wait(driver, lambda: settled(driver) and len(all_css(driver, "#edit-steps .step-row")) >= 2)
    assert account(driver) == "Sign in"
    assert css(driver, ".account-sign-in").get_attribute("href").endswith(f"/sign-in?next={EDITOR}")
    wait(driver, lambda: editor_locked(driver), message="the editor's inputs are not read-only")
    name = css(driver, "#edit-name")
    before = name.get_attribute("value")
    name.send_keys(" typed")  # a readonly field takes no keystroke: nothing is sent
    assert name.get_attribute("value") == before
    assert not usable(all_css(driver, "#edit-steps .step-remove")[0])  # the server says: not enabled
    # Why, in words, with the way to sign in and come back; each locked field points at it.
    hint = css(driver, "#read-only-hint")
    assert "You can read this but not change it." in hint.text
    link = hint.find_element("css selector", "a")
    assert link.text == "Sign in to edit"
    assert link.get_attribute("href") == f"{base_url}/sign-in?next={EDITOR}"
    assert "read-only-hint" in name.get_attribute("aria-describedby").split()
    screenshot("users-read-only-editor")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)  # not under the sticky header
    link.click()
    wait(driver, lambda: here(driver) == f"/sign-in?next={EDITOR}")
    assert css(driver, "label[for=sign-in-username]").text == "Phone number"  # the seed's own template


# ---------------------------------------------------------------------------------- (a) 401 deep link

def test_a_deep_link_that_needs_a_user_signs_in_and_comes_back(driver, base_url, screenshot):
    """The seed's editor reads for anyone; its commands are a user's. Anonymous on the deep link,
    "Add step" is refused 401: the sign-in page, whose wrong password is said at the form, then
    back on the deep link, signed in, the editor writable."""
    open_screen(driver, base_url, EDITOR)
    wait(driver, lambda: settled(driver) and editor_locked(driver))
    css(driver, "#step-name").send_keys("Pre-wash")
    css(driver, "#step-seconds").send_keys("60")
    css(driver, "#add-step-button").click()
    wait(driver, lambda: path_of(driver) == "/sign-in", message="a 401 did not show the sign-in page")
    assert here(driver) == f"/sign-in?next={EDITOR}"
    assert not all_css(driver, "#toasts .toast"), "a refusal for want of a user is no error"
    assert driver.title == "Sign in · Bindery"

    sign_in_on_the_page(driver, LI_LEI, password="not-the-password")
    problem = css(driver, ".sign-in-problem")
    wait(driver, lambda: problem.is_displayed(), message="the wrong password was not said")
    assert problem.get_attribute("role") == "alert"
    assert css(driver, ".sign-in-message").text == "The username or password is wrong."  # the 422's detail
    assert css(driver, "#sign-in-password").get_attribute("value") == ""
    assert account(driver) == "Sign in"
    screenshot("users-sign-in-refused")

    sign_in_on_the_page(driver, LI_LEI)
    wait(driver, lambda: path_of(driver) == EDITOR, message="not back on the deep link")
    assert here(driver) == EDITOR
    wait(driver, lambda: stream_state(driver) == "open")
    wait(driver, lambda: account(driver) == "Signed in as Li Lei Sign out Sign out everywhere")
    wait(driver, lambda: editor_unlocked(driver), message="the editor stayed read-only")
    wait(driver, lambda: usable(all_css(driver, "#edit-steps .step-remove")[0]))

    # Only same-origin paths are gone back to.
    safe = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/js/session.js').then((s) => done(['//evil.example/x', 'https://evil.example/', '/\\\\evil.example',"
        " '/api/views/form', '/sign-in?next=/x', 'recipes', '/recipes/c41/edit?x=1#y'].map(s.safeNext)))")
    assert safe == ["/", "/", "/", "/", "/", "/", "/recipes/c41/edit?x=1#y"], safe


# ---------------------------------------------------------------------------------- (b) the form's signIn

def test_the_forms_sign_in_command_signs_the_session_in(driver, base_url, screenshot):
    open_screen(driver, base_url, "/form")
    phone, password = css(driver, "#phone"), css(driver, "#password")
    wait(driver, lambda: phone.get_attribute("value") == "186")
    anonymous = driver.get_cookie("bindery_session")["value"]
    phone.click()
    phone.send_keys(Keys.END, "12345678")
    password.send_keys("wrong-pass")
    button = css(driver, "#sign-in")
    wait(driver, lambda: usable(button), message="signIn did not become enabled with both fields valid")
    button.click()
    toast = wait(driver, lambda: css(driver, "#toasts .toast"))
    wait(driver, lambda: "Wrong phone number or password." in toast.text, message=f"the toast says {toast.text!r}")
    assert account(driver) == "Sign in"
    assert not css(driver, "#signed-in-as").is_displayed()
    toast.find_element("css selector", ".toast-dismiss").click()

    password.send_keys(Keys.CONTROL, "a")
    password.send_keys(Keys.BACKSPACE, LI_LEI.password)
    wait(driver, lambda: usable(button))
    button.click()
    wait(driver, lambda: account(driver).startswith("Signed in as Li Lei"), message="the header did not follow")
    wait(driver, lambda: css(driver, "#signed-in-as").is_displayed())
    assert css(driver, "#signed-in-as").text == "Signed in as Li Lei."
    wait(driver, lambda: password.get_attribute("value") == "")  # the server cleared it
    assert not all_css(driver, "#toasts .toast")
    # The token the answer carried is nowhere in the page: the new cookie carries the session.
    token = driver.get_cookie("bindery_session")["value"]
    assert token != anonymous, "the session's token was not rotated"
    assert "token" not in driver.execute_script("return window.__bindery.snapshot")
    assert token not in driver.execute_script("return document.documentElement.outerHTML") + storage_text(driver)
    screenshot("users-form-signed-in")
    # The page's session is the user's: GET /api/session in the page says so.
    user = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/session').then((r) => r.json()).then((s) => done(s.user && s.user.name))")
    assert user == "Li Lei"

    # The header's account at both sizes: axe finds nothing serious (the menu open on a desktop; on
    # a phone closed, as the open menu covers the nav's links below it, as a menu does); on a phone
    # the name fits the header's first line beside the brand and the Inspector button.
    try:
        for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
            set_viewport(driver, size)
            summary = css(driver, ".account-menu summary")
            if label == "phone":
                summary.click()  # closed (it was open at the desktop's size)
                wait(driver, lambda: not css(driver, ".account-menu").get_attribute("open"))
                assert not blocking(audit(driver)), describe(f"the account ({label})", blocking(audit(driver)))
            if not css(driver, ".account-menu").get_attribute("open"):
                summary.click()
            wait(driver, lambda: css(driver, ".account-sign-out").is_displayed())
            if label == "desktop":
                assert not blocking(audit(driver)), describe(f"the account menu ({label})", blocking(audit(driver)))
            assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), label
            apart = driver.execute_script("""
                const a = document.querySelector('.account-menu summary').getBoundingClientRect();
                return ['.brand', '#inspector-toggle'].every((s) => { const b = document.querySelector(s).getBoundingClientRect();
                  return a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top; });""")
            assert apart, f"the account's name overlaps the brand or the Inspector button ({label})"
            screenshot(f"users-account-menu-{label}")
        summary.send_keys(Keys.ESCAPE)
        wait(driver, lambda: not css(driver, ".account-menu").get_attribute("open"))
    finally:
        set_viewport(driver, DESKTOP)


# ---------------------------------------------------------------------------------- (c) ten tabs

TEN = [EDITOR, "/recipes", f"/recipes/{RECIPE}", "/form", EDITOR,
       "/recipes", f"/recipes/{RECIPE}", "/form", "/", EDITOR]
NAME_AT = {"/recipes": f'#recipe-list [data-key="{RECIPE}"] .recipe-name', f"/recipes/{RECIPE}": "#recipe-name",
           EDITOR: "#edit-name"}


def open_tabs(driver, base, paths):
    handles = []
    for index, path in enumerate(paths):
        if index:
            driver.switch_to.new_window("tab")
        driver.get(base + path)
        wait(driver, lambda: stream_state(driver) == "open" and settled(driver), timeout=15,
             message=f"tab {index} ({path}) did not open")
        handles.append(driver.current_window_handle)
    return handles


def shown_name(driver, path):
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]);"
        "return el ? (el.matches('input, textarea') ? el.value : el.textContent) : null", NAME_AT[path])


def every_tab(driver, handles, paths, condition, message):
    for index, (handle, path) in enumerate(zip(handles, paths)):
        driver.switch_to.window(handle)
        wait(driver, lambda: condition(path), timeout=10, message=f"tab {index} ({path}): {message}")


def rename_elsewhere(base, name):
    """Another session (Han Meimei's, over the API) renames the recipe: only the stream tells the tabs."""
    call = api_session(base, HAN_MEIMEI)
    call("PATCH", f"/api/views/recipes/{RECIPE}/edit", {"name": name}, content_type="application/merge-patch+json")


def test_ten_tabs_follow_a_sign_in_and_a_sign_out_at_once(driver, restartable_server, screenshot):
    base = restartable_server.base
    handles = open_tabs(driver, base, TEN)
    leaders = []
    for handle in handles:
        driver.switch_to.window(handle)
        leaders += [handle] if driver.execute_script("return window.__bindery.events.role") == "leader" else []
    assert len(leaders) == 1, leaders
    leader = leaders[0]

    # Sign in in a tab that does not hold the stream: from its header, back where it was.
    signer = next(h for h, p in zip(handles, TEN) if p == "/recipes" and h != leader)
    driver.switch_to.window(signer)
    css(driver, ".account-sign-in").click()
    sign_in_on_the_page(driver, LI_LEI)
    wait(driver, lambda: path_of(driver) == "/recipes")
    every_tab(driver, handles, TEN, lambda _: account(driver).startswith("Signed in as Li Lei"),
              "the header did not show the user")
    every_tab(driver, handles, TEN, lambda p: p != EDITOR or editor_unlocked(driver), "the editor stayed read-only")
    every_tab(driver, handles, TEN, lambda _: stream_state(driver) == "open", "the stream is not open")
    token = driver.get_cookie("bindery_session")["value"]

    # A write from another tab (an editor that is neither the signer nor the leader) succeeds ...
    typist = next(h for h, p in zip(handles, TEN) if p == EDITOR and h != leader)
    driver.switch_to.window(typist)
    field = css(driver, "#edit-name")
    field.click()
    field.send_keys(Keys.END, " (signed in)")
    every_tab(driver, handles, TEN, lambda p: p not in NAME_AT or shown_name(driver, p) == "C-41 colour negative (signed in)",
              "the signed-in write did not show")
    assert not all_css(driver, "#toasts .toast")
    # ... and the leader's stream, gone over to the new cookie, brings another session's change.
    rename_elsewhere(base, "C-41 (Han)")
    every_tab(driver, handles, TEN, lambda p: p not in NAME_AT or shown_name(driver, p) == "C-41 (Han)",
              "another session's change did not arrive")
    for handle in handles:  # no tab keeps the token anywhere but the cookie
        driver.switch_to.window(handle)
        assert token not in storage_text(driver)
    screenshot("users-ten-tabs-signed-in")

    # Sign out in the leading tab: every tab is anonymous again, on a new session.
    driver.switch_to.window(leader)
    css(driver, ".account-menu summary").click()
    css(driver, ".account-sign-out").click()
    every_tab(driver, handles, TEN, lambda _: account(driver) == "Sign in", "the header still shows the user")
    every_tab(driver, handles, TEN, lambda p: p != EDITOR or editor_locked(driver), "the editor stayed writable")
    every_tab(driver, handles, TEN, lambda _: stream_state(driver) == "open", "the stream is not open")
    assert driver.get_cookie("bindery_session")["value"] != token
    try:  # the signed-in token is refused from now on
        urllib.request.urlopen(urllib.request.Request(f"{base}/api/session/sign-out-everywhere", method="POST",
                                                      headers={"Authorization": f"Bearer {token}"}), timeout=10)
        raise AssertionError("the signed-out token was taken")
    except urllib.error.HTTPError as refused:
        assert refused.code == 401
    # The stream (a new leader's, or the same tab's anew) still brings every change.
    rename_elsewhere(base, "C-41 colour negative")
    every_tab(driver, handles, TEN, lambda p: p not in NAME_AT or shown_name(driver, p) == "C-41 colour negative",
              "a change after the sign-out did not arrive")
    screenshot("users-ten-tabs-signed-out")


# ---------------------------------------------------------------------------------- sign out everywhere

def test_sign_out_everywhere_reaches_another_device(driver, other, base_url):
    """Li Lei on two browsers; "Sign out everywhere" in one ends the other's session too: its page
    hears its views end, asks who is signed in, and shows the editor read-only, on a new session."""
    for browser in (driver, other):
        sign_in_browser(browser, base_url, LI_LEI)
        open_screen(browser, base_url, EDITOR)
        wait(browser, lambda b=browser: account(b).startswith("Signed in as Li Lei") and editor_unlocked(b))
    css(driver, ".account-menu summary").click()
    css(driver, ".account-sign-out-everywhere").click()
    wait(driver, lambda: account(driver) == "Sign in")
    wait(other, lambda: account(other) == "Sign in", message="the other device still shows the user")
    wait(other, lambda: editor_locked(other) and stream_state(other) == "open")
    answer = other.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/session').then((r) => r.json()).then((s) => done(JSON.stringify(s.user)))")
    assert json.loads(answer) is None


# ---------------------------------------------------------------------------------- access rules

def test_the_nav_shows_what_the_catalogue_lets_the_user_read(driver, base_url):
    """access.js's rule (the server's AccessSummary.admits): no sign-in needed, or signed in with
    one of the roles (none listed: any user); a rule over the view model counts as may."""
    open_screen(driver, base_url, "/")
    got = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/access.js').then(({ admits, readable }) => {
          const open = { signIn: false, roles: [], conditional: false };
          const user = { signIn: true, roles: [], conditional: false };
          const admin = { signIn: true, roles: ['admin'], conditional: false };
          const theirs = { signIn: true, roles: [], conditional: true };
          const li = { id: 'u-lilei', name: 'Li Lei', roles: ['admin'] };
          const han = { id: 'u-hanmeimei', name: 'Han Meimei', roles: [] };
          const views = [['open', open], ['user', user], ['admin', admin], ['theirs', theirs]]
            .map(([name, readAccess]) => ({ name, readAccess }));
          done({
            anonymous: readable(views, null).map((v) => v.name),
            han: readable(views, han).map((v) => v.name),
            li: readable(views, li).map((v) => v.name),
            none: admits(undefined, null),
          });
        });""")
    assert got == {"anonymous": ["open"], "han": ["open", "user", "theirs"],
                   "li": ["open", "user", "admin", "theirs"], "none": True}, got
    # The seed's screens all read for anyone: the nav lists each, and the Lab.
    nav = [a.text for a in all_css(driver, "#nav a")]
    assert nav == ["Login form", "Points of interest", "Photo gallery", "Courses", "Film recipes", "Lab"], nav
