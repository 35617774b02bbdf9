"""Fixtures of the reliability tests (issue 15): a real `bindery serve` per test on a free loopback
port, in a temporary directory, stopped at the end of the test even when it fails; and the figures
the tests measure, printed at the end of the session (and as they come with -s).

A missing binary fails the tests (never a silent skip).
"""

from __future__ import annotations

import resource

import pytest

from reliability_server import Bindery, binary_path


def pytest_configure(config):
    config._reliability_figures = []
    # Floods open a few hundred sockets; make sure this process may.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def pytest_terminal_summary(terminalreporter):
    figures = getattr(terminalreporter.config, "_reliability_figures", [])
    if figures:
        terminalreporter.write_sep("-", "reliability figures")
        for line in figures:
            terminalreporter.write_line(line)


@pytest.fixture
def report(request, record_property):
    """report(name, line): keeps a figure for the terminal summary, prints it (visible with -s)
    and records it as a property of the test (JUnit XML)."""
    def add(name: str, line: str) -> None:
        text = f"[{request.node.name}] {line}"
        request.config._reliability_figures.append(text)
        print(text)
        record_property(name, line)
    return add


@pytest.fixture
def bindery(tmp_path, request):
    """bindery(options, store="sqlite"|"memory"): starts `bindery serve` with these extra
    options; every server started is stopped when the test ends."""
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    started: list[Bindery] = []

    def start(options: list[str], store: str = "sqlite") -> Bindery:
        directory = tmp_path / f"server{len(started)}"
        directory.mkdir()
        server = Bindery(directory, f"{request.node.name}-{len(started)}", options,
                         store="memory" if store == "memory" else "sqlite")
        started.append(server)
        server.start()
        return server

    yield start
    for server in started:
        server.stop()
