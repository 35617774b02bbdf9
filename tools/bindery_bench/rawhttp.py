"""HTTP/1.1 on asyncio streams, as the probes speak it: one request on a connection of its own, or a
keep-alive connection; bodies by Content-Length or chunked."""

from __future__ import annotations

import asyncio

HOST = "127.0.0.1"


def parse_head(head: bytes) -> tuple[int, dict]:
    status = int(head.split(b" ", 2)[1])
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers


def dechunk_all(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2:]
    return out


async def request(port: int, method: str, path: str, headers=None, body: str | None = None):
    """One request on its own connection; returns (status, headers, body); status 0 when the server
    closed it without an answer (e.g. reset over a connection limit)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    data = body.encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if body is not None:
        lines.append(f"Content-Length: {len(data)}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    if not raw:
        return 0, {}, b"{}"
    head, _, rest = raw.partition(b"\r\n\r\n")
    status, hdrs = parse_head(head)
    if hdrs.get("transfer-encoding", "").lower() == "chunked":
        rest = dechunk_all(rest)
    return status, hdrs, rest


class Connection:
    """One keep-alive HTTP/1.1 connection; answers with Content-Length or chunked bodies."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, headers=None, body=b""):
        # A kept connection idle for long (the metrics one, during a long step) may have been
        # closed by the server meanwhile (its head deadline): open a new one and send again.
        reused = self.writer is not None
        try:
            return await self._request(method, path, headers, body)
        except (asyncio.IncompleteReadError, ConnectionError):
            if not reused:
                raise
            self.writer.close()
            self.writer = None
            return await self._request(method, path, headers, body)

    async def _request(self, method, path, headers, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        status, hdrs = parse_head(await self.reader.readuntil(b"\r\n\r\n"))
        if hdrs.get("transfer-encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
        else:
            data = await self.reader.readexactly(int(hdrs.get("content-length", "0")))
        if hdrs.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, data

    def close(self):
        if self.writer:
            self.writer.close()
            self.writer = None
