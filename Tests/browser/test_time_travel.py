"""Time travel in the view-model inspector: the timeline of versions (from the server's log, so from
before the page opened, then live), a version's snapshot and its diff, the members filter, "Back to
live", sensitive inputs masked everywhere, axe in light and dark — and "Copy as test", whose text
for a fixed script on the form must equal Tests/SeedAppsTests/InspectorCopiedTests.swift byte for
byte (the Swift suite compiles and runs that file, so a copied test is known to compile and pass)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from selenium.webdriver.common.keys import Keys

from accessibility import audit, blocking, describe
from pages import all_css, css, open_screen, wait

GOLDEN = Path(__file__).resolve().parents[1] / "SeedAppsTests" / "InspectorCopiedTests.swift"
SECRET = "s3cret-Passw0rd"


def part(driver, name):
    return css(driver, f'#inspector [data-part="{name}"]')


def answered(driver, method):
    """The page's answered requests of `method` so far (trace.js), as [{status, version, url}]."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/js/trace.js').then((t) => done(t.recent((r) => r.type === 'request' && r.phase === 'answered'"
        f" && r.method === {json.dumps(method)}).map((r) => ({{status: r.status, version: r.version, url: r.url}}))));")


def type_once(driver, selector, value):
    """Sets a field's value and dispatches ONE input event: exactly one PATCH goes."""
    before = len(answered(driver, "PATCH"))
    driver.execute_script(
        "const el = document.querySelector(arguments[0]); el.value = arguments[1];"
        "el.dispatchEvent(new Event('input', {bubbles: true}));", selector, value)
    wait(driver, lambda: len(answered(driver, "PATCH")) == before + 1, message=f"no answer to the write of {selector}")
    last = answered(driver, "PATCH")[-1]
    assert last["status"] == 200, last
    wait(driver, lambda: driver.execute_script("return window.__bindery.snapshot.version") >= last["version"])


def open_inspector(driver):
    css(driver, "#inspector-toggle").click()
    wait(driver, lambda: css(driver, "#inspector").is_displayed())


def inspector_text(driver) -> str:
    """Everything the inspector holds as text: shown or not, and the copied test's text area."""
    return driver.execute_script(
        "const p = document.getElementById('inspector');"
        "return p.textContent + '\\n' + [...p.querySelectorAll('textarea, input')].map((e) => e.value).join('\\n');")


def session_call(base_url, cookie, method, path, body=None):
    """A request of the browser's own session (its cookie), as curl would make it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base_url}{path}", data=data, method=method, headers={
        "Cookie": f"{cookie['name']}={cookie['value']}", "Content-Type": "application/merge-patch+json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def test_copy_as_test_writes_the_committed_golden_test(driver, base_url):
    open_screen(driver, base_url, "/form")
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186")
    type_once(driver, "#phone", "18612345678")
    type_once(driver, "#password", "passw0rd")
    clear = css(driver, "#clear")
    wait(driver, lambda: clear.is_enabled(), message="Clear did not become enabled")
    clear.click()
    wait(driver, lambda: len(answered(driver, "POST")) == 1 and answered(driver, "POST")[0]["status"] == 200)
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "186")

    open_inspector(driver)
    button = part(driver, "copy-test")
    wait(driver, lambda: button.is_enabled(), message=part(driver, "test-note").text)
    assert "3 steps" in part(driver, "test-note").text, part(driver, "test-note").text
    button.click()
    code = part(driver, "test-code")
    wait(driver, lambda: code.is_displayed() and code.get_attribute("value"))
    copied = code.get_attribute("value")
    assert "passw0rd" not in copied and "passw0rd" not in inspector_text(driver)
    golden = GOLDEN.read_text(encoding="utf8")
    assert copied.rstrip("\n") == golden.rstrip("\n"), f"copied test differs from {GOLDEN}:\n{copied}"


def test_a_child_view_model_has_no_copy_as_test(driver, base_url, upstream):
    open_screen(driver, base_url, "/list")
    wait(driver, lambda: len(all_css(driver, "#poi-list .poi-cell")) >= 1, timeout=15)
    css(driver, "#poi-list .poi-cell").click()
    wait(driver, lambda: driver.execute_script("return location.pathname").startswith("/list/items/"))
    open_inspector(driver)
    wait(driver, lambda: "child view model" in part(driver, "test-note").text)
    assert not part(driver, "copy-test").is_enabled()


def test_time_travel_through_versions_from_before_the_page_opened(driver, base_url, screenshot):
    open_screen(driver, base_url, "/form")
    cookie = driver.get_cookie("bindery_session")
    assert cookie, "the page has a session cookie"
    # Versions made before the page (re)opens, with the page's own session, as curl would.
    session_call(base_url, cookie, "PATCH", "/api/views/form", {"phone": "13800138000"})
    session_call(base_url, cookie, "PATCH", "/api/views/form", {"password": SECRET})
    made = session_call(base_url, cookie, "PATCH", "/api/views/form", {"phone": "18612345678"})["version"]
    driver.refresh()
    wait(driver, lambda: driver.execute_script("return document.documentElement.dataset.stream") == "open")
    wait(driver, lambda: css(driver, "#phone").get_attribute("value") == "18612345678")
    # ... and one by the page itself: the secret typed again is masked in the curl line too.
    type_once(driver, "#password", SECRET + "!")

    open_inspector(driver)
    timeline = part(driver, "timeline")
    wait(driver, lambda: timeline.is_displayed() and len(all_css(driver, "#inspector [role=option]")) >= made)
    versions = [int(o.get_attribute("data-version")) for o in all_css(driver, "#inspector [role=option]")]
    assert versions == sorted(versions, reverse=True), versions
    assert {1, made - 1, made} <= set(versions), versions  # from before the page opened
    newest = versions[0]
    live = css(driver, f'#inspector [role=option][data-version="{newest}"]')
    assert live.get_attribute("aria-selected") == "true" and "(live)" in live.text
    assert not part(driver, "live").is_displayed()

    # Choose the version that changed the phone: its snapshot, and the diff against the one before.
    css(driver, f'#inspector [role=option][data-version="{made}"]').click()
    wait(driver, lambda: f"version {made} of {newest} (not live)" in part(driver, "version").text)
    assert css(driver, f'#inspector [role=option][data-version="{made}"]').get_attribute("aria-selected") == "true"
    assert '"phone": "18612345678"' in part(driver, "json").text
    rows = {r.get_attribute("data-pointer"): r for r in all_css(driver, '#inspector [data-part="diff"] tr[data-pointer]')}
    assert "/inputs/phone" in rows, list(rows)
    phone = rows["/inputs/phone"]
    assert phone.get_attribute("data-kind") == "changed" and "changed" in phone.text  # said in words
    assert '"13800138000"' in phone.text and '"18612345678"' in phone.text, phone.text
    assert f"Changes from version {made - 1} to {made}" in part(driver, "diff-title").get_attribute("textContent")
    assert part(driver, "live").is_displayed()

    # The arrow keys travel: down is the version before.
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    wait(driver, lambda: f"version {made - 1} of" in part(driver, "version").text)
    assert driver.switch_to.active_element.get_attribute("data-version") == str(made - 1)
    assert "inputs.password" in part(driver, "changed").text
    screenshot("inspector-time-travel")

    # The filter narrows the snapshot, the diff and the timeline.
    driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
    wait(driver, lambda: f"version {made} of" in part(driver, "version").text)
    part(driver, "filter").send_keys("phone")
    wait(driver, lambda: '"password"' not in part(driver, "json").text)
    json_text = part(driver, "json").text
    assert '"phone": "18612345678"' in json_text and '"phoneValid": true' in json_text, json_text
    assert '"output"' not in json_text and '"passwordColor"' not in json_text, json_text
    pointers = [r.get_attribute("data-pointer") for r in all_css(driver, '#inspector [data-part="diff"] tr[data-pointer]')]
    assert pointers == ["/inputs/phone"], pointers
    shown = [o.get_attribute("data-version") for o in all_css(driver, "#inspector [role=option]")]
    assert str(made - 1) not in shown and str(made) in shown, shown  # the password's version changed no phone
    axe_both_schemes(driver, "time travel, filtered", screenshot)
    part(driver, "filter").clear()
    part(driver, "filter").send_keys(Keys.SPACE, Keys.BACK_SPACE)
    wait(driver, lambda: '"password"' in part(driver, "json").text)

    # Back to live.
    part(driver, "live").click()
    wait(driver, lambda: part(driver, "version").text == f"version {newest} (live)")
    assert not part(driver, "live").is_displayed()
    assert css(driver, f'#inspector [role=option][data-version="{newest}"]').get_attribute("aria-selected") == "true"
    axe_both_schemes(driver, "time travel, live")

    # The secret is nowhere in the inspector: snapshot, timeline, diff, stream log, curl line, test.
    assert "PATCH /api/views/form" in part(driver, "outcome").text
    assert '"password":"••••••"' in part(driver, "curl").text, part(driver, "curl").text
    text = inspector_text(driver)
    assert SECRET not in text and "s3cret" not in text
    for version in (made, made - 1):
        css(driver, f'#inspector [role=option][data-version="{version}"]').click()
        wait(driver, lambda: f"version {version} of" in part(driver, "version").text)
        text = inspector_text(driver)
        assert SECRET not in text and "s3cret" not in text, version
        assert "••••••" in part(driver, "json").text
    # ... while the page's own form still has it.
    assert css(driver, "#password").get_attribute("value") == SECRET + "!"


def axe_both_schemes(driver, where, screenshot=None):
    """axe with the inspector open, light then dark (prefers-color-scheme emulated)."""
    try:
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            if screenshot:
                screenshot(f"inspector-time-travel-{scheme}")
            violations = blocking(audit(driver))
            assert not violations, describe(f"{where} ({scheme})", violations)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_the_copied_test_masks_the_secret_with_a_same_length_stand_in(driver, base_url):
    open_screen(driver, base_url, "/form")
    type_once(driver, "#password", SECRET)
    open_inspector(driver)
    button = part(driver, "copy-test")
    wait(driver, lambda: button.is_enabled())
    button.click()
    code = part(driver, "test-code")
    wait(driver, lambda: code.get_attribute("value"))
    copied = code.get_attribute("value")
    stand_in = "•" * len(SECRET)
    assert SECRET not in copied
    assert f'try await form.write(["password": "{stand_in}"])' in copied, copied
    assert f'$0.outputs["output"] = "手机号:186, 密码:{stand_in}"' in copied, copied
    assert "same-length stand-in" in copied, copied


GENERATE = """
const done = arguments[arguments.length - 1];
Promise.all([import('/js/inspector/swift-test.js'), import('/js/inspector/timeline.js')]).then(([{ swiftTest }, { VersionHistory }]) => {
  const history = new VersionHistory('list');
  const load = (executing, enabled, error = null) => ({ load: { enabled, executing, error, policy: 'serial' } });
  const snap = (version, city, items, commands, extra = {}) => ({ path: 'list', version, inputs: { city },
    outputs: { items, error: null, ...extra }, commands });
  history.add(snap(1, 1, [], load(false, true)), 1000);
  history.add(snap(2, 1, [], load(true, false)), 2000);
  history.add(snap(3, 1, [{ id: 'a', title: 'Tab\\there "q" \\\\ \\u0001' }], load(false, true)), 3500);
  history.add(snap(4, 2, [{ id: 'a', title: 'x' }], load(false, true), { extra: 1 }), 4000);
  history.add(snap(5, 3, [{ id: 'a', title: 'x' }], load(false, true, { code: 500, message: 'Bad' })), 5000);
  const steps = [
    { kind: 'command', name: 'load', body: null, status: 202, version: 2, sentAt: 1900, answeredAt: 2000 },
    { kind: 'write', body: { city: 3 }, status: 200, version: 5, sentAt: 4900, answeredAt: 5000 },
    { kind: 'write', body: { city: 'x' }, status: 422, version: null, sentAt: 5100, answeredAt: 5200 },
    { kind: 'command', name: 'select', body: { id: 3 }, status: 200, version: 5, sentAt: 5300, answeredAt: 5400 },
  ];
  done(swiftTest({ view: { path: 'list', name: 'list', root: true }, steps, history, sensitive: [],
    fixture: { imports: ['BinderyTesting', 'Testing'], setup: ['let clock = TestClock<Duration>()'], subject: 'ListViewModel()', clock: 'clock' } }));
}, (e) => done(String(e)));
"""


def test_the_generator_settles_deferred_commands_and_says_what_it_does_not_replay(driver, base_url):
    """The parts of "Copy as test" the form's golden file does not reach, on a made-up history."""
    open_screen(driver, base_url, "/form")
    text = driver.execute_async_script(GENERATE)
    expected = '''        let clock = TestClock<Duration>()
        let list = ViewModelTester(ListViewModel())
        try list.execute("load") {
            $0.commands["load"]?.enabled = false
            $0.commands["load"]?.executing = true
        }
        await clock.advance(by: .seconds(2))
        await list.settle {
            $0.outputs["items"] = [["id": "a", "title": "Tab\\there \\"q\\" \\\\ \\u{1}"]]
            $0.commands["load"]?.enabled = true
            $0.commands["load"]?.executing = false
        }
        // Version 4 came from elsewhere (another client, or the server's own work): not replayed.
        try await list.write(["city": 3]) {
            $0.inputs["city"] = 3
            $0.outputs["extra"] = nil
            $0.commands["load"]?.error = ["code": 500, "message": "Bad"]
        }
        // Not replayed: the write {"city":"x"} was refused (422).
        try list.execute("select", ["id": 3]) { _ in }
        list.finish()
'''
    assert expected in text, text
    assert "/// Copied from the inspector: the list, 3 steps." in text, text
