"""The OpenAPI document: generated from the declarations, valid, and true to the live server.

The document is a pure function of the screens and the configuration, so these checks compare it
with what the server really does: every screen and child route of the catalogue has its paths,
every input and command of every live snapshot is documented with its constraints (values the
document refuses, the server refuses too), live snapshots validate against their schemas, every
documented operation answers (never 404) and `Allow` lists exactly the documented methods.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import time
from pathlib import Path

import pytest
import requests
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from bindery_support import LI_LEI, sign_in
from tools import OPENAPI_COPY, binary_path

REPO = Path(__file__).resolve().parents[2]

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


# ---- live crawl of the view models -------------------------------------------------------------


class Crawl:
    """Every view model reachable in one session: screens, their children, navigation targets.
    The session is signed in as the administrator Li Lei, so that every write is answered for
    what it holds (an anonymous session's edits of a recipe are all 401, whatever their body)."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()
        created = self.http.post(f"{base}/api/session/sign-in", json=LI_LEI.credentials, timeout=30)
        assert created.status_code == 200, created.text
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
        # Make the children exist: load the list, import the gallery, load the courses, open one
        # item, one photo and one course.
        load = self.command("list", "load")
        assert load.status_code == 200, f"list load: {load.status_code} {load.text[:300]}"
        self.activate("gallery", lambda s: s["outputs"]["photos"] and not s["outputs"]["loading"])
        items = self.get("/api/views/list").json()["outputs"]["items"]
        assert items, "list load produced no items"
        self.item_id = items[0]["id"]
        self.image_name = items[0]["outputs"]["image"].rsplit("/", 1)[-1]
        for kind in ("scenic", "hotel"):
            first = next((i for i in items if i["outputs"]["kind"] == kind), None)
            if first is not None:
                assert self.command("list", "select", {"id": first["id"]}).status_code == 200
        assert self.command("gallery", "select", {"index": 1}).status_code == 200
        load = self.command("courses", "load")
        assert load.status_code == 200, f"courses load: {load.status_code} {load.text[:300]}"
        courses = self.get("/api/views/courses").json()["outputs"]["courses"]
        assert courses, "courses load produced no courses"
        self.course_id = courses[0]["id"]
        assert self.command("courses", "select", {"id": self.course_id}).status_code == 200
        # A recipe's detail, timer and editor (the first-start recipe c41).
        self.recipe_id = "c41"
        assert self.command("recipes", "select", {"id": self.recipe_id}).status_code == 200
        assert self.command(f"recipes/{self.recipe_id}", "startTimer").status_code == 200
        self.pages.add(f"/recipes/{self.recipe_id}/edit")
        # A step of it: recipes are shared by every session, so an earlier test (schemathesis) may
        # have removed the first-start steps; add one if none is left.
        steps = self.get(f"/api/views/recipes/{self.recipe_id}/edit").json()["outputs"]["steps"]
        if not steps:
            added = self.command(f"recipes/{self.recipe_id}/edit", "addStep", {"name": "Wash", "durationSeconds": 60})
            assert added.status_code == 200, f"addStep: {added.status_code} {added.text[:300]}"
            steps = added.json()["outputs"]["steps"]
        self.step_id = steps[0]["id"]
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


# ---- values the document refuses -----------------------------------------------------------


def refused_values(doc: dict, schema: dict) -> list:
    """Values that `schema` refuses, one per constraint it states (type, length, range, enum, members)."""
    schema = deref(doc, schema)
    kind, found = schema.get("type"), []
    if isinstance(kind, list):  # nullable, `[T, "null"]`: refuse what T refuses, except null
        kind = next(k for k in kind if k != "null")
    if kind == "string":
        found.append(42)
        if "maxLength" in schema:
            found.append("x" * (schema["maxLength"] + 1))
        if "enum" in schema:
            found.append("-".join(v for v in schema["enum"] if v is not None) + "-not")
    elif kind == "integer":
        found += ["7", 1.5]
        if "minimum" in schema:
            found.append(schema["minimum"] - 1)
        if "maximum" in schema:
            found.append(schema["maximum"] + 1)
    elif kind == "number":
        found.append("7")
    elif kind == "boolean":
        found.append("true")
    elif kind == "object":
        found += [[], {"unexpected member": 1}]
        if schema.get("required"):
            found.append({})
        for name, member in schema.get("properties", {}).items():
            found += [{name: value} for value in refused_values(doc, member)]
    validator = validator_for(doc, schema)
    assert found, f"no refused value for {schema}"
    return [v for v in found if not validator.is_valid(v)]


def concrete(template: str, crawl: "Crawl") -> str:
    """A documented template with real values from the crawl for its parameters."""
    item = crawl.course_id if "/courses/" in template else crawl.recipe_id if "/recipes/" in template else crawl.item_id
    values = {"id": item, "index": "1", "file": "index.html", "name": crawl.image_name, "stepId": crawl.step_id}
    return re.sub(r"\{([^}]+)\}", lambda m: values[m.group(1)], template)


# ---- tests -------------------------------------------------------------------------------------


def test_document_is_valid_openapi_3_1(openapi_document):
    try:
        from openapi_spec_validator import validate
    except ImportError:  # openapi-spec-validator < 0.7
        from openapi_spec_validator import validate_spec as validate
    assert openapi_document["openapi"].startswith("3.1.")
    validate(openapi_document)


def test_document_refs_resolve(openapi_document):
    def refs(node):
        if isinstance(node, dict):
            yield from ([node["$ref"]] if isinstance(node.get("$ref"), str) else [])
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    found = set(refs(openapi_document))
    assert found
    for ref in found:
        assert ref.startswith("#/"), ref
        node = openapi_document
        for key in ref[2:].split("/"):
            assert key in node, f"dangling $ref {ref}"
            node = node[key]


def test_served_printed_and_committed_documents_are_one(server):
    """`bindery openapi` prints the served bytes, and docs/openapi.json is a copy of them."""
    served = requests.get(f"{server}/openapi.json", timeout=10)
    assert served.status_code == 200
    assert served.headers["Content-Type"].startswith("application/json")
    printed = subprocess.run([str(binary_path()), "openapi"], capture_output=True, timeout=30, check=True).stdout
    assert printed == served.content, "`bindery openapi` differs from GET /openapi.json"
    assert OPENAPI_COPY.read_bytes() == served.content, (
        f"{OPENAPI_COPY.relative_to(REPO)} is stale: run `swift build && .build/debug/bindery openapi > docs/openapi.json`"
    )


def test_document_follows_the_configuration():
    """Without upstream control there is no /api/upstream; without the thin client no pages."""
    def printed(*options: str) -> dict:
        run = subprocess.run([str(binary_path()), "openapi", *options], capture_output=True, timeout=30, check=True)
        return json.loads(run.stdout)

    default = printed()
    assert "/api/upstream" in default["paths"] and "/form" in default["paths"]
    closed = printed("--disable-upstream-control", "--no-client")
    assert "/api/upstream" not in closed["paths"]
    assert not [p for p in closed["paths"] if not p.startswith(("/api/", "/upstream/", "/healthz", "/readyz",
                                                                "/metrics", "/openapi.json"))]


def test_every_catalogue_route_has_its_paths(server, openapi_document):
    doc = openapi_document
    # The catalogue lists what its session may read: signed in, every screen of the seed apps.
    token = sign_in(server, LI_LEI)
    views = requests.get(f"{server}/api/views", timeout=10, headers={"Authorization": f"Bearer {token}"}).json()["views"]
    anonymous = requests.get(f"{server}/api/views", timeout=10).json()["views"]
    assert [v["name"] for v in anonymous] == [v["name"] for v in views if not v["readAccess"]["signIn"]], anonymous
    routes = [(v["api"], v["url"]) for v in views] + [(c["api"], c["url"]) for v in views for c in v["children"]]
    assert len(routes) > len(views), "the catalogue lists no child routes"
    missing = []
    for api, url in routes:
        for path in (api, api + "/events", url):
            if "get" not in doc["paths"].get(path, {}):
                missing.append(f"GET {path}")
    assert not missing, "catalogue routes without documented paths:\n  " + "\n  ".join(missing)
    suffix = re.compile(r"^(|/events|/presence|/versions|/commands/[^/{}]+|/commands/[^/{}]+/cancel|/inputs/[^/{}]+|/inputs/[^/{}]+/ops)$")
    apis = {api for api, _ in routes}
    stray = [t for t in doc["paths"] if t.startswith("/api/views/")
             and not any(t.startswith(api) and suffix.match(t[len(api):]) for api in apis)]
    assert not stray, "documented view paths that no catalogue route has:\n  " + "\n  ".join(stray)


def test_every_view_model_and_command_is_documented(openapi_document, crawl):
    doc = openapi_document
    assert len(crawl.snapshots) > len(crawl.screens), "the crawl found no child view models"
    missing, used = [], set()

    def need(path: str, method: str, what: str | None = None) -> dict | None:
        template = resolve(doc, path, method)
        if template is None:
            missing.append(what or f"{method.upper()} {path}")
            return None
        used.add((template, method))
        return doc["paths"][template][method]

    for view, snapshot in crawl.snapshots.items():
        api = f"/api/views/{view}"
        need(api, "get")
        need(api + "/events", "get")
        need(api + "/versions", "get")
        for method in ("get", "put", "delete"):
            need(api + "/presence", method)
        for name in snapshot.get("texts", {}):  # collaborative inputs
            need(f"{api}/inputs/{name}", "get")
            need(f"{api}/inputs/{name}/ops", "post")
        template = resolve(doc, api, "get")
        if snapshot["inputs"]:
            need(api, "patch")
        elif template is not None and "patch" in doc["paths"][template]:
            missing.append(f"PATCH {api} is documented but the view model has no inputs")
        for name, state in snapshot["commands"].items():
            operation = need(f"{api}/commands/{name}", "post")
            if operation is None:
                continue
            assert f"Policy `{state['policy']}`" in operation["description"], f"{api}/commands/{name}: policy"
            signs_in = "It signs the session in" in operation["description"]
            assert ("429" in operation["responses"]) == (state["policy"] == "queue" or signs_in), f"{api}/commands/{name}: 429"
            if "202" in operation["responses"] or signs_in:  # deferred: it can run, so it can be cancelled
                need(f"{api}/commands/{name}/cancel", "post")
            elif resolve(doc, f"{api}/commands/{name}/cancel", "post") is not None:
                missing.append(f"POST {api}/commands/{name}/cancel is documented for a command that never runs")
        if resolve(doc, "/" + view, "get", exclude=(STATIC_CATCH_ALL,)) is None:
            missing.append(f"GET /{view} (its page)")
    for page in crawl.pages:
        if resolve(doc, page, "get", exclude=(STATIC_CATCH_ALL,)) is None:
            missing.append(f"GET {page} (a navigate target)")
    assert not missing, "served but not documented:\n  " + "\n  ".join(sorted(set(missing)))
    stale = [f"{m.upper()} {t}" for t, item in doc["paths"].items() if t.startswith("/api/views/")
             for m in item if m in HTTP_METHODS and (t, m) not in used]
    assert not stale, "documented view operations no live view model has:\n  " + "\n  ".join(sorted(stale))


def test_inputs_are_documented_with_their_constraints(openapi_document, crawl):
    """Each live input is in its PATCH schema, its value is valid, and what the schema refuses the server refuses."""
    doc = openapi_document
    seen = set()
    for view, snapshot in crawl.snapshots.items():
        template = resolve(doc, f"/api/views/{view}", "get")
        if not snapshot["inputs"] or template in seen:
            continue
        seen.add(template)
        body = doc["paths"][template]["patch"]["requestBody"]["content"]["application/merge-patch+json"]["schema"]
        members = deref(doc, body)["properties"]
        assert set(members) == set(snapshot["inputs"]), f"{template}: documented inputs differ from the live ones"
        for name, value in snapshot["inputs"].items():
            assert validator_for(doc, members[name]).is_valid(value), f"{view}: live {name}={value!r} is not documented"
            refused = refused_values(doc, members[name])
            assert refused, f"{template}: input {name} states no constraint"
            for bad in refused:
                response = crawl.http.patch(f"{crawl.base}/api/views/{view}", json={name: bad}, timeout=10)
                assert response.status_code == 422, f"{view}: {name}={bad!r} answered {response.status_code}"
                assert response.json().get("field") == name, response.text
        after = crawl.get(f"/api/views/{view}").json()
        assert after["version"] == snapshot["version"], f"{view}: a refused patch changed the view model"
    assert seen, "no live view model has inputs"


def test_command_arguments_are_documented(openapi_document, crawl):
    """A command's documented argument (or its absence) is what the server checks: anything else is 422."""
    doc = openapi_document
    seen = set()
    for view, snapshot in crawl.snapshots.items():
        for name in snapshot["commands"]:
            path = f"/api/views/{view}/commands/{name}"
            template = resolve(doc, path, "post")
            if template in seen:
                continue
            seen.add(template)
            body = doc["paths"][template]["post"].get("requestBody")
            if body is None:
                refused = [{"unexpected": 1}, 7, "x"]
            else:
                refused = refused_values(doc, body["content"]["application/json"]["schema"])
            for bad in refused:
                response = crawl.http.post(crawl.base + path, json=bad, timeout=10)
                assert response.status_code == 422, f"POST {path} with {bad!r}: {response.status_code} {response.text}"
                assert response.json().get("command") == name, response.text


def test_live_snapshots_match_their_schemas(openapi_document, crawl):
    doc = openapi_document
    for view, snapshot in crawl.snapshots.items():
        template = resolve(doc, f"/api/views/{view}", "get")
        assert_matches(doc, template, "get", "200", snapshot, f"the snapshot of {view}")
    assert crawl.command_results
    for view, name, body in crawl.command_results:
        template = resolve(doc, f"/api/views/{view}/commands/{name}", "post")
        assert_matches(doc, template, "post", "200", body, f"the result of {view}/{name}")


# Operations that end the session they are sent with: the route check sends them with one of its own.
ENDS_THE_SESSION = {"/api/session/sign-out", "/api/session/sign-out-everywhere"}


def test_every_documented_route_answers(openapi_document, crawl):
    """Each documented operation exists on the server: never 404 or 405 with real parameter values."""
    doc = openapi_document
    wrong = []
    for template, item in doc["paths"].items():
        path = concrete(template, crawl)
        for method in (m for m in item if m in HTTP_METHODS):
            operation = item[method]
            http = crawl.http
            if template in ENDS_THE_SESSION:
                http = requests.Session()
                created = http.post(f"{crawl.base}/api/sessions", timeout=10)
                http.headers["Authorization"] = f"Bearer {created.json()['token']}"
            kwargs: dict = {"timeout": 15}
            if template.endswith("/events"):
                kwargs["stream"] = True
            elif "requestBody" in operation and method == "patch":
                kwargs["json"] = {}  # a merge patch that changes nothing
            elif "requestBody" in operation:
                kwargs["json"] = {"unexpected": 1}  # a refused argument: answers 422 and runs nothing
            with http.request(method.upper(), crawl.base + path, **kwargs) as response:
                if response.status_code in (404, 405) or str(response.status_code) not in operation["responses"]:
                    wrong.append(f"{method.upper()} {path} ({template}): {response.status_code}")
    assert not wrong, "documented operations the server does not answer as documented:\n  " + "\n  ".join(wrong)
    # Every operation was answered for the crawl's session, still signed in (not refused 401).
    assert crawl.get("/api/session").json()["user"]["name"] == LI_LEI.name


def test_allow_lists_the_documented_methods(openapi_document, crawl):
    doc = openapi_document
    for template, item in doc["paths"].items():
        if not template.startswith("/api/views/"):
            continue
        path = concrete(template, crawl)
        response = crawl.http.options(crawl.base + path, timeout=10)
        assert response.status_code == 204, f"OPTIONS {path}: {response.status_code}"
        allowed = {m.strip().lower() for m in response.headers["Allow"].split(",")} - {"head"}
        documented = {m for m in item if m in HTTP_METHODS}
        assert allowed == documented, f"{path}: Allow {response.headers['Allow']} but documented {sorted(documented)}"


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
    # Who the session is, before and after signing in, and the sign-in's answer.
    anonymous = http.get(f"{server}/api/session", headers={"Authorization": f"Bearer {created.json()['token']}"},
                         timeout=10)
    assert anonymous.status_code == 200 and anonymous.json()["user"] is None, anonymous.text
    assert_matches(doc, "/api/session", "get", "200", anonymous.json(), "GET /api/session (anonymous)")
    signed_in = http.post(f"{server}/api/session/sign-in", json=LI_LEI.credentials, timeout=30)
    assert signed_in.status_code == 200, signed_in.text
    assert_matches(doc, "/api/session/sign-in", "post", "200", signed_in.json(), "POST /api/session/sign-in")
    who = http.get(f"{server}/api/session", headers={"Authorization": f"Bearer {signed_in.json()['token']}"}, timeout=10)
    assert who.json()["user"] == {"id": LI_LEI.user_id, "name": LI_LEI.name, "roles": list(LI_LEI.roles)}, who.text
    assert_matches(doc, "/api/session", "get", "200", who.json(), "GET /api/session (signed in)")


@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status"),
    [
        ("PATCH", "/api/views/form", {"Content-Type": "application/json"}, b"{oops", 400),
        ("GET", "/api/views/form", {"Authorization": "Bearer 00000000000000000000000000000000"}, None, 401),
        ("GET", "/api/views/nope", {}, None, 404),
        ("POST", "/api/views/form/commands/nope", {}, None, 404),
        ("DELETE", "/healthz", {}, None, 405),
        ("PATCH", "/api/views/gallery", {"Content-Type": "application/json"}, b"{}", 405),
        ("PATCH", "/api/views/form", {"Content-Type": "application/json", "If-Match": '"999"'}, b'{"phone": "1"}', 412),
        ("PATCH", "/api/views/form", {"Content-Type": "text/plain"}, b'{"phone": "1"}', 415),
        ("PATCH", "/api/views/form", {"Content-Type": "application/json"}, b'{"phone": 42}', 422),
        ("POST", "/api/views/form/commands/clear", {}, None, 409),
        ("POST", "/api/views/list/commands/load/cancel", {}, None, 409),
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


# ---- declared bounds of parameters and headers -----------------------------------------------

INT64_MAX = 2**63 - 1
TEXT = "/api/views/recipes/c41/edit/inputs/name"


def parameter(doc: dict, template: str, method: str, name: str) -> dict:
    """The declared parameter `name` of an operation (its own list, then its path item's)."""
    item = doc["paths"][template]
    for node in item[method].get("parameters", []) + item.get("parameters", []):
        declared = deref(doc, node)
        if declared["name"] == name:
            return declared
    raise AssertionError(f"{method.upper()} {template} declares no parameter {name}")


def test_versions_are_declared_as_non_negative_64_bit_integers(openapi_document):
    doc = openapi_document
    for template, name in (("/api/views/form", "after"), ("/api/views/recipes/{id}/edit/inputs/name", "after"),
                           ("/api/views/form/events", "lastEventId"), ("/api/views/form/events", "Last-Event-ID")):
        method = "get"
        schema = parameter(doc, template, method, name)["schema"]
        assert schema == {"type": "integer", "minimum": 0, "maximum": INT64_MAX}, (template, name, schema)


@pytest.mark.parametrize(
    ("path", "params", "headers", "status"),
    [
        ("/api/views/form", {"after": "0"}, {}, 200),
        ("/api/views/form", {"after": str(INT64_MAX)}, {"Prefer": "wait=0"}, (200, 304)),
        ("/api/views/form", {"after": "-1"}, {}, 400),
        ("/api/views/form", {"after": str(INT64_MAX + 1)}, {}, 400),
        ("/api/views/form", {"after": "2918109430932009648128"}, {}, 400),
        ("/api/views/form", {"after": "1.5"}, {}, 400),
        (TEXT, {"after": "0"}, {}, 200),
        (TEXT, {"after": str(INT64_MAX)}, {}, 200),
        (TEXT, {"after": "-1"}, {}, 400),
        (TEXT, {"after": str(INT64_MAX + 1)}, {}, 400),
        ("/api/events", {"views": ""}, {}, 400),
        ("/api/events", {"views": "form,"}, {}, 400),
        ("/api/events", {"views": "/"}, {}, 400),
        ("/api/events", {"views": "x" * 513}, {}, 400),
        ("/api/events", {"views": ",".join(f"v{i}" for i in range(33))}, {}, 400),
        ("/api/events", {"views": ",".join(["/" + "x" * 512] + [f"v{i}" for i in range(31)])}, {}, 200),
    ],
)
def test_declared_bounds_are_the_enforced_bounds(server, openapi_document, path, params, headers, status):
    """What a declared bound lets through is answered; what it refuses is a 400 problem. The values
    are checked against the document too, so the two cannot drift apart."""
    template = resolve(openapi_document, path, "get")
    for name, value in params.items():
        schema = parameter(openapi_document, template, "get", name)["schema"]
        errors = list(validator_for(openapi_document, schema).iter_errors(int(value) if schema["type"] == "integer"
                                                                          and re.fullmatch(r"-?\d+", value) else value))
        assert (not errors) == (status != 400), f"the document and this case disagree on {name}={value[:40]}"
    http = requests.Session()
    assert http.put(f"{server}/api/session", timeout=10).status_code in (200, 201)
    with http.get(server + path, params=params, headers=headers, timeout=10, stream=True) as response:
        expected = status if isinstance(status, tuple) else (status,)
        assert response.status_code in expected, response.text if response.status_code != 200 else ""
        if status == 400:
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.json()["detail"]
            assert "400" in openapi_document["paths"][template]["get"]["responses"]


@pytest.mark.parametrize(
    ("key", "status"),
    [("k" * 255, 200), ('"' + "k" * 255 + '"', 200), ("k" * 256, 400), ('a"b', 400), ("a\\b", 400)],
)
def test_idempotency_keys_are_what_the_document_declares(server, openapi_document, key, status):
    declared = parameter(openapi_document, "/api/views/form", "patch", "Idempotency-Key")["schema"]
    assert (re.fullmatch(declared["pattern"], key) is not None) == (status == 200)
    response = requests.patch(
        f"{server}/api/views/form", json={"phone": "1"}, timeout=10,
        headers={"Idempotency-Key": key, "Content-Type": "application/merge-patch+json"},
    )
    assert response.status_code == status, response.text
