"""Clients of the reliability tests: a probe that measures what an ordinary client gets, and
connection floods (idle, slowloris or slow-body) from one or many loopback source addresses,
opened once or held (reopened as the server closes them).

Linux routes all of 127.0.0.0/8 to the loopback interface, so a client socket bound to
127.0.0.X before `connect` looks to the server like a different client address: that is how
"11 addresses" are made on one machine. Everything here stays on loopback.
"""

from __future__ import annotations

import json
import math
import select
import socket
import threading
import time
from dataclasses import dataclass, field

PROBE_TIMEOUT = 5.0
"""Seconds a probe request may take before it counts as hung (the original outage lasted 30 s)."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self):
        return json.loads(self.body)


def connect_from(source: str, port: int, timeout: float = PROBE_TIMEOUT) -> socket.socket:
    """A TCP connection to 127.0.0.1:port whose source address is `source` (127.0.0.X)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return sock


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"",
            source: str = "127.0.0.1", timeout: float = PROBE_TIMEOUT) -> Answer:
    """One request on a new connection (`Connection: close`), read to the end.

    Raises OSError (including socket.timeout) when the connection is refused, reset or the
    whole exchange takes longer than `timeout`."""
    began = time.monotonic()
    deadline = began + timeout
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    with connect_from(source, port, timeout) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        chunks = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout(f"no complete answer within {timeout} s")
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    head, _, rest = raw.partition(b"\r\n\r\n")
    if not head:
        raise ConnectionError("the connection closed without an answer")
    status_line, *field_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in field_lines:
        name, _, value = line.partition(":")
        parsed[name.strip().lower()] = value.strip()
    return Answer(int(status_line.split()[1]), parsed, rest, time.monotonic() - began)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


@dataclass
class ProbeReport:
    """What the probe saw: one entry per request, (status or error name, seconds)."""
    label: str
    outcomes: list[tuple[str, float]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.outcomes)

    def share(self, *kinds: str) -> float:
        return sum(1 for kind, _ in self.outcomes if kind in kinds) / max(1, self.count)

    @property
    def success_rate(self) -> float:
        return self.share("200")

    @property
    def latencies(self) -> list[float]:
        return [seconds for _, seconds in self.outcomes]

    def p(self, fraction: float) -> float:
        return percentile(self.latencies, fraction)

    @property
    def slowest(self) -> float:
        return max(self.latencies, default=0.0)

    def kinds(self) -> dict[str, int]:
        counted: dict[str, int] = {}
        for kind, _ in self.outcomes:
            counted[kind] = counted.get(kind, 0) + 1
        return dict(sorted(counted.items()))

    def summary(self) -> str:
        return (f"{self.label}: {self.count} requests, success {100 * self.success_rate:.1f} %, "
                f"p50 {1000 * self.p(0.5):.1f} ms, p99 {1000 * self.p(0.99):.1f} ms, "
                f"max {1000 * self.slowest:.1f} ms, outcomes {self.kinds()}")


def probe(port: int, token: str, count: int, label: str, interval: float = 0.02,
          source: str = "127.0.0.1") -> ProbeReport:
    """`count` requests from `source`, one every `interval` seconds (or as soon as the previous
    one ended), each on a new connection, alternating GET /healthz and a session's
    GET /api/views/form (bearer token). A request that is refused, reset or not answered within
    PROBE_TIMEOUT counts by its error's name, with the time it took."""
    report = ProbeReport(label)
    start = time.monotonic()
    for index in range(count):
        wait = start + index * interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        path, headers = (("/healthz", {}) if index % 2 == 0
                         else ("/api/views/form", {"Authorization": f"Bearer {token}"}))
        began = time.monotonic()
        try:
            answer = request(port, "GET", path, headers, source=source)
            report.outcomes.append((str(answer.status), answer.seconds))
        except OSError as error:
            report.outcomes.append((type(error).__name__, time.monotonic() - began))
    return report


def create_session(port: int, source: str = "127.0.0.1") -> str:
    answer = request(port, "POST", "/api/sessions", source=source)
    assert answer.status == 201, answer
    return answer.json()["token"]


def is_closed(sock: socket.socket) -> bool:
    """Whether the server closed (or reset) this connection; an answer it sent counts as open
    until the close arrives."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        return sock.recv(65536, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


SLOW_BODY_LENGTH = 65536
"""The Content-Length a slow-body connection announces: trickled one byte at a time, it never
arrives during a test (and stays under the 1 MiB body limit, so the head is accepted)."""


class Flood:
    """Connections held open from loopback addresses: `idle` ones send nothing, `slowloris`
    ones send a partial request head and then one more header line every `trickle` seconds,
    `slowbody` ones send a complete head (`POST /api/sessions` with a Content-Length of
    SLOW_BODY_LENGTH) and then one byte of the body every `trickle` seconds. An idle or
    slowloris connection waits for a request head; a slow-body one is busy with a request.

    A background thread does the trickling; `hold()` keeps an address at a number of open
    connections, opening new ones as the server closes them (an attacker who reconnects);
    `close()` stops both and closes every socket."""

    def __init__(self, port: int, mode: str, trickle: float = 2.0):
        assert mode in ("idle", "slowloris", "slowbody")
        self.port = port
        self.mode = mode
        self.trickle = trickle
        self.sockets: dict[str, list[socket.socket]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._holders: list[threading.Thread] = []
        self.trickled = 0
        self.reopened = 0
        """Connections `hold()` opened to replace ones the server closed (or refused)."""

    def _connect(self, address: str) -> socket.socket | None:
        try:
            sock = connect_from(address, self.port, timeout=2.0)
        except OSError:
            return None
        try:
            if self.mode == "slowloris":
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-0: a\r\n")
            elif self.mode == "slowbody":
                sock.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: application/json\r\n"
                             + f"Content-Length: {SLOW_BODY_LENGTH}\r\n\r\n[".encode())
        except OSError:
            pass
        return sock

    def open(self, address: str, count: int) -> list[socket.socket]:
        """Opens `count` connections from `address` (those the server refuses are closed by it,
        see `alive`)."""
        opened = [sock for sock in (self._connect(address) for _ in range(count)) if sock is not None]
        with self._lock:
            self.sockets.setdefault(address, []).extend(opened)
        return opened

    def alive(self, address: str | None = None) -> int:
        with self._lock:
            groups = [self.sockets.get(address, [])] if address else list(self.sockets.values())
            return sum(1 for group in groups for sock in group if not is_closed(sock))

    def hold(self, address: str, count: int, interval: float = 0.05) -> None:
        """From now until `close()`: as soon as the server closes connections from `address`
        (waiting at most `interval` seconds to notice), forgets them and opens new ones until
        `count` are open (or were just opened: one the server refuses shows as closed on the next
        round). With the address at the server's per-address cap, the flood keeps it there."""
        def keep() -> None:
            while not self._stop.is_set():
                with self._lock:
                    group = list(self.sockets.get(address, []))
                try:
                    readable = select.select(group, [], [], interval)[0] if group else []
                except (OSError, ValueError):
                    readable = group
                if not readable and len(group) >= count:
                    continue
                with self._lock:
                    group = self.sockets.setdefault(address, [])
                    gone = [sock for sock in group if is_closed(sock)]
                    for sock in gone:
                        group.remove(sock)
                        sock.close()
                    missing = count - len(group)
                if not gone and missing <= 0:
                    # Readable but open (an answer the server sent): do not spin on it.
                    self._stop.wait(interval)
                    continue
                for _ in range(max(0, missing)):
                    if self._stop.is_set():
                        return
                    sock = self._connect(address)
                    if sock is None:
                        continue
                    with self._lock:
                        self.sockets.setdefault(address, []).append(sock)
                        self.reopened += 1
        thread = threading.Thread(target=keep, name=f"hold-{address}", daemon=True)
        self._holders.append(thread)
        thread.start()

    def start_trickling(self) -> None:
        if self.mode == "idle" or self._thread:
            return
        self._thread = threading.Thread(target=self._trickle_loop, name=self.mode, daemon=True)
        self._thread.start()

    def _trickle_loop(self) -> None:
        line = 1
        while not self._stop.wait(self.trickle):
            with self._lock:
                socks = [sock for group in self.sockets.values() for sock in group]
            data = f"X-Slow-{line}: a\r\n".encode() if self.mode == "slowloris" else b" "
            for sock in socks:
                try:
                    sock.send(data, socket.MSG_DONTWAIT)
                except OSError:
                    pass
            self.trickled = line
            line += 1

    def close(self) -> None:
        self._stop.set()
        for thread in [self._thread, *self._holders]:
            if thread:
                thread.join(timeout=10)
        with self._lock:
            for group in self.sockets.values():
                for sock in group:
                    sock.close()
            self.sockets.clear()


def wait_until(condition, timeout: float, step: float = 0.02) -> float | None:
    """Seconds until `condition()` held, or None when it did not within `timeout`."""
    began = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - began
        if time.monotonic() - began > timeout:
            return None
        time.sleep(step)
