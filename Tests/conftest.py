"""Shared by every pytest suite under Tests/: puts this directory on the import path, so each
suite imports the helpers they have in common (`bindery_support`), declares the markers every
suite may use, and owns the process's browsers (`browser_pool`)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bindery_support import BrowserPool  # noqa: E402  (after the path above)


@pytest.fixture(scope="session")
def browser_pool():
    """The headless Chromiums of this pytest process (one pytest-xdist worker): a test's browser is
    taken from here and given back reset to a fresh one (`bindery_support.reset_browser`: no cookie,
    storage, cache, extra tab or DevTools override of the test left), instead of one started per
    test at 0.8 s of CPU each."""
    pool = BrowserPool()
    try:
        yield pool
    finally:
        pool.close()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "alone: asserts a time bound or types against the clock, so it runs when no other test "
        "runs (scripts/test runs `-m \"not alone\"` in parallel streams first, then `-m alone` by itself)")
