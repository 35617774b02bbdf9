"""The real `bindery serve` on a free loopback port, in a temporary directory, for the reliability
tests (not a conftest, so that its name is unique when several test directories run together).

The binary comes from env BINDERY_BIN (default .build/debug/bindery, relative to the repository);
the thin client from env BINDERY_PUBLIC (default Public). Each server's output goes to
artifacts/reliability-<name>.log.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy  # noqa: F401 (re-exported)


@functools.cache
def serve_help() -> str:
    """What `bindery serve --help` prints (to see which options this build has)."""
    done = subprocess.run([str(binary_path()), "serve", "--help"], capture_output=True, text=True, timeout=30)
    return done.stdout + done.stderr


class Bindery:
    """One `bindery serve` on 127.0.0.1, its store in `directory` (SQLite) or in memory."""

    def __init__(self, directory: Path, name: str, options: list[str], store: str = "sqlite"):
        self.directory = directory
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store = f"sqlite:{directory / 'bindery.sqlite'}" if store == "sqlite" else store
        self.options = options
        self.process: subprocess.Popen | None = None
        self._log = None

    def command(self) -> list[str]:
        return [
            str(binary_path()), "serve",
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--store", self.store,
            "--public-dir", str(public_dir()),
            "--upstream-latency-ms", "20",
            "--upstream-travel-failure-rate", "0",
            "--log-level", "warning",
            *self.options,
        ]

    def start(self, timeout: float = 30.0) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self._log = open(ARTIFACTS / f"reliability-{self.name}.log", "w")
        # The working directory is a temporary one: nothing lands in the repository's .bindery/.
        self.process = subprocess.Popen(self.command(), cwd=self.directory, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.base, timeout, f"artifacts/reliability-{self.name}.log")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        stop_process(self.process)
        if self._log:
            self._log.close()
            self._log = None
