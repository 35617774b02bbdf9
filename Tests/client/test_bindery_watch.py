"""`bindery-watch` end to end against the real server: writes and commands applied in order, one
JSON line per version, refusals and unknown tokens as non-zero exits, and a server killed with
SIGKILL and restarted while it follows a list: every version printed once, none missing."""

from __future__ import annotations

import json
import time

from watch_process import Watch, run_watch

FORM_OUTPUTS = {"output", "phoneValid", "passwordValid", "phoneColor", "passwordColor", "signedInAs"}


def test_sets_and_runs_then_one_line_per_version(server):
    done = run_watch("--url", server.url, "--set", "phone=18612345678", "--set", "password=passw0rd",
                     "--run", "clear", "--count", "3", "form")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["version"] for line in lines] == [1, 2, 3]
    assert set(lines[0]["changed"]) == FORM_OUTPUTS, "the first line has every output"
    assert lines[0]["changed"]["phoneValid"] is False
    # The two --set are one write (the phone as text, though it parses as a number): one version.
    assert lines[1]["changed"] == {"output": "手机号:18612345678, 密码:passw0rd", "phoneValid": True, "passwordValid": True,
                                   "phoneColor": "black", "passwordColor": "black"}
    assert lines[2]["changed"] == {"output": "手机号:186, 密码:", "phoneValid": False, "passwordValid": False,
                                   "phoneColor": "red", "passwordColor": "red"}
    assert done.stderr.startswith("token: "), "a new session's token is printed to stderr"


def test_a_refused_write_or_command_prints_the_problem_and_exits_non_zero(server):
    refused = run_watch("--url", server.url, "--set", "phone=" + "1" * 70, "--count", "5", "form")
    assert refused.returncode != 0
    problem = json.loads(refused.stderr.splitlines()[-1])
    assert (problem["status"], problem["field"]) == (422, "phone")
    disabled = run_watch("--url", server.url, "--run", "clear", "--count", "5", "form")
    assert disabled.returncode != 0
    assert json.loads(disabled.stderr.splitlines()[-1])["title"] == "Command disabled"


def test_an_unknown_token_exits_non_zero_at_once(server):
    started = time.monotonic()
    refused = run_watch("--url", server.url, "--token", "0" * 32, "form")
    assert refused.returncode != 0
    assert time.monotonic() - started < 5
    assert json.loads(refused.stderr.splitlines()[-1])["status"] == 401


def test_it_resumes_after_a_kill_9_without_a_gap_or_a_duplicate(server):
    """Follows a session's list (not the form: a view model with a sensitive input logs no
    versions, so a stream resuming after a restart gets one snapshot, not the versions missed)."""
    token = server.session()
    watch = Watch("--url", server.url, "--token", token, "list")
    try:
        seen = [watch.next_version()["version"]]
        for city in (10, 20, 30):
            made = server.patch(token, "list", {"currentCityId": city})["version"]
            while seen[-1] < made:
                seen.append(watch.next_version()["version"])
        server.kill9()
        server.start()
        for city in (50, 1):
            made = server.patch(token, "list", {"currentCityId": city})["version"]
            while seen[-1] < made:
                seen.append(watch.next_version(timeout=20)["version"])
        assert seen == list(range(seen[0], seen[0] + len(seen))), f"versions printed: {seen}"
        assert len(seen) >= 6, f"versions printed: {seen}"
        assert watch.interrupt() == 0, "SIGINT ends the watch normally"
    finally:
        if watch.process.poll() is None:
            watch.process.kill()
