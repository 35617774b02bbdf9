"""Throughput benchmark of Bindery's hot paths with wrk, on loopback, bounded in time (scripts/bench).

  scripts/bench                       build (release, into .build-bench/) and run every case 3 times
  BINDERY_BIN=path/to/bindery scripts/bench      use an existing binary instead of building
  BENCH_RUNS=5 scripts/bench          repeat the whole set 5 times (1: once, for a quick look)
  BENCH_DURATION=10s BENCH_CONNECTIONS=64 BENCH_THREADS=1   wrk's -d, -c and -t
  scripts/bench --smoke               1 s cases, one run, 4 PATCH sessions, 16 wide connections, no
                                      memory or streams probe, the Hummingbird reference only if
                                      HUMMINGBIRD_BIN is set (else Bindery-only, said so)

The cases, the references, the probes and every other variable (BENCH_BASELINE, BENCH_HUMMINGBIRD,
HUMMINGBIRD_BIN, BENCH_PATCH_SESSIONS, BENCH_WIDE_CONNECTIONS, BENCH_STORE, BENCH_VERBOSE,
BENCH_SSE, BENCH_MEMORY, BENCH_MEMORY_SESSIONS, BENCH_STREAMS, BENCH_WATCHERS, BENCH_ROUNDS) are
described in scripts/bench's header. Benchmarks report; they never fail on time.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from . import binary, proc, references, server, sse_probe, summary, wrk
from .figures import SummaryFile
from .http_cases import HEADER, Cases, requests_total


class Settings:
    def __init__(self, smoke: bool):
        env = lambda name, full, small: os.environ.get(name, small if smoke else full)  # noqa: E731
        self.smoke = smoke
        self.duration = env("BENCH_DURATION", "10s", "1s")
        self.connections = int(env("BENCH_CONNECTIONS", "64", "16"))
        self.threads = int(os.environ.get("BENCH_THREADS", "1"))
        self.runs = int(env("BENCH_RUNS", "3", "1"))
        self.baseline = os.environ.get("BENCH_BASELINE", "1") == "1"
        self.hummingbird = os.environ.get("BENCH_HUMMINGBIRD", "1") == "1"
        self.patch_sessions = int(env("BENCH_PATCH_SESSIONS", "64", "4"))
        self.wide = int(env("BENCH_WIDE_CONNECTIONS", "256", "16"))
        self.verbose = bool(os.environ.get("BENCH_VERBOSE"))
        self.sse = os.environ.get("BENCH_SSE", "1") == "1"
        self.memory = env("BENCH_MEMORY", "1", "0") == "1"
        self.memory_sessions = env("BENCH_MEMORY_SESSIONS", "2000", "5")
        self.streams = env("BENCH_STREAMS", "10000", "0")
        self.watchers = env("BENCH_WATCHERS", "1000", "5")
        self.rounds = env("BENCH_ROUNDS", "5", "1")


def new_token(base: str) -> str:
    request = urllib.request.Request(f"{base}/api/sessions", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["token"]


def get(base: str, path: str, token: str, method: str = "GET") -> http.client.HTTPResponse:
    request = urllib.request.Request(base + path, method=method, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        response.body = response.read()
        return response


def keepalive(bindery: server.Server, token: str) -> str:
    """Whether a second request reuses the first one's connection."""
    conn = http.client.HTTPConnection("127.0.0.1", bindery.port, timeout=10)
    sockets = []
    for _ in range(2):
        conn.request("GET", "/api/views/form", headers={"Authorization": f"Bearer {token}"})
        conn.getresponse().read()
        sockets.append(conn.sock)
    conn.close()
    return "kept" if sockets[0] is not None and sockets[0] is sockets[1] else \
        "NOT KEPT (every request pays a new TCP connection)"


def patch_script(base: str, count: int, path: Path) -> Path:
    """`count` new sessions (form rendered) on `base`, written into a PATCH script, round robin."""
    tokens = []
    for _ in range(count):
        token = new_token(base)
        get(base, "/api/views/form", token)
        tokens.append(token)
    wrk.patch_script(tokens, path)
    return path


def main(args: list[str], smoke: bool) -> int:
    if args:
        sys.exit("usage: scripts/bench [--smoke] (settings in BENCH_* variables, see its header)")
    s = Settings(smoke)
    wrk.ensure()
    bin_path = binary.bindery()
    started: list[server.Server] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            return run(s, bin_path, work, started)
        finally:
            for each in reversed(started):
                each.stop()


def run(s: Settings, bin_path: str, work: Path, started: list) -> int:
    summary_file = work / "summary.tsv"
    summary_file.write_text("")
    note = SummaryFile(str(summary_file))
    hb_bin = binary.hummingbird(work, build=not s.smoke) if s.hummingbird else None
    store = os.environ.get("BENCH_STORE", f"sqlite:{work}/bench.sqlite")
    room = ["--max-connections-per-ip", str(s.wide + s.connections + 64)]
    main_server = server.bindery(bin_path, [*server.QUIET, "--store", store, *room], work / "server.log")
    started.append(main_server)
    base = main_server.base
    token = new_token(base)
    auth = f"Authorization: Bearer {token}"
    get(base, "/api/views/form", token)   # warm: activates the form, fills the board
    kept = keepalive(main_server, token)
    patch_lua = patch_script(base, s.patch_sessions, work / "patch.lua")
    c_ref = references.compile_c(work) if s.baseline else None

    print()
    print(f"bindery {Path(bin_path).name} on {base} (store {store}), wrk -t{s.threads} -c{s.connections} "
          f"-d{s.duration}, {os.cpu_count()} CPUs")
    print(f"keep-alive: {kept}")
    print(f"load before: {proc.loadavg(3)}")
    form = work / "form.json"
    form.write_bytes(get(base, "/api/views/form", token).body)

    # The PATCH case again on a second server that keeps sessions in memory only.
    mem = server.bindery(bin_path, [*server.QUIET, "--store", "memory", *room], work / "server-memory.log")
    started.append(mem)
    mem_lua = patch_script(mem.base, s.patch_sessions, work / "patch-mem.lua")

    # The Hummingbird reference: the same form's GET (JSON encoded per request) and a hand-written PATCH.
    hb = references.start_hummingbird(hb_bin, work) if hb_bin else None
    if hb:
        started.append(hb)
        hb_token = new_token(hb.base)
        hb_form = get(hb.base, "/api/views/form", hb_token).body
        if hb_form == form.read_bytes():
            print(f"Hummingbird reference: its form JSON is byte for byte Bindery's ({len(hb_form)} bytes)")
        else:
            print(f"Hummingbird reference: its form JSON DIFFERS from Bindery's:\n{form.read_text()}\n{hb_form.decode()}")
        hb_lua = patch_script(hb.base, s.patch_sessions, work / "patch-hb.lua")

    # The C references run for the whole set, idle while the other cases run.
    refs = []
    if c_ref:
        refs = [references.start_c(c_ref, form, mode, work) for mode in ("reuseport", "pool")]
        started.extend(refs)
        if not references.wait_c(refs):
            print("(no C reference: one of them did not start)")
            for ref in refs:
                ref.stop()
            refs = []

    cases = Cases(s.threads, s.connections, s.duration, work, note, s.verbose)
    hb_auth = f"Authorization: Bearer {hb_token}" if hb else ""
    wide = f"patch-c{s.wide}"
    bindery_side = {
        "get": lambda: cases.run("get", main_server.pid, auth, [f"{base}/api/views/form"]),
        "patch": lambda: (cases.with_commits("patch", base, lambda: cases.run(
                              "patch", main_server.pid, auth, ["-s", str(patch_lua), f"{base}/api/views/form"])),
                          cases.run("patch-mem", mem.pid, auth, ["-s", str(mem_lua), f"{mem.base}/api/views/form"])),
        "wide": lambda: cases.with_commits(wide, base, lambda: cases.run(
            wide, main_server.pid, auth, ["-s", str(patch_lua), f"{base}/api/views/form"], s.wide)),
    }
    c_cases = [lambda ref=ref, name=name: cases.run(name, ref.pid, auth, [ref.base + "/"])
               for ref, name in zip(refs, ("c-ref", "c-ref-pool"))]
    hb_get = [lambda: cases.run("hb-get", hb.pid, hb_auth, [f"{hb.base}/api/views/form"])] if hb else []
    reference_side = {
        "get": lambda odd: [case() for case in (c_cases + hb_get if odd else hb_get + c_cases[::-1])],
        "patch": lambda odd: hb and cases.run("hb-patch", hb.pid, hb_auth, ["-s", str(hb_lua), f"{hb.base}/api/views/form"]),
        "wide": lambda odd: hb and cases.run(f"hb-patch-c{s.wide}", hb.pid, hb_auth,
                                             ["-s", str(hb_lua), f"{hb.base}/api/views/form"], s.wide),
    }
    # Each comparison's cases run back to back (Bindery's and the references'); odd runs measure
    # Bindery first, even runs the references first (the get group's references in reverse too).
    for number in range(1, s.runs + 1):
        odd = number % 2 == 1
        before = [requests_total(base, p) for p in ('status="2', 'status="304"', 'status="[145]')]
        for group in ("get", "patch", "wide"):
            if odd:
                bindery_side[group]()
                reference_side[group](odd)
            else:
                reference_side[group](odd)
                bindery_side[group]()
        cases.run("healthz", main_server.pid, auth, [f"{base}/healthz"])
        etag = get(base, "/api/views/form", token, "HEAD").headers.get("ETag", "")
        cases.run("304", main_server.pid, auth, ["-H", f"If-None-Match: {etag}", f"{base}/api/views/form"])
        after = [requests_total(base, p) for p in ('status="2', 'status="304"', 'status="[145]')]
        cases.rows.append(f"#  run {number}: bindery counted {after[0] - before[0]} 2xx, {after[1] - before[1]} 304, "
                          f"{after[2] - before[2]} other statuses; form now at ETag {etag}")
        cases.rows.append(f"#  run {number}: store writes per transaction: {', '.join(cases.batching) or 'none'}")
        cases.batching = []
    for each in refs:
        each.stop()
    main_server.check_alive()
    mem.stop()
    if hb:
        hb.stop()
    report(s, cases, main_server)
    if s.sse:
        print()
        sse_probe.probe(base, new_token(base), 0.5 if s.smoke else 2, note)
    probes(s, bin_path, summary_file)
    return summary.main([str(summary_file), str(s.wide)])


def report(s: Settings, cases: Cases, main_server: server.Server) -> None:
    print(f"load after:  {proc.loadavg(3)}")
    print()
    print(HEADER)
    print("\n".join(cases.rows))
    print()
    print("µs/req: server CPU (user+sys) per request; srv/wrk/other: CPU cores used by the server, by wrk")
    print("and by every other process during the case (softirq, the loopback traffic, is in none of them);")
    print("steal: cores the hypervisor withheld.")
    print("sock-err: wrk's connect/read/write/timeout errors. Compare cases within one run, by ratio.")
    print(f"PATCH cases go round {s.patch_sessions} sessions (BENCH_PATCH_SESSIONS), each request a new phone.")
    main_server.print_log_tail()


def probes(s: Settings, bin_path: str, summary_file: Path) -> None:
    """Memory per session and 10,000 streams: subcommands of their own, each on fresh servers."""
    env = {**os.environ, "BINDERY_BIN": bin_path, "BENCH_SUMMARY_FILE": str(summary_file)}
    smoke = ["--smoke"] if s.smoke else []
    if s.memory:
        print(f"\nMemory probe (scripts/bench-memory {s.memory_sessions}):", flush=True)
        if subprocess.run([sys.executable, "-m", "bindery_bench", "memory", *smoke, s.memory_sessions], env=env).returncode:
            print("(the memory probe reported failures)")
    if s.streams != "0":
        print(f"\nStreams probe (scripts/bench-idle-streams {s.streams}, {s.watchers} watchers):", flush=True)
        env.update(BENCH_WATCHERS=s.watchers, BENCH_ROUNDS=s.rounds)
        if subprocess.run([sys.executable, "-m", "bindery_bench", "idle-streams", *smoke, s.streams], env=env).returncode:
            print("(the streams probe reported failures)")
