"""The recipes obey their owners over HTTP (issue 37, seed 003): an anonymous session reads them but
every write — a PATCH of the editor or of a step, a collaborative text edit, each command of the
list, the editor and a recipe's page — is refused 401 with `WWW-Authenticate: Bearer`, shown
disabled in its snapshots, and changes nothing any session sees. Han Meimei adds a recipe, which is
hers: Li Lei (an administrator) may edit it but not delete or restore it (403, nothing changed);
Han Meimei deletes and restores it. The first-start recipe c41 belongs to nobody: only an
administrator deletes or restores it.

One server on SQLite (upstream latency 0). Time budget: 10 s (about 2 s here)."""

from __future__ import annotations

import re

from bindery_support import HAN_MEIMEI, LI_LEI
from users_client import new_session, request, sign_in

EDIT = "/api/views/recipes/c41/edit"


def signed_in(base: str, account) -> str:
    answer = sign_in(base, account)
    assert answer.status == 200, answer
    return answer.json()["token"]


def seen_by(base: str, reader: str) -> dict:
    """What another session sees of c41 and of the list: each snapshot's version and content, the
    texts' revisions."""
    snapshots = {path: request(base, "GET", f"/api/views/{path}", token=reader).json()
                 for path in ("recipes", "recipes/c41", "recipes/c41/edit", "recipes/c41/edit/steps/s1")}
    texts = {path: request(base, "GET", f"/api/views/{path}", token=reader).json()
             for path in ("recipes/c41/edit/inputs/blurb", "recipes/c41/edit/steps/s1/inputs/name")}
    return {**{p: (s["version"], s["inputs"], s["outputs"]) for p, s in snapshots.items()}, **texts}


def row(base: str, token: str, recipe: str) -> dict | None:
    """The list's row of `recipe` as the session `token` sees it (None: not listed)."""
    recipes = request(base, "GET", "/api/views/recipes", token=token).json()["outputs"]["recipes"]
    return next((r["outputs"] for r in recipes if r["id"] == recipe), None)


def command(base: str, token: str, path: str, name: str, argument=None):
    return request(base, "POST", f"/api/views/{path}/commands/{name}", argument, token=token,
                   headers={"Prefer": "wait=10"})


def test_an_anonymous_session_reads_and_writes_nothing(server):
    base = server.base
    anonymous, reader = new_session(base), new_session(base)
    revision = request(base, "GET", f"{EDIT}/inputs/blurb", token=anonymous).json()["revision"]
    snapshot = request(base, "GET", EDIT, token=anonymous).json()
    assert snapshot["inputs"]["name"] == "C-41 colour negative", "an anonymous session reads the recipe"
    for name in ("addStep", "removeStep", "moveStep"):
        assert snapshot["commands"][name]["enabled"] is False, f"{name} is shown disabled to an anonymous session"
    listing = request(base, "GET", "/api/views/recipes", token=anonymous).json()
    shown = {name: listing["commands"][name]["enabled"] for name in ("add", "delete", "restore", "select")}
    assert shown == {"add": False, "delete": False, "restore": False, "select": True}, listing["commands"]
    before = seen_by(base, reader)
    writes = [
        ("PATCH", EDIT, {"name": "Anonymous"}),
        ("PATCH", f"{EDIT}/steps/s1", {"durationSeconds": 1}),
        ("POST", f"{EDIT}/inputs/blurb/ops", {"id": "anonymous-1", "base": revision, "ops": [{"p": 0, "si": "x"}]}),
        ("POST", f"{EDIT}/steps/s1/inputs/name/ops", {"id": "anonymous-2", "base": 1, "ops": [{"p": 0, "si": "x"}]}),
        ("POST", "/api/views/recipes/commands/add", {"name": "Anonymous"}),
        ("POST", "/api/views/recipes/commands/delete", {"id": "c41"}),
        ("POST", "/api/views/recipes/commands/restore", {"id": "c41"}),
        ("POST", f"{EDIT}/commands/addStep", {"name": "Anonymous", "durationSeconds": 1}),
        ("POST", f"{EDIT}/commands/removeStep", {"index": 0}),
        ("POST", f"{EDIT}/commands/moveStep", {"from": 0, "to": 1}),
        ("POST", f"{EDIT}/commands/restore", None),
        ("POST", "/api/views/recipes/c41/commands/restore", None),
    ]
    for method, path, body in writes:
        answer = request(base, method, path, body, token=anonymous, headers={"Prefer": "wait=5"})
        assert answer.status == 401, f"anonymous {method} {path}: {answer}"
        assert answer.json()["title"] == "Sign-in required", answer
        assert answer.header("WWW-Authenticate") == "Bearer", answer.headers
    assert seen_by(base, reader) == before, "a refused anonymous write changed what another session sees"
    after = request(base, "GET", EDIT, token=anonymous).json()
    assert (after["inputs"], after["outputs"]) == (snapshot["inputs"], snapshot["outputs"])


def test_a_recipe_belongs_to_whoever_added_it(server):
    base = server.base
    han, li = signed_in(base, HAN_MEIMEI), signed_in(base, LI_LEI)
    added = command(base, han, "recipes", "add", {"name": "E-6 slide"})
    assert added.status == 200, added
    recipe = re.fullmatch(r"/recipes/([^/]+)/edit", added.json()["navigate"]).group(1)
    mine = row(base, han, recipe)
    assert (mine["ownerName"], mine["deletable"]) == (HAN_MEIMEI.name, True), mine
    assert row(base, li, recipe)["deletable"] is False, "Li Lei's list shows Han Meimei's recipe not deletable"
    # Li Lei may edit it: anyone signed in may.
    edit = f"/api/views/recipes/{recipe}/edit"
    renamed = request(base, "PATCH", edit, {"name": "E-6 slide, 3 bath"}, token=li)
    assert renamed.status == 200 and renamed.json()["inputs"]["name"] == "E-6 slide, 3 bath", renamed
    stepped = command(base, li, f"recipes/{recipe}/edit", "addStep", {"name": "First developer", "durationSeconds": 390})
    assert stepped.status == 200, stepped
    # ...but not delete it, administrator or not: 403, and nothing changes.
    version = request(base, "GET", edit, token=han).json()["outputs"]["recipeVersion"]
    refused = command(base, li, "recipes", "delete", {"id": recipe})
    assert refused.status == 403 and refused.json()["title"] == "Not allowed", refused
    assert row(base, han, recipe) is not None
    assert request(base, "GET", edit, token=han).json()["outputs"]["recipeVersion"] == version
    # Han Meimei deletes it and restores it; Li Lei may not restore it either.
    assert command(base, han, "recipes", "delete", {"id": recipe}).status == 200
    assert row(base, han, recipe) is None
    assert request(base, "GET", f"/api/views/recipes/{recipe}", token=li).json()["outputs"]["isDeleted"] is True
    refused = command(base, li, "recipes", "restore", {"id": recipe})
    assert refused.status == 403, refused
    refused = command(base, li, f"recipes/{recipe}", "restore")
    assert refused.status == 403, refused
    assert row(base, li, recipe) is None, "a refused restore brought it back"
    restored = command(base, han, f"recipes/{recipe}", "restore")
    assert restored.status == 200 and restored.json()["outputs"]["isDeleted"] is False, restored
    assert row(base, li, recipe)["ownerName"] == HAN_MEIMEI.name


def test_a_first_start_recipe_is_deleted_only_by_an_administrator(server):
    base = server.base
    han, li = signed_in(base, HAN_MEIMEI), signed_in(base, LI_LEI)
    assert row(base, han, "c41")["deletable"] is False and row(base, li, "c41")["deletable"] is True
    refused = command(base, han, "recipes", "delete", {"id": "c41"})
    assert refused.status == 403 and refused.json()["title"] == "Not allowed", refused
    assert row(base, han, "c41") is not None
    assert command(base, li, "recipes", "delete", {"id": "c41"}).status == 200
    assert row(base, han, "c41") is None
    refused = command(base, han, "recipes/c41", "restore")
    assert refused.status == 403, refused
    restored = command(base, li, "recipes/c41", "restore")
    assert restored.status == 200 and restored.json()["outputs"]["isDeleted"] is False, restored
    assert row(base, han, "c41")["ownerName"] is None


def test_the_catalogue_says_who_may_write_the_recipes(server):
    views = request(server.base, "GET", "/api/views").json()["views"]
    recipes = next(v for v in views if v["name"] == "recipes")
    children = {c["name"]: c for c in recipes["children"]}
    assert recipes["readAccess"] == {"signIn": False, "roles": [], "conditional": False}
    assert children["recipeEdit"]["writeAccess"]["signIn"] is True, children["recipeEdit"]
    assert children["recipeEdit"]["readAccess"]["signIn"] is False, children["recipeEdit"]
