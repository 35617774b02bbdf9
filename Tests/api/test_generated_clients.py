"""The committed typed Swift clients are what `generate-client swift` writes today, byte for byte,
and the Counter's committed OpenAPI document is what it prints.

`Sources/SeedClients` comes from the seed apps' `bindery generate-client swift`, the Counter's
`Sources/CounterClient` from its `CounterServer generate-client swift` (built by scripts/test before
pytest). A change to a declaration or to the generator without regenerating fails here, as a stale
`docs/openapi.json` does.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tools import binary_path

REPO = Path(__file__).resolve().parents[2]


def assert_fresh(binary: Path, committed: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    subprocess.run([str(binary), "generate-client", "swift", "--output", str(out)],
                   capture_output=True, timeout=60, check=True)
    generated = {p.name: p.read_bytes() for p in sorted(out.glob("*.swift"))}
    present = {p.name: p.read_bytes() for p in sorted(committed.glob("*.swift"))}
    regenerate = f"regenerate: {binary.name} generate-client swift --output {committed.relative_to(REPO)}"
    assert generated, "generate-client wrote nothing"
    assert sorted(present) == sorted(generated), f"{committed.relative_to(REPO)} has other files; {regenerate}"
    stale = [name for name in generated if generated[name] != present[name]]
    assert not stale, f"stale in {committed.relative_to(REPO)}: {', '.join(stale)}; {regenerate}"


def test_seed_clients_are_fresh(tmp_path):
    assert_fresh(binary_path(), REPO / "Sources/SeedClients", tmp_path)


def test_the_counters_client_is_fresh(tmp_path):
    counter_server = REPO / ".build" / "debug" / "CounterServer"
    assert counter_server.exists(), "build the Counter first (scripts/test does, before pytest)"
    assert_fresh(counter_server, REPO / "Examples/Counter/Sources/CounterClient", tmp_path)


def test_the_counters_openapi_document_is_fresh():
    """Examples/Counter/openapi.json, which Tests/GeneratedClients generates a client from, is what
    `CounterServer openapi` prints today (as docs/openapi.json is the seed apps')."""
    counter_server = REPO / ".build" / "debug" / "CounterServer"
    assert counter_server.exists(), "build the Counter first (scripts/test does, before pytest)"
    printed = subprocess.run([str(counter_server), "openapi"], capture_output=True, timeout=60, check=True).stdout
    committed = REPO / "Examples/Counter/openapi.json"
    assert committed.read_bytes() == printed, (
        "Examples/Counter/openapi.json is stale: regenerate with .build/debug/CounterServer openapi > Examples/Counter/openapi.json"
    )
