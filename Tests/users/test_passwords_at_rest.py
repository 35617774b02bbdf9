"""Passwords are not kept at rest (issue 37): a distinctive password typed into the login form
(PATCH, with and without Idempotency-Key), tried with the form's `signIn` command, typed again
after a real sign-in (the demo account's password, typed and used too) and followed by more
versions, is nowhere in the store afterwards — not in any file of the SQLite store's directory
(the database, its -wal and -shm, read raw after a `kill -9`, free pages and all), not in any
table of the PostgreSQL database (pg_dump of its data) nor any file of the PostgreSQL server's
directory (its tables, indexes and WAL). The phone typed with it is found there, so the search
finds what is stored. Meanwhile `GET .../versions` shows the password masked. The store keeps it
sealed (AES-GCM) with the server's sealing key: a single server started without `--sealing-key`
has a key of its own process, so after a restart the form shows it empty (a replayed
Idempotency-Key answers the current snapshot, without it); nodes sharing a key (the cluster
harness gives its nodes one, as a deployment does) open it after a restart.

Behind several nodes the form must sign in when its `signIn` reaches another node than the PATCH
that typed the password (the first node died between them, or the proxy does not place sessions):
the sealed value opens there.

Time budget: 30 s (about 8 s here: a PostgreSQL of the suite's own, a server and two nodes)."""

from __future__ import annotations

import os
import random
import subprocess
import uuid
from pathlib import Path

import pytest

from bindery_support import LI_LEI
from users_client import new_session, request

MASK = "••••••"


def distinctive() -> tuple[str, str]:
    """A password and a phone number nothing else in a store holds (fresh for every run)."""
    return f"Zq{uuid.uuid4().hex[:14]}Xw", f"139{random.randrange(10**8):08d}"


def patch(base: str, token: str, inputs: dict, key: str | None = None):
    answer = request(base, "PATCH", "/api/views/form", inputs, token=token,
                     headers={"Idempotency-Key": key} if key else None, content_type="application/merge-patch+json")
    assert answer.status == 200, answer
    return answer


def assert_masked(base: str, token: str, secrets: list[str]) -> None:
    """GET /api/views/form/versions: the password masked in every version, never in clear."""
    answer = request(base, "GET", "/api/views/form/versions", token=token)
    assert answer.status == 200, answer
    for secret in secrets:
        assert secret.encode() not in answer.body, f"/versions shows the password {secret!r}: {answer}"
    versions = answer.json()["versions"]
    assert versions, answer
    for version in versions:
        assert version["snapshot"]["inputs"]["password"] in ("", MASK), version
    assert any(version["snapshot"]["inputs"]["password"] == MASK and MASK in version["snapshot"]["outputs"]["output"]
               for version in versions), f"no version shows the typed password masked: {versions}"


def type_and_sign_in(base: str, secret: str, phone: str) -> str:
    """The life of a login form that has seen passwords: `secret` typed (as the form echoes it
    back), tried, more versions; then the demo account's password typed and signed in with; then
    `secret` typed again and more versions. Answers the signed-in session's token."""
    token = new_session(base)
    typed = patch(base, token, {"phone": phone, "password": secret}, key=str(uuid.uuid4()))
    assert typed.json()["inputs"]["password"] == secret, "the session's own snapshot shows what it typed"
    assert_masked(base, token, [secret])
    tried = request(base, "POST", "/api/views/form/commands/signIn", token=token,
                    headers={"Idempotency-Key": str(uuid.uuid4())})
    assert tried.status == 422 and tried.json()["command"] == "signIn", tried
    for n in range(3):
        patch(base, token, {"phone": f"{phone[:-1]}{n}"})
    patch(base, token, {"phone": LI_LEI.phone, "password": LI_LEI.password}, key=str(uuid.uuid4()))
    signed_in = request(base, "POST", "/api/views/form/commands/signIn", token=token,
                        headers={"Idempotency-Key": str(uuid.uuid4())})
    assert signed_in.status == 200, signed_in
    token = signed_in.json()["token"]
    typed = patch(base, token, {"phone": phone, "password": secret}, key=str(uuid.uuid4()))
    for city in (10, 20, 30):
        assert request(base, "PATCH", "/api/views/list", {"currentCityId": city}, token=token).status == 200
    assert_masked(base, token, [secret, LI_LEI.password])
    return token


def files_holding(directory: Path, needle: bytes) -> list[str]:
    """Every file under `directory` whose bytes contain `needle`."""
    found = []
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        if needle in path.read_bytes():
            found.append(str(path.relative_to(directory)))
    return found


def assert_restart_shows(base: str, token: str, phone: str, password: str) -> None:
    form = request(base, "GET", "/api/views/form", token=token).json()
    assert form["inputs"] == {"phone": phone, "password": password}, form
    assert form["outputs"]["output"].endswith(f"密码:{password}") and form["outputs"]["signedInAs"] == LI_LEI.name, form


def test_the_sqlite_store_never_holds_a_typed_password(server_factory):
    secret, phone = distinctive()
    server = server_factory("at-rest")
    token = type_and_sign_in(server.base, secret, phone)
    key = str(uuid.uuid4())
    patch(server.base, token, {"phone": phone}, key=key)
    server.kill9()      # nothing checkpointed: the -wal and -shm stay beside the database
    directory = server.store.parent
    files = sorted(p.name for p in directory.iterdir() if p.name.startswith(server.store.name))
    assert server.store.name in files and f"{server.store.name}-wal" in files, files
    assert files_holding(directory, phone.encode()), f"the phone typed is in none of {files}: the search is blind"
    for password in (secret, LI_LEI.password):
        assert not files_holding(directory, password.encode()), (
            f"the password {password!r} is in {files_holding(directory, password.encode())} of the store")
    server.start()
    assert_restart_shows(server.base, token, phone, "")     # sealed with the old process's own key
    replayed = patch(server.base, token, {"phone": phone}, key=key)
    assert replayed.header("Idempotent-Replayed") == "true", replayed.headers
    assert replayed.json()["inputs"] == {"phone": phone, "password": ""}, replayed


def dump_holds(dump: bytes, needle: bytes) -> bool:
    """Whether a pg_dump holds `needle`: as text, or in a bytea column (written as hex)."""
    return needle in dump or needle.hex().encode() in dump


def pg_dump(postgres, database: str) -> bytes:
    """The data of every table of `database`, as pg_dump writes it."""
    executable = postgres.bindir / "pg_dump"
    result = subprocess.run([str(executable), "--data-only", "-h", "127.0.0.1", "-p", str(postgres.port),
                             "-U", "postgres", "-d", database], capture_output=True, timeout=60,
                            stdin=subprocess.DEVNULL, env={**os.environ, "PGCONNECT_TIMEOUT": "5"})
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


@pytest.mark.postgres
def test_the_postgresql_store_never_holds_a_typed_password(cluster_factory):
    secret, phone = distinctive()
    cluster = cluster_factory(1, name="at-rest")
    node, postgres = cluster.nodes[0], cluster.postgres
    token = type_and_sign_in(node.base, secret, phone)
    node.kill9()
    dump = pg_dump(postgres, cluster.database)
    tables = [line for line in dump.decode(errors="replace").splitlines() if line.startswith("COPY ")]
    assert any("bindery_version_log" in t for t in tables) and any("bindery_idempotency_key" in t for t in tables), tables
    assert dump_holds(dump, phone.encode()), "the phone typed is in no table: the search is blind"
    for password in (secret, LI_LEI.password):
        assert not dump_holds(dump, password.encode()), f"a table of the database holds the password {password!r}"
    # The server's own files: every database's tables and indexes, and the WAL of every write.
    postgres.psql("CHECKPOINT")
    assert files_holding(postgres.data, phone.encode()), "the phone typed is in no file of PostgreSQL's"
    assert not files_holding(postgres.dir, secret.encode()), (
        f"PostgreSQL's {files_holding(postgres.dir, secret.encode())} hold the password")
    node.start()
    assert_restart_shows(node.base, token, phone, secret)   # sealed with the cluster's key: it opens


@pytest.mark.postgres
def test_the_form_signs_in_on_another_node_than_the_one_told_the_password(cluster_factory):
    """What a browser whose node changes between two requests does (its node died, or a proxy
    without placement): it types the password (a PATCH, on node A), then presses the button (the
    signIn command, on node B). The password reached the store sealed
    only; node B, with the same sealing key, opens it and signs in."""
    one, two = cluster_factory(2, name="two-nodes").nodes
    token = new_session(one.base)
    typed = patch(one.base, token, {"phone": LI_LEI.phone, "password": LI_LEI.password})
    assert typed.json()["commands"]["signIn"]["enabled"], typed
    signed_in = request(two.base, "POST", "/api/views/form/commands/signIn", token=token)
    assert signed_in.status == 200, (
        f"signIn on node B after the password was typed on node A: {signed_in}; node B's form shows "
        f"{request(two.base, 'GET', '/api/views/form', token=token).json()['inputs']} at the version node A answered "
        f"{typed.json()['version']} with {typed.json()['inputs']}")
    assert signed_in.json()["outputs"]["signedInAs"] == LI_LEI.name
