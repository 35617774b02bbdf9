"""What the documentation promises about itself: the guide shows the Counter's files byte for
byte (so its code compiles: CI builds the Counter), the documents stay within their sizes, and every
public symbol of the `Bindery` and `BinderyTesting` products has a `///` comment."""

from __future__ import annotations

import re

from bindery_support import REPO

GUIDE = REPO / "docs" / "guide" / "YourOwnViewModel.md"
COUNTER = REPO / "Examples" / "Counter"
PRODUCT_MODULES = ["Bindery", "BinderyBinding", "BinderyRuntime", "BinderyHTTP", "BinderyStore", "BinderyTesting", "BinderyClient"]


def shown_files(document):
    """The blocks of `document` marked `<!-- Examples/Counter/... -->`: (path, code)."""
    return re.findall(r"<!-- (Examples/Counter/[^ ]+) -->\n```\w*\n(.*?)\n```", document.read_text(encoding="utf-8"), re.S)


def test_the_guides_code_is_the_counters():
    blocks = shown_files(GUIDE) + shown_files(REPO / "README.md")
    shown = {path for path, _ in shown_files(GUIDE)}
    sources = {str(p.relative_to(REPO)) for p in COUNTER.rglob("*") if p.is_file() and p.suffix in (".swift", ".html")
               and ".build" not in p.parts}
    assert sources <= shown, f"the guide does not show {sorted(sources - shown)}"
    for path, code in blocks:
        assert (REPO / path).read_text(encoding="utf-8").rstrip("\n") == code, f"the shown {path} differs from the file"


def test_the_counter_stays_small():
    swift = [p for p in COUNTER.rglob("*.swift") if ".build" not in p.parts]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in swift)
    assert lines < 120, f"the Counter has {lines} lines of Swift"
    assert len((COUNTER / "README.md").read_text(encoding="utf-8").splitlines()) <= 60


def test_the_readme_and_the_decisions_stay_within_their_sizes():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    assert len((REPO / "docs" / "DECISIONS.md").read_text(encoding="utf-8").splitlines()) <= 300


DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?!import\b)(?:(?:static|final|class|override|"
                         r"mutating|nonisolated(?:\(nonsending\))?|convenience|required|private\(set\))\s+)*"
                         r"(?:func|var|let|init|subscript|struct|enum|class|protocol|actor|typealias|case|extension)\b")


def undocumented(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    missing = []
    for number, line in enumerate(lines):
        if not DECLARATION.match(line) or re.match(r"^\s*public\s+extension\b|^\s*extension\b", line):
            continue
        above = number - 1
        while above >= 0 and (lines[above].strip().startswith("@") or lines[above].strip() == ""):
            if lines[above].strip() == "":
                break
            above -= 1
        if above < 0 or not lines[above].strip().startswith("///"):
            missing.append(f"{path.relative_to(REPO)}:{number + 1}: {line.strip()[:90]}")
    return missing


def test_every_public_symbol_has_a_doc_comment():
    missing = [m for module in PRODUCT_MODULES for path in sorted((REPO / "Sources" / module).rglob("*.swift"))
               for m in undocumented(path)]
    assert not missing, "public symbols without ///:\n" + "\n".join(missing)
