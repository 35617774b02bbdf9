"""Fixtures of the bindery-watch tests (the processes are in watch_process.py)."""

from __future__ import annotations

import pytest

from bindery_support import binary_path, stop_process
from watch_process import Server, watch_path


@pytest.fixture
def server(tmp_path):
    for binary in (binary_path(), watch_path()):
        if not binary.exists():
            pytest.fail(f"no binary at {binary} (run `swift build`, or set BINDERY_BIN / BINDERY_WATCH_BIN)")
    started = Server(tmp_path)
    started.start()
    yield started
    stop_process(started.process)
