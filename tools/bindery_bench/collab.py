"""Collaborative text figures (issue 27), on loopback against one server on SQLite:

  ops/s   how many text edits one value takes per second: W writers (default 4) POST inserts to
          the blurb of one recipe for D seconds, each on the newest revision it knows (so most are
          transformed against the others'); counts the 200s.
  push    time from an edit's answer to the last of N watchers (default 1,000 sessions, one event
          stream each, `?patches=1` as the browser client asks) receiving its `edits` event: p50
          and p99 over E edits (default 50), sent one every 100 ms. The watchers are read by this
          one Python thread, so the figure includes its reading of N sockets.

  BINDERY_BIN=.build/release/bindery scripts/bench-collab [--writers 4] [--seconds 10]
                             [--watchers 1000] [--edits 50] [--streams-per-session 1] [--smoke]

The writers sign in as the seed server's demo administrator (c41 is an administrator's to edit),
so the server runs with the fake upstream at 0 ms and no failures (sign-ins ask it for accounts).
Starts the server itself on a free port in a temporary directory and stops it. Prints one line
per figure. Speed is reported, never asserted. --smoke: 1 s, 10 watchers, 3 edits.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from . import server
from .binary import REPO

EDIT = "/api/views/recipes/c41/edit"


class Client:
    """One keep-alive connection with a session's bearer token."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})


# The recipe c41 is edited by an administrator only (issue 37): the writers sign in as the seed
# server's demo administrator; the watchers need no user.
ADMIN = {"username": "18612345678", "password": "passw0rd"}


def new_token(port: int) -> str:
    return Client(port).call("POST", "/api/sessions")[1]["token"]


def signed_in_token(port: int) -> str:
    """A new session signed in as the administrator (POST /api/session/sign-in)."""
    status, answer = Client(port).call("POST", "/api/session/sign-in", ADMIN)
    if status != 200:
        raise SystemExit(f"signing in as the demo administrator answered {status}: {answer}")
    return answer["token"]


def ops_per_second(port: int, writers: int, seconds: float) -> tuple[float, dict]:
    revision = [Client(port, signed_in_token(port)).call("GET", f"{EDIT}/inputs/blurb")[1]["revision"]]
    counts, refused = [0] * writers, {}
    stop = time.monotonic() + seconds

    def write(index: int) -> None:
        client, n = Client(port, signed_in_token(port)), 0
        while time.monotonic() < stop:
            n += 1
            status, answer = client.call("POST", f"{EDIT}/inputs/blurb/ops",
                                         {"id": f"w{index}-{n}", "base": revision[0], "ops": [{"p": 0, "si": "x"}]})
            if status == 200:
                counts[index] += 1
                revision[0] = max(revision[0], answer["revision"])
            else:
                refused[status] = refused.get(status, 0) + 1
            if n % 100 == 0:  # keep the blurb under its length rule (2,000 characters)
                status, text = client.call("GET", f"{EDIT}/inputs/blurb")
                cut = len(text["text"]) - 100
                if cut > 0:
                    client.call("POST", f"{EDIT}/inputs/blurb/ops", {"id": f"cut{index}-{n}", "base": text["revision"],
                                                                     "ops": [{"p": 0, "sd": text["text"][:cut]}]})

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - began), refused


def push_latency(port: int, watchers: int, edits: int, per_session: int = 1, opening: float = 3.0) -> list[float]:
    sessions = [new_token(port) for _ in range((watchers + per_session - 1) // per_session)]
    tokens = [sessions[i // per_session] for i in range(watchers)]
    selector = selectors.DefaultSelector()
    buffers: dict[socket.socket, bytes] = {}
    for token in tokens:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"GET {EDIT}/events?patches=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""
    seen: dict[str, list[float]] = {}

    def read_for(seconds: float) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            for key, _ in selector.select(timeout=0.01):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                now = time.monotonic()
                buffers[sock] += chunk
                while b"\n\n" in buffers[sock]:
                    block, buffers[sock] = buffers[sock].split(b"\n\n", 1)
                    if b"event: edits" in block:
                        for edit_id in json_ids(block):
                            seen.setdefault(edit_id, []).append(now)

    read_for(opening)  # every stream open, first snapshots read
    writer = Client(port, signed_in_token(port))
    latencies = []
    for n in range(edits):
        revision = writer.call("GET", f"{EDIT}/inputs/blurb")[1]["revision"]
        status, _ = writer.call("POST", f"{EDIT}/inputs/blurb/ops", {"id": f"p{n}", "base": revision, "ops": [{"p": 0, "si": "y"}]})
        answered = time.monotonic()
        read_for(0.1)
        deadline = time.monotonic() + 5
        while len(seen.get(f"p{n}", [])) < watchers and time.monotonic() < deadline:
            read_for(0.05)
        arrivals = seen.get(f"p{n}", [])
        if status == 200 and len(arrivals) == watchers:
            latencies.append(max(arrivals) - answered)
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    return latencies


def json_ids(block: bytes) -> list[str]:
    for line in block.split(b"\n"):
        if line.startswith(b"data: "):
            data = json.loads(line[6:])
            return [e["id"] for t in data.get("texts", []) for e in (t.get("edits") or []) if e.get("id")]
    return []


def main(argv: list[str], smoke: bool) -> int:
    parser = argparse.ArgumentParser(prog="scripts/bench-collab", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=1 if smoke else 10)
    parser.add_argument("--watchers", type=int, default=10 if smoke else 1000)
    parser.add_argument("--edits", type=int, default=3 if smoke else 50)
    parser.add_argument("--streams-per-session", type=int, default=1,
                        help="watchers per session (at most 16): 1 = every watcher its own session and view model")
    args = parser.parse_args(argv)
    binary = os.environ.get("BINDERY_BIN", str(REPO / ".build/release/bindery"))
    room = str(args.watchers + 100)
    with tempfile.TemporaryDirectory() as tmp:
        bindery = server.bindery(binary, ["--store", f"sqlite:{tmp}/b.sqlite", "--max-streams", room, "--no-client",
                                          "--max-sessions-per-address", room, "--session-creation-burst", room,
                                          "--max-connections-per-ip", room, "--upstream-latency-ms", "0",
                                          "--upstream-travel-failure-rate", "0"], Path(tmp) / "server.log")
        port = bindery.port
        try:
            rate, refused = ops_per_second(port, args.writers, args.seconds)
            print(f"ops/s on one value: {rate:.0f} ({args.writers} writers, {args.seconds:.0f} s; refused by status: {refused or 'none'})")
            latencies = push_latency(port, args.watchers, args.edits, args.streams_per_session, 0.5 if smoke else 3.0)
            if latencies:
                ms = sorted(x * 1000 for x in latencies)
                p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
                print(f"edit answer -> last of {args.watchers} watchers ({args.streams_per_session} a session): p50 {statistics.median(ms):.1f} ms, "
                      f"p99 {p99:.1f} ms ({len(ms)} of {args.edits} edits reached every watcher)")
            else:
                print(f"edit answer -> watchers: no edit reached all {args.watchers} watchers")
        finally:
            bindery.stop()
    return 0
