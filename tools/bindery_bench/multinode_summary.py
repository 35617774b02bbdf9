"""bench-multinode's tables for issue 43: sessions owned by node 1 (the others' CPU), the shared
recipe, the failover, and one summary of the figures beside the issue's targets."""

from __future__ import annotations

import statistics
from collections import Counter

from .figures import percentile
from .multinode_measure import above_idle
from .multinode_report import label, us

OTHERS_NOISE_US = 10.0   # µs a write: below this, "0 µs on other nodes" counts as met (the idle correction's noise)


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def owned(cfg, owns):
    if not owns:
        return
    print(f"\nSessions owned by node 1: {cfg.writers} writers through nginx for {cfg.seconds:.0f} s on sessions the ring "
          "gives node 1; the other nodes serve none of them")
    print("'others': CPU of nodes 2.. above their idle rate; recv./w: changes received over all nodes per write")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'writes/s':>8} {'per core':>8} {'node 1 µs/w':>11} "
          f"{'others µs/w':>11} {'others req.':>11} {'recv./w':>7} {'let go':>6}")
    for run, binary, count, (acks, elapsed, _, _), u, delta, _, idle in owns:
        excess = above_idle(u, idle)
        print(f"{run:>3} {binary:<14} {count:>5} {acks / elapsed:>8.1f} {acks / u.server if u.server else 0:>8.0f} "
              f"{us(u.nodes[0], acks):>11.0f} {us(sum(excess[1:]), acks):>11.1f} {sum(d[4] for d in delta[1:]):>11.0f} "
              f"{sum(d[2] for d in delta) / acks if acks else 0:>7.2f} {sum(d[3] for d in delta):>6.0f}")


def tries_text(tries):
    return ", ".join(f"{n} tr{'y' if n == 1 else 'ies'}: {tries[n]}" for n in sorted(tries)) or "none"


def shared(cfg, shares):
    if not shares:
        return
    print(f"\nShared recipe c41: {cfg.shared_writers} signed-in writers through nginx add steps for {cfg.seconds:.0f} s "
          "(Idempotency-Key, Prefer: wait=10, a non-200 tried again with the same key)")
    print("every node holds c41: recv./w ≈ nodes − 1 expected; 'steps' = c41's steps at the end (the recipe grows);")
    print("p50/p99: a step's time from its first try to its 200")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'steps/s':>7} {'per core':>8} {'recv./w':>7} {'409s':>5} "
          f"{'other refusals':<16} {'given up':>8} {'lost':>4} {'doubled':>7} {'steps':>5} {'p50 ms':>6} {'p99 ms':>6}  "
          "tries per step")
    for run, binary, count, r, u, delta, _ in shares:
        others = {s: n for s, n in r["refused"].items() if s != 409}
        print(f"{run:>3} {binary:<14} {count:>5} {r['steps'] / r['elapsed']:>7.1f} "
              f"{r['steps'] / u.server if u.server else 0:>8.0f} {sum(d[2] for d in delta) / r['steps'] if r['steps'] else 0:>7.2f} "
              f"{r['refused'][409]:>5} {str(others or '-'):<16} {r['given_up']:>8} {r['lost']:>4} {r['doubled']:>7} "
              f"{r['total_steps']:>5} {percentile(r['seconds'], 50) * 1000:>6.0f} {percentile(r['seconds'], 99) * 1000:>6.0f}  "
              f"{tries_text(r['tries'])}")


def seconds(values, p):
    values = [v for v in values if v is not None]
    return f"{percentile(values, p):.3f}" if values else "-"


def failover_figures(fails):
    acked = [t for *_, r in fails for rnd in r["rounds"] for t in rnd["acked"]]
    resumed = [t for *_, r in fails for rnd in r["rounds"] for t in rnd["resumed"]]
    return acked, resumed


def failover(cfg, fails):
    if not fails:
        return
    print(f"\nFailover: {cfg.failover_sessions} sessions through nginx, each with an event stream and a writer (a pause of "
          f"{cfg.failover_pause:g} s); kill -9 of the node owning the most, {cfg.failover_rounds} round(s) a run; seconds "
          "from the kill to each of its sessions' next acknowledged write and next event ('-': none within 15 s)")
    print(f"{'run':>3} {'binary':<14} {'nodes':>5} {'round':>5} {'killed':<18} {'sessions':>8} {'ack p50':>7} {'ack p99':>7} "
          f"{'ack max':>7} {'event p50':>9} {'event p99':>9} {'event max':>9} {'back after':>10}")
    for run, binary, count, r in fails:
        for n, rnd in enumerate(r["rounds"], 1):
            missing = sum(1 for t in rnd["acked"] + rnd["resumed"] if t is None)
            back = f"{rnd['back']:.1f} s" if rnd["back"] is not None else "not back"
            print(f"{run:>3} {binary:<14} {count:>5} {n:>5} {rnd['victim']:<18} {rnd['sessions']:>8} "
                  f"{seconds(rnd['acked'], 50):>7} {seconds(rnd['acked'], 99):>7} {seconds(rnd['acked'], 100):>7} "
                  f"{seconds(rnd['resumed'], 50):>9} {seconds(rnd['resumed'], 99):>9} {seconds(rnd['resumed'], 100):>9} "
                  f"{back:>10}{f'  ({missing} missing)' if missing else ''}")
        print(f"{'':>3} {binary:<14} {count:>5} checks: {r['writes']} writes acknowledged, {r['ambiguous']} without a clear "
              f"answer, {r['conflicts']} 412s, {r['reconnects']} stream reconnects; lost {len(r['lost'])}, doubled "
              f"{len(r['doubled'])}, gaps {len(r['gaps'])}, other {len(r['other'])}")
        for problem in (r["lost"] + r["doubled"] + r["gaps"] + r["other"])[:10]:
            print(f"    {problem}")
    acked, resumed = failover_figures(fails)
    print(f"over every session and round: next acknowledged write p50 {seconds(acked, 50)} s, p99 {seconds(acked, 99)} s; "
          f"stream's next event p50 {seconds(resumed, 50)} s, p99 {seconds(resumed, 99)} s ({len(acked)} values)")


def verdict(ok):
    return "-" if ok is None else "met" if ok else "not met"


def summary(cfg, rows, owns, shares, fails):
    """One table: each figure (medians over runs, the last binary) beside issue 43's target."""
    binary = label(cfg.bins[-1])
    lines = []

    def per(table, count, f):
        return med([f(r) for r in table if r[1] == binary and r[2] == count])

    one = per(rows, 1, lambda r: r[4][0] / r[5].server if r[5].server else None)
    for count in cfg.counts:
        core = per(rows, count, lambda r: r[4][0] / r[5].server if r[5].server else None)
        if core is None:
            continue
        ratio = core / one * 100 if one else None
        figure = f"{core:.0f}" + (f" ({ratio:.0f} % of 1 node's)" if ratio is not None and count > 1 else "")
        target = "≥ 90 % of 1 node's" if count == 12 else "(≥ 90 % at 12)" if count > 1 else "the reference"
        lines.append((f"writes per busy core, private, {count} node(s)", figure, target,
                      verdict(ratio >= 90 if ratio is not None and count == 12 else None)))
    for count in [c for c in cfg.counts if c > 1]:
        recv = per(rows, count, lambda r: sum(d[2] for d in r[6]) / r[4][0] if r[4][0] else None)
        if recv is not None:
            lines.append((f"changes received per private write, {count} nodes", f"{recv:.3f}", "0", verdict(recv == 0)))
    for count in [c for c in cfg.counts if c > 1]:
        cpu = per(owns, count, lambda r: us(sum(above_idle(r[4], r[7])[1:]), r[3][0]) if r[3][0] else None)
        if cpu is not None:
            lines.append((f"CPU on other nodes per private write, {count} nodes", f"{cpu:.1f} µs",
                          f"0 µs (< {OTHERS_NOISE_US:g}: noise)", verdict(cpu < OTHERS_NOISE_US)))
    for count in cfg.counts:
        core = per(shares, count, lambda r: r[3]["steps"] / r[4].server if r[4].server else None)
        if core is None:
            continue
        recv = per(shares, count, lambda r: sum(d[2] for d in r[5]) / r[3]["steps"] if r[3]["steps"] else None)
        lines.append((f"shared recipe: steps per busy core, {count} node(s)", f"{core:.0f}, {recv:.2f} received/w",
                      f"(received ≈ {count - 1})", "-"))
    if shares:
        mine = [r[3] for r in shares if r[1] == binary]
        steps = sum(r["steps"] for r in mine)
        late = sum(n for t, n in sum((r["tries"] for r in mine), Counter()).items() if t > 2)
        refused = sum(r["refused"][409] for r in mine)
        wrong = sum(r["lost"] + r["doubled"] + r["given_up"] for r in mine)
        lines.append(("shared recipe: steps after a 2nd try / 409s", f"{late} of {steps} / {refused}", "0 / 0",
                      verdict(late == 0 and refused == 0 and steps > 0)))
        lines.append(("shared recipe: lost, doubled or given up", f"{wrong}", "0", verdict(wrong == 0)))
    mine = [f for f in fails if f[1] == binary]
    if mine:
        acked, resumed = failover_figures(mine)
        missing = sum(1 for t in acked + resumed if t is None)
        p_ack = percentile([t if t is not None else float("inf") for t in acked], 99)
        p_res = percentile([t if t is not None else float("inf") for t in resumed], 99)
        lines.append((f"failover: next acknowledged write p99 ({len(acked)})", f"{p_ack:.3f} s", "≤ 2 s", verdict(p_ack <= 2)))
        lines.append((f"failover: stream resumed p99 ({len(resumed)})", f"{p_res:.3f} s", "≤ 3 s", verdict(p_res <= 3)))
        bad = [len(r["lost"]) + len(r["gaps"]) for *_, r in mine], [len(r["doubled"]) for *_, r in mine]
        lost, doubled = sum(bad[0]), sum(bad[1])
        lines.append(("failover: writes lost (gaps incl.) / doubled", f"{lost} / {doubled}" + (f", {missing} missing" if missing else ""),
                      "0 / 0", verdict(lost == 0 and doubled == 0 and missing == 0)))
    if not lines:
        return
    print(f"\nIssue 43 targets, this run ({binary}, medians over {cfg.runs} run(s); a debug build's figures mean little):")
    width = max(len(line[0]) for line in lines)
    for name, figure, target, ok in lines:
        print(f"  {name:<{width}}  {figure:<34} {target:<26} {ok}")
