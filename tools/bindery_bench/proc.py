"""CPU and memory from /proc, written once: a process's CPU ticks and clock, the machine's busy and
stolen time, RSS, /proc/meminfo, per-thread CPU."""

from __future__ import annotations

import glob
import os
import time
from pathlib import Path

HZ = os.sysconf("SC_CLK_TCK")


def stat_fields(pid) -> list[str] | None:
    """Fields of /proc/PID/stat after the command: [state, ppid, ...]; None once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def ticks(pid) -> int:
    """utime+stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat)."""
    fields = stat_fields(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


def clock(pid: int, reaped: bool = False) -> float:
    """CPU seconds of a process, all its threads (dead ones too), to the nanosecond: its CPU clock
    (clock_gettime on MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)); with `reaped`, plus the
    children it reaped (cutime+cstime, in ticks). 0 when gone."""
    try:
        used = time.clock_gettime_ns(((~pid) << 3) | 2) / 1e9
    except OSError:
        return 0.0
    if reaped:
        fields = stat_fields(pid)
        used += (int(fields[13]) + int(fields[14])) / HZ if fields else 0.0
    return used


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat_fields(entry.name)
            if fields is not None and fields[1] == str(pid):
                found.append(int(entry.name))
    return found


def tree_clock(root: int) -> float:
    """CPU seconds of a process and its children, counting those it already reaped."""
    return clock(root, reaped=True) + sum(clock(child) for child in children(root))


def machine() -> list[int]:
    """The first line of /proc/stat in ticks: user nice system idle iowait irq softirq steal ..."""
    return [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]


def machine_busy_ticks() -> int:
    """Busy ticks of all CPUs: user nice system. Not irq and softirq: on loopback they are mostly the
    benchmark's own packets (~0.5 core at 100k req/s), in no process's utime+stime."""
    user, nice, system = machine()[:3]
    return user + nice + system


def machine_steal_ticks() -> int:
    """Ticks the hypervisor gave to other guests while we wanted to run."""
    return machine()[7]


def rss(pid) -> int:
    """The resident set in bytes (VmRSS of /proc/PID/status)."""
    return status_value(pid, "VmRSS") * 1024


def status_value(pid, key: str) -> int:
    """The first number of a /proc/PID/status line (VmRSS in kB, Threads...); 0 when absent."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def meminfo(key: str) -> int:
    """A /proc/meminfo figure in bytes (Slab, MemAvailable): machine-wide."""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def threads(pid) -> dict[str, tuple[int, int]]:
    """Per live thread of a process: CPU ns (schedstat) and context switches."""
    out = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            with open(f"{task}/schedstat") as f:
                ns = int(f.read().split()[0])
            switches = 0
            with open(f"{task}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switches += int(line.split()[1])
            out[task.rsplit("/", 1)[1]] = (ns, switches)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def thread_delta(a, b) -> tuple[int, int, int, int]:
    """CPU ns and switches of the threads alive at both samples; threads that came and went."""
    both = a.keys() & b.keys()
    ns = sum(b[t][0] - a[t][0] for t in both)
    switches = sum(b[t][1] - a[t][1] for t in both)
    return ns, switches, len(b.keys() - a.keys()), len(a.keys() - b.keys())


def loadavg(fields: int = 1) -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:fields])
