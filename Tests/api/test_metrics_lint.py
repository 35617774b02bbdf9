"""`GET /metrics` passes Prometheus' own linter: `promtool check metrics` (Debian's `prometheus`
package, installed by scripts/install-deps --test) finds nothing to say, every family having its
HELP text, its type and a name that follows the conventions.

The server is the session's (conftest.py); a few requests first make the families a write, a
command, an idempotent retry and an upstream call bring."""

from __future__ import annotations

import shutil
import subprocess
import uuid

import pytest
import requests


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool is not installed: apt-get install --no-install-recommends prometheus "
                    "(scripts/install-deps --test)")
    return found


def test_metrics_pass_promtool(server):
    http = requests.Session()
    assert http.get(f"{server}/api/views/form", timeout=10).status_code == 200
    key = {"Idempotency-Key": str(uuid.uuid4())}
    for _ in range(2):  # the second is a replay
        patched = http.patch(f"{server}/api/views/form", json={"phone": "555 0100"}, headers=key, timeout=10)
        assert patched.status_code == 200, patched.text
    loaded = http.post(f"{server}/api/views/courses/commands/load", headers={"Prefer": "wait=10"}, timeout=20)
    assert loaded.status_code in (200, 202), loaded.text

    exposition = http.get(f"{server}/metrics", timeout=10).text
    for family in ("bindery_http_requests_total", "bindery_command_executions_total",
                   "bindery_idempotent_retries_total", "bindery_upstream_call_duration_seconds"):
        assert f"# TYPE {family} " in exposition, f"no {family} in /metrics: the requests above should make it"
    checked = subprocess.run([promtool(), "check", "metrics"], input=exposition, capture_output=True,
                             text=True, timeout=60)
    said = (checked.stdout + checked.stderr).strip()
    assert checked.returncode == 0 and not said, (
        f"promtool check metrics exited {checked.returncode}:\n{said}"
    )
