"""The Counter example's own executable (Examples/Counter, `CounterServer`) on a free loopback port,
its store a SQLite file in a temporary directory (not a conftest, so its name is unique when several
test directories run together).

The binary comes from env BINDERY_COUNTER_BIN (default .build/debug/CounterServer: scripts/test
builds the example with the repository's scratch path). Output: artifacts/counter-<name>.log."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, free_port, stop_process, wait_until_healthy

COUNTER = REPO / "Examples" / "Counter"


def counter_binary() -> Path:
    """The Counter's server: `BINDERY_COUNTER_BIN`, or the debug build in the repository's .build/."""
    path = Path(os.environ.get("BINDERY_COUNTER_BIN", ".build/debug/CounterServer"))
    return path if path.is_absolute() else REPO / path


class CounterServer:
    """`CounterServer serve` with the same options `bindery` takes; it can stop and start again on
    the same port and store."""

    def __init__(self, directory: Path, name: str, options: tuple[str, ...] = ()):
        self.directory, self.name, self.options = directory, name, options
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self._log = None

    def start(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self._log = open(ARTIFACTS / f"counter-{self.name}.log", "a")
        command = [str(counter_binary()), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--store", f"sqlite:{self.directory / 'counter.sqlite'}",
                   "--public-dir", str(COUNTER / "Public"), "--log-level", "warning", *self.options]
        # From a temporary directory: the example's Public/ is found through --public-dir, the
        # thin client next to the binary.
        self.process = subprocess.Popen(command, cwd=self.directory, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.base, 30, f"artifacts/counter-{self.name}.log")

    def stop(self) -> None:
        stop_process(self.process)
        if self._log:
            self._log.close()
            self._log = None
