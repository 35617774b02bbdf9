"""A smoke run of every benchmark and soak tool (`python -m bindery_bench <subcommand> --smoke`,
launched as scripts/bench… launch it) against the debug `BINDERY_BIN`: each must run through and
print the figures it promises. Never a speed threshold: the figures of a one-second run mean
nothing; a benchmark that no longer runs (a route that moved, a refusal it does not expect) fails
here instead of rotting unseen.

Budget: 75 s for the whole suite on 2 cores (about 45 s measured before the multi-node PostgreSQL
smoke; the http smoke, eight 1 s wrk cases, is a third of it). The multi-node benchmark runs twice:
on the memory store (one node behind nginx, 2 s), and on PostgreSQL with two nodes for issue 43's
phases (writes through nginx, sessions owned by one node, the shared recipe, one failover round:
17 s measured at a load average of 13, marked `postgres`); its notification phase and lag are left
out (about 10 s more). The Hummingbird reference takes
part only when HUMMINGBIRD_BIN names a built one; without it the http smoke is Bindery-only and
says so."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import tempfile

import pytest

from bindery_support import REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy

TOOLS = REPO / "tools"
sys.path.insert(0, str(TOOLS))
from bindery_bench.__main__ import COMMANDS  # noqa: E402


def run(subcommand: str, *args: str, env: dict | None = None, timeout: float = 60) -> str:
    """`python -m bindery_bench SUBCOMMAND --smoke ARGS` with the binary under test; its output,
    after asserting it exited 0."""
    inherited = {k: v for k, v in os.environ.items() if k != "BENCH_SUMMARY_FILE"}
    environment = {**inherited, "BINDERY_BIN": str(binary_path()),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(TOOLS), os.environ.get("PYTHONPATH")])),
                   **(env or {})}
    done = subprocess.run([sys.executable, "-m", "bindery_bench", subcommand, "--smoke", *args], cwd=REPO,
                          env=environment, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{subcommand} exited {done.returncode}:\n{output[-4000:]}"
    return output


@pytest.fixture
def server(tmp_path):
    """A seed server on a free loopback port (memory store, sessions idle for 1 s), its base URL."""
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "w") as out:
        process = subprocess.Popen([str(binary_path()), "--host", "127.0.0.1", "--port", str(port), "--public-dir",
                                    str(public_dir()), "--store", "memory", "--log-level", "error",
                                    "--upstream-latency-ms", "0", "--session-idle-timeout", "1",
                                    "--session-sweep-interval", "1"], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(process, base, 30, str(log))
        yield base
    finally:
        stop_process(process)


def test_every_launcher_starts_a_subcommand_of_the_package():
    for script, sub in {"bench": "http", "bench-collab": "collab", "bench-idle-streams": "idle-streams",
                        "bench-memory": "memory", "bench-multinode": "multinode", "bench-summary": "summary",
                        "bench-write-to-push": "write-to-push", "load-timing": "load-timing", "soak": "soak",
                        "soak-load": "soak-load", "soak-report": "soak-report"}.items():
        text = (REPO / "scripts" / script).read_text()
        assert re.search(rf'-m bindery_bench {re.escape(sub)} "\$@"$', text.strip()), script
        assert sub in COMMANDS


def test_http_prints_its_cases_and_the_targets():
    output = run("http")
    for case in ("get", "c-ref", "c-ref-pool", "patch", "patch-mem", "patch-c16", "healthz", "304"):
        if case.startswith("c-ref") and "(no C reference" in output:
            continue
        assert re.search(rf"^{re.escape(case)} +\d+ +\d+ ", output, re.M), f"no row for {case}:\n{output}"
    if os.environ.get("HUMMINGBIRD_BIN"):
        assert re.search(r"^hb-get +\d+", output, re.M), output
    else:
        assert "Bindery-only" in output, output
    assert "SSE: a watcher of the loaded list" in output, output
    assert "Issue 32 targets, this run:" in output and "Issue 13 targets, this run:" in output, output
    assert "city change on a loaded list <= 2 KB/watcher" in output, output


def test_collab_prints_ops_and_push_latency():
    output = run("collab")
    assert re.search(r"ops/s on one value: \d+ \(4 writers, 1 s; refused by status: none\)", output), output
    assert re.search(r"edit answer -> last of 10 watchers \(1 a session\): p50 [\d.]+ ms, p99 [\d.]+ ms "
                     r"\(3 of 3 edits reached every watcher\)", output), output


def test_idle_streams_opens_idles_fans_out_and_closes(tmp_path):
    summary = tmp_path / "summary.tsv"
    output = run("idle-streams", env={"BENCH_SUMMARY_FILE": str(summary)})
    assert re.search(r"^idle streams: 20 open, [\d.]+ % of a core", output, re.M), output
    assert "fan-out to 5 watchers of one view model" in output, output
    assert "after closing every stream: bindery_event_streams_open 0" in output, output
    keys = {line.split("\t")[0] for line in summary.read_text().splitlines()}
    assert {"streams_open", "streams_cpu_pct", "fanout_watchers"} <= keys, keys


def test_memory_prints_each_step_per_session():
    output = run("memory", env={"BENCH_MEMORY_STORES": "memory"})
    for step in ("bare: POST /api/sessions only", "form: POST /api/sessions + GET form",
                 "list: POST /api/sessions + load list", "quiet: all 3N hibernated (1 s)"):
        assert re.search(rf"{re.escape(step)} +[\d.]+s +0 ", output), f"{step}:\n{output}"


def test_write_to_push_prints_the_four_figures_per_watcher_count(tmp_path):
    summary = tmp_path / "summary.tsv"
    output = run("write-to-push", env={"BENCH_SUMMARY_FILE": str(summary)})
    for figure in ("server write→commit", "server write→push", "client PATCH round trip", "client send→last watcher"):
        assert len(re.findall(rf"{figure} +5 +[\d.]+ ms", output)) == 2, f"{figure}:\n{output}"
    assert "write_to_push_p50_ms_w5" in summary.read_text()


def test_multinode_on_the_memory_store_prints_its_tables():
    output = run("multinode", env={"BENCH_STORE": "memory"})
    assert re.search(r"^ +1 bindery +1 +[\d.]+ +[\d.]+ +0 +0 ", output, re.M), output
    assert "Per write (medians over runs)" in output, output


@pytest.mark.postgres
def test_multinode_on_postgres_runs_the_issue_43_phases():
    """Two nodes on PostgreSQL: writes through nginx, sessions owned by node 1, the shared recipe
    and one failover round each print their figures, and the summary puts them beside the targets.
    The notification phase and the lag are left out (about 10 s more)."""
    output = run("multinode", env={"BENCH_STORE": "postgres", "BENCH_NODES": "2", "BENCH_SHARED": "1",
                                   "BENCH_FAILOVER": "1", "BENCH_FANOUT": "0", "BENCH_LAG_SAMPLES": "0"})
    number = r"-?[\d.]+"
    # Writes through nginx: the per-write row has changes received per write, the nodes their own rows.
    assert re.search(rf"^\S+ +2 +{number} +{number} .* {number} +(-|{number})$", output, re.M), output
    assert len(re.findall(rf"^ +1 \S+ +2 +[12] +{number} +{number} +\d+ +\d+ +\d+$", output, re.M)) == 2, output
    # Sessions owned by node 1: the other node served none of their requests.
    assert re.search(rf"^ +1 \S+ +2 +{number} +{number} +{number} +{number} +0 +{number} +\d+$", output, re.M), output
    # The shared recipe: steps acknowledged, their tries counted.
    assert re.search(rf"^ +1 \S+ +2 +{number} +{number} +{number} +\d+ .* \d+ tr(?:y|ies): \d+", output, re.M), output
    # One failover round: a time for the next write and the next event of the killed node's sessions.
    assert re.search(rf"^ +1 \S+ +2 +1 +\S+ +\d+ +{number} +{number} +{number} +{number} +{number} +{number} +"
                     rf"{number} s$", output, re.M), output
    assert re.search(r"checks: \d+ writes acknowledged, .* lost \d+, doubled \d+, gaps \d+", output), output
    for figure in ("writes per busy core, private, 2 node(s)", "changes received per private write, 2 nodes",
                   "CPU on other nodes per private write, 2 nodes", "shared recipe: steps after a 2nd try / 409s",
                   "failover: next acknowledged write p99", "failover: stream resumed p99",
                   "failover: writes lost (gaps incl.) / doubled"):
        assert figure in output, f"{figure}:\n{output}"


def test_summary_reads_a_run_and_says_met_or_not():
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write("rps:get\t50000\nrps:c-ref\t60000\nrps:c-ref-pool\t70000\nrps:hb-get\t10000\n"
                "p99:patch-c256\t12000\nsse_change_events\t1\nsse_change_bytes\t900\nsse_change_kinds\tpatch\n")
    try:
        done = subprocess.run([str(REPO / "scripts/bench-summary"), f.name], capture_output=True, text=True, timeout=30)
    finally:
        os.unlink(f.name)
    assert done.returncode == 0, done.stderr
    rows = {line.split("  ")[0].strip(): line.split()[-1] for line in done.stdout.splitlines() if "  " in line}
    assert rows["GET >= 3.5x Hummingbird GET"] == "met", done.stdout
    assert re.search(r"GET >= 0.6x the faster raw C reference +0.71x .* met$", done.stdout, re.M), done.stdout
    assert re.search(r"PATCH p99 at 256 connections <= 10 ms +12.0 ms +not met$", done.stdout, re.M), done.stdout
    assert re.search(r"durable PATCH >= 1.0x Hummingbird PATCH +not measured +-$", done.stdout, re.M), done.stdout


def test_soak_samples_and_writes_its_report(tmp_path):
    output = run("soak", env={"SOAK_OUT": str(tmp_path)})
    assert f"wrote {tmp_path}/soak.csv, soak.svg, README.md" in output, output
    with open(tmp_path / "soak.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 3 and all(int(row["rss_bytes"]) > 0 for row in rows), rows
    assert (tmp_path / "soak.svg").read_text().startswith("<svg")
    assert "| RSS |" in (tmp_path / "README.md").read_text()


def test_soak_load_churn_records_its_rounds(server, tmp_path):
    out = tmp_path / "churn.csv"
    run("soak-load", "churn", "--base", server, "--out", str(out))
    rows = list(csv.DictReader(open(out)))
    assert [row["round"] for row in rows] == ["0", "1"], rows
    assert all(int(row["peak_rss_bytes"]) > 0 for row in rows), rows
    assert int(rows[1]["peak_sessions"]) >= int(rows[0]["peak_sessions"]) + 10, rows   # the round made sessions


def test_load_timing_loads_a_screen_in_chromium(server):
    output = run("load-timing", server)
    assert re.search(r"^/form +\d+ +\d+ +[\d.]+ +\d+ +\d+ +[\d.]+$", output, re.M), output
