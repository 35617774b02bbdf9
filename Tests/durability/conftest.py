"""Fixtures of the durability tests: servers on SQLite files in a temporary directory (see
bindery_process.py). A missing binary fails the tests (never a silent skip)."""

from __future__ import annotations

import pytest

from bindery_process import Bindery, binary_path


@pytest.fixture(scope="module")
def bindery_factory(tmp_path_factory):
    """Makes servers on SQLite files in a temporary directory of the module; stops them all at the end."""
    tmp_path = tmp_path_factory.mktemp("store")
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    made: list[Bindery] = []

    def make(name: str = "server", extra: list[str] | None = None) -> Bindery:
        server = Bindery(tmp_path / f"{name}.sqlite", name, extra)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()
