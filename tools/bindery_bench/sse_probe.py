"""What one watcher receives when the current city of a loaded list changes (issue 13: <= 2 KB):
a `?patches=1` stream of the list read in a thread, the city PATCHed, the frames after the first
snapshot counted and sized (event, id and data lines; HTTP chunking not counted)."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
import urllib.request
from urllib.parse import urlsplit

from .figures import SummaryFile


def call(base: str, method: str, path: str, token: str, body: dict | None = None, headers: dict | None = None) -> bool:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            response.read()
            return True
    except OSError:
        return False


class Reader(threading.Thread):
    """The stream's body as it comes (chunking undone), until closed."""

    def __init__(self, base: str, path: str, token: str):
        super().__init__(daemon=True)
        url = urlsplit(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.body = b""

    def run(self):
        try:
            while chunk := self.response.read1(65536):
                self.body += chunk
        except (OSError, ValueError, http.client.HTTPException):
            pass

    def close(self):
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.join(5)
        self.conn.close()


def frames(body: bytes) -> tuple[int, int, int, str]:
    """(first snapshot's bytes, events after it, their bytes, their kinds) of a stream's body; frames
    are separated by blank lines; `retry:` and comments (heartbeats) are not events."""
    first = events = total = 0
    kinds = []
    n = 0
    for frame in re.split(rb"\n\n+", body.lstrip(b"\n")):
        if not re.search(rb"(^|\n)data:", frame):
            continue
        n += 1
        size = len(frame) + 2
        if n == 1:
            first = size
            continue
        events += 1
        total += size
        kinds.append("patch" if re.search(rb"(^|\n)event: patch", frame) else "snapshot")
    return first, events, total, ",".join(kinds) or "none"


def probe(base: str, token: str, settle: float, note: SummaryFile) -> None:
    if not call(base, "POST", "/api/views/list/commands/load", token, headers={"Prefer": "wait=10"}):
        print("(SSE probe: the list's load failed)")
    reader = Reader(base, "/api/views/list/events?patches=1", token)
    reader.start()
    for _ in range(50):
        if b"data:" in reader.body:
            break
        time.sleep(0.1)
    if not call(base, "PATCH", "/api/views/list", token, {"currentCityId": 10},
                {"Content-Type": "application/merge-patch+json"}):
        print("(SSE probe: the city's PATCH failed)")
    time.sleep(settle)   # everything the change causes (a reload would show up as more events)
    reader.close()
    first, events, total, kinds = frames(reader.body)
    print("SSE: a watcher of the loaded list (GET /api/views/list/events?patches=1) got its first snapshot")
    print(f"     ({first} bytes); changing the city (PATCH currentCityId) then sent it {events} event(s):")
    print(f"     {kinds}, {total} bytes in all (event, id and data lines; HTTP chunking not counted)")
    note("sse_first_bytes", first)
    note("sse_change_events", events)
    note("sse_change_bytes", total)
    note("sse_change_kinds", kinds)
