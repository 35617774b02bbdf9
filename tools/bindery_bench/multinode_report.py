"""bench-multinode's tables: the write windows by run, the medians per write, the notification phase
and the notify-to-push lag."""

from __future__ import annotations

import os
import statistics
from pathlib import Path

from .figures import percentile
from .multinode_measure import above_idle


def us(seconds, n):
    return seconds / n * 1e6 if n else float("nan")


def label(binary):
    return Path(binary).name


def writes(cfg, rows):
    print(f"\nBindery through nginx, store {cfg.store}, {cfg.writers} writers with If-Match for {cfg.seconds:.0f} s each, "
          f"{cfg.runs} run(s), {os.cpu_count()} cores; binaries: {', '.join(cfg.bins)}")
    print("CPU seconds in the write window; 'per core' = writes ÷ CPU s of nodes + PostgreSQL + nginx; "
          "'other' = cores the rest of the machine used; 'notif.' = notifications (deferred) over all nodes")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'load':>5} {'writes/s':>8} {'412s':>5} {'fail':>4}  {'node CPU s':<17} "
          f"{'pg s':>5} {'nginx s':>7} {'client s':>8} {'other':>5} {'steal':>5} {'per core':>8} {'notif. (deferred)':>17} "
          f"{'pg xact/w':>9} {'listen':>6}")
    for run, binary, count, load, (acks, elapsed, conflicts, failures), u, delta, xacts, listening, _ in rows:
        rate = acks / elapsed
        notified, deferred = sum(d[0] for d in delta), sum(d[1] for d in delta)
        print(f"{run:>3} {binary:<14} {count:>5} {load:>5} {rate:>8.1f} {conflicts:>5} {failures:>4}  "
              f"{'/'.join(f'{s:.2f}' for s in u.nodes):<17} {u.postgres:>5.2f} {u.nginx:>7.2f} {u.client:>8.2f} "
              f"{u.other / u.elapsed:>5.2f} {u.steal / u.elapsed:>5.2f} {acks / u.server if u.server else 0:>8.0f} "
              f"{f'{notified:.0f} ({deferred:.0f})':>17} {xacts / acks if acks else 0:>9.2f} {listening:>6}")

    print("\nPer write (medians over runs): µs of CPU per acknowledged write, by part")
    print("recv./w: changes the store announced to the nodes (bindery_store_changes_received_total over all nodes)")
    print("per write: 0 when every session is private to its owner; notif./w and deferred/w: the older counters")
    print("'others µs': CPU above idle of the nodes that served no request in the window, per write ('-': none)")
    print(f"{'binary':<14} {'nodes':>5} {'writes/s':>8} {'per core':>8} {'nodes µs':>8} {'pg µs':>6} {'nginx µs':>8} "
          f"{'client µs':>9} {'notif./w':>8} {'deferred/w':>10} {'recv./w':>7} {'others µs':>9}")
    for binary in map(label, cfg.bins):
        for count in cfg.counts:
            mine = [r for r in rows if r[1] == binary and r[2] == count]
            if not mine:
                continue
            med = lambda f: statistics.median(f(r) for r in mine)  # noqa: E731
            print(f"{binary:<14} {count:>5} {med(lambda r: r[4][0] / r[4][1]):>8.1f} "
                  f"{med(lambda r: r[4][0] / r[5].server if r[5].server else 0):>8.0f} "
                  f"{med(lambda r: us(sum(r[5].nodes), r[4][0])):>8.0f} {med(lambda r: us(r[5].postgres, r[4][0])):>6.0f} "
                  f"{med(lambda r: us(r[5].nginx, r[4][0])):>8.0f} {med(lambda r: us(r[5].client, r[4][0])):>9.0f} "
                  f"{med(lambda r: sum(d[0] for d in r[6]) / r[4][0] if r[4][0] else 0):>8.2f} "
                  f"{med(lambda r: sum(d[1] for d in r[6]) / r[4][0] if r[4][0] else 0):>10.2f} "
                  f"{med(lambda r: sum(d[2] for d in r[6]) / r[4][0] if r[4][0] else 0):>7.2f} "
                  f"{others(mine):>9}")
    nodes(rows)


def others(mine):
    """The median over runs of the CPU above idle of the nodes that served no request, per write."""
    values = []
    for r in mine:
        idle, delta, acks = r[9], r[6], r[4][0]
        quiet = [i for i, d in enumerate(delta) if d[4] == 0]
        if idle is not None and quiet and acks:
            excess = above_idle(r[5], idle)
            values.append(us(sum(excess[i] for i in quiet), acks))
    return f"{statistics.median(values):.1f}" if values else "-"


def nodes(rows):
    """Per node of each write window with several nodes: its CPU, above its idle rate, the requests
    it served, the changes the store announced to it and the sessions it let go."""
    rows = [r for r in rows if r[9] is not None]
    if not rows:
        return
    print("\nPer node in the write windows: CPU s, above the node's idle rate, requests served (its own")
    print("bindery_http_requests_total, probes excluded), changes received, sessions let go")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'node':>4} {'CPU s':>6} {'above idle':>10} {'requests':>8} "
          f"{'received':>8} {'let go':>6}")
    for run, binary, count, _, _, u, delta, _, _, idle in rows:
        for i, (excess, d) in enumerate(zip(above_idle(u, idle), delta)):
            print(f"{run:>3} {binary:<14} {count:>5} {i + 1:>4} {u.nodes[i]:>6.2f} {excess:>10.3f} {d[4]:>8.0f} "
                  f"{d[2]:>8.0f} {d[3]:>6.0f}")


def notifications(cfg, fans):
    if not fans:
        return
    print(f"\nNotifications: writers PATCH node 1 directly for {cfg.seconds:.0f} s; the other nodes follow each session "
          "(an event stream each), hold it (read once) or never see it ('none')")
    print("CPU above the node's idle rate (3 s before), per change the store announced to it ('µs/recv.'; node 1: per")
    print("write) and per write; PostgreSQL per write; notif. and deferred: another node's versions newer than its copy;")
    print("received: changes announced to the node; let go: sessions it let go (a node holding a session")
    print("that another node writes and nobody here uses for 1 s lets it go: 'holds' then ends as 'none')")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'writes/s':>8} {'node':>4} {'role':<8} {'CPU s':>6} {'idle/s':>7} "
          f"{'notif.':>6} {'n/w':>4} {'deferred':>8} {'µs/recv.':>9} {'µs/write':>8}  {'pg µs/w':>7} {'pg xact/w':>9} "
          f"{'other':>5} {'listen':>6} {'received':>8} {'let go':>6}")
    for run, binary, count, (acks, elapsed, _, failures), u, delta, xacts, idle, role_of, listening in fans:
        for i in range(count):
            role = role_of[i]
            net = u.nodes[i] - idle.nodes[i] / idle.elapsed * u.elapsed
            # Node 1's own commits come back to it as notifications too: its figure is the write's cost.
            per = f"{'-':>9}" if i == 0 else f"{us(net, delta[i][2]):>9.1f}"
            print(f"{run:>3} {binary:<14} {count:>5} {acks / elapsed:>8.1f} {i + 1:>4} {role:<8} {u.nodes[i]:>6.3f} "
                  f"{idle.nodes[i] / idle.elapsed:>7.4f} {delta[i][0]:>6.0f} {delta[i][0] / acks if acks else 0:>4.1f} "
                  f"{delta[i][1]:>8.0f} {per} {us(net, acks):>8.1f}  {us(u.postgres, acks):>7.0f} "
                  f"{xacts / acks if acks else 0:>9.2f} {u.other / u.elapsed:>5.2f} {listening:>6} "
                  f"{delta[i][2]:>8.0f} {delta[i][3]:>6.0f}")
    print("\nMedians over runs and nodes of one role: µs of node CPU per change received and per write on node 1")
    for binary in map(label, cfg.bins):
        for role in ("writes", "follows", "holds", "none"):
            per_note, per_write = [], []
            for run, b, count, (acks, _, _, _), u, delta, _, idle, role_of, _ in fans:
                for i in range(count):
                    if b == binary and role_of[i] == role and acks:
                        net = u.nodes[i] - idle.nodes[i] / idle.elapsed * u.elapsed
                        per_write.append(us(net, acks))
                        if i and delta[i][2]:
                            per_note.append(us(net, delta[i][2]))
            if per_write:
                note = (f"{statistics.median(per_note):>7.1f} µs a change received ({min(per_note):.1f}–{max(per_note):.1f}), "
                        if per_note else f"{'':>35}")
                print(f"{binary:<14} {role:<8} {note}{statistics.median(per_write):>7.1f} µs a write "
                      f"({min(per_write):.1f}–{max(per_write):.1f}), {len(per_write)} values")


def lag(cfg, lags):
    for binary, (from_send, from_ack) in lags.items():
        print(f"\nnotify-to-push lag, {binary}, PATCH on node 1, SSE event on node {max(cfg.counts)} ({cfg.samples} samples), ms")
        print(f"{'from':<18}  {'p50':>7}  {'p99':>7}  {'max':>7}")
        print(f"{'PATCH sent':<18}  {percentile(from_send, 50):>7.1f}  {percentile(from_send, 99):>7.1f}  {max(from_send):>7.1f}")
        print(f"{'200 received':<18}  {percentile(from_ack, 50):>7.1f}  {percentile(from_ack, 99):>7.1f}  {max(from_ack):>7.1f}")
