"""Fixtures of the example apps' tests (Examples/): their own servers, a browser."""

import pytest

from bindery_support import chrome_driver
from counter_server import CounterServer


@pytest.fixture
def counter(tmp_path):
    server = CounterServer(tmp_path, tmp_path.name)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def browser():
    driver = chrome_driver()
    try:
        yield driver
    finally:
        driver.quit()
