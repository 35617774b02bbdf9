"""A reverse proxy for tests, in front of one server, as nginx is in production: it forwards every
request and streams event streams through; while the server is down it keeps serving the client's
files it has seen and answers anything else 502 Bad Gateway, as nginx does. It can also lose an
answer: it forwards the request, the server applies it and answers, and the gateway closes the
client's connection without a byte of that answer (`lose_next_answer`). It records every write it
forwarded (method, path, Idempotency-Key, body, the server's status). Every answer carries
`Connection: close`, so a client never resends a request by itself on a reused connection: a
write seen twice was sent twice by the client."""

from __future__ import annotations

import http.client
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
              "content-length"}


class Gateway:
    """A reverse proxy on a port of its own in front of `backend_port` (see the module's doc)."""

    def __init__(self, backend_port: int):
        self.backend_port = backend_port
        self.files: dict[str, tuple[int, list, bytes]] = {}  # the client's files, by path
        self.writes: list[dict] = []
        self.lock = threading.Lock()
        self.losing = None  # (method, path): the next such request's answer is lost
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                gateway.forward(self)

            do_POST = do_PATCH = do_PUT = do_DELETE = do_GET

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def lose_next_answer(self, method: str, path: str) -> None:
        with self.lock:
            self.losing = (method, path)

    def requests(self, method: str, path: str | None = None) -> list[dict]:
        with self.lock:
            return [dict(r) for r in self.writes if r["method"] == method and (path is None or r["path"] == path)]

    def forward(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        path = h.path
        is_file = h.command == "GET" and not path.startswith("/api/")
        headers = {k: v for k, v in h.headers.items() if k.lower() not in HOP_BY_HOP}
        if is_file:  # always a whole copy, to serve while the server is away
            headers = {k: v for k, v in headers.items() if k.lower() not in ("if-none-match", "if-modified-since")}
        record = None
        lose = False
        if h.command != "GET":
            record = {"method": h.command, "path": path, "key": h.headers.get("Idempotency-Key"),
                      "if_match": h.headers.get("If-Match"), "body": body.decode(errors="replace"),
                      "status": None, "replayed": None, "lost": False}
            with self.lock:
                self.writes.append(record)
                if self.losing == (h.command, path):
                    lose, self.losing = True, None
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.backend_port, timeout=120)
            conn.request(h.command, path, body=body if length else None, headers=headers)
            response = conn.getresponse()
        except OSError:  # the server is down
            if is_file and path in self.files:
                self.reply(h, *self.files[path])
            else:
                self.reply(h, 502, [("Content-Type", "text/html")], b"<html><body><h1>502 Bad Gateway</h1></body></html>")
            return
        try:
            kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
            if record is not None:
                with self.lock:
                    record["status"] = response.status
                    record["replayed"] = response.getheader("Idempotent-Replayed")
            if lose:
                response.read()  # the server applied it and answered; the browser never hears it
                with self.lock:
                    record["lost"] = True
                h.close_connection = True
                h.connection.shutdown(socket.SHUT_RDWR)
                return
            if (response.getheader("Content-Type") or "").startswith("text/event-stream"):
                h.send_response_only(response.status)
                for k, v in kept:
                    h.send_header(k, v)
                h.send_header("Connection", "close")
                h.end_headers()
                h.wfile.flush()
                h.close_connection = True
                while chunk := response.read1(65536):
                    h.wfile.write(chunk)
                    h.wfile.flush()
                return
            data = response.read()
            if is_file and response.status == 200:
                self.files[path] = (200, kept, data)
            self.reply(h, response.status, kept, data)
        except (OSError, http.client.HTTPException):
            h.close_connection = True  # the server went away mid-answer, or the browser left
        finally:
            conn.close()

    @staticmethod
    def reply(h, status: int, headers: list, data: bytes) -> None:
        h.send_response_only(status)
        for k, v in headers:
            h.send_header(k, v)
        if status not in (204, 304):
            h.send_header("Content-Length", str(len(data)))
        h.send_header("Connection", "close")
        h.end_headers()
        if status not in (204, 304):
            h.wfile.write(data)
        h.close_connection = True
