"""The library's generic text names no seed app: not the Swift of its modules (doc comments, the
OpenAPI text every app serves, command-line help), not its DocC catalogue, and not the OpenAPI
document the Counter serves. Seed lore belongs to Sources/SeedApps, SeedServer, SeedClients and
BinderyUpstream; the generic text explains with generic examples (`list/items/42`, `ItemCell`).

The Counter's document is read from Examples/Counter/openapi.json, which
Tests/api/test_generated_clients.py keeps equal to what `CounterServer openapi` prints."""

from __future__ import annotations

import re

from bindery_support import REPO

GENERIC_MODULES = ["Bindery", "BinderyBinding", "BinderyBrowserClient", "BinderyRuntime", "BinderyHTTP", "BinderyStore",
                   "BinderyTesting", "BinderyClient", "BinderyWatch"]
SEED_WORDS = re.compile(r"POICell|c41|C-41|RACChannel|seed 00\d|the seed's", re.I)


def seed_words(path, text):
    return [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), start=1) if SEED_WORDS.search(line)]


def test_the_generic_modules_name_no_seed_app():
    files = [p for module in GENERIC_MODULES for p in sorted((REPO / "Sources" / module).rglob("*"))
             if p.suffix == ".swift" or (p.suffix == ".md" and ".docc" in str(p))]
    assert len(files) > 100, "the generic modules' files were not found"
    found = [hit for p in files for hit in seed_words(p, p.read_text(encoding="utf-8"))]
    assert not found, "seed-app words in generic text:\n" + "\n".join(found)


DOC_COMMENT_SEED_WORDS = re.compile(r"\bPOI|\bRAC[A-Z]|[Rr]ecipe|\b[Cc]-?41\b|\b[Cc]ourses?\b|[Gg]aller(y|ies)|[Pp]hoto")


def test_the_public_doc_comments_name_no_seed_app():
    """The `///` comments of the generic modules are the DocC archive's reference pages: no seed
    app's nouns (a photo, a course, a recipe), not even as examples."""
    files = [p for module in GENERIC_MODULES for p in sorted((REPO / "Sources" / module).rglob("*.swift"))]
    found = [f"{p.relative_to(REPO)}:{number}: {line.strip()}" for p in files
             for number, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if line.lstrip().startswith("///") and DOC_COMMENT_SEED_WORDS.search(line)]
    assert not found, "seed-app words in public doc comments:\n" + "\n".join(found)


def test_the_counters_openapi_document_names_no_seed_app():
    document = REPO / "Examples" / "Counter" / "openapi.json"
    found = seed_words(document, document.read_text(encoding="utf-8"))
    assert not found, "seed-app words in the Counter's OpenAPI document:\n" + "\n".join(found)
