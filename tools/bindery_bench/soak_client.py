"""The soak's HTTP client side (Python standard library): answers counted by kind and status, a
keep-alive connection that reconnects after an error, sessions, /metrics read, a pacer."""

import http.client
import json
import threading
import time
import urllib.parse

JSON = "application/json"
MERGE_PATCH = "application/merge-patch+json"


class Stats:
    """Answers counted by (kind, status); thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, kind, status):
        with self.lock:
            key = f"{kind} {status}"
            self.counts[key] = self.counts.get(key, 0) + 1

    def snapshot(self):
        with self.lock:
            return dict(sorted(self.counts.items()))


class Client:
    """One keep-alive HTTP/1.1 connection that reconnects after an error."""

    def __init__(self, base, token=None):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.token = token
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body bytes); status 0 when the connection failed."""
        all_headers = dict(headers or {})
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers.setdefault("Content-Type", JSON)
        for attempt in (1, 2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                self.connection.request(method, path, body=data, headers=all_headers)
                response = self.connection.getresponse()
                payload = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, response, payload
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    return 0, None, b""
        return 0, None, b""

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def new_token(base):
    status, _, body = Client(base).request("POST", "/api/sessions")
    if status != 201 and status != 200:
        raise SystemExit(f"POST /api/sessions answered {status}: {body[:200]!r}")
    return json.loads(body)["token"]


def metrics(base):
    """The unlabelled and labelled series of /metrics, as {series: value}."""
    status, _, body = Client(base).request("GET", "/metrics")
    values = {}
    if status == 200:
        for line in body.decode().splitlines():
            if line and not line.startswith("#"):
                series, _, value = line.rpartition(" ")
                try:
                    values[series] = float(value)
                except ValueError:
                    pass
    return values


class Pacer:
    """Sleeps so that calls to wait() happen at most `rate` times a second."""

    def __init__(self, rate):
        self.interval = 1.0 / rate
        self.next = time.monotonic()

    def wait(self):
        self.next += self.interval
        delay = self.next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            self.next = time.monotonic()  # behind: do not burst to catch up
