"""The end checks of the chaos suite, as plain functions over what the clients recorded: each
returns a list of problems (empty: the check holds), so test_chaos.py asserts them and
test_chaos_checks.py proves on made-up records that they do catch what they claim to catch."""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable

from chaos_clients import Seen, Write


def percentile(values: Iterable[float], p: float) -> float | None:
    """The nearest-rank percentile (p in 0..100): of 10 values, p99 is the largest."""
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def step_writes(writes: Iterable[Write]) -> list[Write]:
    return [w for w in writes if w.kind == "addStep"]


def acknowledged_steps_exactly_once(writes: Iterable[Write], step_names: list[str]) -> list[str]:
    """Every addStep answered 200 (done, committed) has its step in the recipe exactly once; one
    answered 202 (accepted, still running when the wait ended) at most once: a node that died
    meanwhile may have interrupted it."""
    counts = Counter(step_names)
    problems = []
    for write in step_writes(writes):
        if write.outcome != "acknowledged":
            continue
        name, n = write.step_name, counts[write.step_name]
        if write.status == 200 and n != 1:
            problems.append(f"{write.writer}'s addStep {name!r} (key {write.key}, {len(write.attempts)} attempt(s), "
                            f"statuses {_statuses(write)}) was acknowledged 200"
                            f"{' (a replay)' if write.replayed else ''}, and the recipe has it {n} times; "
                            f"the answer: {write.answer_facts()}")
        elif write.status != 200 and n > 1:
            problems.append(f"{write.writer}'s addStep {name!r} was answered {write.status}, and the recipe has it {n} times")
    return problems


def _statuses(write: Write) -> str:
    """The statuses of a write's attempts, runs of the same status collapsed: `0×49, 200`."""
    runs: list[list] = []
    for attempt in write.attempts:
        if runs and runs[-1][0] == attempt.status:
            runs[-1][1] += 1
        else:
            runs.append([attempt.status, 1])
    return ", ".join(f"{status}×{n}" if n > 1 else str(status) for status, n in runs)


def no_command_ran_twice(writes: Iterable[Write], step_names: list[str], original: Iterable[str] = ()) -> list[str]:
    """No step is in the recipe twice, whatever its command's outcome (acknowledged, refused,
    unanswered): each addStep names a step no other command names, so a name twice means its
    command ran twice. And every step is either one the recipe started with or one a writer
    asked for: nothing else was added."""
    sent = {w.step_name: w for w in step_writes(writes)}
    problems = []
    for name, n in sorted(Counter(step_names).items()):
        if n > 1 and name in sent:
            write = sent[name]
            problems.append(f"step {name!r} is in the recipe {n} times: {write.writer}'s addStep (key {write.key}) ran "
                            f"{n} times; it was sent {len(write.attempts)} time(s), answered "
                            f"[{_statuses(write)}], outcome {write.outcome}")
        elif n > 1 and name not in original:
            problems.append(f"step {name!r} is in the recipe {n} times")
    phantoms = sorted(set(step_names) - set(sent) - set(original))
    if phantoms:
        problems.append(f"steps no writer asked for: {phantoms[:10]}")
    return problems


def refused_commands_changed_nothing(writes: Iterable[Write], step_names: list[str]) -> list[str]:
    """An addStep refused (409 "nothing changed, try again", 412, 422) left no step behind. When a
    retry was refused after an earlier attempt of the same key had landed, that is a lost
    acknowledgement the Idempotency-Key should have prevented (the retry gets the first answer
    again); when a single attempt was refused and its step is there anyway, the refusal was false."""
    counts = Counter(step_names)
    problems = []
    for write in step_writes(writes):
        if write.outcome == "refused" and counts[write.step_name]:
            how = (f"its only attempt was refused {write.status}" if len(write.attempts) == 1 else
                   f"refused {write.status} after {len(write.attempts)} attempts [{_statuses(write)}] "
                   "(an earlier attempt had landed: its retry should have been answered as a replay)")
            detail = (write.answer or {}).get("detail", "")
            problems.append(f"{write.writer}'s addStep {write.step_name!r} (key {write.key}): {how} — "
                            f"{detail!r} — yet the recipe has it {counts[write.step_name]} time(s)")
    return problems


def refused_values_never_shown(writes: Iterable[Write], phones_seen: Iterable[str | None]) -> list[str]:
    """A PATCH refused (412/422/409) never shows: no watcher of that form ever received its phone
    (each PATCH writes a phone value no other write uses)."""
    seen = set(phones_seen)
    return [f"{w.writer}'s PATCH {w.body} was refused {w.status} after {len(w.attempts)} attempt(s) "
            f"[{_statuses(w)}], yet a watcher received it" for w in writes
            if w.kind == "patch" and w.outcome == "refused" and w.body["phone"] in seen]


def form_ends_with_last_acknowledged(writes: list[Write], final_phone: str | None, initial: str = "186") -> list[str]:
    """A writer's form ends with the value of its last acknowledged PATCH (each writer writes
    one at a time, so its last acknowledged write is the last one applied; a write refused after
    it must not show, and a write it never finished must not exist)."""
    patches = [w for w in writes if w.kind == "patch"]
    acknowledged = [w for w in patches if w.outcome == "acknowledged"]
    expected = acknowledged[-1].body["phone"] if acknowledged else initial
    if final_phone == expected:
        return []
    later = patches[patches.index(acknowledged[-1]) + 1:] if acknowledged else patches
    culprit = next((w for w in later if w.body["phone"] == final_phone), None)
    why = ""
    if culprit is not None:
        why = (f": {final_phone!r} is a later write that was not acknowledged (outcome {culprit.outcome}, status "
               f"{culprit.status}, answers [{_statuses(culprit)}], key {culprit.key})")
    return [f"the form ends with phone {final_phone!r}, not its last acknowledged {expected!r}{why}"]


def versions_strictly_increase(name: str, seen: list[Seen]) -> list[str]:
    """Each version a watcher received is newer than the one before, across reconnections, and
    an event's `id:` is its version. (Without ?patches=1 every event is a whole snapshot, so a
    skipped version is always covered by the snapshot that follows: gaps are counted, not failed.)"""
    problems = []
    for before, after in zip(seen, seen[1:]):
        if after.version <= before.version:
            problems.append(f"{name}: version {after.version} after {before.version} "
                            f"(connection {after.connection}{', its first event' if after.first_of_connection else ''})")
    problems += [f"{name}: event id {s.event_id} carries version {s.version}"
                 for s in seen if s.event_id is not None and s.event_id != s.version]
    return problems


def gaps_covered_by_snapshots(name: str, seen: list[Seen], logged: bool = True) -> tuple[list[str], int]:
    """A skipped version is fine only when the event after the gap is a whole snapshot; a patch
    must be made against exactly the version received before it (its first op tests it).
    `logged`: whether the view model keeps its versions in the store's log. One that does not (a
    sensitive input: the login form's password) cannot send the versions in between once a node
    reloaded it from the store, so there a patch made against the version received before it
    covers a gap too (it takes the client from what it holds to the newest state). Returns
    (problems, gaps covered by a snapshot or, unlogged, by such a patch)."""
    problems, covered = [], 0
    for before, after in zip(seen, seen[1:]):
        if after.kind == "patch" and after.base != before.version:
            problems.append(f"{name}: a patch to {after.version} made against {after.base}, "
                            f"but the version received before it is {before.version}")
        elif after.version > before.version + 1:
            if after.kind == "snapshot" or not logged:
                covered += 1
            else:
                problems.append(f"{name}: versions {before.version + 1}..{after.version - 1} skipped by a patch")
    return problems, covered


def browser_form_holds_what_was_typed(typed: str, server_phone: str | None, page_value: str | None,
                                      initial: str = "186") -> list[str]:
    """The server's form, read with the browser's cookie, holds exactly what the browser typed
    (after the initial "186"), and so does the page's field."""
    expected = initial + typed
    problems = []
    if server_phone != expected:
        problems.append(f"the server holds phone {server_phone!r}, the browser typed {expected!r}"
                        f"{_difference(expected, server_phone)}")
    if page_value != expected:
        problems.append(f"the page's field shows {page_value!r}, the browser typed {expected!r}")
    return problems


def _difference(expected: str, got: str | None) -> str:
    if got is None:
        return ""
    common = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    return f" (they part at character {common}: {len(expected) - common} typed, {len(got) - common} held from there)"
