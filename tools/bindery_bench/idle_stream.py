"""The streams of bench-idle-streams: spread over source addresses of 127/8 (one address reaches one
server port from the ephemeral range only), within this client's own descriptors, each failure
recorded with its exact error; after enough failures the rest are not attempted."""

from __future__ import annotations

import asyncio
import resource
import socket
import time

from .rawhttp import HOST
from .sse import Stream

# bind() before connect() would pick the port at bind, from one range for every destination; with
# this option the kernel picks it at connect, per (source, destination): ~28k per source address.
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)
NOT_ATTEMPTED = "not attempted"


class Budget:
    """This client's descriptors (streams stop short of its own limit, keeping some for /metrics and
    /proc) and the failures so far: once `stop_after` streams failed, what gave out is known."""

    def __init__(self, stop_after: int):
        self.soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.client_budget = self.soft_limit - 128
        self.sockets = 0
        self.failures = 0
        self.stopped = False
        self.stop_after = stop_after


async def open_from(source: str, port: int):
    """A connection to the server from `source` (an address of 127/8), the port picked at connect."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((source, 0))
        await loop.sock_connect(sock, (HOST, port))
    except BaseException:
        sock.close()
        raise
    return await asyncio.open_connection(sock=sock)


class SourceStream(Stream):
    def __init__(self, port, index, token, gate, budget: Budget, sources: list[str], per_address: int):
        super().__init__(port, index, token, gate)
        self.source = sources[min(index // per_address, len(sources) - 1)]
        self.budget = budget
        self.failed_at = None        # monotonic time of the error, to find the first one
        self.counted = False         # holds one of the client's descriptors

    def fail(self, error: str) -> None:
        """Records the stream's failure and gives its descriptor back for the streams still to open."""
        self.error = error
        self.failed_at = time.monotonic()
        self.release_socket()
        self.budget.failures += 1
        if self.budget.failures >= self.budget.stop_after:
            self.budget.stopped = True

    def release_socket(self) -> None:
        self.close()
        if self.counted:
            self.counted = False
            self.budget.sockets -= 1

    async def prepare(self) -> bool:
        if self.budget.stopped:   # enough failures to know what gave out: do not wait for the rest to fail
            self.error = NOT_ATTEMPTED
            return False
        if self.budget.sockets >= self.budget.client_budget:
            self.fail(f"client: its own open-file limit is full ({self.budget.sockets} streams, "
                      f"ulimit -n {self.budget.soft_limit})")
            return False
        self.budget.sockets += 1
        self.counted = True
        return True

    async def connect(self):
        return await open_from(self.source, self.port)

    async def closed_unanswered(self, error) -> None:
        # libmicrohttpd closes what it accepts beyond its connection limit, unanswered.
        self.fail(f"closed by the server without an answer ({type(error).__name__}: {error})")

    async def refused(self, status: int, reader) -> None:
        # The problem's title says which limit refused it (connections, streams...).
        try:
            body = await asyncio.wait_for(reader.read(600), 2)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            body = b""
        title = ""
        if b'"title"' in body:
            title = body.split(b'"title"', 1)[1].split(b'"')[1].decode(errors="replace")
        self.fail(f"status {status}" + (f" ({title})" if title else ""))

    def failed(self, error: BaseException) -> None:
        self.closed_by_server = self.writer is not None
        where = "" if self.writer is not None else "client: "   # no connection yet: our side
        self.fail(f"{where}{type(error).__name__}: {error}")
