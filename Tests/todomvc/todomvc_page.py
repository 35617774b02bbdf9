"""The Todos page as a TodoMVC user sees it, in one browser: its elements by TodoMVC's class names,
and waits on what it shows (WebDriverWait; never a fixed sleep)."""

from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait


def wait(driver, condition, timeout: float = 10, message: str = ""):
    """Polls `condition` until it holds; an element replaced meanwhile is a reason to look again."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda _: condition(), message)


class TodoPage:
    def __init__(self, driver, base: str):
        self.driver, self.base = driver, base

    # --- finding

    def css(self, selector: str):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    @property
    def new_todo(self):
        return self.css(".new-todo")

    def items(self):
        return self.all(".todo-list li")

    def item(self, index: int):
        return self.items()[index]

    def titles(self) -> list[str]:
        """The titles the list shows, in order."""
        return [label.text for label in self.all(".todo-list li label")]

    def completed(self) -> list[bool]:
        return ["completed" in li.get_attribute("class").split() for li in self.items()]

    def count_text(self) -> str:
        return self.css(".todo-count").text

    def selected_filter(self) -> str:
        return " ".join(a.text for a in self.all(".filters a.selected"))

    def focused(self):
        return self.driver.switch_to.active_element

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    # --- doing

    def open(self, path: str = "/todos") -> None:
        """Loads the page and waits until it shows its view model, its event stream open."""
        self.driver.get(self.base + path)
        self.wait_ready()

    def wait_ready(self) -> None:
        wait(self.driver, lambda: self.js("return document.documentElement.dataset.stream") == "open"
             and self.js("const s = document.querySelector('.todoapp'); return Boolean(s) && !s.hasAttribute('aria-busy')"),
             message="the todos page did not show its list")

    def add(self, *titles: str) -> None:
        """Types each title and Enter, then waits until the list shows them."""
        before = len(self.items())
        for title in titles:
            self.new_todo.send_keys(title + Keys.ENTER)
        self.wait_for(lambda: len(self.items()) == before + len(titles), f"{titles} were not all added")

    def toggle(self, index: int) -> None:
        self.item(index).find_element(By.CSS_SELECTOR, ".toggle").click()

    def edit(self, index: int):
        """Double-clicks the label of the todo `index`; answers its edit field, open and focused."""
        li = self.item(index)
        ActionChains(self.driver).double_click(li.find_element(By.CSS_SELECTOR, "label")).perform()
        self.wait_for(lambda: "editing" in li.get_attribute("class").split(), "double-click did not open the editor")
        return li.find_element(By.CSS_SELECTOR, ".edit")

    def settled(self) -> bool:
        """No command of the page on its way (its control busy)."""
        return self.js("return !document.querySelector('.todoapp [aria-busy=\"true\"]')")

    def wait_for(self, condition, message: str = "", timeout: float = 10):
        return wait(self.driver, condition, timeout, message)
