"""What bench-multinode measures around a window: the CPU of every part (nodes, PostgreSQL's tree,
nginx's, this client, the rest of the machine, the hypervisor's steal), each node's notifications
from /metrics, PostgreSQL's committed transactions and LISTEN connections."""

from __future__ import annotations

import os
import re
import time
import urllib.request

from . import proc


def machine_busy():
    """(busy, steal) seconds of the whole machine since boot, /proc/stat's first line."""
    user, nice, system, idle, iowait, irq, softirq, steal = proc.machine()[:8]
    return (user + nice + system + irq + softirq) / proc.HZ, steal / proc.HZ


def postmaster_pid(postgres):
    return int((postgres.data / "postmaster.pid").read_text().splitlines()[0])


class Sample:
    """CPU of every part at one moment."""

    def __init__(self, cluster, postgres):
        self.at = time.monotonic()
        self.nodes = [proc.clock(n.process.pid) for n in cluster.nodes]
        self.postgres = proc.tree_clock(postmaster_pid(postgres)) if postgres else 0.0
        self.nginx = proc.tree_clock(cluster.nginx.process.pid) if cluster.nginx else 0.0
        self.client = proc.clock(os.getpid())
        self.busy, self.steal = machine_busy()


class Usage:
    """CPU seconds used between two samples, by part."""

    def __init__(self, a, b):
        self.elapsed = b.at - a.at
        self.nodes = [y - x for x, y in zip(a.nodes, b.nodes)]
        self.postgres = b.postgres - a.postgres
        self.nginx = b.nginx - a.nginx
        self.client = b.client - a.client
        self.steal = b.steal - a.steal
        ours = sum(self.nodes) + self.postgres + self.nginx + self.client
        self.other = max(0.0, (b.busy - a.busy) - ours)

    @property
    def server(self):
        """Nodes + PostgreSQL + nginx: what serves the writes."""
        return sum(self.nodes) + self.postgres + self.nginx


# ------------------------------------------------------------------------------ /metrics, pg stats

def metric(base, name):
    with urllib.request.urlopen(f"{base}/metrics", timeout=5) as response:
        text = response.read().decode()
    match = re.search(rf"^{name}(?:{{[^}}]*}})? ([0-9.eE+-]+)$", text, re.M)
    return float(match.group(1)) if match else 0.0


def notifications(cluster):
    return [(metric(n.base, "bindery_store_notifications_total"),
             metric(n.base, "bindery_store_notifications_deferred_total")) for n in cluster.nodes]


def commits(postgres, database):
    if not postgres:
        return 0
    return int(postgres.psql(f"SELECT xact_commit FROM pg_stat_database WHERE datname = '{database}'")[0][0])


def listeners(postgres, database):
    """The LISTEN connections on `database` (one a node is expected)."""
    if not postgres:
        return 0
    return int(postgres.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                             f"'{database}' AND application_name LIKE 'bindery-listen-%'")[0][0])


def measured(cluster, postgres, database, window):
    """Runs `window()` between two samples; the counters are read outside the window."""
    notes, xacts = notifications(cluster), commits(postgres, database)
    a = Sample(cluster, postgres)
    result = window()
    b = Sample(cluster, postgres)
    notes_after, xacts_after = notifications(cluster), commits(postgres, database)
    # pg_stat_database is updated when a backend reports (at most every 0.5 s in PostgreSQL 15): wait.
    time.sleep(1.0)
    xacts_after = commits(postgres, database)
    delta = [(n2 - n1, d2 - d1) for (n1, d1), (n2, d2) in zip(notes, notes_after)]
    return result, Usage(a, b), delta, xacts_after - xacts
