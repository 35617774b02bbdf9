"""nginx's consistent hash ring (`hash KEY consistent;`, ketama), recomputed here so that a test
can say which node nginx will send a session to, and check that it does.

The algorithm of nginx's ngx_http_upstream_hash_module (ngx_http_upstream_init_chash and
ngx_http_upstream_find_chash_point): each server `host:port` of weight 1 gets 160 points; the
first is CRC32(host, NUL, port, 4 zero bytes) and each next one CRC32(host, NUL, port, the
previous point's 4 bytes little-endian); the points are sorted and equal ones kept once. A key
goes to the first point whose hash is >= CRC32(key), wrapping around. A server nginx skips (down,
or failed within `fail_timeout`) passes the key on to the next point of another server.
"""

from __future__ import annotations

import bisect
import zlib

POINTS_PER_WEIGHT = 160


def _points(servers: list[str]) -> list[tuple[int, str]]:
    points: list[tuple[int, str]] = []
    for server in servers:
        host, _, port = server.rpartition(":")
        if not port.isdigit():
            host, port = server, ""
        base = host.encode() + b"\0" + port.encode()
        previous = 0
        for _ in range(POINTS_PER_WEIGHT):
            point = zlib.crc32(base + previous.to_bytes(4, "little"))
            points.append((point, server))
            previous = point
    points.sort(key=lambda p: p[0])
    unique: list[tuple[int, str]] = []
    for point in points:
        if not unique or unique[-1][0] != point[0]:
            unique.append(point)
    return unique


class Ring:
    """The ring of `servers` (as written in nginx's `server` lines: `127.0.0.1:8081`)."""

    def __init__(self, servers: list[str]):
        self.servers = list(servers)
        self.points = _points(self.servers)
        self.hashes = [p[0] for p in self.points]

    def owners(self, key: str) -> list[str]:
        """The servers in the order nginx tries them for `key`: the owner first, then the next
        distinct server of each following point."""
        start = bisect.bisect_left(self.hashes, zlib.crc32(key.encode()))
        order: list[str] = []
        for i in range(len(self.points)):
            server = self.points[(start + i) % len(self.points)][1]
            if server not in order:
                order.append(server)
                if len(order) == len(self.servers):
                    break
        return order

    def owner(self, key: str) -> str:
        """The server nginx sends `key` to while every server is up."""
        return self.owners(key)[0]
