"""Examples/Counter served by its own executable, built on the public API of `Bindery` alone:
the view model at /api/views/counter with the semantics the guide promises, its page at /counter,
its OpenAPI document, its count across a restart on SQLite, and the store an earlier build wrote.
Time budget: 30 s."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from counter_server import CounterServer

FIXTURES = Path(__file__).resolve().parent.parent / "Fixtures" / "stored-state"


def session(base: str) -> requests.Session:
    client = requests.Session()
    token = client.post(f"{base}/api/sessions", timeout=10).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def test_the_counter_counts_by_its_step_and_refuses_what_it_must(counter):
    api = f"{counter.base}/api/views/counter"
    client = session(counter.base)
    first = client.get(api, timeout=10).json()
    assert first["inputs"] == {"step": 1}
    assert first["outputs"] == {"count": 0, "parity": "even"}
    assert first["commands"]["decrement"]["enabled"] is False
    assert first["commands"]["reset"]["policy"] == "cancelPrevious"

    assert client.patch(api, json={"step": 3}, timeout=10).status_code == 200
    refused = client.patch(api, json={"step": 11}, timeout=10)
    assert refused.status_code == 422 and refused.json()["field"] == "step"
    assert client.patch(api, json={"step": 0}, timeout=10).status_code == 422

    up = client.post(f"{api}/commands/increment", timeout=10).json()
    assert up["outputs"] == {"count": 3, "parity": "odd"}
    down = client.post(f"{api}/commands/decrement", timeout=10).json()
    assert down["outputs"] == {"count": 0, "parity": "even"}
    disabled = client.post(f"{api}/commands/decrement", timeout=10)
    assert disabled.status_code == 409
    assert client.get(api, timeout=10).json()["outputs"]["count"] == 0


def test_reset_is_deferred_and_a_second_reset_cancels_the_first(counter):
    api = f"{counter.base}/api/views/counter"
    client = session(counter.base)
    client.post(f"{api}/commands/increment", timeout=10)
    started = client.post(f"{api}/commands/reset", timeout=10)
    assert started.status_code == 202 and started.json()["commands"]["reset"]["executing"] is True
    # cancelPrevious: the second replaces the first; waiting for it answers the reset count.
    began = time.monotonic()
    second = client.post(f"{api}/commands/reset", headers={"Prefer": "wait=5"}, timeout=10)
    assert second.status_code == 200, second.text
    assert second.json()["outputs"]["count"] == 0
    assert time.monotonic() - began >= 0.25, "reset is deferred by about 300 ms"


def test_the_count_survives_a_restart_on_sqlite(counter):
    api = f"{counter.base}/api/views/counter"
    client = session(counter.base)
    client.post(f"{api}/commands/increment", timeout=10)
    client.post(f"{api}/commands/increment", timeout=10)
    counter.stop()
    counter.start()
    again = client.get(api, timeout=10).json()
    assert again["outputs"]["count"] == 2


def test_a_counter_stored_by_the_first_build_is_read_whole(tmp_path):
    """The Counter's stored-state corpus: `Tests/Fixtures/stored-state/counter-v1.sqlite`, a store
    the Counter of issue 39's build wrote (one session: step 2, count 6, version 5), committed and
    never edited. Every later build must start on it and show that session as it was stored: a
    change to what the Counter persists needs its migration (`docs/guide/persisting.md`), and a
    change to the store's own tables its store migration."""
    fixture = json.loads((FIXTURES / "counter-v1.json").read_text(encoding="utf-8"))
    shutil.copy(FIXTURES / "counter-v1.sqlite", tmp_path / "counter.sqlite")
    # The session was last used when it was recorded: a long idle timeout keeps it alive.
    server = CounterServer(tmp_path, "corpus", ("--session-idle-timeout", str(100 * 365 * 86400)))
    server.start()
    try:
        answer = requests.get(f"{server.base}/api/views/{fixture['path']}", timeout=10,
                              headers={"Authorization": f"Bearer {fixture['token']}"})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["inputs"] == fixture["inputs"] and body["outputs"] == fixture["outputs"], body
        assert body["version"] == fixture["version"], "the same shape is read at its stored version"
    finally:
        server.stop()


def test_the_openapi_document_lists_the_counter(counter):
    paths = requests.get(f"{counter.base}/openapi.json", timeout=10).json()["paths"]
    for path in ("/api/views/counter", "/api/views/counter/commands/increment", "/api/views/counter/commands/reset",
                 "/api/views/counter/events", "/counter"):
        assert path in paths, path
    assert "/api/upstream" not in paths, "the seed apps' routes leaked into another app"
    # The Counter has no users (no `users:` verifier): it offers no sign-in, only sessions.
    assert not [p for p in paths if p.startswith("/api/session/sign")], "an app without users offers a sign-in"
    assert "/api/session" in paths and "/api/sessions" in paths


def test_the_counter_page_binds_in_the_browser(counter, browser):
    browser.get(f"{counter.base}/counter")
    wait = WebDriverWait(browser, 15)
    count = wait.until(lambda d: d.find_element(By.ID, "count"))
    wait.until(lambda d: count.text == "0")
    browser.find_element(By.ID, "increment").click()
    wait.until(lambda d: count.text == "1")
    assert browser.find_element(By.ID, "decrement").is_enabled()
    assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#nav a")] == ["Counter"]
    assert browser.title.startswith("Counter")
