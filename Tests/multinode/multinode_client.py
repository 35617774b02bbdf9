"""Clients of the multi-node tests: JSON calls with a bearer session, an SSE watcher that resumes
with Last-Event-ID across node restarts, a writer that PATCHes a session's list with If-Match and
retries, and the checks of what a watcher saw. Every wait is bounded."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import requests

from bindery_support import wait_on

TIMEOUT = 5                     # seconds, every plain HTTP request
MERGE = "application/merge-patch+json"
LOG_REACH = 64                  # versions the store's log keeps per view model (VersionLogPolicy.maxCount)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def call(base: str, method: str, path: str, token: str | None = None, body=None, headers=None,
         session: requests.Session | None = None, timeout: float = TIMEOUT) -> requests.Response:
    all_headers = {"Accept": "application/json", **(auth(token) if token else {}), **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body)
        all_headers["Content-Type"] = MERGE
    return (session or requests).request(method, base + path, data=data, headers=all_headers, timeout=timeout)


def expect(response: requests.Response, status: int, why: str = "") -> requests.Response:
    assert response.status_code == status, (
        f"{why + ': ' if why else ''}expected {status} for {response.request.method} {response.url}, "
        f"got {response.status_code} {response.text[:300]}")
    return response


def new_session(base: str) -> str:
    response = expect(requests.post(base + "/api/sessions", timeout=TIMEOUT), 201, "creating a session")
    return response.json()["token"]


def etag_version(response: requests.Response) -> int:
    body = response.json()
    assert response.headers.get("ETag") == f'"{body["version"]}"', (
        f"ETag {response.headers.get('ETag')} does not name version {body['version']}")
    return body["version"]


# ------------------------------------------------------------------------------ SSE watcher

@dataclass
class Event:
    id: int
    version: int
    inputs: dict
    connection: int             # which connection (1, 2, ...) of the watcher brought it
    first_of_connection: bool
    at: float                   # time.monotonic() of arrival


class Watcher(threading.Thread):
    """Watches `/api/views/{path}/events` of one session at `base` until stopped, reconnecting
    with Last-Event-ID whenever the stream ends (a node restarted or killed behind nginx).

    Records every event, every connection attempt's status, and 401s (a lost session)."""

    def __init__(self, base: str, token: str, path: str = "form", name: str = "watcher",
                 read_timeout: float = 10.0, reconnect_pause: float = 0.1, max_seconds: float = 300.0):
        super().__init__(daemon=True, name=name)
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.token, self.path = token, path
        self.read_timeout, self.reconnect_pause, self.max_seconds = read_timeout, reconnect_pause, max_seconds
        self.events: list[Event] = []
        self.connections = 0
        self.statuses: list[int] = []          # status of each connection attempt (or 0: no answer)
        self.unauthorized = 0                  # 401s: the session was not known
        self.errors: list[str] = []
        self.heartbeats = 0
        self.opened_at: float | None = None    # time.monotonic() when the first stream's headers came
        self._halt = threading.Event()
        self._changed = threading.Condition()
        self._conn: http.client.HTTPConnection | None = None

    @property
    def last_id(self) -> int | None:
        return self.events[-1].id if self.events else None

    def versions(self) -> list[int]:
        return [e.version for e in self.events]

    def run(self) -> None:
        deadline = time.monotonic() + self.max_seconds
        while not self._halt.is_set() and time.monotonic() < deadline:
            try:
                self._stream()
            except (OSError, http.client.HTTPException, ValueError) as error:
                if not self._halt.is_set():
                    self.errors.append(f"{type(error).__name__}: {error}")
            if self.unauthorized:
                return
            self._halt.wait(self.reconnect_pause)

    def _stream(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.read_timeout)
        self._conn = conn
        try:
            headers = {**auth(self.token), "Accept": "text/event-stream"}
            if self.last_id is not None:
                headers["Last-Event-ID"] = str(self.last_id)
            self.connections += 1
            number = self.connections
            conn.request("GET", f"/api/views/{self.path}/events", headers=headers)
            response = conn.getresponse()
            self.statuses.append(response.status)
            if response.status == 401:
                self.unauthorized += 1
                return
            if response.status != 200:
                self.errors.append(f"status {response.status}: {response.read(300)!r}")
                return
            if self.opened_at is None:
                self.opened_at = time.monotonic()
            first, fields = True, {}
            while not self._halt.is_set():
                raw = response.readline()
                if not raw:
                    return                  # the stream ended: reconnect
                line = raw.decode().rstrip("\r\n")
                if line.startswith(":"):
                    self.heartbeats += 1
                elif line.startswith("event: "):
                    fields["event"] = line[7:]  # a named event (`edits`, `presence`): not a version
                elif line.startswith("id: "):
                    fields["id"] = int(line[4:])
                elif line.startswith("data: "):
                    fields["data"] = json.loads(line[6:])
                elif line == "" and "data" in fields and "event" not in fields:
                    data = fields["data"]
                    event = Event(fields.get("id", -1), data["version"], data.get("inputs", {}), number, first,
                                  time.monotonic())
                    first, fields = False, {}
                    with self._changed:
                        self.events.append(event)
                        self._changed.notify_all()
                elif line == "":
                    fields = {}
        finally:
            self._conn = None
            conn.close()

    def stop(self, timeout: float = 5.0) -> None:
        self._halt.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(timeout)

    def wait_for(self, condition, timeout: float) -> bool:
        """Waits until `condition(self)` holds; False when `timeout` seconds passed first."""
        return wait_on(self._changed, lambda: condition(self), timeout)

    def wait_for_version(self, version: int, timeout: float) -> bool:
        return self.wait_for(lambda w: any(e.version >= version for e in w.events), timeout)

    def wait_open(self, timeout: float) -> bool:
        """Waits for the first event (a stream always starts with the current snapshot)."""
        return self.wait_for(lambda w: bool(w.events), timeout)


def gaps(watcher: Watcher) -> tuple[list[str], int]:
    """Checks that a watcher's versions only increased, with no gap except a jump right after a
    reconnect that the store's log could not cover (more than LOG_REACH versions missed: one full
    snapshot covers them). Returns (problems, jumps covered by a snapshot)."""
    problems, covered = [], 0
    for before, after in zip(watcher.events, watcher.events[1:]):
        if after.id != after.version:
            problems.append(f"event id {after.id} carries version {after.version}")
        if after.version <= before.version:
            problems.append(f"version {after.version} after {before.version} (connection {after.connection}): "
                            "versions must only increase")
        elif after.version != before.version + 1:
            if after.first_of_connection and after.version - before.version > LOG_REACH:
                covered += 1
            else:
                where = ("right after reconnecting with Last-Event-ID (the log keeps the last "
                         f"{LOG_REACH}, so they must be replayed)") if after.first_of_connection else "within one stream"
                problems.append(f"versions {before.version + 1}..{after.version - 1} never arrived, {where}")
    return problems, covered


# ------------------------------------------------------------------------------- writers

@dataclass
class Ack:
    version: int
    inputs: dict
    at: float
    base: int | None = None  # the version the write matched (If-Match): the write itself is base + 1


@dataclass
class WriterLog:
    acks: list[Ack] = field(default_factory=list)
    conflicts: int = 0              # 412: another write got there first
    ambiguous: int = 0              # no answer, 502/503/504: maybe committed, not acknowledged
    unauthorized: int = 0           # 401: the session was lost
    unexpected: list[str] = field(default_factory=list)


WRITTEN = "list"
"""What the writers write: each session's list of points of interest (its `currentCityId`), not
the login form, whose password is a sensitive input: such a view model logs no versions (a
stream resuming after a restart gets one snapshot, not the versions it missed) and its password
is on the node that was told it only, so the form cannot show that every version reached every
watcher."""


class IfMatchWriter(threading.Thread):
    """PATCHes one session's list (WRITTEN) through `base` with If-Match until stopped, each time
    to a city other than the one of the version it matches (so every write makes a version): on
    200 the write is acknowledged; on 412, or when the outcome is unknown (no answer, 5xx from a
    node going down), it reads the current version again and carries on."""

    def __init__(self, base: str, token: str, tag: str, pause: float = 0.03, max_seconds: float = 300.0):
        super().__init__(daemon=True, name=f"writer-{tag}")
        self.base, self.token, self.tag, self.pause, self.max_seconds = base, token, tag, pause, max_seconds
        self.log = WriterLog()
        self.http = requests.Session()
        self._halt = threading.Event()
        self._cities: list[int] = []

    def stop(self, timeout: float = TIMEOUT + 5) -> None:
        self._halt.set()
        self.join(timeout)

    def _current(self) -> tuple[int, dict] | None:
        """The list's current version and inputs."""
        deadline = time.monotonic() + 20
        while not self._halt.is_set() and time.monotonic() < deadline:
            try:
                response = call(self.base, "GET", f"/api/views/{WRITTEN}", self.token, session=self.http)
            except requests.RequestException:
                self._halt.wait(0.1)
                continue
            if response.status_code == 200:
                body = response.json()
                self._cities = self._cities or [city["id"] for city in body["outputs"]["cities"]]
                return etag_version(response), body["inputs"]
            if response.status_code == 401:
                self.log.unauthorized += 1
                return None
            self._halt.wait(0.1)
        return None

    def _next(self, n: int, inputs: dict) -> dict:
        """The n-th write: a city other than the current one (the writers of one session step
        through the cities from different places)."""
        others = [city for city in self._cities if city != inputs.get("currentCityId")]
        return {"currentCityId": others[(n + sum(map(ord, self.tag))) % len(others)]}

    def run(self) -> None:
        deadline = time.monotonic() + self.max_seconds
        current, n = self._current(), 0
        while current is not None and not self._halt.is_set() and time.monotonic() < deadline:
            version, known = current
            n += 1
            inputs = self._next(n, known)
            try:
                response = call(self.base, "PATCH", f"/api/views/{WRITTEN}", self.token, inputs,
                                {"If-Match": f'"{version}"'}, session=self.http)
            except requests.RequestException:
                self.log.ambiguous += 1
                current = self._current()
                continue
            if response.status_code == 200:
                acked = etag_version(response)
                body = response.json()
                # The write itself is version + 1; the answer may already show a later version the
                # node rendered right after it (a watcher arriving makes the list active), never
                # an earlier one. The inputs check below proves the write is in it.
                if acked <= version:
                    self.log.unexpected.append(f"If-Match {version} acknowledged as version {acked}")
                if body["inputs"] != inputs:
                    self.log.unexpected.append(f"version {acked} acknowledged with inputs {body['inputs']}, sent {inputs}")
                self.log.acks.append(Ack(acked, inputs, time.monotonic(), version))
                current = (acked, body["inputs"])
            elif response.status_code == 412:
                self.log.conflicts += 1
                current = self._current()
            elif response.status_code == 401:
                self.log.unauthorized += 1
                return
            elif response.status_code in (502, 503, 504):
                self.log.ambiguous += 1
                current = self._current()
            else:
                self.log.unexpected.append(f"{response.status_code} {response.text[:200]}")
                current = self._current()
            self._halt.wait(self.pause)
