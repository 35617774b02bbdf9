"""The guides and the DocC articles show code the Swift tests compile and run. Every block of
`docs/guide/*.md` and `Sources/Bindery/Bindery.docc/*.md` marked `<!-- <path> -->` is that file as
it is (the Counter's are also `test_docs.py`'s, which checks that the guide leaves none out), and
every other Swift block of an article is a run of lines of a Swift file under `Tests/` or
`Examples/` (compared without indentation): `Tests/BinderyDocumentationTests` holds the articles'
view models and their tests, on the public API alone. The articles are curated in the catalogue's
root page and name no seed app."""

from __future__ import annotations

import re

from bindery_support import REPO

GUIDES = sorted((REPO / "docs" / "guide").glob("*.md"))
CATALOGUE = REPO / "Sources" / "Bindery" / "Bindery.docc"
ARTICLES = sorted(CATALOGUE.glob("*.md"))
MARKED = re.compile(r"<!-- ([^ ]+) -->\n```\w*\n(.*?)\n```", re.S)
BLOCK = re.compile(r"(<!-- [^ ]+ -->\n)?```(\w*)\n(.*?)\n```", re.S)
SEED_WORDS = re.compile(r"\bPOI|\bRAC[A-Z]|[Rr]ecipe|\b[Cc]-?41\b|\b[Cc]ourse|[Gg]aller(y|ies)|[Pp]hoto|\b[Ss]eed")


def shown_files(documents):
    """(document, path, code) for every block marked with a path."""
    return [(document, path, code) for document in documents
            for path, code in MARKED.findall(document.read_text(encoding="utf-8"))]


def unmarked_swift(article):
    """The Swift blocks of `article` not marked with a path."""
    return [code for mark, language, code in BLOCK.findall(article.read_text(encoding="utf-8"))
            if language == "swift" and not mark]


def stripped(text):
    return "\n".join(line.strip() for line in text.splitlines())


def compiled_sources():
    """Every Swift file of the tests and examples (which the test command builds), without indentation."""
    return {path: stripped(path.read_text(encoding="utf-8"))
            for folder in ("Tests", "Examples") for path in (REPO / folder).rglob("*.swift")
            if ".build" not in path.parts}


def test_the_catalogue_has_its_articles():
    names = {article.stem for article in ARTICLES}
    assert {"Bindery", "GettingStarted", "DeclaringAViewModel", "TheBrowserClient", "SharedModelsAndCollaboration",
            "ServingAndStores", "UsersAndAccess", "TestingViewModels"} <= names, sorted(names)


def test_the_guides_and_articles_show_files_as_they_are():
    shown = shown_files(GUIDES + ARTICLES)
    paths = {path for _, path, _ in shown}
    assert "Tests/BinderyIntegrationTests/NotesViewModel.swift" in paths, "UsersAndAccess.md shows the notes app whole"
    assert "Tests/BinderyDocumentationTests/GuestListViewModel.swift" in paths, "DeclaringAViewModel.md shows its view model"
    for document, path, code in shown:
        file = REPO / path
        assert file.is_file(), f"{document.name} shows {path}, which is not a file of the repository"
        assert file.read_text(encoding="utf-8").rstrip("\n") == code, f"{document.name}: the shown {path} differs from the file"


def test_every_swift_block_of_an_article_is_compiled_code():
    sources = compiled_sources()
    assert len(sources) > 100, "the tests' and examples' Swift files were not found"
    missing = [f"{article.name}:\n{code}" for article in ARTICLES for code in unmarked_swift(article)
               if not any(stripped(code) in source for source in sources.values())]
    assert not missing, "Swift blocks that no compiled file holds (mark the file, or show lines of one):\n" + "\n".join(missing)


def test_every_article_is_curated_first_in_the_root_page():
    root = (CATALOGUE / "Bindery.md").read_text(encoding="utf-8")
    topics = root[root.index("## Topics"):]
    links = re.findall(r"^- <doc:(\w+)>", topics, re.M)
    assert sorted(links) == sorted(article.stem for article in ARTICLES if article.stem != "Bindery")
    assert topics.index("<doc:") < topics.index("``"), "the articles come before the symbols"


def test_the_articles_name_no_seed_app():
    found = [f"{article.name}:{number}: {line.strip()}" for article in ARTICLES
             for number, line in enumerate(article.read_text(encoding="utf-8").splitlines(), start=1)
             if SEED_WORDS.search(line)]
    assert not found, "seed-app words in the DocC articles:\n" + "\n".join(found)
