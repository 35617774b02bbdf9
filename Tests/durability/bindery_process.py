"""The real `bindery` binary on a SQLite file, which a test can kill with SIGKILL and start again
on the same file and port (shared by the durability tests; not a conftest, so that its name is
unique when several test directories run together).

The binary comes from env BINDERY_BIN (default .build/debug/bindery, relative to the repository);
the thin client from env BINDERY_PUBLIC (default Public). Each start's output goes to
artifacts/durability-<name>-<n>.log.
"""

from __future__ import annotations

import json
import signal
import subprocess
import urllib.request
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy  # noqa: F401 (re-exported)


class Bindery:
    """One server on one store file and one port, across restarts."""

    def __init__(self, store: Path, name: str, extra: list[str] | None = None):
        self.store = store
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.name = name
        self.extra = extra or []
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self._log = None

    def command(self) -> list[str]:
        return [
            str(binary_path()),
            "--port", str(self.port),
            "--store", f"sqlite:{self.store}",
            "--public-dir", str(public_dir()),
            "--upstream-latency-ms", "20",
            "--upstream-travel-failure-rate", "0",
            "--log-level", "warning",
            *self.extra,
        ]

    def start(self, timeout: float = 30.0) -> None:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        ARTIFACTS.mkdir(exist_ok=True)
        if self._log:
            self._log.close()
        self._log = open(ARTIFACTS / f"durability-{self.name}-{self.starts}.log", "w")
        # The working directory is a temporary one: nothing lands in the repository's .bindery/.
        self.process = subprocess.Popen(self.command(), cwd=self.store.parent, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.base, timeout, f"artifacts/durability-{self.name}-{self.starts}.log")

    def kill9(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed."""
        assert self.process is not None and self.process.poll() is None, "not running"
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.returncode == -signal.SIGKILL

    def stop(self) -> None:
        stop_process(self.process)
        if self._log:
            self._log.close()
            self._log = None


def upstream_patch(base: str, endpoints: dict) -> dict:
    """PATCHes the fake upstream's `endpoints` settings without a session: for a server started
    with `--open-upstream-control` (otherwise only an administrator may)."""
    request = urllib.request.Request(
        f"{base}/api/upstream", data=json.dumps({"endpoints": endpoints}).encode(), method="PATCH",
        headers={"Content-Type": "application/merge-patch+json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)
