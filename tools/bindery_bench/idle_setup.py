"""What bench-idle-streams arranges before its server starts: the heartbeat interval, descriptors
(soft and, as root with CAP_SYS_RESOURCE, hard `ulimit -n` raised to fit, at most fs.nr_open),
client source addresses, and the server's limits raised to fit N streams."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from . import limits


def read(path: str, default: str = "?") -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return default


def heartbeat(binary: str) -> int:
    """BENCH_HEARTBEAT, else the binary's default --heartbeat (from `serve --help`), else 15; passed
    explicitly, so a BINDERY_HEARTBEAT in the environment cannot make the window's arithmetic wrong."""
    if os.environ.get("BENCH_HEARTBEAT"):
        return int(os.environ["BENCH_HEARTBEAT"])
    text = " ".join(subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout.split())
    found = re.search(r"--heartbeat <heartbeat>[^(]*\(BINDERY_HEARTBEAT\)\. \(default: (\d+)\)", text)
    return int(found.group(1)) if found else 15


def descriptors(streams: int, watchers: int, sessions: int) -> tuple[int, str, int]:
    """Raises this process's open-file limit (the server inherits it) for the streams; prints it.
    Returns (connections the server gets room for, the hard limit's error, the most it can be)."""
    connections = streams + watchers + sessions + 512
    fds = connections * 5 // 4 + 1024
    nr_open = int(read("/proc/sys/fs/nr_open", str(fds)))
    want = min(fds, nr_open)
    hard_error = limits.raise_open_files(want)
    # The most the hard limit can be raised to here: fs.nr_open, unless raising it was refused.
    max_fds = nr_open
    refused = limits.can_raise_hard_to(nr_open)
    if refused:
        max_fds = limits.open_files()[1]
        hard_error = hard_error or refused
    soft, hard = limits.open_files()
    print(f"descriptors: ulimit -n {soft} (hard {hard}; wanted {fds}; fs.nr_open {nr_open}, "
          f"fs.file-max {read('/proc/sys/fs/file-max')})")
    if soft < fds:
        print(f"  TOO FEW for {streams + watchers} streams: the server will lower --max-connections to fit {soft}"
              + (f"; raising the hard limit failed: {hard_error}" if hard_error else ""))
    return connections, hard_error, max_fds


def sources(streams: int, watchers: int) -> tuple[list[str], int]:
    """Client source addresses 127.0.0.2, 127.0.0.3, ... and the streams per address."""
    low, high = (int(x) for x in read("/proc/sys/net/ipv4/ip_local_port_range").split())
    per_address = int(os.environ.get("BENCH_STREAMS_PER_ADDRESS", (high - low + 1) * 3 // 4))
    count = (streams + watchers + per_address - 1) // per_address
    addresses = [f"127.0.{i // 250}.{2 + i % 250}" for i in range(count)]
    print(f"client: streams from {','.join(addresses)} (<= {per_address} each; ephemeral ports {low}-{high})")
    if os.access("/proc/sys/net/netfilter/nf_conntrack_max", os.R_OK):
        print(f"conntrack: {read('/proc/sys/net/netfilter/nf_conntrack_count')} of "
              f"{read('/proc/sys/net/netfilter/nf_conntrack_max')} entries used (a full table drops new connections)")
    return addresses, per_address


def server_limits(streams: int, watchers: int, sessions: int, per_session: int, connections: int) -> list[str]:
    """Room for every stream plus the fan-out rounds' PATCHes, one connection per session at once."""
    raised = ["--max-connections", str(connections),
              "--max-connections-per-ip", str(streams + watchers + sessions + 256),
              "--max-streams", str(streams + watchers + 16)]
    # Defaults: 10,000 live sessions, 500 per address, 1,000 created at once; 16 streams per session.
    if sessions + 16 > 10000:
        raised += ["--max-sessions", str(sessions + 16)]
    if sessions + 16 > 500:
        raised += ["--max-sessions-per-address", str(sessions + 16)]
    if sessions + 16 > 1000:
        raised += ["--session-creation-burst", str(sessions + 16)]
    if watchers > 16 or per_session > 16:
        raised += ["--max-streams-per-session", str(max(watchers, per_session))]
    return raised
