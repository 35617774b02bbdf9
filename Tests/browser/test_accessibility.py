"""Every screen, at desktop and phone size, checked by axe-core: no serious or critical finding,
and no page wider than the screen. Each screen's screenshot lands in
artifacts/screenshots/a11y-<size>-<screen>.png."""

from __future__ import annotations

import pytest

from accessibility import audit, blocking, describe
from bindery_support import HAN_MEIMEI, api_session
from pages import DESKTOP, PHONE, all_css, css, open_screen, path_of, set_viewport, settled, wait


def a_recipe(base_url) -> str:
    """A recipe with two steps, shared by every session: its id (added by a user: the browser,
    anonymous, sees its editor read-only, with the hint to sign in)."""
    call = api_session(base_url, HAN_MEIMEI)
    recipe_id = call("POST", "/api/views/recipes/commands/add", {"name": "Checked recipe"})["navigate"].split("/")[2]
    for name, seconds, temp in (("Developer", 195, 38), ("Blix", 390, None)):
        body = {"name": name, "durationSeconds": seconds}
        if temp is not None:
            body["temperatureCelsius"] = temp
        call("POST", f"/api/views/recipes/{recipe_id}/edit/commands/addStep", body)
    return recipe_id


def visit(driver, base_url, name, path, ready):
    """Opens one of `screens()` as a user would and waits until it shows its data and settles."""
    if path is None:  # the item page: reached from the list, as a user would
        css(driver, "#poi-list .poi-cell").click()
        wait(driver, lambda: path_of(driver).startswith("/list/items/"))
    elif name == "not-found":
        driver.get(base_url + path)
    else:
        open_screen(driver, base_url, path)
    wait(driver, lambda: ready(driver), timeout=15, message=f"{name} did not show its data")
    wait(driver, lambda: settled(driver), timeout=15, message=f"{name} did not settle")


def screens(recipe_id):
    """(name, path, what shows that its data is there) for every screen of the client."""
    has = lambda selector, n=1: lambda d: len(all_css(d, selector)) >= n  # noqa: E731
    return [
        ("home", "/", has("#home-cards .home-card", 6)),
        ("lab", "/lab", has("#upstream-endpoints fieldset", 5)),
        ("form", "/form", lambda d: css(d, "#phone").get_attribute("value") != ""),
        ("list", "/list", has("#poi-list .poi-cell", 2)),
        ("item", None, lambda d: css(d, "main h1").text != ""),
        ("gallery", "/gallery", lambda d: d.execute_script(
            "const imgs = [...document.querySelectorAll('#gallery-grid img')];"
            "return imgs.length > 1 && imgs.every((i) => i.complete)")),
        ("photo", "/gallery/photos/1", lambda d: d.execute_script(
            "const i = document.getElementById('photo-image'); return !i.hidden && i.complete && i.naturalWidth > 0")),
        ("courses", "/courses", has("#course-list .course-cell", 8)),
        ("course", "/courses/c02", lambda d: css(d, "main h1").text != ""),
        ("recipes", "/recipes", has("#recipe-list .recipe-cell")),
        ("recipe", f"/recipes/{recipe_id}", has("#recipe-steps .step-row", 2)),
        ("recipe-edit", f"/recipes/{recipe_id}/edit", has("#edit-steps .step-row", 2)),
        ("recipe-timer", f"/recipes/{recipe_id}/timer", lambda d: css(d, "#timer-clock").text != ""),
        ("not-found", "/nope", lambda d: css(d, "main h1").text == "Not found"),
        ("sign-in", "/sign-in?next=/recipes", has(".sign-in-form #sign-in-username")),
    ]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_screen_passes_axe(driver, base_url, upstream, screenshot, size):
    set_viewport(driver, size)
    label = "desktop" if size == DESKTOP else "phone"
    recipe_id = a_recipe(base_url)
    found = []
    for name, path, ready in screens(recipe_id):
        visit(driver, base_url, name, path, ready)
        screenshot(f"a11y-{label}-{name}")
        wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        if wide > 0:
            found.append(f"{label} {name}: the page is {wide}px wider than the screen (sideways scrolling)")
        violations = blocking(audit(driver))
        if violations:
            found.append(describe(f"{label} {name} ({path_of(driver)})", violations))
    assert not found, "axe found serious or critical problems:\n" + "\n".join(found)
