"""Outputs that set DOM properties and ARIA booleans, and list items edited in place with
declarative attributes (issue 41): a checkbox bound by its `checked` property follows the data
after the user clicked it, `@aria-pressed` says "true" or "false", and a control inside a
`data-list` item sends its own value with the item's key to a command of the list's view model
(Enter, or leaving the field changed: one command).

The seed screens do not use these attributes: each test adds its controls to a seed screen's list
item template in the page (as an app's screen file would have them), then opens the screen.

Time budget: 20 s for the module.
"""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, api_session, sign_in_browser
from pages import all_css, css, open_screen, wait

# In each recipe row of /recipes: a checkbox for `favourite` (its property bound, pressing it sends
# the command with the row's id and the box's state), a toggle-looking button saying it with
# aria-pressed, and a star hidden by the `hidden` property.
FAVOURITE_CONTROLS = """
<input type="checkbox" class="edge-favourite" aria-label="Favourite"
       data-output="favourite:.checked" data-command="favourite" data-command-args="id" data-command-value="favourite">
<button type="button" class="edge-pressed" data-output="favourite:@aria-pressed">Favourite</button>
<span class="edge-not-favourite" data-output="favourite:.hidden">not a favourite</span>
"""

# In each step row of /recipes/{id}/edit: the step's position, which the user may change (Enter, or
# leaving the field changed, sends moveStep {from: the row's index, to: the number typed}).
MOVE_FIELD = """
<input type="number" class="edge-move" min="0" aria-label="Position"
       data-output="index:.value" data-command="moveStep" data-command-args="from=index" data-command-value="to">
"""


def add_to_item_template(driver, screen: str, controls: str):
    """Adds `controls` to every list item of the screen `tpl-<screen>` (before it is opened)."""
    driver.execute_script("""
        const item = document.getElementById(arguments[0]).content.querySelector('[data-list] > template');
        item.content.firstElementChild.insertAdjacentHTML('beforeend', arguments[1]);
    """, f"tpl-{screen}", controls)


def open_in_page(driver, path: str):
    driver.execute_script("window.__bindery.navigate(arguments[0])", path)
    wait(driver, lambda: driver.execute_script("return location.pathname") == path
         and driver.execute_script("return document.documentElement.dataset.stream") == "open")


def commands_sent(driver, name: str) -> list[dict]:
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/trace.js').then((t) => done(t.recent((r) => r.type === 'request' && r.phase === 'sent'
          && r.method === 'POST' && r.url.endsWith('/commands/' + arguments[0])).map((r) => JSON.parse(r.body || 'null'))));
    """, name)


def favourite_on_server(call, recipe_id: str) -> bool:
    return next(r for r in call("GET", "/api/views/recipes")["outputs"]["recipes"] if r["id"] == recipe_id)["outputs"]["favourite"]


def test_a_checkbox_bound_by_its_property_follows_the_data_after_a_click(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Checked"})["navigate"].split("/")[2]
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, "/")
    add_to_item_template(driver, "recipes", FAVOURITE_CONTROLS)
    open_in_page(driver, "/recipes")
    row = wait(driver, lambda: css(driver, f'#recipe-list li[data-key="{recipe_id}"]'))
    box, pressed, star = (row.find_element("css selector", s) for s in (".edge-favourite", ".edge-pressed", ".edge-not-favourite"))
    wait(driver, lambda: box.is_enabled() and pressed.get_attribute("aria-pressed") == "false")
    assert not box.is_selected() and star.is_displayed()

    box.click()  # the user's click: the command with the row's key and the box's state
    wait(driver, lambda: favourite_on_server(call, recipe_id), message="the click did not mark the favourite")
    wait(driver, lambda: pressed.get_attribute("aria-pressed") == "true" and not star.is_displayed())
    assert box.is_selected()
    assert commands_sent(driver, "favourite") == [{"id": recipe_id, "favourite": True}]

    # Changed elsewhere (another session of hers): the clicked box follows, both ways.
    call("POST", "/api/views/recipes/commands/favourite", {"id": recipe_id, "favourite": False})
    wait(driver, lambda: not box.is_selected(), message="the clicked checkbox no longer follows the data")
    assert pressed.get_attribute("aria-pressed") == "false" and star.is_displayed()
    call("POST", "/api/views/recipes/commands/favourite", {"id": recipe_id, "favourite": True})
    wait(driver, lambda: box.is_selected() and pressed.get_attribute("aria-pressed") == "true")

    box.click()  # and unmarked here again
    wait(driver, lambda: not favourite_on_server(call, recipe_id))
    wait(driver, lambda: pressed.get_attribute("aria-pressed") == "false" and not box.is_selected())
    assert not all_css(driver, "#toasts .toast")


def test_a_list_item_is_edited_in_place_by_a_command_with_its_key(driver, base_url):
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Reordered"})["navigate"].split("/")[2]
    for name in ("Developer", "Stop", "Fixer"):
        call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep", {"name": name, "durationSeconds": 60})
    sign_in_browser(driver, base_url, HAN_MEIMEI)
    open_screen(driver, base_url, "/")
    add_to_item_template(driver, "recipeEdit", MOVE_FIELD)
    open_in_page(driver, f"/recipes/{recipe_id}/edit")

    def steps():
        return [i.get_attribute("value") for i in all_css(driver, "#edit-steps .step-name")]

    def position(step):
        return all_css(driver, "#edit-steps .step-row")[steps().index(step)].find_element("css selector", ".edge-move")

    wait(driver, lambda: steps() == ["Developer", "Stop", "Fixer"])
    wait(driver, lambda: [position(s).get_attribute("value") for s in steps()] == ["0", "1", "2"])

    # Enter: Fixer goes first; leaving the field afterwards sends nothing more.
    field = position("Fixer")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("0" + Keys.ENTER)
    wait(driver, lambda: steps() == ["Fixer", "Developer", "Stop"], message="Enter did not move the step")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    # Each row's field shows its own position again (the property follows the data).
    wait(driver, lambda: [position(s).get_attribute("value") for s in steps()] == ["0", "1", "2"])

    # Leaving a field changed: Developer goes last.
    field = position("Developer")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("2" + Keys.TAB)
    wait(driver, lambda: steps() == ["Fixer", "Stop", "Developer"], message="leaving the changed field did not move the step")
    wait(driver, lambda: [position(s).get_attribute("value") for s in steps()] == ["0", "1", "2"])

    assert commands_sent(driver, "moveStep") == [{"from": 2, "to": 0}, {"from": 1, "to": 2}]
    order = [s["outputs"]["name"] if "outputs" in s and "name" in s["outputs"] else s["inputs"]["name"]
             for s in call("GET", f"/api/views/recipes/{recipe_id}/edit")["outputs"]["steps"]]
    assert order == ["Fixer", "Stop", "Developer"]
    assert not all_css(driver, "#toasts .toast")
