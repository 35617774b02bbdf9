"""Examples/Todos stays an example: under 250 lines of Swift (its sources, not its tests nor its
Package.swift) and under 250 lines of HTML, JavaScript and CSS in all. No server. Time budget: 1 s."""

from __future__ import annotations

from todos_server import TODOS


def lines(paths) -> int:
    return sum(len(path.read_text(encoding="utf-8").splitlines()) for path in paths)


def test_the_todos_stay_small():
    swift = lines((TODOS / "Sources").rglob("*.swift"))
    assert swift < 250, f"the Todos have {swift} lines of Swift"
    page = lines(p for p in (TODOS / "Public").rglob("*") if p.suffix in (".html", ".js", ".css"))
    assert page < 250, f"the Todos have {page} lines of HTML, JavaScript and CSS"
