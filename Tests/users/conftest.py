"""Fixtures of the users suite (issue 37): real servers on SQLite files in a temporary directory
(the durability harness, Tests/durability/bindery_process.py) and nodes on a PostgreSQL 15 of the
suite's own (the multi-node harness, Tests/multinode/multinode_cluster.py), all on loopback.

Every server runs with the fake upstream's latency at 0: each sign-in asks its accounts endpoint
(1 s by default) before bcrypt checks the password (about 60 ms). The sign-in limits (5 failures
per account, 20 per client address, in 15 minutes) live in a node's memory, so a module that
exhausts them has servers of its own. A missing binary, PostgreSQL or nginx is a failure, never a
skip.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "durability"))
sys.path.insert(0, str(TESTS / "multinode"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bindery_process import Bindery, binary_path  # noqa: E402
from multinode_cluster import HEARTBEAT, Cluster, Postgres  # noqa: E402

FAST = ["--upstream-latency-ms", "0"]   # after the harnesses' own 20 ms: the last one counts


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL store backend (--store postgres://...) "
                                       "and its LISTEN/NOTIFY change feed")


@pytest.fixture(scope="module")
def server_factory(tmp_path_factory):
    """Makes servers on SQLite files in a temporary directory of the module (each in a directory of
    its own: a store is a file and its -wal and -shm); stops them all at the end."""
    tmp_path = tmp_path_factory.mktemp("users")
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    made: list[Bindery] = []

    def make(name: str = "users", extra: list[str] | None = None, start: bool = True) -> Bindery:
        directory = tmp_path / name
        directory.mkdir()
        server = Bindery(directory / "bindery.sqlite", f"users-{name}", [*FAST, *(extra or [])])
        made.append(server)
        if start:
            server.start()
        return server

    yield make
    for server in made:
        server.stop()


@pytest.fixture(scope="module")
def server(server_factory) -> Bindery:
    """One server on SQLite for the module, started."""
    return server_factory()


@pytest.fixture(scope="module")
def users_postgres():
    """A PostgreSQL server for the module (each cluster gets a database of its own); module scoped,
    so that nothing of this suite outlives it when several suites run in one pytest session."""
    postgres = Postgres("users-postgres")
    try:
        postgres.start()
        yield postgres
    finally:
        postgres.stop()


@pytest.fixture(scope="module")
def cluster_factory(tmp_path_factory, users_postgres):
    """Makes nodes on a fresh PostgreSQL database each (nginx in front when asked); stops them all
    at the end of the module."""
    tmp_path = tmp_path_factory.mktemp("users-cluster")
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    made: list[Cluster] = []

    def make(count: int = 2, name: str = "users", with_nginx: bool = False, extra: list[str] | None = None) -> Cluster:
        store = users_postgres.url(users_postgres.create_database("users"))
        cluster = Cluster(store, count, tmp_path / f"{name}{len(made)}", name=f"{name}{len(made)}",
                          extra=["--heartbeat", str(HEARTBEAT), *FAST, *(extra or [])], with_nginx=with_nginx)
        made.append(cluster)
        cluster.start(parallel=True)
        cluster.postgres, cluster.database = users_postgres, store.rsplit("/", 1)[-1]
        return cluster

    yield make
    for cluster in made:
        cluster.stop()
