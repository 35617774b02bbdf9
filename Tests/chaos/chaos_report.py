"""The figures of a chaos run — writes, retries, replays, recovery after the cut, durations — as
a dict, as printable lines, and as artifacts (artifacts/chaos-run.json: every write with its
attempts, every version every watcher received, the phases)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from chaos_checks import percentile
from chaos_clients import ChaosWatcher, ChaosWriter
from chaos_scenario import ChaosRun


def writer_recovery(writer: ChaosWriter, cut_over: float) -> float | None:
    """Seconds from nginx accepting again until this writer was served again: when it sent the
    first request after the cut that a node answered 2xx. That request's own running time (an
    addStep contending with three other writers for one recipe across three nodes takes up to
    about 2 s) is the command's latency, not a lack of recovery: `first_successes` reports the
    answers themselves."""
    served = sorted((a for a in writer.attempts() if 200 <= a.status < 300 and a.answered >= cut_over),
                    key=lambda a: a.answered)
    return max(served[0].sent, cut_over) - cut_over if served else None


def first_successes(run: ChaosRun) -> dict[str, float | None]:
    """Seconds from nginx accepting again until each writer's first 2xx answer arrived (its
    request's running time included)."""
    return {w.name: (round(a[0] - run.cut_over, 3) if (a := w.successes_after(run.cut_over)) else None) for w in run.writers}


def watcher_recovery(watcher: ChaosWatcher, run: ChaosRun) -> tuple[float | None, str]:
    """How long this watcher's stream lagged behind the first state acknowledged after the cut:
    for a form watcher, the version of its writer's first PATCH acknowledged after the cut; for
    a recipe watcher, the recipe version of the first addStep acknowledged (200) after it, by any
    writer. The lag is counted from when that state existed — its acknowledgement, or the first
    moment any watcher received it if earlier — and never from before nginx accepted again; so a
    command's own running time is the writer's (writer_recovery), and a watcher that already had
    the state before the cut ended was current all along (0 s). Returns (seconds, what)."""
    cut_over = run.cut_over
    after = sorted((w for w in run.writes() if w.outcome == "acknowledged" and w.acknowledged_at >= cut_over),
                   key=lambda w: w.acknowledged_at)
    if watcher.path == "form":
        writer = next(wr for wr in run.writers if wr.token == watcher.token)
        first = next((w for w in after if w.kind == "patch" and w.writer == writer.name), None)
        if first is None:
            return None, f"no PATCH of {writer.name} acknowledged after the cut"
        target = first.answer["version"]
        peers = [w for w in run.watchers if w.path == "form" and w.token == watcher.token]
        reached, what = (lambda s: s.version >= target), f"version {target} ({writer.name}'s first PATCH after the cut)"
    else:
        first = next((w for w in after if w.kind == "addStep" and w.status == 200), None)
        if first is None:
            return None, "no addStep acknowledged after the cut"
        target = first.answer["outputs"]["recipeVersion"]
        peers = [w for w in run.watchers if w.path != "form"]
        reached, what = (lambda s: (s.recipe_version or 0) >= target), f"recipe version {target} (first addStep after the cut)"
    seen = next((s for s in watcher.seen if reached(s)), None)
    if seen is None:
        return None, what
    first_seen = min(next(s.at for s in peer.seen if reached(s)) for peer in peers if any(reached(s) for s in peer.seen))
    existed = min(first.acknowledged_at, first_seen)
    return max(0.0, seen.at - max(cut_over, existed)), what


def recoveries(run: ChaosRun) -> dict[str, tuple[float | None, str]]:
    """Every client's recovery after the cut (None: it never recovered)."""
    result = {w.name: (writer_recovery(w, run.cut_over), "first request answered 2xx, sent") for w in run.writers}
    for watcher in run.watchers:
        result[watcher.name] = watcher_recovery(watcher, run)
    return result


def first_answers(run: ChaosRun) -> dict[str, float | None]:
    """Seconds from nginx accepting again until each writer's first answer from a node, whatever
    its status (a 409 conflict too): when the way through was back, as opposed to when a write
    first succeeded."""
    return {w.name: (round(a[0] - run.cut_over, 3) if (a := w.answers_after(run.cut_over)) else None) for w in run.writers}


def figures(run: ChaosRun) -> dict:
    writes = run.writes()
    attempts = [a for w in writes for a in w.attempts]
    outcomes = Counter(f"{w.kind} {w.outcome} {w.status}" for w in writes)
    recovered = recoveries(run)
    times = [seconds for seconds, _ in recovered.values() if seconds is not None]
    steps = Counter(run.final_steps)
    return {
        "seed": run.seed,
        "writes (logical)": len(writes),
        "writes acknowledged": sum(w.outcome == "acknowledged" for w in writes),
        "outcomes": dict(sorted(outcomes.items())),
        "requests sent": len(attempts),
        "retries": sum(w.retries for w in writes),
        "writes retried": sum(w.retries > 0 for w in writes),
        "replays (Idempotent-Replayed: true)": sum(a.replayed for a in attempts),
        "writes acknowledged by a replay": sum(w.replayed for w in writes),
        "retried writes whose last answer was a refusal": sum(1 for w in writes if w.retries and w.outcome == "refused"),
        "answers by status": dict(sorted(Counter(a.status for a in attempts).items())),
        "steps in the recipe": len(run.final_steps),
        "steps in the recipe more than once (duplicates)": {n: c for n, c in steps.items() if c > 1},
        "watchers": {w.name: {"versions": len(w.seen), "streams opened": w.statuses.count(200),
                              "attempts refused": len(w.statuses) - w.statuses.count(200),
                              "patches": sum(s.kind == "patch" for s in w.seen),
                              "gaps": sum(1 for a, b in zip(w.seen, w.seen[1:]) if b.version > a.version + 1),
                              "caught up": run.caught_up.get(w.name), "problems": len(w.problems)}
                     for w in run.watchers},
        "recovery after the cut (s)": {name: (None if s is None else round(s, 3), what) for name, (s, what) in recovered.items()},
        "writers' first answer of any status after the cut (s)": first_answers(run),
        "writers' first 2xx answer after the cut, its running time included (s)": first_successes(run),
        "recovery p50 (s)": _round(percentile(times, 50)),
        "recovery p99 (s)": _round(percentile(times, 99)),
        "clients that never recovered": [name for name, (s, _) in recovered.items() if s is None],
        "browser": run.browser,
        "phases (s)": {p.name: round(p.seconds, 2) for p in run.phases},
        "phase details": {p.name: p.detail for p in run.phases if p.detail},
        "final read-back: seconds until every node agreed": run.convergence,
        "final read-back: what the nodes never agreed on": run.disagreements,
        "node exits nobody asked for": run.node_exits,
        "nginx answers by status": run.nginx_statuses,
        "nginx 5xx": len(run.nginx_5xx),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def lines(figures: dict) -> list[str]:
    """The figures as short printable lines."""
    out = []
    for name, value in figures.items():
        if isinstance(value, dict) and len(json.dumps(value, ensure_ascii=False)) > 100:
            out.append(f"{name}:")
            out += [f"    {k}: {v}" for k, v in value.items()]
        else:
            out.append(f"{name}: {value}")
    return out


def write_artifacts(run: ChaosRun, figures: dict, directory: Path) -> None:
    """artifacts/chaos-figures.json and artifacts/chaos-run.json (every write and every version)."""
    directory.mkdir(exist_ok=True)
    (directory / "chaos-figures.json").write_text(json.dumps(figures, indent=2, ensure_ascii=False))
    detail = {
        "seed": run.seed, "recipe": run.recipe, "started": run.started, "cut_over": run.cut_over, "stopped": run.stopped,
        "phases": [(p.name, round(p.began - run.started, 3), round(p.ended - run.started, 3), p.detail) for p in run.phases],
        "writes": [w.summary() for w in run.writes()],
        "writer crashes": {w.name: w.crashed for w in run.writers if w.crashed},
        "watchers": {w.name: {"path": w.path, "patches": w.patches, "problems": w.problems, "errors": w.errors,
                              "statuses": w.statuses,
                              "seen": [(round(s.at - run.started, 3), s.version, s.kind, s.base, s.connection,
                                        s.recipe_version, s.phone) for s in w.seen]}
                     for w in run.watchers},
        "final steps": run.final_steps, "final phones": run.final_phones, "final versions": run.final_versions,
        "browser": run.browser,
        "typed keys": [(round(t - run.started, 3), k) for t, k in run.typist.keys] if run.typist else [],
        "page after each key": [(round(t - run.started, 3), state) for t, state in run.typist.states] if run.typist else [],
        "nginx 5xx": run.nginx_5xx,
    }
    (directory / "chaos-run.json").write_text(json.dumps(detail, indent=1, ensure_ascii=False, default=str))
