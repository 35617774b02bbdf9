"""Traces end to end: the real `bindery` exports its spans over OTLP/HTTP to a receiver of ours.

A tiny OTLP/HTTP receiver (http.server in a thread, on a free 127.0.0.1 port) keeps every body
POSTed to /v1/traces and answers 200. The server starts with OTEL_EXPORTER_OTLP_ENDPOINT pointing at
it, gets a PATCH carrying a W3C `traceparent`, and is stopped with SIGTERM, which must flush the
exporter: the export holds the incoming trace id, a server span whose parent is the incoming span
id, and its children `apply`, `store commit` and `push` (the form's event stream is open). Without the OTEL_* variables nothing is exported
(a receiver on the default OTLP/HTTP port 4318 gets nothing), and OTLP/gRPC, not built in, is
refused in one line at start.

Budget: under 30 s in all (three server starts and stops of about a second each).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import secrets
import subprocess
import threading
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bindery_support import REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy

DEFAULT_OTLP_HTTP_PORT = 4318  # where an exporter bootstrapped by mistake would send, with no endpoint set


# ---- a tiny OTLP/HTTP receiver -------------------------------------------------------------------

class Receiver(ThreadingHTTPServer):
    """Keeps (path, content type, body) of every POST; answers 200 with an empty export response."""

    daemon_threads = True

    def __init__(self, port: int = 0):
        self.exports: list[tuple[str, str, bytes]] = []
        super().__init__(("127.0.0.1", port), ReceiverHandler)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class ReceiverHandler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        content_type = self.headers.get("Content-Type", "")
        self.server.exports.append((self.path, content_type, body))
        answer = b"{}" if content_type.startswith("application/json") else b""
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if answer else "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format, *args):  # noqa: A002 (http.server's signature): quiet
        pass


@contextmanager
def receiving(server: Receiver):
    """`server` answering in a thread of its own, until the block ends."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# ---- reading OTLP: protobuf (a minimal wire-format reader) and JSON --------------------------------

def fields(data: bytes):
    """The (field number, value) pairs of one protobuf message: ints for varints and fixed-width
    fields, bytes for length-delimited ones (sub-messages, strings, bytes)."""
    i = 0

    def varint():
        nonlocal i
        shift = value = 0
        while True:
            byte = data[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while i < len(data):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            yield number, varint()
        elif wire == 1:
            yield number, int.from_bytes(data[i:i + 8], "little")
            i += 8
        elif wire == 2:
            length = varint()
            yield number, data[i:i + length]
            i += length
        elif wire == 5:
            yield number, int.from_bytes(data[i:i + 4], "little")
            i += 4
        else:
            raise ValueError(f"unexpected wire type {wire}")


def spans_from_protobuf(body: bytes) -> list[dict]:
    """ExportTraceServiceRequest → [{trace, span, parent, name, service}] (ids as hex)."""
    spans = []
    for number, resource_spans in fields(body):
        if number != 1:
            continue
        service = None
        for rnumber, value in fields(resource_spans):
            if rnumber == 1:  # Resource: attributes are KeyValue{key, AnyValue{string_value}}
                for anumber, attribute in fields(value):
                    pairs = dict(fields(attribute)) if anumber == 1 else {}
                    if pairs.get(1) == b"service.name":
                        service = dict(fields(pairs[2])).get(1, b"").decode()
            elif rnumber == 2:  # ScopeSpans
                for snumber, span in fields(value):
                    if snumber == 2:
                        raw = dict(fields(span))
                        spans.append({
                            "trace": raw.get(1, b"").hex(), "span": raw.get(2, b"").hex(),
                            "parent": raw.get(4, b"").hex(), "name": raw.get(5, b"").decode(), "service": service,
                        })
    return spans


def json_id(value: str) -> str:
    """An id of OTLP/JSON as hex: the specification says hex; swift-otel writes protobuf's JSON
    mapping of bytes (base64), which this reads too."""
    if len(value) in (16, 32) and all(c in "0123456789abcdefABCDEF" for c in value):
        return value.lower()
    return base64.b64decode(value).hex()


def spans_from_json(body: bytes) -> list[dict]:
    spans = []
    for resource_spans in json.loads(body).get("resourceSpans", []):
        attributes = resource_spans.get("resource", {}).get("attributes", [])
        service = next((a["value"].get("stringValue") for a in attributes if a["key"] == "service.name"), None)
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                spans.append({
                    "trace": json_id(span["traceId"]), "span": json_id(span["spanId"]),
                    "parent": json_id(span.get("parentSpanId", "")), "name": span["name"], "service": service,
                })
    return spans


def received_spans(server: Receiver) -> list[dict]:
    spans = []
    for path, content_type, body in server.exports:
        assert path == "/v1/traces", f"export sent to {path}"
        spans += spans_from_json(body) if content_type.startswith("application/json") else spans_from_protobuf(body)
    return spans


# ---- the server --------------------------------------------------------------------------------

def start(tmp_path: Path, environment: dict[str, str], log_level: str = "error") -> tuple[subprocess.Popen, str]:
    """The real binary on a SQLite store in `tmp_path`, with only `environment`'s OTEL_* variables
    (as the API checks' conftest starts it, plus the environment)."""
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith("OTEL_")} | environment
    command = [
        str(binary_path()), "--port", str(port), "--store", f"sqlite:{tmp_path / 'bindery.sqlite'}",
        "--public-dir", str(public_dir()), "--upstream-latency-ms", "20", "--log-level", log_level,
    ]
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    with open(tmp_path / "bindery.log", "wb") as output:  # the server keeps its own descriptor
        process = subprocess.Popen(command, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_until_healthy(process, base, 30.0, str(tmp_path / "bindery.log"))
    return process, base


def new_session(base: str) -> str:
    """A session of its own: its bearer token."""
    request = urllib.request.Request(f"{base}/api/sessions", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["token"]


@contextmanager
def watching_form(base: str, token: str):
    """The session's form event stream, open for the block: a PATCH then has a watcher to push to."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", "/api/views/form/events",
                           headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        response = connection.getresponse()  # once its headers are sent, the stream is registered
        assert response.status == 200
        yield
    finally:
        connection.close()


def patch_form(base: str, token: str, traceparent: str) -> None:
    """One PATCH of the session's form carrying `traceparent`."""
    request = urllib.request.Request(
        f"{base}/api/views/form", data=json.dumps({"phone": "1860"}).encode(), method="PATCH",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/merge-patch+json",
                 "traceparent": traceparent, "tracestate": "bindery=test"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, and a clean exit: the exporter is flushed before the process ends."""
    stop_process(process)
    assert process.returncode == 0, f"bindery exited with {process.returncode}"


# ---- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", ["http/protobuf", "http/json"])
def test_a_request_continues_the_incoming_trace_and_is_exported_on_sigterm(tmp_path, protocol):
    trace_id, parent_id = secrets.token_hex(16), secrets.token_hex(8)
    with receiving(Receiver()) as otlp:
        process, base = start(tmp_path, {
            "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.base,
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            # A batch every minute: within the test only the flush on SIGTERM sends the spans.
            "OTEL_BSP_SCHEDULE_DELAY": "60000",
        })
        try:
            token = new_session(base)
            with watching_form(base, token):
                patch_form(base, token, f"00-{trace_id}-{parent_id}-01")
            assert otlp.exports == [], "exported before the SIGTERM: the flush on shutdown goes untested"
        finally:
            stop(process)
        spans = received_spans(otlp)

    ours = [span for span in spans if span["trace"] == trace_id]
    assert ours, f"no span of trace {trace_id} among {spans}"
    server = [span for span in ours if span["parent"] == parent_id]
    assert [span["name"] for span in server] == ["PATCH /api/views/{path}"], ours
    children = {span["name"] for span in ours if span["parent"] == server[0]["span"]}
    assert {"apply", "store commit", "push"} <= children, ours
    assert {span["service"] for span in ours} == {"bindery"}


def test_without_otel_variables_nothing_is_exported(tmp_path):
    try:
        listener = Receiver(DEFAULT_OTLP_HTTP_PORT)
    except OSError:
        pytest.fail(f"port {DEFAULT_OTLP_HTTP_PORT} (OTLP/HTTP's default) is taken: this check listens there")
    with receiving(listener) as otlp:
        process, base = start(tmp_path, {}, log_level="info")
        try:
            patch_form(base, new_session(base), f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01")
        finally:
            stop(process)
        assert otlp.exports == []
    assert b"Exporting traces" not in (tmp_path / "bindery.log").read_bytes()


def test_otlp_grpc_is_refused_in_one_line(tmp_path):
    env = {name: value for name, value in os.environ.items() if not name.startswith("OTEL_")}
    env |= {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
    result = subprocess.run(
        [str(binary_path()), "--port", str(free_port()), "--store", "memory"],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    assert result.returncode != 0
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "OTLP/gRPC is not built in" in lines[0], result.stderr.decode()
