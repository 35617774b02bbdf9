"""Fixtures of the API checks: a real `bindery` server on a free loopback port.

The binary comes from env BINDERY_BIN (default .build/debug/bindery, relative to the repository);
the thin client from env BINDERY_PUBLIC (default Public). A missing binary fails the tests that
need the server (never a silent skip).
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

import pytest

from bindery_support import free_port, stop_process, wait_until_healthy
from tools import OPENAPI_COPY, REPO, binary_path, public_dir  # noqa: F401 (re-exported)

DOCKERFILE = REPO / "docker" / "Dockerfile"
README = REPO / "README.md"


def server_command(port: int, store: Path) -> list[str]:
    """The one place that knows how the API checks start the server: on the default backend (a
    SQLite file), but in a temporary directory, never the repository's own .bindery/."""
    return [
        str(binary_path()),
        "--port", str(port),
        "--store", f"sqlite:{store}",
        "--public-dir", str(public_dir()),
        "--upstream-latency-ms", "20",
        "--upstream-travel-failure-rate", "0",
        "--log-level", "error",
    ]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Starts the real binary on a SQLite store in a temporary directory, waits for GET /healthz,
    yields its base URL, then SIGTERMs it."""
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    store = tmp_path_factory.mktemp("api-store") / "bindery.sqlite"
    process = subprocess.Popen(server_command(port, store), cwd=REPO, stdin=subprocess.DEVNULL)
    try:
        wait_until_healthy(process, base, 30.0, "the pytest output")
        yield base
    finally:
        stop_process(process)


@pytest.fixture(scope="session")
def openapi_document(server) -> dict:
    """The document the server generates and serves at /openapi.json."""
    with urllib.request.urlopen(f"{server}/openapi.json", timeout=10) as response:
        return json.load(response)
