"""Beyond TodoMVC: the list is the signed-in user's. An anonymous visitor is asked to sign in (the
client's sign-in page); two browsers of one user follow each other at once; another user sees only
their own list. Time budget: 20 s for the module (three more browsers, sign-ins at ~0.7 s each)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bindery_support import browsers, sign_in_browser
from todomvc_page import TodoPage, wait
from todos_server import ADA, GRACE


def test_an_anonymous_visitor_signs_in_first_then_sees_the_list(server, browser_pool):
    server.api(GRACE).empty_list()  # the module's server: another test may have added to grace's list
    with browsers(1, browser_pool) as (driver,):
        driver.get(server.base + "/todos")
        wait(driver, lambda: driver.execute_script("return location.pathname") == "/sign-in")
        driver.find_element(By.CSS_SELECTOR, ".sign-in-username").send_keys(GRACE.phone)
        driver.find_element(By.CSS_SELECTOR, ".sign-in-password").send_keys(GRACE.password + Keys.ENTER)
        page = TodoPage(driver, server.base)
        page.wait_for(lambda: driver.execute_script("return location.pathname") == "/todos", "not back at /todos")
        page.wait_ready()
        page.wait_for(lambda: page.focused() == page.new_todo, "the new todo input is not focused after signing in")
        page.add("Grace's first")
        assert page.titles() == ["Grace's first"]


def test_two_browsers_of_one_user_follow_each_other(todos, server, browser_pool):
    with browsers(1, browser_pool) as (driver,):
        sign_in_browser(driver, server.base, ADA)
        other = TodoPage(driver, server.base)
        other.open()
        todos.add("from the laptop")
        other.wait_for(lambda: other.titles() == ["from the laptop"], "the other browser did not follow")
        other.add("from the phone")
        todos.wait_for(lambda: todos.titles() == ["from the laptop", "from the phone"], "this browser did not follow")
        other.toggle(0)
        todos.wait_for(lambda: todos.completed() == [True, False], "a toggle did not follow")
        todos.css(".clear-completed").click()
        other.wait_for(lambda: other.titles() == ["from the phone"], "clear completed did not follow")
        # Each browser keeps its own filter.
        other.css('.filters a[href="#/completed"]').click()
        other.wait_for(lambda: other.titles() == [])
        assert todos.titles() == ["from the phone"] and todos.selected_filter() == "All"


def test_two_users_see_only_their_own_lists(todos, server, browser_pool):
    with browsers(1, browser_pool) as (driver,):
        sign_in_browser(driver, server.base, GRACE)
        grace = TodoPage(driver, server.base)
        grace.open()
        mine = grace.titles()
        todos.add("ada's secret")
        grace.add("grace's own")
        assert todos.titles() == ["ada's secret"]
        assert grace.titles() == [*mine, "grace's own"]
        # After a reload, and over the API, each still has only their own.
        grace.open()
        assert grace.titles() == [*mine, "grace's own"]
        assert [title for title, _ in server.api(GRACE).titles()] == [*mine, "grace's own"]
