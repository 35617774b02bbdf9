"""Collaborative text inputs in the browser (binder/collab.js, binder/textop.js).

- textop.js in the page: apply / transform / caret tables (code point offsets: an emoji counts
  one), transformX convergence on random operations, and agreement with the server's transform
  (two concurrent POSTs of /inputs/blurb/ops, the second transformed by the server, compared with
  what textop.js computes).
- Two browsers (two sessions, two users) type into one recipe's blurb at 10 characters per second each for
  20 s (Tests/collab_typing.py): no character lost or doubled, each typist's in the order typed,
  both fields equal to the server's text, and each typist's caret right after its own last
  character after every keystroke. Each browser's requests are delayed (120 ms, 200 ms) so that
  the edits cross: they are rebased on each other, and later typing waits in the buffer.
- A step row of the editor (a child view model keyed by step id) is edited field by field, moved
  up and removed.

Runtime budget: at most 90 s for the file (about 30 s here: 21 s of typing, the rest start-up).
"""

from __future__ import annotations

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bindery_support import HAN_MEIMEI, LI_LEI, api_session, sign_in_browser
from collab_typing import open_editor, slow_network, type_together
from pages import all_css, open_screen, wait

# It asserts a time bound (or types against the clock): it runs alone, when no other test does
# (scripts/test's last step), so the machine's other work does not decide its verdict.
pytestmark = pytest.mark.alone

RECIPE = "c41"

IMPORT = "const done = arguments[arguments.length - 1]; import('/js/binder/textop.js').then((t) => { window.__textop = t; done(true); }, (e) => done(String(e)));"


def js(driver, expression, *args):
    return driver.execute_script(f"const t = window.__textop; return {expression};", *args)


@pytest.fixture
def textop(driver, base_url):
    open_screen(driver, base_url, "/recipes")
    assert driver.execute_async_script(IMPORT) is True
    return driver


CASES = [
    # (expression, expected)
    ("t.apply('a😀b', [{p: 2, si: 'x'}])", "a😀xb"),
    ("t.apply('a😀b', [{p: 1, sd: '😀'}])", "ab"),
    ("t.apply('abc', [{p: 1, sd: 'b'}, {p: 1, si: 'XY'}])", "aXYc"),
    ("t.length('a😀b')", 3),
    ("t.toIndex('a😀b', 2)", 3),
    ("t.toOffset('a😀b', 3)", 2),
    # Inserts at one offset: left goes first.
    ("t.transform([{p: 1, si: 'L'}], [{p: 1, si: 'R'}], 'left')", [{"p": 1, "si": "L"}]),
    ("t.transform([{p: 1, si: 'R'}], [{p: 1, si: 'L'}], 'right')", [{"p": 2, "si": "R"}]),
    ("t.transform([{p: 3, si: 'x'}], [{p: 0, sd: 'ab'}], 'left')", [{"p": 1, "si": "x"}]),
    ("t.transform([{p: 1, si: 'x'}], [{p: 0, sd: 'abc'}], 'left')", [{"p": 0, "si": "x"}]),
    # A deletion around an insertion is split.
    ("t.transform([{p: 1, sd: 'bcd'}], [{p: 2, si: 'X'}], 'left')", [{"p": 1, "sd": "b"}, {"p": 2, "sd": "cd"}]),
    # Overlapping deletions delete only what the other did not.
    ("t.transform([{p: 1, sd: 'bcd'}], [{p: 2, sd: 'cde'}], 'left')", [{"p": 1, "sd": "b"}]),
    ("t.transform([{p: 2, sd: 'cde'}], [{p: 1, sd: 'bcd'}], 'right')", [{"p": 1, "sd": "e"}]),
    ("t.transform([{p: 1, sd: 'b'}], [{p: 0, sd: 'abc'}], 'left')", []),
    ("t.transform([{p: 1, sd: '😀'}], [{p: 0, si: '😀😀'}], 'left')", [{"p": 3, "sd": "😀"}]),
    # Caret: an insertion at the caret stays after it unless insertAfter.
    ("t.transformPosition(3, [{p: 3, si: 'xy'}])", 3),
    ("t.transformPosition(3, [{p: 3, si: 'xy'}], true)", 5),
    ("t.transformPosition(3, [{p: 1, si: '😀'}])", 4),
    ("t.transformPosition(3, [{p: 1, sd: 'bcd'}])", 1),
    ("t.transformPosition(5, [{p: 1, sd: 'bc'}])", 3),
    # diff: one deletion and one insertion; the caret places an ambiguous change.
    ("t.diff('abc', 'aXc')", [{"p": 1, "sd": "b"}, {"p": 1, "si": "X"}]),
    ("t.diff('aa', 'aaa', 2)", [{"p": 1, "si": "a"}]),
    ("t.diff('aa', 'aaa')", [{"p": 2, "si": "a"}]),
    ("t.diff('aaa', 'aa', 1)", [{"p": 1, "sd": "a"}]),
    ("t.diff('x😀y', 'x😀😀y', 3)", [{"p": 2, "si": "😀"}]),
    ("t.compose([{p: 0, si: 'ab'}], [{p: 2, si: 'c'}])", [{"p": 0, "si": "abc"}]),
]


def test_textop_tables(textop):
    failures = []
    for expression, expected in CASES:
        got = js(textop, expression)
        if got != expected:
            failures.append(f"{expression} = {got!r}, want {expected!r}")
    assert not failures, "\n".join(failures)


def test_textop_converges_on_random_operations(textop):
    """transformX(a, b) = [a', b']: a then b' gives the text b then a' gives, for 2000 random pairs
    of multi-component operations on texts with astral characters."""
    result = textop.execute_script("""
      const t = window.__textop;
      let seed = 7;
      const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
      const alphabet = ['a', 'b', 'c', '😀', 'é', 'z'];
      const randomText = () => Array.from({length: rnd(12)}, () => alphabet[rnd(alphabet.length)]).join('');
      const randomOp = (text) => {
        const op = [];
        let current = text;
        for (let k = rnd(3) + 1; k > 0; k -= 1) {
          const chars = Array.from(current);
          const p = rnd(chars.length + 1);
          if (rnd(2) === 0 || chars.length === p) {
            const c = {p, si: randomText() || 'q'}; op.push(c); current = t.apply(current, [c]);
          } else {
            const n = 1 + rnd(chars.length - p);
            const c = {p, sd: chars.slice(p, p + n).join('')}; op.push(c); current = t.apply(current, [c]);
          }
        }
        return op;
      };
      for (let i = 0; i < 2000; i += 1) {
        const text = randomText();
        const a = randomOp(text), b = randomOp(text);
        const [a2, b2] = t.transformX(a, b);
        const one = t.apply(t.apply(text, a), b2), two = t.apply(t.apply(text, b), a2);
        if (one !== two) return JSON.stringify({text, a, b, a2, b2, one, two});
        const left = t.transform(a, b, 'left'), right = t.transform(b, a, 'right');
        if (JSON.stringify(left) !== JSON.stringify(a2) || JSON.stringify(right) !== JSON.stringify(b2)) return 'transform != transformX ' + JSON.stringify({a, b});
      }
      return 'ok';
    """)
    assert result == "ok"


PAIRS = [
    # (base text, first op (applied first), second op made on the same base)
    ("hello world", [{"p": 5, "si": "!"}], [{"p": 5, "si": "?"}]),
    ("hello world", [{"p": 0, "sd": "hello"}], [{"p": 2, "si": "XY"}]),
    ("hello world", [{"p": 2, "sd": "llo w"}], [{"p": 0, "sd": "hel"}]),
    ("a😀b😀c", [{"p": 1, "sd": "😀"}], [{"p": 3, "si": "é"}, {"p": 0, "si": "😀"}]),
    ("abcdef", [{"p": 1, "si": "X"}, {"p": 4, "sd": "de"}], [{"p": 2, "sd": "cd"}, {"p": 3, "si": "Y"}]),
]


def test_textop_agrees_with_the_server(textop, base_url):
    """The server applies the second of two concurrent edits transformed as `left` against the
    first; textop.js computes the same operation and text."""
    call = api_session(base_url, HAN_MEIMEI)  # adding and editing a recipe needs a user
    recipe = call("POST", "/api/views/recipes/commands/add", {"name": "Transform check"})["navigate"].split("/")[2]
    path = f"/api/views/recipes/{recipe}/edit"
    for n, (text, first, second) in enumerate(PAIRS):
        call("PATCH", path, {"blurb": text}, content_type="application/merge-patch+json")
        base = call("GET", f"{path}/inputs/blurb")
        assert base["text"] == text
        one = call("POST", f"{path}/inputs/blurb/ops", {"id": f"check-{n}-1", "base": base["revision"], "ops": first})
        two = call("POST", f"{path}/inputs/blurb/ops", {"id": f"check-{n}-2", "base": base["revision"], "ops": second})
        assert [e["id"] for e in two["concurrent"]] == [f"check-{n}-1"]
        mine = js(textop, "t.transform(arguments[0], arguments[1], 'left')", second, one["ops"])
        assert two["ops"] == mine, f"pair {n}: the server applied {two['ops']}, textop.js says {mine}"
        server = call("GET", f"{path}/inputs/blurb")["text"]
        client = js(textop, "t.apply(t.apply(arguments[0], arguments[1]), arguments[2])", text, first, mine)
        assert server == client, f"pair {n}: server {server!r}, textop.js {client!r}"


def test_two_people_type_into_one_blurb(base_url, two_browsers):
    call = api_session(base_url, HAN_MEIMEI)
    path = f"/api/views/recipes/{RECIPE}/edit"
    original = call("GET", path)["inputs"]["blurb"]
    call("PATCH", path, {"blurb": ""}, content_type="application/merge-patch+json")
    try:
        a, b = two_browsers
        for d, account in ((a, LI_LEI), (b, HAN_MEIMEI)):
            open_editor(d, base_url, RECIPE, account)
        # Edits in flight for a while, so that the two typists' edits cross (rebased, buffered).
        slow_network(a, 120)
        slow_network(b, 200)
        figures = type_together(a, b, lambda: call("GET", f"{path}/inputs/blurb")["text"], seconds=20, rate=10)
        assert figures["typed A"] == figures["typed B"] == 200
        assert figures["final length"] == 400
        assert figures["client A"]["rebased"] > 0 and figures["client B"]["rebased"] > 0, "no edits crossed"
        assert figures["client A"]["diverged"] == figures["client B"]["diverged"] == 0
    finally:
        call("PATCH", path, {"blurb": original}, content_type="application/merge-patch+json")


def test_each_step_row_is_editable(driver, base_url):
    """The editor's steps are child view models keyed by step id: name and agitation
    collaborative, seconds and °C plain; Move up uses the step's output `index`, Remove its index."""
    call = api_session(base_url, HAN_MEIMEI)
    recipe = call("POST", "/api/views/recipes/commands/add", {"name": "Step rows"})["navigate"].split("/")[2]
    path = f"/api/views/recipes/{recipe}/edit"
    for name, seconds in (("Developer", 60), ("Fixer", 90)):
        call("POST", f"{path}/commands/addStep", {"name": name, "durationSeconds": seconds})
    sign_in_browser(driver, base_url, LI_LEI)  # any user may edit it
    open_screen(driver, base_url, f"/recipes/{recipe}/edit")
    rows = lambda: all_css(driver, "#edit-steps .step-row")  # noqa: E731
    wait(driver, lambda: [r.find_element(By.CSS_SELECTOR, ".step-name").get_attribute("value") for r in rows()] == ["Developer", "Fixer"])
    second = rows()[1]
    assert second.get_attribute("data-index") == "1"
    second.find_element(By.CSS_SELECTOR, ".step-name").send_keys(" bath")
    seconds = second.find_element(By.CSS_SELECTOR, ".step-seconds")
    seconds.send_keys(Keys.CONTROL, "a")
    seconds.send_keys(Keys.BACKSPACE, "45")
    second.find_element(By.CSS_SELECTOR, ".step-temperature").send_keys("20.5")
    second.find_element(By.CSS_SELECTOR, ".step-agitation").send_keys("Gently")

    def steps():
        return [s["inputs"] for s in call("GET", path)["outputs"]["steps"]]
    wait(driver, lambda: steps()[1] == {"name": "Fixer bath", "durationSeconds": 45, "temperatureCelsius": 20.5, "agitation": "Gently"},
         message="the step's edits did not reach the server")
    second.find_element(By.CSS_SELECTOR, ".step-up").click()
    wait(driver, lambda: [s["name"] for s in steps()] == ["Fixer bath", "Developer"])
    wait(driver, lambda: [r.get_attribute("data-index") for r in rows()] == ["0", "1"]
         and rows()[0].find_element(By.CSS_SELECTOR, ".step-name").get_attribute("value") == "Fixer bath")
    rows()[1].find_element(By.CSS_SELECTOR, ".step-remove").click()
    wait(driver, lambda: [s["name"] for s in steps()] == ["Fixer bath"])
    wait(driver, lambda: len(rows()) == 1)
