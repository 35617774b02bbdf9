"""docker/: hadolint is clean, and the image's defaults agree with the README and the server.

No Docker engine runs here, so the image is checked statically: the Dockerfile lints clean, its
`ENV BINDERY_*` names are options the server reads, the port the README serves on is the one
the image sets, exposes and health-checks, and compose publishes nginx there, in front of the
nodes on that image port (docker/nginx.conf itself is checked with `nginx -t` in Tests/multinode).
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from tools import venv_tool

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "docker" / "Dockerfile"
COMPOSE = REPO / "docker" / "compose.yaml"
README = REPO / "README.md"
SERVE_OPTIONS = REPO / "Sources" / "Bindery" / "ServeOptions.swift"
# The seed apps' server adds its own options (the fake upstream's) to the library's.
SEED_OPTIONS = REPO / "Sources" / "SeedServer" / "UpstreamOptions.swift"
NGINX_CONF = REPO / "docker" / "nginx.conf"


def hadolint_executable() -> str:
    return venv_tool("hadolint")


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    logical, current = [], ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        keyword, _, rest = current.strip().partition(" ")
        logical.append((keyword.upper(), rest.strip()))
        current = ""
    return logical


def final_stage(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    last_from = max(i for i, (keyword, _) in enumerate(items) if keyword == "FROM")
    return items[last_from:]


def env_defaults(stage: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for keyword, rest in stage:
        if keyword != "ENV":
            continue
        tokens = shlex.split(rest)
        if tokens and "=" not in tokens[0]:  # legacy `ENV KEY value`
            env[tokens[0]] = " ".join(tokens[1:])
            continue
        for token in tokens:
            key, _, value = token.partition("=")
            env[key] = value
    return env


def directives(text: str) -> str:
    """An nginx configuration without comments, whitespace collapsed."""
    return re.sub(r"\s+", " ", "\n".join(line.split("#", 1)[0] for line in text.splitlines()))


def readme_port() -> int:
    text = README.read_text(encoding="utf-8")
    run = text[text.index("## Run"):]
    match = re.search(r"https?://(?:127\.0\.0\.1|localhost):(\d+)/?", run)
    assert match, "README's Run section names no local URL"
    return int(match.group(1))


def test_hadolint_is_clean():
    # Run from the repository root so that a repository-level .hadolint.yaml applies.
    result = subprocess.run(
        [hadolint_executable(), "--no-color", str(DOCKERFILE.relative_to(REPO))],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"hadolint {DOCKERFILE.relative_to(REPO)}:\n{result.stdout}{result.stderr}"


def test_image_port_agrees_with_readme():
    port = readme_port()
    stage = final_stage(instructions(DOCKERFILE))
    env = env_defaults(stage)
    assert env.get("BINDERY_PORT") == str(port), f"ENV BINDERY_PORT={env.get('BINDERY_PORT')}, README serves on {port}"
    exposed = [p.split("/")[0] for keyword, rest in stage if keyword == "EXPOSE" for p in rest.split()]
    assert exposed == [str(port)], f"EXPOSE {exposed}, README serves on {port}"
    health = " ".join(rest for keyword, rest in stage if keyword == "HEALTHCHECK")
    assert f":{port}/healthz" in health, f"HEALTHCHECK does not probe port {port}: {health}"


def test_server_default_port_agrees_with_readme():
    source = SERVE_OPTIONS.read_text(encoding="utf-8")
    match = re.search(r'var port: Int = OptionEnvironment\.int\("BINDERY_PORT"\) \?\? (\d+)', source)
    assert match, "cannot find the port option's default in ServeOptions.swift"
    assert int(match.group(1)) == readme_port()


def test_image_env_names_are_server_options():
    known = {name for path in (SERVE_OPTIONS, SEED_OPTIONS)
             for name in re.findall(r'"(BINDERY_[A-Z0-9_]+)"', path.read_text(encoding="utf-8"))}
    env = env_defaults(final_stage(instructions(DOCKERFILE)))
    unknown = sorted(k for k in env if k.startswith("BINDERY_") and k not in known)
    assert not unknown, f"the Dockerfile sets variables the server never reads: {unknown}"
    public = env.get("BINDERY_PUBLIC_DIR")
    if public:
        copied = [rest.split()[-1] for keyword, rest in final_stage(instructions(DOCKERFILE)) if keyword == "COPY"]
        assert public in copied, f"BINDERY_PUBLIC_DIR={public} but nothing is copied there ({copied})"


def test_compose_publishes_nginx_in_front_of_the_nodes():
    """Since issue 11 compose runs three nodes on PostgreSQL behind nginx: only nginx is published,
    on the host's loopback at the README's port, and it proxies to the nodes on the image port."""
    if not COMPOSE.exists():
        pytest.skip("no docker/compose.yaml")
    port = readme_port()
    services = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]
    published = {name: s["ports"] for name, s in services.items() if s.get("ports")}
    assert list(published) == ["nginx"], f"only nginx should be published, compose publishes {published}"
    mappings = [str(m) for m in published["nginx"]]
    for mapping in mappings:
        assert mapping.startswith("127.0.0.1:"), f"{mapping}: publish on the host's loopback only"
    assert [m.split(":")[1] for m in mappings] == [str(port)], f"nginx is published as {mappings}, README serves on {port}"
    nginx_conf = directives(NGINX_CONF.read_text(encoding="utf-8"))
    listen = re.findall(r"\blisten (\d+);", nginx_conf)
    assert [m.rsplit(":", 1)[-1] for m in mappings] == listen, f"nginx listens on {listen}, compose maps {mappings}"
    volumes = services["nginx"].get("volumes", [])
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in volumes, f"nginx does not mount docker/nginx.conf: {volumes}"

    stage = final_stage(instructions(DOCKERFILE))
    image_port = env_defaults(stage)["BINDERY_PORT"]
    nodes = sorted(name for name, s in services.items() if s.get("build", {}).get("dockerfile") == "docker/Dockerfile")
    assert len(nodes) >= 2, f"expected several Bindery nodes built from docker/Dockerfile, found {nodes}"
    upstream = re.findall(r"server ([\w.-]+):(\d+)", nginx_conf)
    assert sorted(upstream) == [(name, image_port) for name in nodes], (
        f"nginx's upstream {upstream} should list every node {nodes} on the image port {image_port}")
    known = {name for path in (SERVE_OPTIONS, SEED_OPTIONS)
             for name in re.findall(r'"(BINDERY_[A-Z0-9_]+)"', path.read_text(encoding="utf-8"))}
    for name in nodes:
        node = services[name]
        unknown = sorted(k for k in node.get("environment", {}) if k.startswith("BINDERY_") and k not in known)
        assert not unknown, f"{name} sets variables the server never reads: {unknown}"
        assert str(node["environment"].get("BINDERY_STORE", "")).startswith("postgres://"), f"{name} is not on PostgreSQL"
        assert node.get("depends_on", {}).get("postgres", {}).get("condition") == "service_healthy", (
            f"{name} should wait for a healthy postgres")
    assert services["postgres"]["image"].startswith("postgres:15"), services["postgres"]["image"]
    assert services["postgres"].get("healthcheck"), "postgres needs a healthcheck (the nodes wait for it)"
