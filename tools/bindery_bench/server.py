"""A server process on a free loopback port: started, waited for until it answers, stopped with
SIGTERM (SIGKILL after 5 s); its output kept in a log file of the caller's temporary directory."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

# What every benchmark's Bindery is started with: loopback, the repository's pages, errors only,
# the fake upstream fast and reliable.
QUIET = ["--public-dir", "Public", "--log-level", "error", "--upstream-latency-ms", "50",
         "--upstream-travel-failure-rate", "0"]


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(url: str, method: str = "GET") -> bool:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=2) as response:
            return 200 <= response.status < 300
    except (OSError, urllib.error.URLError):
        return False


class Server:
    """`command` (the port appended as `--port`, after `--host 127.0.0.1`) started now."""

    def __init__(self, command: list[str], log: Path, env: dict | None = None, port: int | None = None,
                 host_options: bool = True):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        if host_options:
            command = [*command, "--host", "127.0.0.1", "--port", str(self.port)]
        with open(log, "w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            env={**os.environ, **(env or {})})
        self.pid = self.process.pid

    def wait(self, probe: str = "/healthz", seconds: float = 10, method: str = "GET") -> None:
        """Until `probe` answers 2xx; exits with the log when the process ends or time runs out."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if answers(self.base + probe, method):
                return
            if not self.alive():
                sys.exit(f"server exited:\n{self.log_text()}")
            time.sleep(0.1)
        sys.exit(f"server did not come up on {self.base} within {seconds:.0f} s")

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def check_alive(self, during: str = "the benchmark") -> None:
        if not self.alive():
            sys.exit(f"SERVER DIED during {during}\n{self.log_text()}")

    def print_log_tail(self, lines: int = 20, title: str = "server log (errors):") -> None:
        text = self.log_text().rstrip("\n")
        if text:
            print()
            print(title)
            print("\n".join(text.splitlines()[-lines:]))

    def serve_probe(self, probe) -> int:
        """Runs `probe()` against this server, then checks it is still alive, prints its log's tail
        and stops it (stopped whatever happens); the probe's status."""
        try:
            status = probe()
            self.check_alive()
            self.print_log_tail()
            return status
        finally:
            self.stop()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def bindery(binary: str, options: list[str], log: Path, serve: bool = False, env: dict | None = None) -> Server:
    """A Bindery with `options`, answering /healthz (`serve`: the `serve` subcommand named)."""
    server = Server([binary, *(["serve"] if serve else []), *options], log, env=env)
    server.wait()
    return server
