"""TodoMVC's app-spec.md, behaviour by behaviour, on Examples/Todos in Chromium: no todos, new todo,
mark all as complete, item, editing, counter, clear completed button, persistence, routing. One
server and one browser (signed in as ada) for the module; each test starts from her empty list.
Time budget: 45 s for the module."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# --- No todos


def test_no_todos_hides_main_and_footer(todos):
    assert todos.items() == []
    assert not todos.css(".main").is_displayed()
    assert not todos.css(".footer").is_displayed()


# --- New todo


def test_the_new_todo_input_is_focused_on_load(todos):
    assert todos.new_todo.get_attribute("autofocus") is not None
    todos.wait_for(lambda: todos.focused() == todos.new_todo, "the new todo input is not focused")


def test_enter_appends_the_todo_and_clears_the_input(todos):
    todos.add("Buy milk")
    assert todos.titles() == ["Buy milk"]
    todos.add("Walk the dog")
    assert todos.titles() == ["Buy milk", "Walk the dog"]
    assert todos.new_todo.get_attribute("value") == ""
    assert todos.css(".main").is_displayed() and todos.css(".footer").is_displayed()


def test_the_title_is_trimmed(todos):
    todos.add("   Buy milk   ")
    assert todos.titles() == ["Buy milk"]


def test_a_blank_title_adds_nothing(todos):
    todos.new_todo.send_keys("    " + Keys.ENTER)
    todos.new_todo.send_keys(Keys.ENTER)
    todos.add("Buy milk")  # after the blank ones, in order: they added nothing
    assert todos.titles() == ["Buy milk"]


def test_typed_then_enter_adds_five_of_five(todos):
    titles = [f"Todo number {n}" for n in range(1, 6)]
    for title in titles:  # five times in a row, at once: no wait between them
        todos.new_todo.send_keys(title + Keys.ENTER)
    todos.wait_for(lambda: todos.titles() == titles, f"not every todo was added, in order: {todos.titles()}")
    assert todos.new_todo.get_attribute("value") == ""
    assert not todos.all("#toasts .toast")


# --- Mark all as complete


def test_mark_all_as_complete_completes_every_todo(todos):
    todos.add("a", "b", "c")
    todos.toggle(1)
    todos.wait_for(lambda: todos.completed() == [False, True, False])
    todos.css(".toggle-all + label").click()
    todos.wait_for(lambda: todos.completed() == [True, True, True], "not every todo was completed")
    assert todos.css(".toggle-all").is_selected()


def test_mark_all_as_complete_again_clears_every_completed_state(todos):
    todos.add("a", "b")
    todos.css(".toggle-all + label").click()
    todos.wait_for(lambda: todos.completed() == [True, True])
    todos.css(".toggle-all + label").click()
    todos.wait_for(lambda: todos.completed() == [False, False], "the todos stayed completed")
    assert not todos.css(".toggle-all").is_selected()


def test_mark_all_follows_the_single_items(todos):
    todos.add("a", "b")
    todos.toggle(0)
    todos.wait_for(lambda: todos.completed() == [True, False])
    assert not todos.css(".toggle-all").is_selected()
    todos.toggle(1)
    todos.wait_for(lambda: todos.css(".toggle-all").is_selected(), "all completed, yet not checked")
    todos.toggle(0)
    todos.wait_for(lambda: not todos.css(".toggle-all").is_selected(), "one active again, yet still checked")


def test_mark_all_is_unchecked_after_clear_completed(todos):
    todos.add("a")
    todos.css(".toggle-all + label").click()
    todos.wait_for(lambda: todos.css(".toggle-all").is_selected())
    todos.css(".clear-completed").click()
    todos.wait_for(lambda: todos.items() == [])
    todos.add("b")
    assert not todos.css(".toggle-all").is_selected()


# --- Item


def test_checking_an_item_completes_it_and_unchecking_makes_it_active(todos):
    todos.add("a", "b")
    todos.toggle(0)
    todos.wait_for(lambda: todos.completed() == [True, False], "the li did not get the class completed")
    assert todos.item(0).find_element(By.CSS_SELECTOR, ".toggle").is_selected()
    todos.toggle(0)
    todos.wait_for(lambda: todos.completed() == [False, False], "the li kept the class completed")
    assert not todos.item(0).find_element(By.CSS_SELECTOR, ".toggle").is_selected()


def test_double_clicking_the_label_opens_the_editor(todos):
    todos.add("Buy milk")
    field = todos.edit(0)
    assert todos.focused() == field and field.get_attribute("value") == "Buy milk"
    # The other controls are hidden while it edits.
    li = todos.item(0)
    assert not li.find_element(By.CSS_SELECTOR, ".toggle").is_displayed()
    assert not li.find_element(By.CSS_SELECTOR, "label").is_displayed()


def test_hovering_a_todo_shows_its_remove_button(todos):
    todos.add("a", "b")
    ActionChains(todos.driver).move_to_element(todos.css(".todoapp h1")).perform()
    destroy = todos.item(1).find_element(By.CSS_SELECTOR, ".destroy")
    assert not destroy.is_displayed()
    ActionChains(todos.driver).move_to_element(todos.item(1)).perform()
    todos.wait_for(destroy.is_displayed, "hovering did not show .destroy")
    destroy.click()
    todos.wait_for(lambda: todos.titles() == ["a"], "the todo was not removed")


# --- Editing


def test_enter_saves_the_edit(todos):
    todos.add("Buy milk")
    field = todos.edit(0)
    field.send_keys(" and eggs" + Keys.ENTER)
    todos.wait_for(lambda: todos.titles() == ["Buy milk and eggs"], "Enter did not save")
    assert "editing" not in todos.item(0).get_attribute("class")


def test_leaving_the_field_saves_the_edit(todos):
    todos.add("Buy milk")
    field = todos.edit(0)
    field.send_keys(" and eggs")
    todos.new_todo.click()  # blur
    todos.wait_for(lambda: todos.titles() == ["Buy milk and eggs"], "blur did not save")
    assert "editing" not in todos.item(0).get_attribute("class")


def test_the_edit_is_trimmed(todos):
    todos.add("Buy milk")
    field = todos.edit(0)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("   Buy bread   " + Keys.ENTER)
    todos.wait_for(lambda: todos.titles() == ["Buy bread"], f"not trimmed: {todos.titles()}")


def test_an_emptied_title_removes_the_todo(todos):
    todos.add("a", "b")
    field = todos.edit(0)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("    " + Keys.ENTER)
    todos.wait_for(lambda: todos.titles() == ["b"], "the emptied todo was not removed")


def test_escape_discards_the_edit(todos):
    todos.add("Buy milk")
    field = todos.edit(0)
    field.send_keys(" and eggs" + Keys.ESCAPE)
    todos.wait_for(lambda: "editing" not in todos.item(0).get_attribute("class"), "Escape did not leave editing")
    assert todos.titles() == ["Buy milk"]
    # Nothing was sent: opened again, the field shows the title as it is.
    assert todos.edit(0).get_attribute("value") == "Buy milk"
    todos.focused().send_keys(Keys.ESCAPE)


# --- Counter


def test_the_counter_counts_the_active_todos_pluralised(todos):
    todos.add("a")
    todos.wait_for(lambda: todos.count_text() == "1 item left")
    assert todos.css(".todo-count strong").text == "1"
    todos.add("b")
    todos.wait_for(lambda: todos.count_text() == "2 items left")
    assert todos.css(".todo-count strong").text == "2"
    todos.css(".toggle-all + label").click()
    todos.wait_for(lambda: todos.count_text() == "0 items left")
    assert todos.css(".todo-count strong").text == "0"


# --- Clear completed button


def test_clear_completed_removes_the_completed_todos(todos):
    todos.add("a", "b", "c")
    todos.toggle(1)
    todos.wait_for(lambda: todos.css(".clear-completed").is_displayed())
    todos.css(".clear-completed").click()
    todos.wait_for(lambda: todos.titles() == ["a", "c"], "the completed todo stayed")


def test_clear_completed_is_hidden_without_completed_todos(todos):
    todos.add("a")
    assert not todos.css(".clear-completed").is_displayed()
    todos.toggle(0)
    todos.wait_for(lambda: todos.css(".clear-completed").is_displayed())
    todos.toggle(0)
    todos.wait_for(lambda: not todos.css(".clear-completed").is_displayed())


# --- Persistence


def test_a_reload_keeps_the_todos_but_not_editing(todos):
    todos.add("a", "b")
    todos.toggle(1)
    todos.wait_for(lambda: todos.completed() == [False, True])
    todos.edit(0)
    todos.open()
    todos.wait_for(lambda: todos.titles() == ["a", "b"])
    assert todos.completed() == [False, True]
    assert not todos.all(".todo-list li.editing")


# --- Routing


def test_the_filters_show_all_active_or_completed(todos):
    todos.add("a", "b", "c")
    todos.toggle(1)
    todos.wait_for(lambda: todos.completed() == [False, True, False])
    assert todos.selected_filter() == "All"
    todos.css('.filters a[href="#/active"]').click()
    todos.wait_for(lambda: todos.titles() == ["a", "c"], "Active did not filter")
    assert todos.js("return location.hash") == "#/active" and todos.selected_filter() == "Active"
    todos.css('.filters a[href="#/completed"]').click()
    todos.wait_for(lambda: todos.titles() == ["b"], "Completed did not filter")
    assert todos.selected_filter() == "Completed"
    todos.css('.filters a[href="#/"]').click()
    todos.wait_for(lambda: todos.titles() == ["a", "b", "c"], "All did not show everything")
    assert todos.selected_filter() == "All"


def test_back_goes_to_the_previous_filter(todos):
    todos.add("a", "b")
    todos.toggle(0)
    todos.wait_for(lambda: todos.completed() == [True, False])
    todos.css('.filters a[href="#/active"]').click()
    todos.wait_for(lambda: todos.titles() == ["b"])
    todos.css('.filters a[href="#/completed"]').click()
    todos.wait_for(lambda: todos.titles() == ["a"])
    todos.driver.back()
    todos.wait_for(lambda: todos.titles() == ["b"] and todos.selected_filter() == "Active", "Back did not go to Active")


def test_an_item_changed_in_a_filtered_list_follows_the_filter(todos):
    todos.add("a", "b")
    todos.css('.filters a[href="#/active"]').click()
    todos.wait_for(lambda: todos.selected_filter() == "Active")
    todos.toggle(0)
    todos.wait_for(lambda: todos.titles() == ["b"], "a completed todo stayed in Active")
    todos.add("c")  # a new todo is active: shown here
    assert todos.titles() == ["b", "c"]


def test_a_reload_keeps_the_filter_of_the_hash(todos):
    todos.add("a", "b")
    todos.toggle(0)
    todos.wait_for(lambda: todos.completed() == [True, False])
    todos.css('.filters a[href="#/completed"]').click()
    todos.wait_for(lambda: todos.titles() == ["a"])
    todos.driver.refresh()
    todos.wait_ready()
    todos.wait_for(lambda: todos.titles() == ["a"] and todos.selected_filter() == "Completed")
    # Opened at another hash, the hash wins.
    todos.open("/todos#/active")
    todos.wait_for(lambda: todos.titles() == ["b"] and todos.selected_filter() == "Active")
