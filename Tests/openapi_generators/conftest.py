"""The servers generated clients are tried against: the seed apps' `bindery` on a SQLite store in a
temporary directory, and the Counter example's own `CounterServer` (built by scripts/test), one
of each per module. Logs: artifacts/generated-clients-seed.log, artifacts/counter-generated-clients-*.log."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bindery_support import ARTIFACTS, REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy

if str(REPO / "Tests" / "examples") not in sys.path:
    sys.path.append(str(REPO / "Tests" / "examples"))
from counter_server import CounterServer, counter_binary  # noqa: E402


@pytest.fixture(scope="module")
def seed_server(tmp_path_factory):
    """`bindery` with the API checks' options; its base URL."""
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = tmp_path_factory.mktemp("generated-clients-store") / "bindery.sqlite"
    command = [str(binary_path()), "--host", "127.0.0.1", "--port", str(port), "--store", f"sqlite:{store}",
               "--public-dir", str(public_dir()), "--upstream-latency-ms", "20",
               "--upstream-travel-failure-rate", "0", "--log-level", "error"]
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "generated-clients-seed.log", "a") as log:
        process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_until_healthy(process, base, 30.0, "artifacts/generated-clients-seed.log")
            yield base
        finally:
            stop_process(process)


@pytest.fixture(scope="module")
def counter_server(tmp_path_factory, request):
    """`CounterServer` on its own SQLite store; the `CounterServer` object (`.base`)."""
    if not counter_binary().exists():
        pytest.fail(f"no Counter server at {counter_binary()} (scripts/test builds it, or set BINDERY_COUNTER_BIN)")
    name = f"generated-clients-{request.module.__name__.rsplit('.', 1)[-1]}"
    server = CounterServer(tmp_path_factory.mktemp(name), name)
    try:
        server.start()
        yield server
    finally:
        server.stop()
