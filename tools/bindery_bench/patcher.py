"""PATCHes of the form from a process of its own, on one keep-alive connection (a fresh one after the
server closed it), so an answer's time is taken when it arrives, not when the probe's busy event
loop gets round to it (CLOCK_MONOTONIC is system-wide). One JSON line out per line in."""

from __future__ import annotations

import asyncio
import json
import sys

from .rawhttp import HOST

SCRIPT = r"""
import http.client, json, sys, time
conn = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=60)
for line in sys.stdin:
    token, body = line.split(" ", 1)
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/merge-patch+json"}
    for attempt in (1, 2):
        try:
            sent = time.monotonic()
            conn.request("PATCH", "/api/views/form", body.strip(), headers)
            response = conn.getresponse()
            data = response.read()
            answered = time.monotonic()
            break
        except (http.client.HTTPException, ConnectionError, OSError) as e:
            conn.close()   # reconnects at the next request
            if attempt == 2:
                print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
                data = None
    if data is None:
        continue
    try:
        version = json.loads(data).get("version")
    except ValueError:
        version = None
    if version is None and response.getheader("ETag"):
        digits = "".join(c for c in response.getheader("ETag") if c.isdigit())
        version = int(digits) if digits else None
    print(json.dumps({"sent": sent, "answered": answered, "status": response.status, "version": version,
                      "timing": response.getheader("Server-Timing"),
                      "body": data[:200].decode(errors="replace") if response.status != 200 else None}), flush=True)
"""


class Patcher:
    """The PATCHing process; `patch(token, fields)` answers its JSON line as a dict."""

    async def start(self, port: int) -> "Patcher":
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SCRIPT, HOST, str(port),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        return self

    async def patch(self, token: str, fields: dict) -> dict:
        self.process.stdin.write(f"{token} {json.dumps(fields)}\n".encode())
        await self.process.stdin.drain()
        return json.loads(await self.process.stdout.readline())

    async def stop(self) -> None:
        self.process.stdin.close()
        await self.process.wait()
