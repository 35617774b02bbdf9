"""Tests/tools' marker: `postgres` (the multi-node benchmark's smoke run on a real PostgreSQL), as
Tests/multinode and Tests/users declare it, so that `-m "not postgres"` leaves it out here too."""


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL store backend (--store postgres://...) "
                                       "and its LISTEN/NOTIFY change feed")
