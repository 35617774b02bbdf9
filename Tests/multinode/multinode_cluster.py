"""Processes of the multi-node tests: a real PostgreSQL from Debian's packages in a temporary
directory, Bindery nodes on one store, and nginx in front of them; each on a free loopback port,
started and stopped by the tests (never a system service). Not a conftest, so that its name is
unique when several test directories run together; scripts/bench-multinode imports it too.

The binary comes from env BINDERY_BIN (default .build/debug/bindery, relative to the repository);
the thin client from env BINDERY_PUBLIC (default Public). Logs land in artifacts/multinode-*.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

# The process helpers the durability tests use (binary, public dir, free ports): one copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "durability"))
from bindery_process import ARTIFACTS, REPO, binary_path, free_port, public_dir  # noqa: E402

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
HEARTBEAT = 2       # seconds: the nodes' SSE heartbeat in the tests (a dead stream is noticed quickly)


def log_tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(text[-lines:]) or "(empty log)"


def wait_for_http(url: str, timeout: float, alive=lambda: True, what: str = "") -> None:
    """Polls `url` until it answers 200; raises when `alive()` turns false or time is up."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError(f"{what or url}: the process exited before {url} answered 200 ({last})")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
                last = f"status {response.status}"
        except urllib.error.HTTPError as error:
            last = f"status {error.code}"
        except (OSError, urllib.error.URLError) as error:
            last = str(error)
        time.sleep(0.05)
    raise RuntimeError(f"{what or url}: {url} did not answer 200 within {timeout:.0f} s (last: {last})")


def _stop_process(process: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


# ----------------------------------------------------------------------------------- PostgreSQL

def postgres_bindir() -> Path:
    """The server binaries of Debian's PostgreSQL (15 preferred): `pg_config --bindir`, else a glob."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            candidates.append(Path(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                                  timeout=10, check=True).stdout.strip()))
        except (subprocess.SubprocessError, OSError):
            pass
    candidates += [Path("/usr/lib/postgresql/15/bin")] + [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for candidate in candidates:
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            return candidate
    raise RuntimeError("no PostgreSQL server binaries (initdb, pg_ctl) found: run scripts/install-deps --test "
                       "(Debian's postgresql package)")


class Postgres:
    """One PostgreSQL server in a temporary directory, on 127.0.0.1:PORT, its socket in that directory.

    As root, the server binaries run as the `postgres` user (initdb refuses root). Authentication
    is `trust`, on loopback only."""

    def __init__(self, name: str = "postgres"):
        self.bindir = postgres_bindir()
        self.name = name
        self.port = free_port()
        # Directly under /tmp (not pytest's 0700 tmp_path): the postgres user must reach it.
        self.dir = Path(tempfile.mkdtemp(prefix="bindery-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.started = False
        self.as_root = os.geteuid() == 0
        if self.as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        os.chmod(self.dir, 0o700)

    def _server_command(self, *args: str) -> list[str]:
        return (["runuser", "-u", "postgres", "--"] if self.as_root else []) + list(args)

    def _run(self, command: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed with status {result.returncode}:\n"
                               f"{result.stdout}{result.stderr}\n--- server log:\n{log_tail(self.log)}")
        return result

    def start(self) -> None:
        if not self.data.exists():
            self._run(self._server_command(str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust",
                                           "-U", "postgres", "-E", "UTF8", "--no-sync"), timeout=120)
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c max_connections=200"
        self._run(self._server_command(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                                       "-o", options, "-w", "-t", "60", "start"), timeout=90)
        self.started = True

    def stop(self) -> None:
        """`pg_ctl -m fast stop`; keeps the log in artifacts/ and removes the directory."""
        try:
            if self.started:
                try:
                    self._run(self._server_command(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                                                   "-w", "-t", "30", "stop"), timeout=45)
                except (RuntimeError, subprocess.TimeoutExpired):
                    self._kill_postmaster()
                self.started = False
        finally:
            ARTIFACTS.mkdir(exist_ok=True)
            if self.log.exists():
                shutil.copyfile(self.log, ARTIFACTS / f"multinode-{self.name}.log")
            shutil.rmtree(self.dir, ignore_errors=True)

    def _kill_postmaster(self) -> None:
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return
        for sig, pause in ((signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
            deadline = time.monotonic() + pause
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    return
                time.sleep(0.1)

    # -- SQL through psql (no Python driver needed)

    def psql(self, sql: str, database: str = "postgres", timeout: float = 30) -> list[list[str]]:
        """Runs `sql` (one statement) and returns its rows, each a list of column texts."""
        psql = self.bindir / "psql"
        command = [str(psql if psql.exists() else "psql"), "-X", "-q", "-A", "-t", "-F", "\x1f",
                   "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                   "-d", database, "-c", sql]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                                env={**os.environ, "PGAPPNAME": "bindery-tests", "PGCONNECT_TIMEOUT": "5"})
        if result.returncode != 0:
            raise RuntimeError(f"psql {sql!r} failed: {result.stderr.strip()}")
        return [line.split("\x1f") for line in result.stdout.splitlines() if line]

    def create_database(self, prefix: str = "bindery") -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.psql(f'CREATE DATABASE "{name}"')
        return name

    def url(self, database: str) -> str:
        """The `--store` value of a node on `database`."""
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def backends(self, database: str) -> list[dict]:
        """The other sessions connected to `database` (pg_stat_activity), for checks and messages."""
        rows = self.psql(
            "SELECT pid, coalesce(application_name, ''), coalesce(state, ''), "
            "replace(replace(left(coalesce(query, ''), 120), chr(10), ' '), chr(31), ' ') "
            f"FROM pg_stat_activity WHERE datname = '{database}' AND pid <> pg_backend_pid() ORDER BY pid")
        return [{"pid": int(r[0]), "application_name": r[1], "state": r[2], "query": r[3]} for r in rows]

    def terminate_listeners(self, database: str) -> list[dict]:
        """Kills, from the database side, the connections that LISTEN for the nodes' change feed:
        those whose last statement was LISTEN (an idle LISTEN connection shows `query = 'LISTEN
        "channel"'`, state idle) or whose application_name names listening (e.g. bindery-listen).
        Returns the backends terminated."""
        rows = self.psql(
            "SELECT pid, application_name, left(query, 120), pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{database}' AND pid <> pg_backend_pid() "
            "AND (query ILIKE 'LISTEN%' OR application_name ILIKE '%listen%')")
        return [{"pid": int(r[0]), "application_name": r[1], "query": r[2], "terminated": r[3] == "t"} for r in rows]


# ------------------------------------------------------------------------------------- a node

class Node:
    """One `bindery` process on a given store, on one port across restarts."""

    def __init__(self, name: str, store: str, workdir: Path, extra: list[str] | None = None):
        self.name = name
        self.store = store
        self.workdir = workdir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.extra = extra or []
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.log_path: Path | None = None
        self._log = None

    def command(self) -> list[str]:
        return [
            str(binary_path()),
            "--port", str(self.port),
            "--store", self.store,
            "--public-dir", str(public_dir()),
            "--upstream-latency-ms", "20",
            "--upstream-travel-failure-rate", "0",
            "--log-level", "warning",
            *self.extra,
        ]

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 30.0) -> None:
        assert not self.running, f"{self.name} is already running"
        self.starts += 1
        ARTIFACTS.mkdir(exist_ok=True)
        if self._log:
            self._log.close()
        self.log_path = ARTIFACTS / f"multinode-{self.name}-{self.starts}.log"
        self._log = open(self.log_path, "w")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(self.command(), cwd=self.workdir, stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        try:
            wait_for_http(f"{self.base}/healthz", timeout, alive=lambda: self.process.poll() is None,
                          what=f"node {self.name} ({' '.join(self.command()[1:5])})")
        except RuntimeError as error:
            self._log.flush()
            raise RuntimeError(f"{error}; exit status {self.process.poll()}; its log:\n{log_tail(self.log_path)}") from None

    def wait_ready(self, timeout: float = 30.0) -> None:
        """/readyz 200: the node reaches its store."""
        wait_for_http(f"{self.base}/readyz", timeout, alive=lambda: self.running, what=f"node {self.name}")

    def stop(self) -> None:
        """SIGTERM: open streams are ended cleanly."""
        _stop_process(self.process)
        if self._log:
            self._log.close()
            self._log = None

    def restart(self, timeout: float = 30.0) -> None:
        self.stop()
        self.start(timeout)

    def kill9(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.running, f"{self.name} is not running"
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


# ------------------------------------------------------------------------------------- nginx

def nginx_executable() -> str:
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if not path:
        raise RuntimeError("no nginx executable: run scripts/install-deps --test (Debian's nginx package)")
    return path


def render_nginx_conf(listen: str, upstreams: list[str], template: Path = TEMPLATE) -> str:
    servers = "\n".join(f"        server {address} max_fails=1 fail_timeout=2s;" for address in upstreams)
    text = template.read_text(encoding="utf-8")
    assert "{{servers}}" in text and "{{listen}}" in text, f"{template} lacks a placeholder"
    return text.replace("{{servers}}", servers).replace("{{listen}}", listen)


def nginx_check(prefix: Path, conf: Path) -> subprocess.CompletedProcess:
    """`nginx -t` on a configuration, with its own prefix and error log."""
    (prefix / "logs").mkdir(parents=True, exist_ok=True)
    (prefix / "tmp").mkdir(parents=True, exist_ok=True)
    return subprocess.run([nginx_executable(), "-t", "-p", str(prefix), "-c", str(conf),
                           "-e", str(prefix / "logs" / "error.log")],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


class Nginx:
    """nginx in front of `upstreams` (host:port), with its own prefix in a temporary directory."""

    def __init__(self, upstreams: list[str], name: str = "nginx"):
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Directly under /tmp and world-traversable: the worker (user nobody when the master is root)
        # opens the temporary files under it.
        self.prefix = Path(tempfile.mkdtemp(prefix="bindery-nginx-"))
        os.chmod(self.prefix, 0o755)
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(render_nginx_conf(f"127.0.0.1:{self.port}", upstreams), encoding="utf-8")
        self.process: subprocess.Popen | None = None

    @property
    def error_log(self) -> Path:
        return self.prefix / "logs" / "error.log"

    @property
    def access_log(self) -> Path:
        return self.prefix / "logs" / "access.log"

    def check(self) -> subprocess.CompletedProcess:
        return nginx_check(self.prefix, self.conf)

    def start(self, timeout: float = 15.0) -> None:
        checked = self.check()
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t failed for {self.conf}:\n{checked.stderr}")
        self.process = subprocess.Popen(
            [nginx_executable(), "-p", str(self.prefix), "-c", str(self.conf), "-e", str(self.error_log)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited with status {self.process.returncode}:\n{log_tail(self.error_log)}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen on 127.0.0.1:{self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        """SIGTERM (fast shutdown: open event streams do not hold it up); logs kept in artifacts/."""
        try:
            _stop_process(self.process, signal.SIGTERM, timeout=10)
        finally:
            ARTIFACTS.mkdir(exist_ok=True)
            for log in (self.error_log, self.access_log):
                if log.exists():
                    shutil.copyfile(log, ARTIFACTS / f"multinode-{self.name}-{log.name}")
            shutil.rmtree(self.prefix, ignore_errors=True)

    def upstreams_used(self) -> list[str]:
        """The upstream address of each proxied request so far, from the access log."""
        addresses = []
        for line in self.access_log.read_text(errors="replace").splitlines() if self.access_log.exists() else []:
            for part in line.split():
                if part.startswith("upstream="):
                    addresses.append(part.removeprefix("upstream="))
        return addresses


# ------------------------------------------------------------------------------- the cluster

class Cluster:
    """N nodes on one store and nginx in front of them."""

    def __init__(self, store: str, count: int, workdir: Path, name: str = "cluster",
                 extra: list[str] | None = None, with_nginx: bool = True):
        # Nodes sharing a store share the key sensitive inputs are sealed with (as a deployment
        # does): a password typed on one node is there on the next.
        sealing = ["--sealing-key", secrets.token_hex(32)]
        self.nodes = [Node(f"{name}-node{i + 1}", store, workdir / f"node{i + 1}", sealing + (extra or []))
                      for i in range(count)]
        self.nginx = Nginx([f"127.0.0.1:{n.port}" for n in self.nodes], name=f"{name}-nginx") if with_nginx else None
        self.timings: dict[str, float] = {}

    @property
    def base(self) -> str:
        assert self.nginx is not None, "this cluster has no nginx"
        return self.nginx.base

    def start(self, parallel: bool = False) -> None:
        """Starts the nodes (all at once when `parallel`: the schema is created by several nodes
        at the same time), then nginx."""
        began = time.monotonic()
        if parallel:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=len(self.nodes)) as pool:
                for future in [pool.submit(node.start) for node in self.nodes]:
                    future.result()
        else:
            for node in self.nodes:
                node.start()
        self.timings["nodes"] = time.monotonic() - began
        if self.nginx:
            began = time.monotonic()
            self.nginx.start()
            self.timings["nginx"] = time.monotonic() - began

    def stop(self) -> None:
        errors = []
        for part in ([self.nginx] if self.nginx else []) + self.nodes:
            try:
                part.stop()
            except Exception as error:  # stop everything even when one part fails
                errors.append(f"{part}: {error}")
        if errors:
            raise RuntimeError("; ".join(errors))
