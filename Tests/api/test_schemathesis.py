"""Schemathesis against the live server: every documented operation, all checks, zero failures.

Expectations: every check schemathesis has, each with its defaults (including
`positive_data_acceptance`, "schema-valid request rejected", and `negative_data_rejection`, "schema-
invalid request accepted"), but one relaxed: a schema-valid request may be answered 422 (which the
document lists for each operation that can answer it) when the refusal is one a schema cannot
express, and only then: an id or index the session's state does not hold, a view model's own rule,
an edit's base ahead of the text, an Idempotency-Key used before for another request. The check
`only_semantic_refusals` (schemathesis_refusals.py) fails any other 422. 412 never comes: If-Match
is pinned (below); 404 and 409 (an unknown child, a command not possible now) are defaults.

Pinned inputs (schemathesis.toml): `after=0`, as a valid version would long-poll up to 30 s, and
`If-Match: *`, as a random one is stale (412) before the body is read; test_openapi.py checks both.
The session is signed in (as Han Meimei, who has no role), so that the writes a user may make are
fuzzed for what they hold, not only refused 401; what she may not do answers 403.

Excluded: event streams (`.../events`, endless by design), PATCH /api/upstream (it changes the
fake upstream for everyone: fuzzed latencies of up to 60 s and failure rates of 1 would turn every
later check into noise) and signing out (once or everywhere: it ends the session every later
request is sent with, which would leave only 401s to check). Written for schemathesis 4.x (CLI
flags `--seed`, `--max-examples`, `--exclude-operation-id`; hooks through SCHEMATHESIS_HOOKS).
About 70 s alone; 190-340 s in the test command, beside the browser suite on the same two cores.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import requests

from bindery_support import HAN_MEIMEI
from tools import venv_tool

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CONFIG = HERE / "schemathesis.toml"
HOOKS = HERE / "schemathesis_refusals.py"
REPORTS = REPO / "artifacts" / "schemathesis"


def schemathesis_executable() -> str:
    return venv_tool("schemathesis")


def prime(base: str) -> str:
    """A session signed in as Han Meimei whose list is loaded and whose gallery is imported, so
    child view models exist."""
    http = requests.Session()
    created = http.post(f"{base}/api/session/sign-in", json=HAN_MEIMEI.credentials, timeout=30)
    assert created.status_code == 200, created.text
    token = created.json()["token"]
    http.headers["Authorization"] = f"Bearer {token}"
    load = http.post(f"{base}/api/views/list/commands/load", headers={"Prefer": "wait=10"}, timeout=20)
    assert load.status_code == 200, load.text[:300]
    deadline = time.monotonic() + 10
    with http.get(f"{base}/api/views/gallery/events", stream=True, timeout=10) as stream:
        for line in stream.iter_lines(decode_unicode=True):
            if line.startswith("data:") and '"photos":[{' in line and '"loading":false' in line:
                break
            assert time.monotonic() < deadline, "the gallery did not import its photos"
    return token


def schemathesis_command(base: str, token: str) -> list[str]:
    return [
        schemathesis_executable(),
        "--config-file", str(CONFIG),
        "--no-color",
        "run", f"{base}/openapi.json",
        "--checks", "all",
        "--seed", "1",
        "--max-examples", "25",
        "--exclude-path-regex", ".*/events$",
        "--exclude-operation-id", "patchUpstreamSettings",
        "--exclude-operation-id", "signOut",
        "--exclude-operation-id", "signOutEverywhere",
        "--workers", "1",
        "--request-timeout", "30",
        "--generation-database", "none",
        "--header", f"Authorization: Bearer {token}",
        "--report", "junit",
        "--report-dir", str(REPORTS),
    ]


def test_schemathesis_finds_nothing(server, tmp_path):
    token = prime(server)
    REPORTS.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        schemathesis_command(server, token),
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
        env={**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_HOOKS": str(HOOKS)},
    )
    output = result.stdout + result.stderr
    (REPORTS / "output.txt").write_text(output, encoding="utf-8")
    assert result.returncode == 0, (
        f"schemathesis exited with {result.returncode} (full output: {REPORTS / 'output.txt'}):\n"
        + output[-20000:]
    )
