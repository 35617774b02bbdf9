"""The HTTP client of the users suite (not a conftest, so that its name is unique when several test
directories run together): one request with every header of its answer kept (a sign-in's
Set-Cookie, a 429's Retry-After, a 401's WWW-Authenticate), optionally sent from another loopback
address (the sign-in limits count per client address), and an event stream followed in a thread
until the server ends it. Every wait is bounded."""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bindery_support import wait_on

TIMEOUT = 30.0      # seconds: a sign-in asks the fake upstream and runs bcrypt (about 60 ms)


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of the header `name` (case-insensitive), or None."""
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    @property
    def cookies(self) -> list[str]:
        """Every Set-Cookie of the answer."""
        return [v for k, v in self.headers if k.lower() == "set-cookie"]

    def json(self):
        return json.loads(self.body)

    def __str__(self) -> str:
        return f"{self.status} {self.body[:300]!r}"


def request(base: str, method: str, path: str, body=None, headers: dict | None = None, token: str | None = None,
            cookie: str | None = None, source: str | None = None, content_type: str = "application/json") -> Answer:
    """One request to `base` (on a fresh connection, from the loopback address `source` if given),
    with a bearer `token` or a session `cookie` (the value of `bindery_session`)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT,
                                            source_address=(source, 0) if source else None)
    all_headers = {"Accept": "application/json", **(headers or {})}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    if cookie:
        all_headers["Cookie"] = f"bindery_session={cookie}"
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        all_headers["Content-Type"] = content_type
    try:
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return Answer(response.status, response.getheaders(), response.read())
    finally:
        connection.close()


def cookie_value(set_cookie: str) -> str:
    """The session token a `Set-Cookie: bindery_session=…; …` carries."""
    first = set_cookie.split(";", 1)[0]
    name, _, value = first.partition("=")
    assert name.strip() == "bindery_session", set_cookie
    return value


def sign_in(base: str, account, token: str | None = None, cookie: str | None = None, headers: dict | None = None,
            source: str | None = None, password: str | None = None) -> Answer:
    """POST /api/session/sign-in as `account` (a bindery_support.Account; `password` instead of
    its own, to get it wrong), for the session of `token` or `cookie` (none: a new one)."""
    credentials = {**account.credentials, **({"password": password} if password is not None else {})}
    return request(base, "POST", "/api/session/sign-in", credentials, headers, token, cookie, source)


def new_session(base: str, source: str | None = None) -> str:
    answer = request(base, "POST", "/api/sessions", source=source)
    assert answer.status == 201, answer
    return answer.json()["token"]


def metric(base: str, name: str) -> float:
    """An unlabelled gauge or counter of /metrics (0 when absent)."""
    text = request(base, "GET", "/metrics").body.decode()
    return next((float(line.split()[-1]) for line in text.splitlines() if line.startswith(f"{name} ")), 0.0)


@dataclass
class Event:
    kind: str           # the `event:` field ("snapshot", "patch", "end", …; "message" when absent)
    data: str
    at: float


@dataclass
class EventStream:
    """`GET {path}` as an event stream of the session `token` at `base`, read in a thread: its
    events in order, and whether the server ended it (`closed`: the connection ended)."""
    base: str
    path: str
    token: str
    events: list[Event] = field(default_factory=list)
    status: int | None = None
    closed: bool = False
    error: str | None = None

    def __post_init__(self):
        self._changed = threading.Condition()
        self._connection: http.client.HTTPConnection | None = None
        self._thread = threading.Thread(target=self._read, daemon=True, name=f"stream {self.path}")
        self._thread.start()

    def _read(self) -> None:
        parts = urlsplit(self.base)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self._connection = connection
        try:
            connection.request("GET", self.path, headers={"Authorization": f"Bearer {self.token}",
                                                          "Accept": "text/event-stream"})
            response = connection.getresponse()
            with self._changed:
                self.status = response.status
                self._changed.notify_all()
            if response.status != 200:
                return
            kind, data = "message", []
            while True:
                line = response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    kind = text[6:].strip()
                elif text.startswith("data:"):
                    data.append(text[5:].strip())
                elif text == "":
                    if data or kind != "message":
                        with self._changed:
                            self.events.append(Event(kind, "\n".join(data), time.monotonic()))
                            self._changed.notify_all()
                    kind, data = "message", []
        except (OSError, http.client.HTTPException) as error:
            self.error = f"{type(error).__name__}: {error}"
        finally:
            with self._changed:
                self.closed = True
                self._changed.notify_all()
            connection.close()

    def wait_for(self, condition, timeout: float = 10.0) -> bool:
        """Waits until `condition(self)` holds; False when `timeout` seconds passed first."""
        return wait_on(self._changed, lambda: condition(self), timeout)

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    def close(self) -> None:
        connection = self._connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(2)
            except OSError:
                pass
        self._thread.join(5)
