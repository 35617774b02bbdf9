"""The OpenAPI document: valid, served as-is, and describing every route, view model and command.

Adding a route to BinderyRoutes.swift, a screen, a child view model or a command without
documenting it fails here; so does a documented view path or command the server does not have,
and a live snapshot that does not match its documented schema.
"""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path

import pytest
import requests
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

REPO = Path(__file__).resolve().parents[2]
OPENAPI_PATH = REPO / "Sources" / "BinderyBinding" / "Resources" / "openapi.json"
ROUTES_PATH = REPO / "Sources" / "BinderyBinding" / "BinderyRoutes.swift"

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DOC_URI = "urn:bindery:openapi"
STATIC_CATCH_ALL = "/{file}"


# ---- document helpers ------------------------------------------------------------------------


def template_regex(template: str) -> re.Pattern:
    parts = re.split(r"(\{[^}/]+\})", template)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def resolve(doc: dict, path: str, method: str, exclude: tuple[str, ...] = ()) -> str | None:
    """The documented path template that serves `path` (concrete beats templated), if it has `method`."""
    candidates = [t for t in doc["paths"] if t not in exclude and template_regex(t).match(path)]
    if not candidates:
        return None
    best = min(candidates, key=lambda t: (t.count("{"), -len(t)))
    return best if method in doc["paths"][best] else None


def deref(doc: dict, node):
    while isinstance(node, dict) and "$ref" in node:
        pointer = node["$ref"].removeprefix("#/").split("/")
        node = doc
        for key in pointer:
            node = node[key.replace("~1", "/").replace("~0", "~")]
    return node


def response_schema(doc: dict, template: str, method: str, status: str, media: str = "application/json") -> dict:
    response = deref(doc, doc["paths"][template][method]["responses"][status])
    return response["content"][media]["schema"]


def absolutize(node):
    if isinstance(node, dict):
        return {k: (DOC_URI + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else absolutize(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [absolutize(v) for v in node]
    return node


def validator_for(doc: dict, schema: dict) -> Draft202012Validator:
    registry = Registry().with_resource(DOC_URI, Resource.from_contents(doc, default_specification=DRAFT202012))
    return Draft202012Validator(absolutize(copy.deepcopy(schema)), registry=registry)


def assert_matches(doc: dict, template: str, method: str, status: str, body, what: str,
                   media: str = "application/json") -> None:
    validator = validator_for(doc, response_schema(doc, template, method, status, media))
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, f"{what} does not match {method.upper()} {template} {status}:\n" + "\n".join(
        f"  at {list(e.absolute_path)}: {e.message[:300]}" for e in errors[:10]
    )


# ---- route registrations -----------------------------------------------------------------------


def registered_routes() -> list[tuple[str, str]]:
    """(method, pattern) of every `router.add(...)` in BinderyRoutes.swift; `\\(path)` left as is."""
    text = ROUTES_PATH.read_text(encoding="utf-8")
    loops = [(m.start(), [s.strip().lstrip(".") for s in m.group(1).split(",")])
             for m in re.finditer(r"for\s+method\s+in\s+\[([^\]]*)\]", text)]
    routes = []
    for m in re.finditer(r'router\.add\(\s*(\.?\w+)\s*,\s*"((?:[^"\\]|\\.)*)"', text):
        method, pattern = m.group(1), m.group(2)
        if method.startswith("."):
            methods = [method[1:]]
        else:
            enclosing = [methods for start, methods in loops if start < m.start()]
            assert enclosing, f"cannot tell the methods of router.add({method}, \"{pattern}\")"
            methods = enclosing[-1]
        routes += [(x.lower(), pattern) for x in methods]
    assert routes, f"no router.add(...) found in {ROUTES_PATH}"
    return routes


# ---- live crawl of the view models -------------------------------------------------------------


class Crawl:
    """Every view model reachable in one session: screens, their children, navigation targets."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()
        created = self.http.post(f"{base}/api/sessions", timeout=10)
        assert created.status_code == 201, created.text
        self.http.headers["Authorization"] = f"Bearer {created.json()['token']}"
        self.screens = [v["path"] for v in self.get("/api/views").json()["views"]]
        self.snapshots: dict[str, dict] = {}
        self.pages: set[str] = set()
        self.command_results: list[tuple[str, str, dict]] = []  # (view path, command, 200 body)

    def get(self, path: str, **kwargs) -> requests.Response:
        response = self.http.get(self.base + path, timeout=15, **kwargs)
        return response

    def command(self, view: str, name: str, argument=None, wait: float = 10) -> requests.Response:
        kwargs = {"json": argument} if argument is not None else {}
        response = self.http.post(f"{self.base}/api/views/{view}/commands/{name}",
                                  headers={"Prefer": f"wait={wait}"}, timeout=wait + 10, **kwargs)
        if response.status_code == 200:
            body = response.json()
            self.command_results.append((view, name, body))
            if "navigate" in body:
                self.pages.add(body["navigate"])
        return response

    def activate(self, view: str, until, timeout: float = 10) -> None:
        """Watches `view` over SSE until a snapshot satisfies `until` (the view model is active meanwhile)."""
        deadline = time.monotonic() + timeout
        with self.http.get(f"{self.base}/api/views/{view}/events", stream=True, timeout=timeout) as response:
            assert response.status_code == 200, response.text
            assert response.headers["Content-Type"].startswith("text/event-stream")
            for line in response.iter_lines(decode_unicode=True):
                if line and line.startswith("data:") and until(json.loads(line[5:])):
                    return
                if time.monotonic() > deadline:
                    break
        pytest.fail(f"{view} never reached the awaited state over SSE")

    def run(self) -> "Crawl":
        # Make the children exist: load the list, import the gallery, open one item and one photo.
        load = self.command("list", "load")
        assert load.status_code == 200, f"list load: {load.status_code} {load.text[:300]}"
        self.activate("gallery", lambda s: s["outputs"]["photos"] and not s["outputs"]["loading"])
        items = self.get("/api/views/list").json()["outputs"]["items"]
        assert items, "list load produced no items"
        for kind in ("scenic", "hotel"):
            first = next((i for i in items if i["outputs"]["kind"] == kind), None)
            if first is not None:
                assert self.command("list", "select", {"id": first["id"]}).status_code == 200
        assert self.command("gallery", "select", {"index": 1}).status_code == 200
        # Breadth-first over paths named by outputs (`items[].path`) and by navigation targets.
        queue = list(self.screens)
        while queue:
            view = queue.pop(0)
            if view in self.snapshots:
                continue
            response = self.get(f"/api/views/{view}")
            assert response.status_code == 200, f"GET /api/views/{view}: {response.status_code} {response.text[:300]}"
            snapshot = response.json()
            self.snapshots[view] = snapshot
            queue += [p for p in nested_paths(snapshot["outputs"]) if p not in self.snapshots]
            queue += [page.lstrip("/") for page in sorted(self.pages) if page.lstrip("/") not in self.snapshots]
        # Navigation commands of children (previous/next of a photo page).
        for view, snapshot in list(self.snapshots.items()):
            if view in self.screens:
                continue
            for name, state in snapshot["commands"].items():
                if state["enabled"] and not state["executing"] and name in ("previous", "next"):
                    self.command(view, name)
        return self


def nested_paths(node) -> list[str]:
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("path"), str) and isinstance(node.get("outputs"), dict):
            found.append(node["path"])
        for value in node.values():
            found += nested_paths(value)
    elif isinstance(node, list):
        for value in node:
            found += nested_paths(value)
    return found


@pytest.fixture(scope="module")
def crawl(server) -> Crawl:
    return Crawl(server).run()


# ---- tests -------------------------------------------------------------------------------------


def test_document_is_valid_openapi_3_1(openapi_document):
    try:
        from openapi_spec_validator import validate
    except ImportError:  # openapi-spec-validator < 0.7
        from openapi_spec_validator import validate_spec as validate
    assert openapi_document["openapi"].startswith("3.1.")
    validate(openapi_document)


def test_document_refs_resolve(openapi_document):
    text = OPENAPI_PATH.read_text(encoding="utf-8")
    for ref in set(re.findall(r'"\$ref":\s*"#/([^"]+)"', text)):
        node = openapi_document
        for key in ref.split("/"):
            assert key in node, f"dangling $ref #/{ref}"
            node = node[key]


def test_served_document_equals_the_file(server, openapi_document):
    response = requests.get(f"{server}/openapi.json", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json() == openapi_document, (
        "GET /openapi.json differs from Sources/BinderyBinding/Resources/openapi.json (rebuild the server?)"
    )


def test_every_registered_route_is_documented(server, openapi_document, crawl):
    doc = openapi_document
    missing = []
    for method, pattern in registered_routes():
        if pattern == "/api/views/{rest...}" and method in ("put", "delete", "options"):
            # Registered only so that the views responder answers them itself: 405 or 204 with
            # the Allow of the addressed snapshot, events or command (checked below).
            response = requests.request(method.upper(), f"{server}/api/views/form", timeout=10)
            assert response.status_code == (204 if method == "options" else 405)
            assert response.headers["Allow"] == "GET, HEAD, PATCH"
            continue
        if pattern == "/api/views/{rest...}":
            assert method in ("get", "patch", "post"), (
                f"{method.upper()} /api/views/{{rest...}} is new: teach the crawl in this test about it"
            )
            continue  # every view, event stream and command: test_every_view_model_is_documented
        if "\\(path)" in pattern:
            for screen in crawl.screens:
                concrete = pattern.replace("\\(path)", screen)
                if concrete.endswith("/{rest...}"):
                    prefix = concrete.removesuffix("/{rest...}")
                    pages = [p for p in crawl.pages | {"/" + v for v in crawl.snapshots}
                             if p.startswith(prefix + "/")]
                    missing += [f"{method.upper()} {p} (page of {pattern})" for p in pages
                                if resolve(doc, p, method, exclude=(STATIC_CATCH_ALL,)) is None]
                elif method not in doc["paths"].get(concrete, {}):
                    missing.append(f"{method.upper()} {concrete} (from {pattern})")
            continue
        if pattern.endswith("{rest...}"):
            prefix = pattern.removesuffix("{rest...}")
            documented = [t for t in doc["paths"] if t.startswith(prefix) and "{" in t[len(prefix):]
                          and method in doc["paths"][t]]
            if not documented:
                missing.append(f"{method.upper()} {pattern}")
            continue
        if method not in doc["paths"].get(pattern, {}):
            missing.append(f"{method.upper()} {pattern}")
    assert not missing, "routes registered in BinderyRoutes.swift but not in openapi.json:\n  " + "\n  ".join(missing)


def route_regex(pattern: str) -> re.Pattern:
    """A route pattern as a regex: `\\(path)` and `{name}` one segment, `{name...}` the rest."""
    out = ""
    for part in re.split(r"(\\\(path\)|\{[^}/]+\})", pattern):
        if part.endswith("...}"):
            out += ".+"
        elif part == "\\(path)" or part.startswith("{"):
            out += "[^/]+"
        else:
            out += re.escape(part)
    return re.compile("^" + out + "$")


def test_every_documented_route_is_registered(openapi_document):
    routes = registered_routes()
    patterns = [(method, route_regex(pattern)) for method, pattern in routes]
    stale = []
    for template, item in openapi_document["paths"].items():
        sample = re.sub(r"\{[^}]+\}", "x", template)
        for method in (m for m in item if m in HTTP_METHODS):
            if not any(m == method and p.match(sample) for m, p in patterns):
                stale.append(f"{method.upper()} {template}")
    assert not stale, "documented but not registered:\n  " + "\n  ".join(stale)


def test_every_view_model_and_command_is_documented(openapi_document, crawl):
    doc = openapi_document
    assert len(crawl.snapshots) > len(crawl.screens), "the crawl found no child view models"
    missing, used = [], set()
    for view, snapshot in crawl.snapshots.items():
        api = f"/api/views/{view}"
        for method in ("get", "patch"):
            template = resolve(doc, api, method)
            if template is None:
                missing.append(f"{method.upper()} {api}")
            used.add((template, method))
        template = resolve(doc, api + "/events", "get")
        if template is None:
            missing.append(f"GET {api}/events")
        used.add((template, "get"))
        for name in snapshot["commands"]:
            template = resolve(doc, f"{api}/commands/{name}", "post")
            if template is None:
                missing.append(f"POST {api}/commands/{name}")
            used.add((template, "post"))
        page = resolve(doc, "/" + view, "get", exclude=(STATIC_CATCH_ALL,))
        if page is None:
            missing.append(f"GET /{view} (its page)")
    for page in crawl.pages:
        if resolve(doc, page, "get", exclude=(STATIC_CATCH_ALL,)) is None:
            missing.append(f"GET {page} (a navigate target)")
    assert not missing, "served but not documented:\n  " + "\n  ".join(sorted(set(missing)))
    stale = [f"{m.upper()} {t}" for t, item in doc["paths"].items() if t.startswith("/api/views/")
             for m in item if m in HTTP_METHODS and (t, m) not in used]
    assert not stale, "documented view operations no live view model has:\n  " + "\n  ".join(sorted(stale))


def test_live_snapshots_match_their_schemas(openapi_document, crawl):
    doc = openapi_document
    for view, snapshot in crawl.snapshots.items():
        template = resolve(doc, f"/api/views/{view}", "get")
        assert_matches(doc, template, "get", "200", snapshot, f"the snapshot of {view}")
    assert crawl.command_results
    for view, name, body in crawl.command_results:
        template = resolve(doc, f"/api/views/{view}/commands/{name}", "post")
        assert_matches(doc, template, "post", "200", body, f"the result of {view}/{name}")


def test_other_documented_bodies_match(server, openapi_document):
    doc = openapi_document
    http = requests.Session()
    created = http.post(f"{server}/api/sessions", timeout=10)
    assert created.status_code == 201
    assert_matches(doc, "/api/sessions", "post", "201", created.json(), "POST /api/sessions")
    assert "bindery_session=" in created.headers.get("Set-Cookie", "")
    for path in ("/api/views", "/healthz", "/readyz", "/api/upstream"):
        response = http.get(server + path, timeout=10)
        assert response.status_code == 200, path
        assert_matches(doc, path, "get", "200", response.json(), f"GET {path}")
    metrics = http.get(f"{server}/metrics", timeout=10)
    assert metrics.status_code == 200
    assert metrics.headers["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status"),
    [
        ("PATCH", "/api/views/form", {"Content-Type": "application/json"}, b"{oops", 400),
        ("GET", "/api/views/form", {"Authorization": "Bearer 00000000000000000000000000000000"}, None, 401),
        ("GET", "/api/views/nope", {}, None, 404),
        ("POST", "/api/views/form/commands/nope", {}, None, 404),
        ("DELETE", "/healthz", {}, None, 405),
        ("PATCH", "/api/views/form", {"Content-Type": "application/json", "If-Match": '"999"'}, b'{"phone": "1"}', 412),
        ("PATCH", "/api/views/form", {"Content-Type": "text/plain"}, b'{"phone": "1"}', 415),
        ("PATCH", "/api/views/form", {"Content-Type": "application/json"}, b'{"phone": 42}', 422),
        ("POST", "/api/views/form/commands/clear", {}, None, 409),
    ],
)
def test_documented_problems(server, openapi_document, method, path, headers, body, status):
    response = requests.request(method, server + path, headers=headers, data=body, timeout=10)
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert_matches(openapi_document, "/api/views/form", "patch", "422", problem, f"the {status} problem",
                   media="application/problem+json")
    if status == 405:
        assert "Allow" in response.headers
        return
    template = resolve(openapi_document, path, method.lower())
    if template is None:
        return  # an unknown view model: no documented operation to hold the 404
    assert str(status) in openapi_document["paths"][template][method.lower()]["responses"], (
        f"{method} {template} answers {status}, which is not documented"
    )
