"""The real `bindery` (BINDERY_BIN) on a SQLite file, which a test can kill with SIGKILL and start
again on the same port and file, and the `bindery-watch` binary (BINDERY_WATCH_BIN, default
.build/debug/bindery-watch), run to its end or followed line by line (not a conftest, so that its
name is unique when several test directories run together)."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import urllib.request
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, binary_path, free_port, public_dir, sign_in, wait_until_healthy


def watch_path() -> Path:
    path = Path(os.environ.get("BINDERY_WATCH_BIN", ".build/debug/bindery-watch"))
    return path if path.is_absolute() else REPO / path


class Server:
    """One `bindery` on one SQLite file and one port, across restarts."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        ARTIFACTS.mkdir(exist_ok=True)
        log = open(ARTIFACTS / f"client-server-{self.starts}.log", "w")
        self.process = subprocess.Popen(
            [str(binary_path()), "--port", str(self.port), "--store", f"sqlite:{self.directory / 'store.sqlite'}",
             "--public-dir", str(public_dir()), "--upstream-latency-ms", "20", "--upstream-travel-failure-rate", "0",
             "--log-level", "warning"],
            cwd=self.directory, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.url, 30, f"artifacts/client-server-{self.starts}.log")

    def kill9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def session(self, account=None) -> str:
        """A new session's token; signed in as `account` (a bindery_support.Account) when given."""
        if account is not None:
            return sign_in(self.url, account)
        request = urllib.request.Request(f"{self.url}/api/sessions", method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)["token"]

    def patch(self, token: str, view: str, inputs: dict) -> dict:
        request = urllib.request.Request(
            f"{self.url}/api/views/{view}", data=json.dumps(inputs).encode(), method="PATCH",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/merge-patch+json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)


class Watch:
    """A running `bindery-watch` whose output lines arrive in a queue."""

    def __init__(self, *arguments: str):
        self.process = subprocess.Popen([str(watch_path()), *arguments], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def next_version(self, timeout: float = 10) -> dict:
        return json.loads(self.lines.get(timeout=timeout))

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=10)


def run_watch(*arguments: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """Runs `bindery-watch` to its end."""
    return subprocess.run([str(watch_path()), *arguments], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)
