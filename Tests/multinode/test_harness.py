"""The multi-node harness itself, checkable without the PostgreSQL store backend: both nginx
configurations pass `nginx -t` and carry the settings issue 11 asks for; the PostgreSQL fixture
starts, serves SQL and its LISTEN-killing helper finds a LISTEN connection; nodes on `--store
memory` behind nginx get each session's every request on the node nginx's ring gives it (the
ring recomputed in nginx_ring.py agrees with nginx), Server-Sent Events come through
unbuffered, and an idempotent request is retried on another node when one is killed."""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from pathlib import Path

import requests
import yaml

from multinode_cluster import HEARTBEAT, REPO, TEMPLATE, log_tail, nginx_check, render_nginx_conf
from multinode_client import Watcher, auth, call, expect, new_session
from nginx_ring import Ring
from multinode_load import check_acknowledged, check_sessions, check_watchers, roll

DOCKER_NGINX = REPO / "docker" / "nginx.conf"


def directives(text: str) -> str:
    """The configuration without comments, whitespace collapsed."""
    return re.sub(r"\s+", " ", "\n".join(line.split("#", 1)[0] for line in text.splitlines()))


def check_settings(text: str, where: str) -> None:
    conf = directives(text)
    upstream = re.search(r"upstream bindery \{(.*?)\}", conf)
    assert upstream, f"{where}: no `upstream bindery {{...}}` block"
    servers = re.findall(r"server (\S+)", upstream.group(1))
    assert len(servers) >= 2, f"{where}: the upstream lists {servers}, expected several nodes"
    block = upstream.group(1)
    placement = re.search(r"hash \$bindery_placement consistent;", block)
    assert placement, f"{where}: the upstream must place sessions with `hash $bindery_placement consistent;`"
    keepalive = re.search(r"keepalive \d+;", block)
    assert keepalive and placement.start() < keepalive.start(), (
        f"{where}: `hash` must come before `keepalive` (nginx: a balancer other than round robin is set first)")
    assert re.search(r"zone \S+ \d+k;", block), f"{where}: the upstream needs a shared `zone` (one view of failed nodes)"
    for other in ("ip_hash", "sticky", "least_conn", "random"):
        assert other not in block, f"{where}: `{other}` in the upstream: expected the consistent hash only"
    # The placement key: the bearer token, else the session cookie, else the request's id.
    assert re.search(r"map \$http_authorization \$bindery_bearer \{", conf), f"{where}: no bearer map"
    assert re.search(r"map \$cookie_bindery_session \$bindery_cookie_or_request \{ \"\" \$request_id;", conf), (
        f"{where}: a request without a session must be placed by $request_id")
    assert re.search(r"map \$bindery_bearer \$bindery_placement \{ \"\" \$bindery_cookie_or_request;", conf), (
        f"{where}: the placement key must be the bearer token first, then the cookie")
    required = {
        "keepalive": r"keepalive \d+;",
        "HTTP/1.1 to the nodes": r"proxy_http_version 1\.1;",
        "an empty Connection header (keep-alive)": r'proxy_set_header Connection "";',
        "Host passed with its port (the origin check compares it with Origin)": r"proxy_set_header Host \$http_host;",
        "X-Forwarded-For passed": r"proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;",
        "X-Forwarded-Proto passed": r"proxy_set_header X-Forwarded-Proto \$scheme;",
        "no response buffering (SSE)": r"proxy_buffering off;",
        "no cache": r"proxy_cache off;",
        "idempotent retries on a dead node": r"proxy_next_upstream error timeout;",
        "bodies up to the nodes' 1 MiB": r"client_max_body_size 1m;",
    }
    for what, pattern in required.items():
        assert re.search(pattern, conf), f"{where}: expected {what} (`{pattern}`)"
    assert "non_idempotent" not in conf, f"{where}: POST/PATCH must not be retried on another node"
    timeout = re.search(r"proxy_read_timeout (\d+)s;", conf)
    assert timeout and int(timeout.group(1)) > 60, (
        f"{where}: proxy_read_timeout must be well above the 15 s heartbeat and the 60 s long-poll cap, "
        f"got {timeout.group(0) if timeout else 'none (nginx default 60 s)'}")


def test_the_template_passes_nginx_t_and_has_the_settings():
    text = render_nginx_conf("127.0.0.1:18080", ["127.0.0.1:18081", "127.0.0.1:18082", "127.0.0.1:18083"])
    check_settings(text, str(TEMPLATE.relative_to(REPO)))
    with tempfile.TemporaryDirectory(prefix="bindery-nginx-t-") as prefix:
        conf = Path(prefix) / "nginx.conf"
        conf.write_text(text)
        result = nginx_check(Path(prefix), conf)
        assert result.returncode == 0, f"nginx -t on the rendered template:\n{result.stderr}"
        assert "test is successful" in result.stderr, result.stderr


def test_the_compose_config_passes_nginx_t_and_has_the_settings():
    text = DOCKER_NGINX.read_text(encoding="utf-8")
    check_settings(text, "docker/nginx.conf")
    services = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text(encoding="utf-8"))["services"]
    names = re.findall(r"server (bindery-\d+):8080", text)
    assert names == ["bindery-1", "bindery-2", "bindery-3"], names
    for name in names:
        assert name in services, f"docker/nginx.conf proxies to {name}, compose.yaml has no such service"
    # The node names resolve only inside compose's network: point them at loopback for `nginx -t`.
    local = re.sub(r"server bindery-\d+:8080", "server 127.0.0.1:8080", text)
    with tempfile.TemporaryDirectory(prefix="bindery-nginx-t-") as prefix:
        conf = Path(prefix) / "nginx.conf"
        conf.write_text(local)
        result = nginx_check(Path(prefix), conf)
        assert result.returncode == 0, f"nginx -t on docker/nginx.conf:\n{result.stderr}"


def test_postgres_serves_sql_and_the_listen_helper_finds_listeners(postgres, database):
    version = postgres.psql("SHOW server_version_num")[0][0]
    assert version.startswith("15"), f"expected PostgreSQL 15 from Debian's packages, got {version}"
    assert postgres.psql("SELECT current_database()", database) == [[database]]
    # What a LISTEN connection looks like from the database side, and that the helper kills it.
    listener = subprocess.Popen(
        [str(postgres.bindir / "psql"), "-X", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
         "-d", database], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        listener.stdin.write('LISTEN "bindery_changes";\n')
        listener.stdin.flush()
        deadline = time.monotonic() + 10
        while not any(b["query"].upper().startswith("LISTEN") for b in postgres.backends(database)):
            assert time.monotonic() < deadline, f"no LISTEN backend seen: {postgres.backends(database)}"
            time.sleep(0.05)
        seen = [b for b in postgres.backends(database) if b["query"].upper().startswith("LISTEN")]
        assert seen[0]["state"] == "idle", seen
        killed = postgres.terminate_listeners(database)
        assert [k["pid"] for k in killed] == [seen[0]["pid"]] and killed[0]["terminated"], killed
        deadline = time.monotonic() + 10
        while any(b["pid"] == seen[0]["pid"] for b in postgres.backends(database)):
            assert time.monotonic() < deadline, "the terminated backend is still there"
            time.sleep(0.05)
    finally:
        listener.stdin.close()
        try:
            listener.wait(timeout=5)
        except subprocess.TimeoutExpired:
            listener.kill()
            listener.wait(timeout=5)


def ring_of(cluster) -> Ring:
    return Ring([f"127.0.0.1:{n.port}" for n in cluster.nodes])


def session_placed_on(cluster, node) -> str:
    """A session made on `node` (a memory store keeps it there alone) whose token nginx's ring
    also gives to `node`: made until one is (a third of them with 3 nodes)."""
    ring = ring_of(cluster)
    for _ in range(60):
        token = new_session(node.base)
        if ring.owner(token) == f"127.0.0.1:{node.port}":
            return token
    raise AssertionError(f"60 sessions made on {node.port}, none placed there by the ring")


def test_nginx_places_each_session_on_its_ring_node(cluster_factory):
    cluster = cluster_factory("memory", 3, name="memory")
    ring = ring_of(cluster)
    # The ring here is nginx's: 30 bearer tokens land where it says, and they reach every node.
    tokens = [f"probe-{i:02d}" for i in range(30)]
    for token in tokens:
        expect(requests.get(cluster.base + "/healthz", headers=auth(token), timeout=5), 200, "/healthz through nginx")
    used = cluster.nginx.upstreams_used()[-len(tokens):]
    expected = [ring.owner(token) for token in tokens]
    assert used == expected, f"nginx placed the tokens {used}, the ring says {expected}"
    assert set(used) == {f"127.0.0.1:{n.port}" for n in cluster.nodes}, f"30 keys should reach all 3 nodes: {set(used)}"
    # A cookie places as its token does; a request with neither is spread (its $request_id).
    expect(requests.get(cluster.base + "/healthz", cookies={"bindery_session": tokens[0]}, timeout=5), 200)
    assert cluster.nginx.upstreams_used()[-1] == expected[0], "the cookie should place as the bearer token does"

    # Every request of a session reaches its node: a stream, writes, reads.
    owner = cluster.nodes[1]
    token = session_placed_on(cluster, owner)
    before = len(cluster.nginx.upstreams_used())
    watcher = Watcher(cluster.base, token, name="through-nginx")
    began = time.monotonic()
    watcher.start()
    try:
        assert watcher.wait_open(5.0), f"no first event within 5 s through nginx: {watcher.errors}"
        first_after = watcher.events[0].at - began
        assert first_after < 2.0, f"the first event took {first_after:.2f} s through nginx"
        # An event made later is pushed through nginx at once (not held in a buffer).
        patched_at = time.monotonic()
        expect(call(cluster.base, "PATCH", "/api/views/form", token, {"phone": "18612345678"}), 200)
        version = watcher.events[0].version + 1
        assert watcher.wait_for_version(version, 2.0), (
            f"version {version}, PATCHed through nginx, did not come through within 2 s "
            f"(got {watcher.versions()}): is nginx buffering?")
        lag = watcher.events[-1].at - patched_at
        for _ in range(5):
            expect(call(cluster.base, "GET", "/api/views/form", token), 200)
        # Heartbeat comments come through too (the nodes send one every HEARTBEAT s).
        assert watcher.wait_for(lambda w: w.heartbeats >= 1, HEARTBEAT * 2 + 1), "no heartbeat comment through nginx"
        print(f"\nfirst event through nginx after {first_after * 1000:.0f} ms; PATCH to event {lag * 1000:.0f} ms")
    finally:
        watcher.stop()
    # The stream's request is logged when it ends: all 7 went to the owner.
    used = cluster.nginx.upstreams_used()[before:]
    assert used == [f"127.0.0.1:{owner.port}"] * len(used) and len(used) >= 7, (
        f"every request of the session should reach 127.0.0.1:{owner.port}: {used}")


def test_nginx_retries_reads_on_another_node_when_one_dies(cluster_factory):
    cluster = cluster_factory("memory", 3, name="memory-kill")
    victim = cluster.nodes[1]
    victim.kill9()
    statuses = [requests.get(cluster.base + "/healthz", timeout=5).status_code for _ in range(12)]
    assert statuses == [200] * 12, f"GETs through nginx with a node killed should all be retried elsewhere: {statuses}"
    victim.start()
    ports = set()
    deadline = time.monotonic() + 10
    while str(victim.port) not in ports:
        assert time.monotonic() < deadline, (
            f"the restarted node {victim.port} got no request back within 10 s; nginx used {sorted(ports)}\n"
            f"{log_tail(cluster.nginx.error_log)}")
        expect(requests.get(cluster.base + "/healthz", timeout=5), 200)
        ports = {a.rsplit(":", 1)[-1] for a in cluster.nginx.upstreams_used()[-3:]}
        time.sleep(0.2)


def test_the_rolling_load_passes_on_one_sqlite_node_behind_nginx(cluster_factory, tmp_path):
    """The load and checks of test_failover.py, against the one node that can restart on the
    same state without PostgreSQL (SQLite): checks the harness itself (writers, watchers
    resuming with Last-Event-ID, the gap check) and that nginx passes all of it."""
    cluster = cluster_factory(f"sqlite:{tmp_path / 'one.sqlite'}", 1, name="sqlite-roll")
    rolled = roll(cluster, victim_index=0)
    check_sessions(rolled)
    print(f"\n{check_acknowledged(rolled)}\n{check_watchers(rolled)}")


def test_adding_a_node_moves_only_the_sessions_the_ring_gives_it():
    """nginx's ring (nginx_ring.py, checked against nginx above): a fourth node takes about a
    quarter of 4,000 sessions, every one of them from the three others, and no session moves
    between the three; removing it gives each back to the node that had it."""
    three = Ring([f"127.0.0.1:{18081 + i}" for i in range(3)])
    four = Ring([f"127.0.0.1:{18081 + i}" for i in range(4)])
    keys = [f"token-{i:05d}" for i in range(4000)]
    moved = [key for key in keys if three.owner(key) != four.owner(key)]
    assert all(four.owner(key) == "127.0.0.1:18084" for key in moved), "a session moved between the old nodes"
    share = len(moved) / len(keys)
    assert 0.15 <= share <= 0.35, f"the new node took {share:.0%} of the sessions, expected about 25 %"
    # While a node is down nginx passes its sessions to the next node of the ring (owners()[1]):
    # spread over the others, not all onto one.
    fallbacks = {three.owners(key)[1] for key in keys if three.owner(key) == "127.0.0.1:18081"}
    assert fallbacks == {"127.0.0.1:18082", "127.0.0.1:18083"}, fallbacks
