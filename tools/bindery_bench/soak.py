"""Soak test: does Bindery stay flat under a long mixed load? (Leaks and flatness, not throughput.)

  scripts/soak [minutes]                 build (release) and soak for that long (default 30)
  BINDERY_BIN=path/to/bindery scripts/soak 5     use an existing binary instead of building
  SOAK_ENV='MALLOC_ARENA_MAX=2' scripts/soak     extra environment for the server
  SOAK_OUT=docs/history/soak/other scripts/soak 10       write the report elsewhere (default docs/history/soak)
  scripts/soak --smoke                   3 s of load sampled every second, sessions idle for 2 s,
                                         the report in artifacts/soak-smoke/ (unless SOAK_OUT says)

It starts `bindery serve` on a free loopback port with a temporary SQLite store and options that
make sessions come and go within the run (60 s idle timeout, room for 20,000 live sessions and
a creation burst large enough for the churn), then runs the soak load (`soak-load soak`): a dozen
steady sessions doing GETs, PATCHes with changing values and command POSTs at ~60 requests a second
in all, 8 event streams open the whole run and one more every 2 s for 2-10 s, and every 150 s a
round of 5,000 new sessions (each a POST /api/sessions and a GET of the form) left to expire.
When the time is up the load stops and it waits (at most 220 s) for the churned sessions to expire
and for one sweep more, so the last sample is "after churn".

Every 10 s it records elapsed seconds, RSS and threads (/proc/<pid>/status), open FDs
(/proc/<pid>/fd), the C heap in use and free (process_heap_bytes from /metrics), live sessions
and open event streams into artifacts/soak-<time>.csv. At the end `soak-report` writes
soak.csv, soak.svg (the curves) and README.md (the figures) into SOAK_OUT.
A soak is never part of the tests' verdict on time or of CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import binary, proc, server, soak_report
from .soak_client import metrics

COLUMNS = "elapsed_s,rss_bytes,fds,threads,heap_in_use_bytes,heap_free_bytes,sessions_live,streams_open"


class Settings:
    def __init__(self, args: list[str], smoke: bool):
        minutes = args[0] if args else "30"
        if not (minutes.isdigit() and int(minutes) >= 1) or len(args) > 1:
            sys.exit("usage: scripts/soak [minutes]")
        self.minutes = int(minutes)
        self.seconds = 3 if smoke else self.minutes * 60
        self.every = 1 if smoke else 10             # seconds between samples
        self.idle_timeout = 2 if smoke else 60      # a session's idle timeout
        self.after_samples = 10 if smoke else 22    # samples at most after the load, waiting for expiry
        self.linger = 1 if smoke else 70            # seconds after the churned sessions left
        self.steady = 2 if smoke else 12            # the load's steady sessions (they stay a minute more)
        self.out = os.environ.get("SOAK_OUT", "artifacts/soak-smoke" if smoke else "docs/history/soak")
        self.smoke = smoke


def sample(bindery: server.Server, started: float, csv: Path) -> str:
    pid = bindery.pid
    values = metrics(bindery.base)
    metric = lambda name: f"{values[name]:.0f}" if name in values else "-1"  # noqa: E731
    line = ",".join([str(int(time.time() - started)), str(proc.rss(pid)), str(len(os.listdir(f"/proc/{pid}/fd"))),
                     str(proc.status_value(pid, "Threads")), metric('process_heap_bytes{state="in_use"}'),
                     metric('process_heap_bytes{state="free"}'), metric("bindery_sessions_live"),
                     metric("bindery_event_streams_open")])
    with open(csv, "a") as f:
        f.write(line + "\n")
    return line


def main(args: list[str], smoke: bool) -> int:
    s = Settings(args, smoke)
    bin_path = binary.bindery(scratch=None)
    extra_env = dict(word.split("=", 1) for word in os.environ.get("SOAK_ENV", "").split())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        options = [*server.QUIET[:4], "--store", f"sqlite:{work}/soak.sqlite",
                   "--session-idle-timeout", str(s.idle_timeout), "--max-sessions", "20000",
                   "--max-sessions-per-address", "20000", "--session-creation-burst", "1000000",
                   "--upstream-latency-ms", "50", "--heartbeat", "5",
                   *(["--session-sweep-interval", "1"] if smoke else [])]
        bindery = server.bindery(bin_path, options, work / "server.log", serve=True, env=extra_env)
        try:
            return soak(s, bindery, bin_path, options, work)
        finally:
            bindery.stop()


def soak(s: Settings, bindery: server.Server, bin_path: str, options: list[str], work: Path) -> int:
    Path("artifacts").mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    csv, stats = Path(f"artifacts/soak-{stamp}.csv"), f"artifacts/soak-{stamp}-answers.json"
    csv.write_text(COLUMNS + "\n")
    # The commit the binary was built from, as of now (sources may change while it soaks).
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "Sources", "Package.swift"]).returncode != 0
    commit = head + ("+changes" if changed else "")
    started = time.time()
    soak_env = os.environ.get("SOAK_ENV", "")
    print(f"Soaking {bindery.base} for {f'{s.seconds} s' if s.smoke else f'{s.minutes} min'} "
          f"({bin_path}{', ' + soak_env if soak_env else ''}); samples in {csv}")
    sample(bindery, started, csv)
    with open(work / "load.log", "w") as log:
        load = subprocess.Popen([sys.executable, "-m", "bindery_bench", "soak-load", "soak", "--base", bindery.base,
                                 "--seconds", str(s.seconds), "--stats", stats, *(["--smoke"] if s.smoke else [])],
                                stdout=log, stderr=subprocess.STDOUT)
    following = started + s.every

    def next_sample() -> str:
        nonlocal following
        time.sleep(max(0.0, following - time.time()))
        following += s.every
        return sample(bindery, started, csv)

    try:
        while load.poll() is None:
            bindery.check_alive("the soak")
            print(next_sample())
    finally:
        if load.poll() is None:
            load.terminate()
    if load.wait() != 0:
        sys.exit(f"the load failed:\n{(work / 'load.log').read_text()}")
    rounds = [line for line in (work / "load.log").read_text().splitlines() if "churn round" in line]
    if rounds:
        print(rounds[-1])
    # After the load: wait for the last round's sessions to expire, then one sweep more (it returns
    # their freed memory to the kernel).
    left = None
    for _ in range(s.after_samples):
        line = next_sample()
        print(line)
        if left is None and int(line.split(",")[6]) <= s.steady:   # the steady sessions stay a minute more
            left = time.time()
        if left is not None and time.time() - left >= s.linger:
            break
    shown = " ".join(options).replace(str(work), "TMPDIR").replace(str(bindery.port), "PORT")
    soak_report.main(["--csv", str(csv), "--answers", stats, "--out", s.out,
                      "--options", f"{soak_env + ' ' if soak_env else ''}bindery serve {shown}",
                      "--minutes", str(s.minutes if not s.smoke else f"{s.seconds / 60:.2f}"), "--commit", commit])
    bindery.print_log_tail()
    return 0
