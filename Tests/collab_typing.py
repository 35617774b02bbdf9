"""Two people typing into one collaborative text at once (the thin client's binder/collab.js), as
Tests/browser/test_collaboration.py and Tests/multinode/test_typing.py run it.

Each typist is a headless browser of its own (its own session, signed in: editing a recipe needs
a user) on the recipe editor, typing one character every 1/rate s into the blurb from its own
thread. A types lowercase letters and never moves its caret; B types capitals and digits, and
every few characters moves its caret to the start or the middle of the text (an atomic script
that also counts B's characters before the new caret). After each keystroke the typist reads the
field and its caret: the character just before the caret must be the one it just typed (others'
edits never move the caret off the user's text).

Afterwards: both fields settle to one text, the server's; A's characters in it are exactly what
A typed, in order; B's are exactly what B would have made typing alone at the positions it chose.
"""

from __future__ import annotations

import threading
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from bindery_support import sign_in_browser

A_CHARS = "abcdefghijklmnopqrstuvwxyz"
B_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
FIELD = "#edit-blurb"


def open_editor(driver, base: str, recipe: str, account=None) -> None:
    """Loads the recipe's editor and waits until the blurb is bound and the stream open; signs the
    browser in as `account` (a bindery_support.Account) first when one is given: only a signed-in
    session may edit a recipe (an anonymous one reads it, and its edits are refused 401)."""
    if account is not None:
        sign_in_browser(driver, base, account)
    driver.get(f"{base}/recipes/{recipe}/edit")
    WebDriverWait(driver, 15, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.documentElement.dataset.stream === 'open'"
                                   f" && document.querySelector('{FIELD}') !== null"),
        f"the editor of {recipe} did not open at {base}")


class Typist(threading.Thread):
    """Types `count` characters of `chars` into the field at `rate` per second; `moves`: every
    how many characters to move the caret (0: never), alternately to the start and the middle."""

    def __init__(self, name, driver, chars, count, rate, start_at, moves=0):
        super().__init__(name=f"typist-{name}", daemon=True)
        self.label, self.driver, self.chars, self.count, self.rate = name, driver, chars, count, rate
        self.start_at, self.moves = start_at, moves
        self.typed: list[str] = []
        self.own_positions: list[int] = []  # for each typed char: how many own chars precede it
        self.caret_checks = 0
        self.caret_misses: list[str] = []
        self.moved = 0
        self.late = 0.0  # the most any keystroke went out after its time
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.type_all()
        except BaseException as error:  # reported by the test
            self.error = error

    def type_all(self) -> None:
        d = self.driver
        field = d.find_element(By.CSS_SELECTOR, FIELD)
        field.click()
        field.send_keys(Keys.CONTROL, Keys.END)
        own = self.own_chars_before_caret()
        while time.monotonic() < self.start_at:
            time.sleep(0.005)
        for i in range(self.count):
            due = self.start_at + i / self.rate
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            else:
                self.late = max(self.late, now - due)
            if self.moves and i and i % self.moves == 0:
                own = self.move_caret(to_start=(i // self.moves) % 2 == 1)
            char = self.chars[i % len(self.chars)]
            d.switch_to.active_element.send_keys(char)
            self.typed.append(char)
            self.own_positions.append(own)
            own += 1
            value, caret = d.execute_script(
                f"const e = document.querySelector('{FIELD}'); return [e.value, e.selectionStart];")
            self.caret_checks += 1
            if caret == 0 or value[caret - 1] != char:
                self.caret_misses.append(f"#{i} typed {char!r}: caret {caret} in {value[max(0, caret - 8):caret]!r}|"
                                         f"{value[caret:caret + 8]!r}")

    def own_chars_before_caret(self) -> int:
        value, caret = self.driver.execute_script(
            f"const e = document.querySelector('{FIELD}'); return [e.value, e.selectionStart];")
        return sum(1 for c in value[:caret] if c in self.chars)

    def move_caret(self, to_start: bool) -> int:
        """Moves the caret (atomically in the page) and answers the own characters before it."""
        self.moved += 1
        value, caret = self.driver.execute_script(
            f"const e = document.querySelector('{FIELD}'); const n = arguments[0] ? 0 : Math.floor(e.value.length / 2);"
            " e.setSelectionRange(n, n); return [e.value, e.selectionStart];", to_start)
        return sum(1 for c in value[:caret] if c in self.chars)

    def expected(self) -> str:
        """The own characters as they must stand in the final text."""
        text: list[str] = []
        for char, position in zip(self.typed, self.own_positions):
            text.insert(position, char)
        return "".join(text)


def slow_network(driver, latency_ms: int) -> None:
    """Every request of this browser takes `latency_ms` more (Chrome DevTools' network emulation):
    edits are in flight long enough for the other typist's to cross them."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})


def collab_stats(driver) -> dict:
    """binder/collab.js's counters in this page (ops sent, others' edits applied, rebased, ...)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " import('/js/binder/collab.js').then((m) => done({...m.stats}), (e) => done({error: String(e)}));")


def field_value(driver) -> str:
    return driver.execute_script(f"return document.querySelector('{FIELD}').value")


def type_together(a_driver, b_driver, server_text, seconds: float = 20, rate: float = 10, moves: int = 25) -> dict:
    """Runs both typists at once; answers the figures after both fields settled to the server's
    text (`server_text()`), or raises AssertionError saying what went wrong."""
    count = int(seconds * rate)
    start_at = time.monotonic() + 1.0
    a = Typist("A", a_driver, A_CHARS, count, rate, start_at)
    b = Typist("B", b_driver, B_CHARS, count, rate, start_at + 0.5 / rate, moves=moves)
    for t in (a, b):
        t.start()
    for t in (a, b):
        t.join(timeout=seconds + 30)
        assert not t.is_alive(), f"{t.name} did not finish"
        if t.error:
            raise AssertionError(f"{t.name} failed: {t.error!r}") from t.error
    began = time.monotonic()
    last = None
    while time.monotonic() - began < 15:
        values = (field_value(a_driver), field_value(b_driver), server_text())
        if values[0] == values[1] == values[2]:
            break
        last = values
        time.sleep(0.1)
    else:
        raise AssertionError(f"the fields did not settle to the server's text: A={last[0]!r}\nB={last[1]!r}\nserver={last[2]!r}")
    settle = time.monotonic() - began
    final = values[0]
    a_text = "".join(c for c in final if c in A_CHARS)
    b_text = "".join(c for c in final if c in B_CHARS)
    figures = {
        "typed A": len(a.typed), "typed B": len(b.typed), "final length": len(final),
        "B caret moves": b.moved, "caret checks": a.caret_checks + b.caret_checks,
        "caret misses A": len(a.caret_misses), "caret misses B": len(b.caret_misses),
        "latest keystroke (s)": round(max(a.late, b.late), 3), "settled after (s)": round(settle, 2),
        "client A": collab_stats(a_driver), "client B": collab_stats(b_driver),
    }
    print(f"\ncollaborative typing: {figures}")
    assert a_text == a.expected(), f"A's characters differ:\n got {a_text!r}\nwant {a.expected()!r}"
    assert b_text == b.expected(), f"B's characters differ:\n got {b_text!r}\nwant {b.expected()!r}"
    assert not a.caret_misses and not b.caret_misses, f"caret moved off the typist's text: A {a.caret_misses[:5]} B {b.caret_misses[:5]}"
    return figures
