"""Fixtures of the chaos suite (issue 28, item 4): a PostgreSQL 15 of its own in a temporary
directory, three Bindery nodes on one database behind nginx (the multi-node harness,
Tests/multinode/multinode_cluster.py), a headless Chromium, and the chaos run itself, once per
module. Every process is stopped at the end even when a test fails; the logs land in
artifacts/chaos-* (node logs chaos-node<N>-<start>.log, nginx's and PostgreSQL's too).

The binary is BINDERY_BIN, copied (with the resource bundles next to it) into a temporary
directory when the suite starts, so that a newer build replacing it mid-run cannot give the
cluster two different binaries; its size, modification time and SHA-256 are printed.

The seed of every random choice is BINDERY_CHAOS_SEED (default 28004).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "multinode"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from multinode_cluster import ARTIFACTS, Cluster, Postgres, binary_path  # noqa: E402

HEARTBEAT = 2           # seconds: the nodes' SSE heartbeat (a dead stream is noticed quickly)
COMMAND_LEASE = 3       # seconds: a killed node's running command shows as interrupted soon
SEED = int(os.environ.get("BINDERY_CHAOS_SEED", "28004"))

_figures: dict = {}


def pytest_terminal_summary(terminalreporter):
    if _figures:
        from chaos_report import lines
        terminalreporter.write_sep("-", "chaos figures")
        for line in lines(_figures):
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def chaos_clock():
    """When the suite began: the budget is measured from here (and printed at the end). Module
    scoped, like every fixture here: when several suites run in one pytest session, nothing of
    this one (its clock, its copy of the binary, its servers) outlives test_chaos.py."""
    began = time.monotonic()
    yield began
    _figures["suite duration (s), budget 180"] = round(time.monotonic() - began, 1)


@pytest.fixture(scope="module")
def chaos_binary(chaos_clock):
    """A private copy of BINDERY_BIN (and its *.resources), used for every node start of the suite."""
    source = binary_path()
    if not source.exists():
        pytest.fail(f"no server binary at {source} (set BINDERY_BIN)")
    copy_dir = Path(tempfile.mkdtemp(prefix="bindery-chaos-bin-"))
    binary = copy_dir / source.name
    shutil.copy2(source, binary)
    for bundle in source.parent.glob("*.resources"):
        shutil.copytree(bundle, copy_dir / bundle.name, symlinks=True)
    stat = binary.stat()
    digest = hashlib.sha256(binary.read_bytes()).hexdigest()[:16]
    _figures["binary"] = (f"{source}: {stat.st_size} bytes, modified {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(stat.st_mtime))}, "
                          f"sha256 {digest}…")
    previous = os.environ.get("BINDERY_BIN")
    os.environ["BINDERY_BIN"] = str(binary)
    try:
        yield binary
    finally:
        if previous is None:
            os.environ.pop("BINDERY_BIN", None)
        else:
            os.environ["BINDERY_BIN"] = previous
        shutil.rmtree(copy_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def chaos_postgres(chaos_clock):
    server = Postgres("chaos-postgres")
    try:
        server.start()
        yield server
    finally:
        server.stop()
        _rename_logs()


@pytest.fixture(scope="module")
def chaos_cluster(chaos_binary, chaos_postgres, tmp_path_factory):
    """Three nodes on a fresh database, started at the same time, nginx in front."""
    database = chaos_postgres.create_database("chaos")
    cluster = Cluster(chaos_postgres.url(database), 3, tmp_path_factory.mktemp("chaos"), name="chaos",
                      extra=["--heartbeat", str(HEARTBEAT), "--command-lease", str(COMMAND_LEASE)])
    began = time.monotonic()
    try:
        cluster.start(parallel=True)
        _figures["cluster start (s)"] = round(time.monotonic() - began, 2)
        yield cluster
    finally:
        began = time.monotonic()
        try:
            cluster.stop()
        finally:
            _figures["cluster stop (s)"] = round(time.monotonic() - began, 2)
            _rename_logs()


@pytest.fixture(scope="module")
def chaos_browser():
    """A headless Chromium (the browser suites' driver), quit at the end."""
    from bindery_support import chrome_driver
    driver = chrome_driver()
    try:
        yield driver
    finally:
        try:
            driver.get("about:blank")
        except Exception:
            pass
        driver.quit()


@pytest.fixture(scope="module")
def chaos_run(chaos_cluster, chaos_browser):
    """The chaos run (chaos_scenario.py), once for the module; its figures are printed and kept in
    artifacts/chaos-figures.json, its details in artifacts/chaos-run.json."""
    from chaos_report import figures, lines, write_artifacts
    from chaos_scenario import run_chaos
    began = time.monotonic()
    run = run_chaos(chaos_cluster, chaos_browser, SEED, HEARTBEAT)
    result = figures(run)
    result["chaos run incl. set-up and read-back (s)"] = round(time.monotonic() - began, 1)
    _figures.update(result)
    write_artifacts(run, result, ARTIFACTS)
    print("\n" + "\n".join(lines(result)))
    return run


def _rename_logs() -> None:
    """The harness names its logs multinode-<name>…; this suite's are chaos-…."""
    for path in ARTIFACTS.glob("multinode-chaos-*"):
        path.replace(ARTIFACTS / path.name.removeprefix("multinode-"))
