"""The design holds on every screen (issue 29): dark mode really applies and stays readable, the
main column does not move when a scroll bar comes, the login form uses the width it has, and axe-core
finds nothing serious or critical on any screen in light or dark. Dark is emulated with CDP
(`Emulation.setEmulatedMedia`, prefers-color-scheme)."""

from __future__ import annotations

import re

import pytest

from accessibility import audit, blocking, describe
from pages import DESKTOP, all_css, css, open_screen, path_of, set_viewport, settled, wait
from bindery_support import browsers
from test_accessibility import a_recipe, screens, visit


@pytest.fixture(scope="module")
def driver(browser_pool):
    """One browser for the module (each test sets its viewport and scheme): under 40 s in all."""
    with browsers(1, browser_pool) as (drv,):
        yield drv


def scheme(driver, value):
    """Emulates `prefers-color-scheme: value`, and waits until the colours' transitions are over
    (axe must not measure a colour half-way)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": value}]})
    wait(driver, lambda: driver.execute_script(
        "return matchMedia('(prefers-color-scheme: ' + arguments[0] + ')').matches"
        " && !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')",
        value), timeout=5, message=f"the page did not settle in {value}")


def rgb(text):
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 1)' → (1, 2, 3)."""
    return tuple(int(float(n)) for n in re.findall(r"[\d.]+", text)[:3])


def contrast(a, b):
    def lum(c):
        ch = [v / 255 for v in c]
        ch = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    la, lb = sorted((lum(a), lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


COLOURS = """
const style = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
return {
  page: style('html', 'backgroundColor'), text: style('body', 'color'),
  heading: style('main h1', 'color'), card: style('.login-form', 'backgroundColor'),
  label: style('.login-form label', 'color'), header: style('.app-header', 'backgroundColor'),
  link: style('#nav a:not([aria-current])', 'color'),
};"""


def test_dark_mode_applies_and_stays_readable(driver, base_url, upstream):
    set_viewport(driver, DESKTOP)
    try:
        scheme(driver, "light")
        open_screen(driver, base_url, "/form")
        wait(driver, lambda: settled(driver))
        light = {k: rgb(v) for k, v in driver.execute_script(COLOURS).items()}
        scheme(driver, "dark")
        wait(driver, lambda: rgb(driver.execute_script(COLOURS)["page"]) != light["page"],
             message="the page's background did not change under prefers-color-scheme: dark")
        dark = {k: rgb(v) for k, v in driver.execute_script(COLOURS).items()}
    finally:
        scheme(driver, "light")
    for part in ("page", "text", "card", "header", "link"):
        assert light[part] != dark[part], f"{part} is {light[part]} in both schemes"
    assert sum(dark["page"]) < sum(light["page"]) and sum(dark["text"]) > sum(light["text"]), (light, dark)
    for colours, name in ((light, "light"), (dark, "dark")):
        for fg, bg in (("text", "page"), ("heading", "page"), ("label", "card"), ("link", "header")):
            ratio = contrast(colours[fg], colours[bg])
            assert ratio >= 4.5, f"{name}: {fg} {colours[fg]} on {bg} {colours[bg]} is {ratio:.2f}:1"


def test_the_column_does_not_move_when_a_scroll_bar_comes(driver, base_url, upstream):
    """A short screen (the form) and a long one (a recipe's editor with its steps) put the main
    column — and the header's brand — at the same x at 1280 px, where the scroll bar takes room."""
    set_viewport(driver, DESKTOP)
    recipe_id = a_recipe(base_url)
    place = ("const m = document.querySelector('main h1').getBoundingClientRect();"
             "const b = document.querySelector('.brand').getBoundingClientRect();"
             "return {main: m.left, brand: b.left,"
             " scrolls: document.documentElement.scrollHeight > innerHeight}")
    open_screen(driver, base_url, "/form")
    wait(driver, lambda: settled(driver))
    short = driver.execute_script(place)
    open_screen(driver, base_url, f"/recipes/{recipe_id}/edit")
    wait(driver, lambda: len(all_css(driver, "#edit-steps .step-row")) >= 2 and settled(driver), timeout=15)
    long = driver.execute_script(place)
    assert not short["scrolls"] and long["scrolls"], f"need a short and a long page: {short}, {long}"
    assert short["main"] == long["main"] and short["brand"] == long["brand"], f"the column moved: {short} vs {long}"


def test_the_form_uses_the_width_it_has(driver, base_url, upstream):
    set_viewport(driver, DESKTOP)
    open_screen(driver, base_url, "/form")
    form = css(driver, ".login-form")
    main = css(driver, "main .screen")
    assert form.size["width"] > 448, f"the form is {form.size['width']} px wide at 1280"
    assert form.size["width"] >= main.size["width"] - 1, "the form card spans the column"


def test_every_screen_passes_axe_in_dark(driver, base_url, upstream):
    """Light is test_accessibility.py's, at both sizes."""
    set_viewport(driver, DESKTOP)
    recipe_id = a_recipe(base_url)
    found = []
    pages = screens(recipe_id)
    try:
        for name, path, ready in pages:
            scheme(driver, "light")
            visit(driver, base_url, name, path, ready)
            scheme(driver, "dark")
            violations = blocking(audit(driver))
            if violations:
                found.append(describe(f"dark {name} ({path_of(driver)})", violations))
    finally:
        scheme(driver, "light")
    assert not found, "axe found serious or critical problems:\n" + "\n".join(found)
