"""The idle window of bench-idle-streams: nothing but sleeping clients, the server's CPU sampled every
second (the seconds without a heartbeat are the pure idle cost; the whole window, two heartbeat
intervals by default, the average with them), then which limit the server would reach first."""

from __future__ import annotations

import asyncio
import time

from . import proc
from .figures import mib


async def measure(p, streams, opened, rss1, rss_per, slab_per, available0):
    # Idle: nothing but sleeping clients, CPU sampled every second. Heartbeats go to all streams at
    # once, so the seconds without one are the pure idle cost, and the whole window, two heartbeat
    # intervals by default, the average with them.
    beats0 = sum(s.heartbeats for s in streams)
    client0 = time.process_time()
    ticks0, th0, w0 = proc.ticks(p.pid), proc.threads(p.pid), time.monotonic()
    samples = []   # (CPU ns of the live threads during the second, heartbeats received in it)
    prev_th, prev_beats = th0, beats0
    for second in range(p.idle_seconds):
        await asyncio.sleep(max(0, w0 + second + 1 - time.monotonic()))
        th, beats = proc.threads(p.pid), sum(s.heartbeats for s in streams)
        samples.append((proc.thread_delta(prev_th, th)[0], beats - prev_beats))
        prev_th, prev_beats = th, beats
    ticks1, th1, w1 = proc.ticks(p.pid), proc.threads(p.pid), time.monotonic()
    client_s = time.process_time() - client0
    beats = sum(s.heartbeats for s in streams) - beats0
    wall = w1 - w0
    total_pct = (ticks1 - ticks0) / proc.HZ / wall * 100
    ns, switches, born, died = proc.thread_delta(th0, th1)
    print(f"idle {wall:.1f} s (heartbeat every {p.heartbeat_s} s): server CPU {(ticks1 - ticks0) / proc.HZ * 1000:.0f} ms "
          f"= {total_pct:.2f} % of a core (utime+stime, 10 ms ticks); "
          f"threads alive throughout: {ns / 1e6:.2f} ms CPU, {switches} context switches; "
          f"threads {len(th0)} -> {len(th1)} ({born} started, {died} ended); "
          f"{beats} heartbeats received; this client (not counted): {client_s / wall * 100:.2f} % of a core")
    if p.idle_seconds < 2 * p.heartbeat_s:
        print(f"        THE WINDOW COVERS FEWER THAN TWO HEARTBEAT INTERVALS ({p.idle_seconds} s < 2 x {p.heartbeat_s} s):"
              f" its average is not the steady cost; use the estimate below")
    # A second touching a heartbeat round (the beat and its closing line may straddle two seconds).
    beat_seconds = {i for i, (_, b) in enumerate(samples) if b}
    beat_seconds |= {i + 1 for i in beat_seconds if i + 1 < len(samples)} | {i - 1 for i in beat_seconds if i > 0}
    quiet = [samples[i][0] for i in range(len(samples)) if i not in beat_seconds]
    loud = [samples[i][0] for i in sorted(beat_seconds)]
    quiet_pct = sum(quiet) / 1e9 / len(quiet) * 100 if quiet else None
    rounds_seen = sum(1 for i, (_, b) in enumerate(samples) if b and not (i > 0 and samples[i - 1][1]))
    per_round_ms = (sum(loud) - (quiet_pct or 0) / 100 * 1e9 * len(loud)) / 1e6 / rounds_seen if rounds_seen else None
    print("        per second (CPU ms of the threads alive at both ends; * = a heartbeat round): "
          + " ".join(f"{ns / 1e6:.1f}{'*' if i in beat_seconds else ''}" for i, (ns, _) in enumerate(samples)))
    estimate = None
    if quiet_pct is not None:
        print(f"        {len(quiet)} s without a heartbeat: {quiet_pct:.3f} % of a core")
    if per_round_ms is not None and opened:
        round_us = per_round_ms * 1000 / opened
        estimate = (quiet_pct or 0) + per_round_ms / (p.heartbeat_s * 1000) * 100
        print(f"        {rounds_seen} heartbeat round(s) to {opened} streams: ~{per_round_ms:.0f} ms of CPU each "
              f"= {round_us:.1f} us a stream (every {p.heartbeat_s} s: {per_round_ms / (p.heartbeat_s * 1000) * 100:.2f} % "
              f"of a core); quiet + rounds: {estimate:.2f} % of a core")
        p.summary("streams_round_us_per_stream", f"{round_us:.2f}")
    else:
        print(f"        (no heartbeat in the window: heartbeats go out every {p.heartbeat_s} s)")
    # The figure with heartbeats: the window's own average when it spans two intervals, else the
    # estimate from the quiet seconds and the rounds.
    with_beats = total_pct if p.idle_seconds >= 2 * p.heartbeat_s or estimate is None else estimate
    print(f"idle streams: {opened} open, {with_beats:.2f} % of a core including heartbeats, "
          + (f"{rss_per:,.0f} B RSS per open stream" if rss_per is not None else "no memory figure"))
    p.summary("streams_heartbeat_s", p.heartbeat_s)
    p.summary("streams_idle_window_s", f"{wall:.1f}")
    p.summary("streams_cpu_pct", f"{with_beats:.3f}")
    p.summary("streams_idle_cpu_pct", f"{total_pct:.3f}")
    p.summary("streams_idle_quiet_cpu_pct", "" if quiet_pct is None else f"{quiet_pct:.3f}")
    p.summary("streams_heartbeat_round_ms", "" if per_round_ms is None else f"{per_round_ms:.1f}")
    rss2 = proc.rss(p.pid)
    if rss2 != rss1:
        print(f"        server RSS after the idle window: {mib(rss2)} ({(rss2 - rss1) / max(1, opened):+,.0f} B a stream)")

    # Which limit the server reaches first, from this run's figures: descriptors (its open-file
    # limit, less the 1/8 headroom per worker it keeps), memory (what the machine has available, at
    # RSS and slab per stream) and CPU (1 % of a core with heartbeats).
    # What the server reaches first, from this run's figures. Capacity: descriptors (the most the
    # open-file limit can be here, less what the server keeps) and memory (what the machine has
    # available, at RSS and slab per stream). The target: 1 % of a core with heartbeats.
    capacity = [("descriptors", int((p.max_descriptors - 256) / 1.25),   # (limit - 256) / (1 + workers / 8)
                 f"open-file limit at most {p.max_descriptors:,} here"
                 + (f": raising it failed: {p.hard_limit_error}" if p.hard_limit_error else ""))]
    if rss_per and rss_per > 0:
        per = rss_per + max(0, slab_per or 0)
        capacity.append(("memory", int(available0 / per), f"{mib(available0)} available at {per:,.0f} B a stream"))
    print("capacity (streams the server could hold): " + "; ".join(
        f"{name} ~{n:,} ({why})" for name, n, why in capacity))
    name, n, _ = min(capacity, key=lambda c: c[1])
    first_limit = f"{name} at ~{n:,} streams"
    print(f"        first to give out: {first_limit}")
    if per_round_ms is not None and opened:
        per_stream_pct = per_round_ms / opened / (p.heartbeat_s * 1000) * 100
        room = 1.0 - (quiet_pct or 0)
        within = int(room / per_stream_pct) if room > 0 else 0
        beats_100k = per_stream_pct * 100_000
        at_100k = (quiet_pct or 0) + beats_100k
        print(f"        1 % of a core: heartbeats allow ~{within:,} streams ({per_round_ms * 1000 / opened:.1f} us a "
              f"stream every {p.heartbeat_s} s); 100,000 (linear): ~{at_100k:.2f} %"
              + (f", within 1 % with a heartbeat every ~{p.heartbeat_s * beats_100k / room:.0f} s or a round "
                 f"{beats_100k / room:.1f}x cheaper" if room > 0 else " (the quiet cost alone is over 1 %)"))
        p.summary("streams_cpu_pct_at_100k", f"{at_100k:.3f}")
        first_limit += f"; 1 % of a core at ~{within:,}"
    p.summary("streams_first_limit", first_limit)
