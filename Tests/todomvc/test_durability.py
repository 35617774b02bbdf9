"""Every edit survives a restart (SIGTERM) and a kill -9 of the server: each is committed to its SQLite
file before the page shows it. Each test has a server of its own. Time budget: 25 s for the module."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains

from bindery_support import browsers, sign_in_browser
from todomvc_page import TodoPage
from todos_server import ADA


def edit_everything(page: TodoPage) -> None:
    """Adds, completes, renames and removes; waits until the page shows each."""
    page.add("milk", "eggs", "bread", "jam")
    page.toggle(1)
    page.wait_for(lambda: page.completed() == [False, True, False, False])
    field = page.edit(2)
    field.send_keys(" and butter\n")
    page.wait_for(lambda: page.titles()[2] == "bread and butter")
    ActionChains(page.driver).move_to_element(page.item(3)).perform()  # .destroy shows on hover
    page.item(3).find_element("css selector", ".destroy").click()
    page.wait_for(lambda: page.titles() == ["milk", "eggs", "bread and butter"])
    page.css('.filters a[href="#/active"]').click()
    page.wait_for(lambda: page.titles() == ["milk", "bread and butter"])
    page.wait_for(page.settled, "a command of the page is still on its way")


def assert_everything_kept(server, page: TodoPage) -> None:
    page.open("/todos#/")
    page.wait_for(lambda: page.titles() == ["milk", "eggs", "bread and butter"], f"lost: {page.titles()}")
    assert page.completed() == [False, True, False]
    assert server.api(ADA).titles() == [("milk", False), ("eggs", True), ("bread and butter", False)]


def test_a_restart_keeps_every_edit(own_server, browser_pool):
    with browsers(1, browser_pool) as (driver,):
        sign_in_browser(driver, own_server.base, ADA)
        page = TodoPage(driver, own_server.base)
        page.open()
        edit_everything(page)
        own_server.stop()
        own_server.start()
        # The browser's session is in the store too: the same page, reloaded, with its filter.
        page.open("/todos#/active")
        page.wait_for(lambda: page.titles() == ["milk", "bread and butter"])
        assert_everything_kept(own_server, page)


def test_a_kill_9_keeps_every_edit(own_server, browser_pool):
    with browsers(1, browser_pool) as (driver,):
        sign_in_browser(driver, own_server.base, ADA)
        page = TodoPage(driver, own_server.base)
        page.open()
        edit_everything(page)
        own_server.kill9()
        own_server.start()
        assert_everything_kept(own_server, page)
