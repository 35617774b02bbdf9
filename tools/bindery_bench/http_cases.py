"""One wrk case of scripts/bench and what it costs: wrk's figures, the measured server's CPU per
request (utime+stime from /proc/PID/stat), the CPU wrk used, the CPU everything else on the machine
used meanwhile, the hypervisor's steal; each noted for the summary and kept as a table row."""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

from . import proc, wrk
from .figures import SummaryFile

ROW = "{:<13} {:>9} {:>9} {:>9} {:>9} {:>10} {:>7} {:>6} {:>6} {:>6} {:>6}  {:<14} {}"
HEADER = ROW.format("case", "requests", "req/s", "lat-avg", "lat-p50", "lat-p99", "µs/req", "srv", "wrk", "other",
                    "steal", "sock-err", "non-2xx/3xx")


def metrics_text(base: str) -> str:
    with urllib.request.urlopen(f"{base}/metrics", timeout=10) as response:
        return response.read().decode()


def requests_total(base: str, pattern: str) -> int:
    """bindery_http_requests_total summed over the series matching `pattern` (a regex)."""
    return int(sum(float(line.split()[-1]) for line in metrics_text(base).splitlines()
                   if line.startswith("bindery_http_requests_total") and re.search(pattern, line)))


def store_commits(base: str) -> tuple[int, int]:
    """(transactions, writes) of a server's store writer so far (0 0 on the memory store)."""
    t = w = 0
    for line in metrics_text(base).splitlines():
        name, _, value = line.partition(" ")
        if name == "bindery_store_transactions_total":
            t = int(float(value))
        elif name == "bindery_store_write_operations_total":
            w = int(float(value))
    return t, w


class Cases:
    """The wrk settings of a run, the rows measured so far and the summary they are noted in."""

    def __init__(self, threads: int, connections: int, duration: str, work: Path, note: SummaryFile,
                 verbose: bool = False):
        self.threads, self.connections, self.duration = threads, connections, duration
        self.work, self.note, self.verbose = work, note, verbose
        self.rows: list[str] = []
        self.batching: list[str] = []   # this run's store writes per transaction, by case

    def run(self, name: str, pid: int, auth: str, args: list[str], connections: int | None = None) -> None:
        """wrk against the server `pid` with `args` (a script, the URL)."""
        kids0, cpu0 = wrk.children_cpu(), proc.ticks(pid)
        busy0, steal0 = proc.machine_busy_ticks(), proc.machine_steal_ticks()
        t0 = time.monotonic()
        out = wrk.run(self.threads, connections or self.connections, self.duration, [auth], args)
        wall = time.monotonic() - t0
        cpu = proc.ticks(pid) - cpu0
        busy, steal = proc.machine_busy_ticks() - busy0, proc.machine_steal_ticks() - steal0
        kids = wrk.children_cpu() - kids0
        (self.work / f"wrk-{name}.txt").write_text(out)
        if self.verbose:
            print(f"\n--- {name} ---\n{out}")
        f = wrk.parse(out)
        hz = proc.HZ
        requests = int(f["requests"] or 0)
        server_us = f"{cpu / hz / requests * 1e6:.1f}" if requests > 0 else "-"
        other = max(0.0, (busy / hz - cpu / hz - kids) / wall)
        figures = {"server": f"{cpu / hz / wall:.2f}", "wrk": f"{kids / wall:.2f}", "other": f"{other:.2f}",
                   "steal": f"{steal / hz / wall:.2f}"}
        self.note(f"rps:{name}", f["rps"] or "")
        self.note(f"p99:{name}", wrk.to_us(f["p99"]))
        self.note(f"us:{name}", server_us)
        self.note(f"other:{name}", figures["other"])
        self.note(f"steal:{name}", figures["steal"])
        self.rows.append(ROW.format(name, f["requests"] or "?", f["rps"] or "?", f["avg"] or "?", f["p50"] or "?",
                                    f["p99"] or "?", server_us, figures["server"], figures["wrk"], figures["other"],
                                    figures["steal"], f["errors"] or "c0/r0/w0/t0", f["non2xx"] or "0"))

    def with_commits(self, name: str, base: str, case) -> None:
        """Runs `case()` and notes how the store at `base` batched its writes."""
        t0, w0 = store_commits(base)
        case()
        t1, w1 = store_commits(base)
        per = f"{(w1 - w0) / (t1 - t0):.1f}" if t1 > t0 else "-"
        self.note(f"batch:{name}", per)
        self.batching.append(f"{name} {per} ({w1 - w0} in {t1 - t0})")
