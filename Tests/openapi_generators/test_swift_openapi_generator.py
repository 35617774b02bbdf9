"""Apple's swift-openapi-generator on Bindery's documents, as an app's developer uses it.

`Tests/GeneratedClients` is a package with the generator's build plugin on the seed apps'
`docs/openapi.json` and the Counter's `Examples/Counter/openapi.json`, and Apple's URLSession
transport; scripts/test builds it (scratch path `.build-generated`, generated code never in git).
Here its `GeneratedClientsCheck` drives real servers: a session, reads, 304 for `If-None-Match`,
writes with `If-Match` and a 412 for a stale one, a 422 problem, a command retried with its
`Idempotency-Key` and replayed, long-polls with `Prefer: wait`, the version log's dates; on the
Counter, a deferred `reset` waited for with `Prefer: wait`. The generated client sends those
headers percent-encoded (`%227%22`, `wait%3D5`): every step fails if the server misreads them.
The generator itself, run on both documents, prints no warning (a `oneOf` with a bare null schema
or a float bound would).

The servers come from conftest.py. Time budget: 30 s.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bindery_support import REPO

PACKAGE = REPO / "Tests" / "GeneratedClients"
SCRATCH = Path(os.environ.get("BINDERY_GENERATED_CLIENTS_BUILD", REPO / ".build-generated"))
DOCUMENTS = {
    "seed": (REPO / "docs" / "openapi.json", PACKAGE / "Sources" / "SeedAppsAPI" / "openapi-generator-config.yaml"),
    "counter": (REPO / "Examples" / "Counter" / "openapi.json", PACKAGE / "Sources" / "CounterAPI" / "openapi-generator-config.yaml"),
}


def built(pattern: str) -> Path:
    found = sorted(SCRATCH.glob(pattern))
    assert found, f"{SCRATCH}/{pattern} is missing: build Tests/GeneratedClients first (scripts/test does: " \
                  f"swift build --package-path Tests/GeneratedClients --scratch-path .build-generated --product GeneratedClientsCheck)"
    return found[0]


def run_check(document: str, base: str) -> str:
    check = built("debug/GeneratedClientsCheck")
    run = subprocess.run([str(check), document, base], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"the {document} client failed:\n{run.stdout}{run.stderr}"
    return run.stdout


@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_the_generator_reads_the_document_without_a_warning(document, tmp_path):
    path, config = DOCUMENTS[document]
    tool = built("*/debug/swift-openapi-generator-tool")
    run = subprocess.run([str(tool), "generate", str(path), "--config", str(config), "--output-directory", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    printed = run.stdout + run.stderr
    assert run.returncode == 0, printed
    warnings = [line for line in printed.splitlines() if "warning" in line.lower() or "error" in line.lower()]
    assert not warnings, "\n".join(warnings)
    assert (tmp_path / "Client.swift").stat().st_size > 0


def test_a_client_generated_from_the_seed_document_works_against_the_server(seed_server):
    printed = run_check("seed", seed_server)
    for step in ("getForm with If-None-Match: 304", "patchForm (JSON) refused 412", "clearForm with an Idempotency-Key",
                 "getForm long-poll with Prefer: wait", "versionsForm"):
        assert f"passed: {step}" in printed, printed


def test_a_client_generated_from_the_counters_document_works_against_the_counter(counter_server):
    printed = run_check("counter", counter_server.base)
    for step in ("patchCounter with If-Match", "incrementCounter retried with its key: ran once",
                 "resetCounter with Prefer: wait=10: answered done", "getCounter with If-None-Match: 304"):
        assert f"passed: {step}" in printed, printed
