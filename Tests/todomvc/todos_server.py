"""The Todos example's executable (Examples/Todos, `TodosServer`) on a free loopback port, its store
and its accounts file in a directory of the test's; it can stop (SIGTERM), be killed (SIGKILL) and
start again on the same port and files. Output: artifacts/todos-<name>-<port>.log."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, Account, free_port, sign_in, stop_process, wait_until_healthy

TODOS = REPO / "Examples" / "Todos"
ADA = Account("ada", "correct horse ada", "ada", "ada")
GRACE = Account("grace", "battery staple grace", "grace", "grace")


def todos_binary() -> Path:
    """`BINDERY_TODOS_BIN`, or the debug build in the repository's .build/."""
    path = Path(os.environ.get("BINDERY_TODOS_BIN", ".build/debug/TodosServer"))
    return path if path.is_absolute() else REPO / path


class TodosServer:
    def __init__(self, directory: Path, name: str):
        self.directory = directory
        self.accounts = directory / "accounts.txt"
        self.port = free_port()
        self.name = f"{name}-{self.port}"  # unique beside another worker's servers (pytest-xdist)
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self._log = None

    def add_users(self, *accounts: Account) -> None:
        """`TodosServer add-user` for each account, the password on standard input, hashed at bcrypt's
        lowest cost: a sign-in of the suite's takes milliseconds, not the 0.7 s of the default cost."""
        for account in accounts:
            subprocess.run([str(todos_binary()), "add-user", "--accounts", str(self.accounts), "--cost", "4", account.phone],
                           input=account.password + "\n", text=True, check=True, timeout=60)

    def start(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self._log = open(ARTIFACTS / f"todos-{self.name}.log", "a")
        command = [str(todos_binary()), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--store", f"sqlite:{self.directory / 'todos.sqlite'}", "--accounts", str(self.accounts),
                   "--public-dir", str(TODOS / "Public"), "--log-level", "warning"]
        self.process = subprocess.Popen(command, cwd=self.directory, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.base, 30, f"artifacts/todos-{self.name}.log")

    def stop(self) -> None:
        """SIGTERM: a graceful stop."""
        stop_process(self.process)
        if self._log:
            self._log.close()
            self._log = None

    def kill9(self) -> None:
        """SIGKILL: the process ends at once, without any shutdown work."""
        self.process.kill()
        self.process.wait(timeout=10)
        self._log.close()
        self._log = None

    def api(self, account: Account) -> "TodosAPI":
        return TodosAPI(self.base, sign_in(self.base, account))


class TodosAPI:
    """A session of its own over the HTTP API, signed in."""

    def __init__(self, base: str, token: str):
        self.base, self.token = base, token

    def call(self, method: str, path: str, body=None):
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json", "Prefer": "wait=10"}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}/api/views/todos{path}", data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read() or b"null")

    def snapshot(self) -> dict:
        return self.call("GET", "")

    def titles(self) -> list[tuple[str, bool]]:
        """Every todo as (title, completed), with the filter at `all`."""
        if self.snapshot()["inputs"]["filter"] != "all":
            self.call("PATCH", "", {"filter": "all"})
        return [(item["title"], item["completed"]) for item in self.snapshot()["outputs"]["items"]]

    def empty_list(self) -> None:
        if self.snapshot()["outputs"]["hasTodos"]:
            self.call("POST", "/commands/toggleAll", {"completed": True})
            self.call("POST", "/commands/clearCompleted")
        assert not self.snapshot()["outputs"]["hasTodos"]
