"""The guides show other files of the repository byte for byte too: every block of
`docs/guide/*.md` marked `<!-- <path> -->` is that file as it is, so what a reader copies is code
the Swift tests compile and run (`docs/guide/Users.md` shows the notes app of the integration
tests). The Counter's blocks are `test_docs.py`'s, which also checks that none of its files is
left out."""

from __future__ import annotations

import re

from bindery_support import REPO

GUIDES = sorted((REPO / "docs" / "guide").glob("*.md"))
MARKED = re.compile(r"<!-- ([^ ]+) -->\n```\w*\n(.*?)\n```", re.S)


def shown_files():
    """(guide, path, code) for every block marked with a path outside Examples/Counter."""
    return [(guide, path, code) for guide in GUIDES for path, code in MARKED.findall(guide.read_text(encoding="utf-8"))
            if not path.startswith("Examples/Counter/")]


def test_the_guides_show_other_files_as_they_are():
    shown = shown_files()
    paths = {path for _, path, _ in shown}
    assert "Tests/BinderyIntegrationTests/NotesViewModel.swift" in paths, "Users.md shows the notes app whole"
    for guide, path, code in shown:
        file = REPO / path
        assert file.is_file(), f"{guide.name} shows {path}, which is not a file of the repository"
        assert file.read_text(encoding="utf-8").rstrip("\n") == code, f"{guide.name}: the shown {path} differs from the file"
