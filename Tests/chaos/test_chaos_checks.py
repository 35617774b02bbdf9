"""The chaos suite's checks catch what they claim to catch: each is fed made-up records of a
run that went wrong (a step added twice, an acknowledged step missing, a refused write that had
landed, versions going back, a patch on the wrong base, a lost keystroke) and must say so, and
records of a run that went right and must not. No server: these take milliseconds."""

from __future__ import annotations

import pytest

from chaos_checks import (acknowledged_steps_exactly_once, browser_form_holds_what_was_typed,
                          form_ends_with_last_acknowledged, gaps_covered_by_snapshots, no_command_ran_twice, percentile,
                          refused_commands_changed_nothing, refused_values_never_shown, versions_strictly_increase)
from chaos_clients import Attempt, Seen, Write, apply_patch, patch_base


def step(name: str, *statuses: int, outcome: str = "acknowledged") -> Write:
    write = Write("writer1", "addStep", f"key-{name}", {"name": name, "durationSeconds": 1})
    write.attempts = [Attempt(0.0, 0.1, status) for status in statuses]
    write.outcome, write.status = outcome, statuses[-1]
    return write


def patch(phone: str, *statuses: int, outcome: str = "acknowledged") -> Write:
    write = Write("writer1", "patch", f"key-{phone}", {"phone": phone}, '"3"')
    write.attempts = [Attempt(0.0, 0.1, status) for status in statuses]
    write.outcome, write.status = outcome, statuses[-1]
    return write


def seen(version: int, kind: str = "snapshot", base: int | None = None, connection: int = 1) -> Seen:
    return Seen(0.0, version, version, kind, base, connection, False, None, None)


def test_a_retried_step_that_ran_twice_is_caught():
    # What the current binary does without Idempotency-Key: the first attempt landed, its answer
    # was lost (502), the retry ran the command again.
    writes = [step("chaos-w1-00001", 200), step("chaos-w1-00002", 502, 200)]
    steps = ["Developer", "chaos-w1-00001", "chaos-w1-00002", "chaos-w1-00002"]
    assert acknowledged_steps_exactly_once(writes, steps) == [
        "writer1's addStep 'chaos-w1-00002' (key key-chaos-w1-00002, 2 attempt(s), statuses 502, 200) was "
        "acknowledged 200, and the recipe has it 2 times; the answer: {}"]
    problems = no_command_ran_twice(writes, steps, ["Developer"])
    assert len(problems) == 1 and "'chaos-w1-00002' is in the recipe 2 times" in problems[0]


def test_an_unacknowledged_step_that_ran_twice_is_caught_too():
    writes = [step("chaos-w1-00003", 502, 0, 0, outcome="abandoned")]
    assert acknowledged_steps_exactly_once(writes, ["chaos-w1-00003"] * 2) == []  # never acknowledged...
    assert no_command_ran_twice(writes, ["chaos-w1-00003"] * 2)                   # ...but it ran twice


def test_a_lost_acknowledged_step_and_a_phantom_are_caught():
    writes = [step("chaos-w1-00001", 200)]
    assert "the recipe has it 0 times" in acknowledged_steps_exactly_once(writes, [])[0]
    assert no_command_ran_twice(writes, ["chaos-w1-00001", "someone else's"]) == ["steps no writer asked for: [\"someone else's\"]"]


def test_exactly_once_holds_for_a_clean_run():
    writes = [step("a", 200), step("b", 502, 504, 200), step("c", 202), step("d", 0, outcome="abandoned")]
    assert acknowledged_steps_exactly_once(writes, ["x", "a", "b"]) == []
    assert no_command_ran_twice(writes, ["x", "a", "b"], ["x"]) == []


def test_a_refusal_that_changed_something_is_caught():
    # "Other writes to this view model kept winning; nothing changed. Try again." — and the step is there.
    false_refusal = step("chaos-w1-00009", 409, outcome="refused")
    false_refusal.answer = {"detail": "nothing changed"}
    problems = refused_commands_changed_nothing([false_refusal], ["chaos-w1-00009"])
    assert len(problems) == 1 and "its only attempt was refused 409" in problems[0]
    lost_ack = step("chaos-w1-00010", 0, 409, outcome="refused")
    assert "an earlier attempt had landed" in refused_commands_changed_nothing([lost_ack], ["chaos-w1-00010"])[0]
    assert refused_commands_changed_nothing([false_refusal, lost_ack], ["x"]) == []
    refused = patch("w1-2", 502, 412, outcome="refused")
    assert refused_values_never_shown([refused], ["w1-1", "w1-2"])
    assert refused_values_never_shown([refused, patch("w1-3", 200)], ["w1-1", "w1-3", None]) == []


def test_a_refused_retry_whose_first_attempt_had_landed_is_caught():
    # The first attempt was applied but its answer lost; the retry (same If-Match) was refused
    # 412 because of that very write; the writer believes "w1-2" was never written.
    writes = [patch("w1-1", 200), patch("w1-2", 502, 412, outcome="refused")]
    problems = form_ends_with_last_acknowledged(writes, "w1-2")
    assert len(problems) == 1 and "not its last acknowledged 'w1-1'" in problems[0] and "[502, 412]" in problems[0]
    assert form_ends_with_last_acknowledged(writes, "w1-1") == []
    assert form_ends_with_last_acknowledged([], "186") == []
    assert form_ends_with_last_acknowledged([patch("w1-1", 200)], "186")  # an acknowledged write lost


def test_versions_going_back_or_repeating_are_caught():
    assert versions_strictly_increase("w", [seen(3), seen(4), seen(9)]) == []
    assert versions_strictly_increase("w", [seen(3), seen(5), seen(5)]) == ["w: version 5 after 5 (connection 1)"]
    assert versions_strictly_increase("w", [seen(5), seen(4, connection=2)]) == ["w: version 4 after 5 (connection 2)"]


def test_a_gap_needs_a_snapshot_and_a_patch_needs_the_version_before_it():
    assert gaps_covered_by_snapshots("w", [seen(3), seen(7), seen(8, "patch", 7)]) == ([], 1)
    problems, _ = gaps_covered_by_snapshots("w", [seen(3), seen(5, "patch", 4)])
    assert problems == ["w: a patch to 5 made against 4, but the version received before it is 3"]


def test_an_unlogged_view_models_gap_may_be_covered_by_a_patch_on_the_version_before_it():
    # The form logs no versions (its password is sensitive): a patch from what the client holds
    # to the newest state is all a node that reloaded it can send.
    assert gaps_covered_by_snapshots("w", [seen(3), seen(5, "patch", 3)], logged=False) == ([], 1)
    problems, _ = gaps_covered_by_snapshots("w", [seen(3), seen(5, "patch", 4)], logged=False)
    assert problems == ["w: a patch to 5 made against 4, but the version received before it is 3"]
    problems, _ = gaps_covered_by_snapshots("w", [seen(3), seen(5, "patch", 3)])
    assert problems == ["w: versions 4..4 skipped by a patch"]


def test_patches_apply_as_the_browser_client_applies_them():
    document = {"version": 3, "inputs": {"phone": "1"}, "outputs": {"steps": [{"id": "a"}]}}
    operations = [{"op": "test", "path": "/version", "value": 3}, {"op": "replace", "path": "/inputs/phone", "value": "12"},
                  {"op": "add", "path": "/outputs/steps/-", "value": {"id": "b"}},
                  {"op": "add", "path": "/outputs/steps/0", "value": {"id": "z"}},
                  {"op": "remove", "path": "/outputs/steps/1"}, {"op": "replace", "path": "/version", "value": 4}]
    assert patch_base(operations) == 3
    assert apply_patch(document, operations) == {"version": 4, "inputs": {"phone": "12"},
                                                 "outputs": {"steps": [{"id": "z"}, {"id": "b"}]}}
    assert document["version"] == 3  # applied to a copy
    with pytest.raises(ValueError):
        apply_patch(document, [{"op": "test", "path": "/version", "value": 2}])


def test_a_lost_or_doubled_keystroke_is_caught():
    assert browser_form_holds_what_was_typed("1234", "1861234", "1861234") == []
    lost = browser_form_holds_what_was_typed("1234", "186124", "1861234")
    assert len(lost) == 1 and "part at character 5" in lost[0]
    assert browser_form_holds_what_was_typed("1234", "18612334", "18612334")


def test_percentile_is_nearest_rank():
    assert percentile([0.1] * 9 + [2.0], 99) == 2.0
    assert percentile([0.3, 0.1, 0.2], 50) == 0.2
    assert percentile([], 99) is None


def test_a_watchers_recovery_is_its_lag_behind_the_first_state_after_the_cut():
    from types import SimpleNamespace

    from chaos_report import watcher_recovery
    added = step("chaos-w1-00020", 200)
    added.attempts = [Attempt(100.2, 101.0, 200)]               # acknowledged 1.0 s after the cut (100.0)
    added.answer = {"outputs": {"recipeVersion": 7}}

    def watcher(name, *arrivals):
        return SimpleNamespace(name=name, path="recipes/r/edit", token=name,
                               seen=[Seen(at, v, v, "snapshot", None, 1, False, v, None) for at, v in arrivals])
    near = watcher("near", (99.0, 6), (100.9, 7))                 # on the node that ran it: before the ack
    far = watcher("far", (99.0, 6), (103.9, 7))                   # three seconds behind it
    run = SimpleNamespace(cut_over=100.0, writes=lambda: [added], writers=[], watchers=[near, far])
    assert watcher_recovery(near, run)[0] == 0.0
    assert watcher_recovery(far, run)[0] == pytest.approx(3.0)
    # The command ran before the cut ended (its answer was lost, a retry was answered after it):
    # a watcher that had it then was current all along; another is late from the cut's end.
    early = watcher("early", (99.5, 7))
    late = watcher("late", (100.3, 7))
    run = SimpleNamespace(cut_over=100.0, writes=lambda: [added], writers=[], watchers=[early, late])
    assert watcher_recovery(early, run)[0] == 0.0
    assert watcher_recovery(late, run)[0] == pytest.approx(0.3)
