"""Fixtures of the TodoMVC suite: Examples/Todos served by its own executable (`TodosServer`,
built at Examples/Todos with the repository's scratch path: .build/debug/TodosServer, or env
BINDERY_TODOS_BIN) on a free loopback port, its store a SQLite file and its accounts file in a
temporary directory, and headless Chromium (from the worker's `browser_pool`, Tests/conftest.py).

Time budget: 120 s for the suite on a 2-core machine (about 50 s measured; 65 s with the machine
busy). Each module shares one server and one browser signed in as ada, and each test starts from
ada's empty list (emptied over the API); the tests that restart or kill a server have one of their
own. Every wait is on a
condition (WebDriverWait), never a fixed sleep. The users' passwords are hashed at bcrypt's lowest
cost (`add-user --cost 4`): a sign-in takes milliseconds instead of 0.7 s.
"""

from __future__ import annotations

import pytest

from bindery_support import browsers, sign_in_browser
from todos_server import ADA, GRACE, TodosServer
from todomvc_page import TodoPage


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, with the users ada and grace."""
    directory = tmp_path_factory.mktemp("todos")
    server = TodosServer(directory, directory.name)
    server.add_users(ADA, GRACE)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def own_server(tmp_path):
    """A server of the test's own (its port, store and accounts), with ada, that it may restart or kill."""
    server = TodosServer(tmp_path, tmp_path.name)
    server.add_users(ADA)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def ada_browser(server, browser_pool):
    """The module's browser (from the worker's pool, reset when given back), signed in as ada."""
    with browsers(1, browser_pool) as (driver,):
        sign_in_browser(driver, server.base, ADA)
        yield driver


@pytest.fixture(scope="module")
def ada_api(server):
    """ada's session over the HTTP API: empties her list before each test."""
    return server.api(ADA)


@pytest.fixture
def todos(server, ada_browser, ada_api) -> TodoPage:
    """ada's /todos in the module's browser, her list empty, the filter `All`."""
    ada_api.empty_list()
    page = TodoPage(ada_browser, server.base)
    page.open()
    return page
