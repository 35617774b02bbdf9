"""Fixtures of the multi-node tests (issue 11): a real PostgreSQL 15 from Debian's packages in a
temporary directory, N Bindery nodes on it and nginx in front, all on loopback, started and
stopped by the fixtures even when a test fails (see multinode_cluster.py).

Tests that need the PostgreSQL store backend are marked `postgres`:
    pytest Tests/multinode -m postgres          only those
    pytest Tests/multinode -m "not postgres"    the harness checks (nginx, the fixtures, memory nodes)
They never skip: a missing binary, PostgreSQL or nginx is a failure.
"""

from __future__ import annotations

import time

import pytest

from multinode_cluster import HEARTBEAT, Cluster, Postgres, binary_path


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL store backend (--store postgres://...) "
                                       "and its LISTEN/NOTIFY change feed")


@pytest.fixture(scope="session")
def timings() -> dict:
    """How long the fixtures took, printed at the end of the session (-s or the terminal summary)."""
    return {}


def pytest_terminal_summary(terminalreporter):
    figures = getattr(terminalreporter.config, "_multinode_timings", None)
    if figures:
        terminalreporter.write_sep("-", "multi-node fixture timings")
        for name, seconds in figures.items():
            terminalreporter.write_line(f"{name}: {seconds:.2f} s")


@pytest.fixture(scope="session")
def postgres(request, timings):
    """One PostgreSQL server for the session (each test gets its own database)."""
    server = Postgres("postgres")
    began = time.monotonic()
    try:
        server.start()
        timings["postgres start (initdb + pg_ctl start)"] = time.monotonic() - began
        request.config._multinode_timings = timings
        yield server
    finally:
        began = time.monotonic()
        server.stop()
        timings["postgres stop"] = time.monotonic() - began


@pytest.fixture(scope="module")
def database(postgres) -> str:
    """A fresh database per test module."""
    return postgres.create_database()


@pytest.fixture(scope="module")
def cluster_factory(tmp_path_factory, request, timings):
    """Makes clusters (N nodes on one store, nginx in front); stops them all at the end of the module."""
    tmp_path = tmp_path_factory.mktemp("multinode")
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    request.config._multinode_timings = timings
    made: list[Cluster] = []

    def make(store: str, count: int = 3, name: str | None = None, extra: list[str] | None = None,
             with_nginx: bool = True, parallel: bool = False) -> Cluster:
        cluster = Cluster(store, count, tmp_path / f"cluster{len(made)}", name or f"{request.node.name.removesuffix('.py')}{len(made)}",
                          ["--heartbeat", str(HEARTBEAT), *(extra or [])], with_nginx)
        made.append(cluster)
        began = time.monotonic()
        cluster.start(parallel=parallel)
        timings.setdefault(f"cluster of {count} start ({store.split(':')[0]})", time.monotonic() - began)
        return cluster

    yield make
    for cluster in made:
        began = time.monotonic()
        cluster.stop()
        timings.setdefault(f"cluster of {len(cluster.nodes)} stop", time.monotonic() - began)


@pytest.fixture(scope="module")
def pg_cluster(cluster_factory, postgres, database):
    """Three nodes on a fresh PostgreSQL database (one per module), started at the same time, nginx in front."""
    cluster = cluster_factory(postgres.url(database), 3, parallel=True)
    cluster.postgres, cluster.database = postgres, database
    return cluster
