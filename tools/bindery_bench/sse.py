"""An event stream read on asyncio: `GET …/events` with a bearer token, frames parsed as they come,
the versions (`id:`) and heartbeats counted, and futures resolved when a version arrives. The
streams probes (write-to-push, idle-streams) subclass it for how they connect and fail."""

from __future__ import annotations

import asyncio
import time

from .rawhttp import HOST


class Stream:
    def __init__(self, port: int, index: int, token: str, gate: asyncio.Semaphore,
                 path: str = "/api/views/form/events"):
        self.port, self.index, self.token, self.path = port, index, token, path
        self.gate = gate             # bounds the streams waiting for their first snapshot (a SYN burst overflows the backlog)
        self.holding = False         # holds a slot of `gate`
        self.version = None          # last id: seen
        self.connected = asyncio.Event()
        self.arrivals = []           # (version, monotonic time) since the last clear
        self.heartbeats = 0
        self.error = None
        self.closed_by_server = False
        self.writer = None
        self.waiters = []            # (version, future)

    def mark_connected(self):
        self.connected.set()
        if self.holding:
            self.holding = False
            self.gate.release()

    async def connect(self):
        """(reader, writer) of a new connection to the server."""
        return await asyncio.open_connection(HOST, self.port)

    async def refused(self, status: int, reader) -> None:
        """The stream was answered `status`, not 200."""
        self.error = f"status {status}"

    async def closed_unanswered(self, error) -> None:
        """The server closed the connection before any answer."""
        raise error

    def failed(self, error: BaseException) -> None:
        """A read or connect error ended the stream."""
        self.error = f"{type(error).__name__}: {error}"
        self.closed_by_server = self.writer is not None

    async def prepare(self) -> bool:
        """Before connecting, holding a slot: False gives up (the probe's own limits)."""
        return True

    async def run(self):
        try:
            await self.gate.acquire()
            self.holding = True
            if not await self.prepare():
                return
            reader, self.writer = await self.connect()
            self.writer.write((f"GET {self.path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                               f"Authorization: Bearer {self.token}\r\nAccept: text/event-stream\r\n\r\n").encode())
            await self.writer.drain()
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as e:
                if e.partial:
                    raise
                await self.closed_unanswered(e)
                return
            status = int(head.split(b" ", 2)[1])
            if status != 200:
                await self.refused(status, reader)
                return
            await self.read_frames(reader, b"transfer-encoding: chunked" in head.lower())
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
            if self.writer is None or not self.writer.is_closing():
                self.failed(e)
        except asyncio.CancelledError:
            pass
        finally:
            self.mark_connected()

    async def read_frames(self, reader, chunked: bool) -> None:
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    self.closed_by_server = True
                    return
                piece = await reader.readexactly(size + 2)
                buffer += piece[:-2]
            else:
                piece = await reader.read(65536)
                if not piece:
                    self.closed_by_server = True
                    return
                buffer += piece
            while b"\n\n" in buffer:
                frame, buffer = buffer.split(b"\n\n", 1)
                self.on_frame(frame.decode())

    def on_frame(self, frame: str) -> None:
        now = time.monotonic()
        version = None
        for line in frame.split("\n"):
            if line.startswith(": heartbeat"):
                self.heartbeats += 1
            elif line.startswith("id:"):          # other comments and data: lines need no reading
                version = int(line[3:].strip())
        if version is None:
            return
        self.version = version
        self.arrivals.append((version, now))
        self.mark_connected()
        for want, fut in list(self.waiters):
            if version >= want and not fut.done():
                fut.set_result(now)

    def reached(self, version):
        """When this stream first had `version` or a later one since the last clear, or None."""
        for v, t in self.arrivals:
            if v >= version:
                return t
        return None

    def close(self):
        if self.writer is not None and not self.writer.is_closing():
            self.writer.close()


def failure_counts(streams) -> dict:
    errors = {}
    for s in streams:
        errors[s.error or "no snapshot"] = errors.get(s.error or "no snapshot", 0) + 1
    return errors


def start(streams) -> None:
    """Each stream's `run()` as its `task`."""
    for s in streams:
        s.task = asyncio.create_task(s.run())


async def open_all(streams, timeout: float = 120) -> tuple[list, list, float]:
    """Starts the streams and waits until each has its first snapshot or failed (`timeout` s at
    most): (failed, live, ms it took); prints the failures by error."""
    t0 = time.monotonic()
    start(streams)
    try:
        await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in streams)), timeout)
    except asyncio.TimeoutError:
        pass
    failed = [s for s in streams if s.error or s.version is None]
    live = [s for s in streams if not s.error and s.version is not None]
    return failed, live, (time.monotonic() - t0) * 1000


def print_failures(failed) -> None:
    for e, count in failure_counts(failed).items():
        print(f"  {count} x {e}")


async def close_all(streams) -> list:
    """Closes every stream (the server notices at its next write to each, a heartbeat) and ends
    their tasks; the streams the server had closed before."""
    dropped = [s for s in streams if s.closed_by_server]
    for s in streams:
        s.close()
    tasks = [s.task for s in streams if getattr(s, "task", None)]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return dropped
