"""The bindings a todo list needs without a script of its own (issue 41, Examples/Todos), tried on
the seed screens with controls added to their templates in the page (as an app's screen file would
have them): a `class.name` output; a command that runs side by side (`concurrent`) stays pressable
while it runs; a field that clears (`data-command-clears`) takes five titles typed and entered at
once, in order, and gets its text back when its command fails; an item edited in place
(`data-editor`, `data-opens-editor`): opened by a double click, Enter presses, Escape and an
unchanged field send nothing; an input kept in the hash (`data-input-hash`), which a link to another
fragment of the page sets without a new render, Back too, and which follows the input back; a
screen's `[autofocus]` control focused when it opens.

Time budget: 25 s for the module.
"""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, api_session, sign_in_browser
from pages import all_css, css, open_screen, wait


def add_to_template(driver, template: str, html: str, item: bool = False):
    """Adds `html` at the end of the screen's template (`item`: of each item of its first list)
    before the screen is opened."""
    driver.execute_script("""
        const t = document.getElementById(arguments[0]).content;
        const target = arguments[2] ? t.querySelector('[data-list] > template').content : t;
        target.firstElementChild.insertAdjacentHTML('beforeend', arguments[1]);
    """, f"tpl-{template}", html, item)


def open_in_page(driver, url: str):
    driver.execute_script("window.__bindery.navigate(arguments[0])", url)
    wait(driver, lambda: driver.execute_script("return location.pathname + location.hash") == url
         and driver.execute_script("return document.documentElement.dataset.stream") == "open")


def commands_sent(driver, name: str) -> list[dict]:
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/trace.js').then((t) => done(t.recent((r) => r.type === 'request' && r.phase === 'sent'
          && r.method === 'POST' && r.url.endsWith('/commands/' + arguments[0])).map((r) => JSON.parse(r.body || 'null'))));
    """, name)


def new_recipe(call, name: str, steps: tuple[str, ...] = ()) -> str:
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": name})["navigate"].split("/")[2]
    for step in steps:
        call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep", {"name": step, "durationSeconds": 60})
    return recipe_id


def test_a_class_output_and_a_concurrent_command_pressable_while_it_runs(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = new_recipe(call, "Classy")
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, "/")
    add_to_template(driver, "recipes", """
        <input type="checkbox" class="edge-favourite" aria-label="Favourite"
               data-output="favourite:.checked" data-command="favourite" data-command-args="id" data-command-value="favourite">
        <span class="edge-mark keep" data-output="favourite:class.is-favourite">★</span>""", item=True)
    open_in_page(driver, "/recipes")
    row = wait(driver, lambda: css(driver, f'#recipe-list li[data-key="{recipe_id}"]'))
    box, mark = row.find_element("css selector", ".edge-favourite"), row.find_element("css selector", ".edge-mark")
    wait(driver, box.is_enabled)
    assert mark.get_attribute("class").split() == ["edge-mark", "keep"]

    # Another favourite is running (as the page learns from a snapshot): `favourite` runs side by
    # side, so this row's box stays pressable and its press is sent.
    driver.execute_script("""
        const binder = window.__bindery.binder;
        const running = structuredClone(binder.snapshot);
        running.commands.favourite.executing = true;
        binder.receive(running, { force: true });
    """)
    assert box.is_enabled() and box.get_attribute("aria-busy") == "false"
    box.click()
    wait(driver, lambda: mark.get_attribute("class").split() == ["edge-mark", "keep", "is-favourite"],
         message="the class did not follow the data")
    assert commands_sent(driver, "favourite") == [{"id": recipe_id, "favourite": True}]
    call("POST", "/api/views/recipes/commands/favourite", {"id": recipe_id, "favourite": False})
    wait(driver, lambda: mark.get_attribute("class").split() == ["edge-mark", "keep"])


def test_a_field_that_clears_takes_five_entered_at_once_in_order(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = new_recipe(call, "Quick steps")
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, "/")
    add_to_template(driver, "recipeEdit", """
        <input class="edge-quick" aria-label="Quick step" data-command="addStep" data-command-value="name"
               data-command-body='{"durationSeconds": 30}' data-command-on="enter" data-command-clears>
        <input class="edge-refused" aria-label="Refused step" data-command="addStep" data-command-value="name"
               data-command-body='{"durationSeconds": 0}' data-command-on="enter" data-command-clears>""")
    open_in_page(driver, f"/recipes/{recipe_id}/edit")

    def steps():
        return [i.get_attribute("value") for i in all_css(driver, "#edit-steps .step-name")]

    field = css(driver, ".edge-quick")
    names = [f"Step {n}" for n in range(1, 6)]
    for name in names:  # typed and entered five times in a row, at once
        field.send_keys(name + Keys.ENTER)
    wait(driver, lambda: steps() == names, message=f"not every step was added, in order: {steps()}")
    assert field.get_attribute("value") == ""
    field.send_keys(Keys.ENTER)  # empty: presses nothing
    field.send_keys("Step 6" + Keys.ENTER)
    wait(driver, lambda: steps() == [*names, "Step 6"])
    assert [body["name"] for body in commands_sent(driver, "addStep")] == [*names, "Step 6"]

    refused = css(driver, ".edge-refused")
    refused.send_keys("Never" + Keys.ENTER)  # the server refuses it (no step of 0 s): the text comes back
    wait(driver, lambda: refused.get_attribute("value") == "Never", message="the refused field's text was lost")
    wait(driver, lambda: all_css(driver, "#toasts .toast"))
    assert steps() == [*names, "Step 6"]


def test_an_item_edited_in_place(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = new_recipe(call, "In place", ("Developer", "Stop", "Fixer"))
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, "/")
    add_to_template(driver, "recipeEdit", """
        <span class="edge-open" data-opens-editor>Position</span>
        <input type="number" class="edge-position" aria-label="Position" data-editor="edge-editing"
               data-output="index:.value" data-command="moveStep" data-command-args="from=index" data-command-value="to">""",
                    item=True)
    open_in_page(driver, f"/recipes/{recipe_id}/edit")

    def steps():
        return [i.get_attribute("value") for i in all_css(driver, "#edit-steps .step-name")]

    def row(step):
        return all_css(driver, "#edit-steps .step-row")[steps().index(step)]

    def open_editor(step):
        ActionChains(driver).double_click(row(step).find_element("css selector", ".edge-open")).perform()
        wait(driver, lambda: "edge-editing" in row(step).get_attribute("class").split(), message="a double click did not open it")
        field = row(step).find_element("css selector", ".edge-position")
        assert driver.switch_to.active_element == field
        return field

    wait(driver, lambda: steps() == ["Developer", "Stop", "Fixer"])
    field = open_editor("Fixer")
    assert field.get_attribute("value") == "2"
    field.send_keys(Keys.BACKSPACE, "0", Keys.ESCAPE)  # Escape: closed, the data shown, nothing sent
    wait(driver, lambda: "edge-editing" not in row("Fixer").get_attribute("class").split())
    assert field.get_attribute("value") == "2"
    open_editor("Fixer").send_keys(Keys.TAB)  # left unchanged: closed, nothing sent
    wait(driver, lambda: "edge-editing" not in row("Fixer").get_attribute("class").split())

    field = open_editor("Fixer")
    field.send_keys(Keys.BACKSPACE, "0", Keys.ENTER)  # Enter: pressed and closed
    wait(driver, lambda: steps() == ["Fixer", "Developer", "Stop"], message="Enter did not move the step")
    assert "edge-editing" not in row("Fixer").get_attribute("class").split()
    assert commands_sent(driver, "moveStep") == [{"from": 2, "to": 0}]
    assert not all_css(driver, "#toasts .toast")


def test_an_input_kept_in_the_hash_and_an_autofocused_control(driver, base_url):
    open_screen(driver, base_url, "/")
    add_to_template(driver, "form", """
        <input type="hidden" data-input="phone" data-input-hash>
        <a class="edge-other" href="#/13800000000">Han Meimei's number</a>""")
    driver.execute_script("document.getElementById('tpl-form').content.querySelector('#password').autofocus = true")
    open_in_page(driver, "/form#/18612345678")
    phone = css(driver, "#phone")
    wait(driver, lambda: phone.get_attribute("value") == "18612345678", message="the hash did not set the input")
    assert driver.switch_to.active_element == css(driver, "#password")  # [autofocus], not the heading
    driver.execute_script("document.querySelector('.screen-form').dataset.edgeShown = 'first'")

    css(driver, ".edge-other").click()  # another fragment of the page: the input follows, no new render
    wait(driver, lambda: phone.get_attribute("value") == "13800000000", message="a link to the hash did not set the input")
    assert driver.execute_script("return location.pathname + location.hash") == "/form#/13800000000"
    assert driver.execute_script("return document.querySelector('.screen-form').dataset.edgeShown") == "first"

    driver.back()
    wait(driver, lambda: phone.get_attribute("value") == "18612345678", message="Back did not set the input")
    assert driver.execute_script("return document.querySelector('.screen-form').dataset.edgeShown") == "first"

    # The input changed otherwise (typed here): the hash follows, in place.
    entries = driver.execute_script("return history.length")
    phone.send_keys(Keys.CONTROL, "a")
    phone.send_keys("13912345678")
    wait(driver, lambda: driver.execute_script("return location.hash") == "#/13912345678", message="the hash did not follow")
    assert driver.execute_script("return history.length") == entries
