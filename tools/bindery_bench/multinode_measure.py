"""What bench-multinode measures around a window: the CPU of every part (nodes, PostgreSQL's tree,
nginx's, this client, the rest of the machine, the hypervisor's steal), each node's counters from
/metrics (notifications, deferred, changes the store announced to it, sessions let go, requests it
served), PostgreSQL's committed transactions and LISTEN connections."""

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

def scrape(base):
    with urllib.request.urlopen(f"{base}/metrics", timeout=5) as response:
        return response.read().decode()


def metric(base, name, text=None):
    """An unlabelled counter (or the first series of a labelled one); 0 before its first count."""
    match = re.search(rf"^{name}(?:{{[^}}]*}})? ([0-9.eE+-]+)$", scrape(base) if text is None else text, re.M)
    return float(match.group(1)) if match else 0.0


NOT_SERVED = ('"/metrics"', '"/healthz"', '"/readyz"')


def served(text):
    """Requests a node answered (bindery_http_requests_total over every label), its probes excluded."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("bindery_http_requests_total{") and not any(r in line for r in NOT_SERVED))


COUNTERS = ("notified", "deferred", "received", "let_go", "requests")


def counters(node):
    """(notifications, deferred, changes received, sessions let go, requests served) of a node."""
    text = scrape(node.base)
    return (metric(None, "bindery_store_notifications_total", text),
            metric(None, "bindery_store_notifications_deferred_total", text),
            metric(None, "bindery_store_changes_received_total", text),
            metric(None, "bindery_sessions_let_go_total", text), served(text))


def notifications(cluster):
    """counters() of every node: index 0 and 1 are the notifications and deferred ones."""
    return [counters(n) for n in cluster.nodes]


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


STATS_WAIT = 1.0   # s after a window before PostgreSQL's transactions are read again (0 in --smoke)


def measured(cluster, postgres, database, window):
    """Runs `window()` between two samples; the counters are read outside the window."""
    notes, xacts = notifications(cluster), commits(postgres, database)
    a = Sample(cluster, postgres)
    result = window()
    b = Sample(cluster, postgres)
    notes_after, xacts_after = notifications(cluster), commits(postgres, database)
    # pg_stat_database is updated when a backend reports (at most every 0.5 s in PostgreSQL 15): wait
    # (not in a smoke run, whose figures mean nothing).
    if postgres and STATS_WAIT:
        time.sleep(STATS_WAIT)
        xacts_after = commits(postgres, database)
    # Per node: (notified, deferred, received, let go, requests served), as COUNTERS names them.
    delta = [tuple(y - x for x, y in zip(before, after)) for before, after in zip(notes, notes_after)]
    return result, Usage(a, b), delta, xacts_after - xacts


def above_idle(usage, idle):
    """Each node's CPU seconds in `usage` above its own rate in the `idle` window."""
    return [used - rest / idle.elapsed * usage.elapsed for used, rest in zip(usage.nodes, idle.nodes)]
