"""A normal start, normal use and a normal stop log nothing at warning, error or critical.

A real server on a SQLite file, logging at debug, is used the way the thin client uses it: a
session, pages and their files, snapshots read and written, a command, a long-poll, presence, a
mistyped password and a sign-in, collaborative text edits, event streams (one per view and one
for several views) that the client closes mid-stream, one cleanly (FIN) and one with a reset
(RST), as a closed tab or an interrupted `curl -N` does, metrics and health, then SIGTERM with a
stream still open. Every line of its output must be a log line (nothing printed around the
logger, such as libmicrohttpd's own stderr logger) below warning, and a client leaving must log
nothing above debug.

Time budget: about 5 s (heartbeats every second, so a closed stream is noticed within one); 20 s
at most.
"""

from __future__ import annotations

import re
import resource
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest
import requests

from bindery_support import HAN_MEIMEI, free_port, stop_process, wait_until_healthy
from tools import REPO, binary_path, public_dir

LINE = re.compile(r"^\d{4}-\d{2}-\d{2}T[\d:]+[+-]\d{4} (?P<level>trace|debug|info|notice|warning|error|critical) ")
LOUD = {"warning", "error", "critical"}


@pytest.fixture()
def logged_server(tmp_path):
    """The server, its base URL and its log file; SIGTERMed by the test itself."""
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    port = free_port()
    log = tmp_path / "server.log"
    command = [
        str(binary_path()), "--port", str(port), "--store", f"sqlite:{tmp_path / 'bindery.sqlite'}",
        "--public-dir", str(public_dir()), "--upstream-latency-ms", "20", "--upstream-travel-failure-rate", "0",
        "--heartbeat", "1", "--log-level", "debug",
    ]
    with open(log, "w") as output:
        process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                   preexec_fn=raise_open_file_limit)
    try:
        wait_until_healthy(process, f"http://127.0.0.1:{port}", 30.0, str(log))
        yield process, port, log
    finally:
        stop_process(process)


def raise_open_file_limit() -> None:
    """Lifts the soft open-file limit to the hard one, as a service manager set up for a server does:
    under a shell's usual 1024 the server rightly warns that it lowers its connection limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass  # the server then says what it can afford


def open_stream(port: int, target: str, cookie: str) -> socket.socket:
    """A raw connection reading an event stream, returned once its first event arrived."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(
        f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode()
    )
    received = b""
    while b"\ndata:" not in received:
        chunk = connection.recv(65536)
        assert chunk, f"the stream {target} ended before its first event: {received[:300]!r}"
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received[:300]
    return connection


def reset(connection: socket.socket) -> None:
    """Closes with a TCP reset, as a killed client's kernel may."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def wait_for(log: Path, pattern: str, count: int = 1, timeout: float = 10.0) -> None:
    """Waits until `pattern` is in `count` lines of the log."""
    deadline = time.monotonic() + timeout
    while len(re.findall(pattern, log.read_text())) < count:
        assert time.monotonic() < deadline, f"no {pattern!r} in the log after {timeout} s:\n{log.read_text()[-3000:]}"
        time.sleep(0.05)


def use_like_a_browser(base: str, port: int, log: Path) -> socket.socket:
    """Everything the thin client does, two streams closed by the client; answers an open stream."""
    http = requests.Session()
    assert http.put(f"{base}/api/session", timeout=10).status_code == 201
    cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    for page in ("/", "/form", "/js/app.js", "/css/app.css", "/openapi.json", "/api/views", "/metrics", "/healthz", "/readyz"):
        assert http.get(base + page, timeout=10).status_code == 200, page
    form = http.get(f"{base}/api/views/form", timeout=10)
    assert form.status_code == 200
    written = http.patch(f"{base}/api/views/form", json={"phone": "13800000000"}, timeout=10,
                         headers={"If-Match": form.headers["ETag"], "Content-Type": "application/merge-patch+json"})
    assert written.status_code == 200, written.text
    assert http.get(f"{base}/api/views/form", headers={"If-None-Match": written.headers["ETag"]}, timeout=10).status_code == 304
    version = written.json()["version"]
    polled = http.get(f"{base}/api/views/form", params={"after": version}, headers={"Prefer": "wait=0.2"}, timeout=10)
    assert polled.status_code == 304
    assert http.post(f"{base}/api/views/form/commands/clear", timeout=10).status_code in (200, 409)
    for method in ("PUT", "GET", "DELETE"):
        answered = http.request(method, f"{base}/api/views/form/presence", json={"field": "phone"} if method == "PUT" else None,
                                timeout=10)
        assert answered.status_code == 200, answered.text
    # Editing a recipe needs a user: a mistyped password first (refused, as users do), then the
    # right one. The answer's cookie is the session's new token.
    wrong = http.post(f"{base}/api/session/sign-in", json={**HAN_MEIMEI.credentials, "password": "hunter2"}, timeout=10)
    assert wrong.status_code == 422, wrong.text
    signed_in = http.post(f"{base}/api/session/sign-in", json=HAN_MEIMEI.credentials, timeout=10)
    assert signed_in.status_code == 200, signed_in.text
    assert http.cookies["bindery_session"] == signed_in.json()["token"]
    cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    recipe = http.get(f"{base}/api/views/recipes", timeout=10).json()["outputs"]["recipes"][0]["id"]
    edit = f"{base}/api/views/recipes/{recipe}/edit"
    assert http.get(edit, timeout=10).status_code == 200
    assert http.put(f"{edit}/presence", json={"field": "name"}, timeout=10).status_code == 200
    revision = http.get(f"{edit}/inputs/name", timeout=10).json()["revision"]
    applied = http.post(f"{edit}/inputs/name/ops", json={"id": "clean-log-1", "base": revision, "ops": [{"p": 0, "si": "A "}]},
                        timeout=10)
    assert applied.status_code == 200, applied.text
    assert http.get(f"{edit}/inputs/name", params={"after": revision}, timeout=10).json()["edits"]
    assert http.delete(f"{edit}/presence", timeout=10).status_code == 200

    closed = open_stream(port, "/api/views/form/events", cookie)
    closed.shutdown(socket.SHUT_WR)
    closed.close()
    reset(open_stream(port, f"/api/events?views=form,recipes/{recipe}/edit", cookie))
    wait_for(log, r"http\.completed=aborted[^\n]*http\.path=/api/(views/form/)?events", count=2)
    return open_stream(port, "/api/views/recipes/events?patches=1", cookie)


def test_a_normal_life_logs_no_warning(logged_server):
    process, port, log = logged_server
    still_open = use_like_a_browser(f"http://127.0.0.1:{port}", port, log)
    stop_process(process)
    still_open.close()
    assert process.returncode == 0
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert any(" stopped" in line for line in lines), "\n".join(lines[-20:])
    unlogged = [line for line in lines if not LINE.match(line)]
    assert not unlogged, "printed around the logger:\n" + "\n".join(unlogged)
    loud = [line for line in lines if LINE.match(line)["level"] in LOUD]
    assert not loud, "logged in normal use:\n" + "\n".join(loud)
    library = [line for line in lines if "http.source=libmicrohttpd" in line and LINE.match(line)["level"] != "debug"]
    assert not library, "libmicrohttpd above debug:\n" + "\n".join(library)
