"""Fixtures for the browser tests of Public/ (pytest + Selenium + headless Debian chromium).

Which server is tested, in this order:
  BINDERY_URL=http://127.0.0.1:8080   an already running server;
  BINDERY_BIN=.build/debug/bindery    start that binary on a free port (see server_command);
  otherwise .build/debug/bindery, which must exist (run `swift build` first): a missing server
  fails the tests rather than skipping them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

import pytest

from answer_gateway import Gateway
from bindery_support import browsers

REPO = Path(__file__).resolve().parents[2]
PUBLIC_DIR = REPO / "Public"
CLIENT_DIR = REPO / "Sources" / "BinderyBrowserClient" / "Client"
SCREENSHOTS = REPO / "artifacts" / "screenshots"


def server_command(binary: str, port: int, store: Path, extra: Sequence[str] = ()) -> list[str]:
    """THE one place that knows the server's command line. Extra flags: `extra` (a fixture's own),
    then env BINDERY_ARGS.

    The store is the default backend (a SQLite file) in a temporary directory: the tests never
    touch the repository's own .bindery/."""
    return [
        binary,
        "--port", str(port),
        "--store", f"sqlite:{store}",
        "--public-dir", str(PUBLIC_DIR),
        "--upstream-latency-ms", "50",
        # The tests set the fake upstream's latency and failures (PATCH /api/upstream) without
        # signing in as an administrator, as the Lab of a demo may.
        "--open-upstream-control",
        *extra,
        *shlex.split(os.environ.get("BINDERY_ARGS", "")),
    ]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(base: str, proc: subprocess.Popen | None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
            return
        except urllib.error.HTTPError:
            return  # it answers HTTP, so it is listening
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server at {base} did not come up in {timeout}s")


def _binary() -> str:
    binary = os.environ.get("BINDERY_BIN") or str(REPO / ".build" / "debug" / "bindery")
    if not Path(binary).exists():
        pytest.fail(f"no server binary at {binary}: run `swift build` or set BINDERY_URL")
    return binary


class Server:
    """The binary on one port and one store file; it can be killed and started again on both,
    so that an open page reconnects to the same address. Output: artifacts/<log_name>.log, or
    artifacts/<log_name>-<worker>.log in a pytest-xdist worker (each worker has servers of its own).
    `extra`: flags of its own (server_command)."""

    def __init__(self, binary: str, store: Path, log_name: str, extra: Sequence[str] = ()):
        self.binary, self.store, self.log_name, self.extra = binary, store, log_name, tuple(extra)
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = None

    def start(self) -> None:
        (REPO / "artifacts").mkdir(exist_ok=True)
        if self.log is None:
            worker = os.environ.get("PYTEST_XDIST_WORKER")
            name = f"{self.log_name}-{worker}" if worker else self.log_name
            self.log = open(REPO / "artifacts" / f"{name}.log", "w")
        self.proc = subprocess.Popen(server_command(self.binary, self.port, self.store, self.extra), cwd=REPO,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        _wait_until_up(self.base, self.proc)

    def kill9(self) -> None:
        """SIGKILL: the process ends at once, without any shutdown work."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.log is not None:
            self.log.close()
            self.log = None


@pytest.fixture(scope="session")
def base_url(tmp_path_factory):
    url = os.environ.get("BINDERY_URL")
    if url:
        _wait_until_up(url.rstrip("/"), None)
        yield url.rstrip("/")
        return
    server = Server(_binary(), tmp_path_factory.mktemp("browser-store") / "bindery.sqlite", "browser-server")
    try:
        server.start()
        yield server.base
    finally:
        server.stop()


@pytest.fixture
def restartable_server(tmp_path):
    """A server of the test's own (its own port and store file) that the test may kill and
    restart; needs BINDERY_BIN or .build/debug/bindery (skipped against BINDERY_URL)."""
    if os.environ.get("BINDERY_URL"):
        pytest.skip("restarts need a binary this test starts, not BINDERY_URL")
    server = Server(_binary(), tmp_path / "bindery.sqlite", "browser-restart-server")
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def deployable_server(tmp_path):
    """A restartable server of the test's own that serves a copy of the thin client
    (`--client-dir`, `server.client`): a change of a file there while it runs is a deploy (the
    client's fingerprint changes). Skipped against BINDERY_URL."""
    if os.environ.get("BINDERY_URL"):
        pytest.skip("a deploy needs a server this test starts, not BINDERY_URL")
    client = tmp_path / "client"
    shutil.copytree(CLIENT_DIR, client)
    server = Server(_binary(), tmp_path / "bindery.sqlite", "browser-deploy-server", extra=["--client-dir", str(client)])
    server.client = client
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def gateway(restartable_server):
    """The restartable server behind a gateway (answer_gateway.Gateway), as behind nginx in
    production: while the server is down it serves the client's files it has seen (a reload shows
    the page) and answers the API with 502; it can also lose an answer after the server applied it."""
    proxy = Gateway(restartable_server.port)
    try:
        yield proxy
    finally:
        proxy.close()


def _http(method: str, url: str, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/merge-patch+json", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read() or b"null")


class Upstream:
    """GET/PATCH /api/upstream; restores the original configuration after the test."""

    def __init__(self, base: str):
        self.base = base
        self.original = _http("GET", f"{base}/api/upstream")

    def current(self) -> dict:
        """The configuration as the server has it now."""
        return _http("GET", f"{self.base}/api/upstream")

    def patch(self, endpoints: dict) -> dict:
        return _http("PATCH", f"{self.base}/api/upstream", {"endpoints": endpoints})

    def reliable(self, latency_ms: int = 50) -> None:
        """No failures, short latency, on every endpoint."""
        self.patch({name: {"latencyMs": latency_ms, "failureRate": 0, "malformedRate": 0, "timeoutRate": 0}
                    for name in self.original["endpoints"]})

    def restore(self) -> None:
        keep = ("latencyMs", "failureRate", "malformedRate", "timeoutRate", "timeoutMs")
        self.patch({name: {k: v for k, v in cfg.items() if k in keep}
                    for name, cfg in self.original["endpoints"].items()})


@pytest.fixture
def upstream(base_url):
    up = Upstream(base_url)
    up.reliable()
    yield up
    up.restore()


@pytest.fixture
def driver(browser_pool):
    """The test's browser, from the worker's pool: as fresh as a new one, given back at the end
    (its pages closed as a user's would be, so presence says goodbye; then reset: reset_browser)."""
    with browsers(1, browser_pool) as (drv,):
        yield drv


@pytest.fixture
def screenshot(driver):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        driver.save_screenshot(str(path))
        return path
    return take


@pytest.fixture
def other(browser_pool):
    """A second browser: another session, so another user (from the pool, as `driver`)."""
    with browsers(1, browser_pool) as (second,):
        yield second


@pytest.fixture
def two_browsers(browser_pool):
    """Two more browsers, two more users (from the pool, as `driver`)."""
    with browsers(2, browser_pool) as drivers:
        yield drivers
