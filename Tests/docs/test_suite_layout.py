"""The pytest suites' layout: every test module's file name is unique under Tests/. The suites are
directories, not packages (no __init__.py), so pytest imports each test module by its file name;
two `test_users.py` in one run stop it with "import file mismatch" (scripts/test runs several
suites in one pytest process)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_has_a_file_name_of_its_own():
    places: dict[str, list[str]] = defaultdict(list)
    for module in TESTS.glob("*/**/test_*.py"):
        if ".build" not in module.parts and "__pycache__" not in module.parts:
            places[module.name].append(str(module.relative_to(TESTS)))
    shared = {name: paths for name, paths in places.items() if len(paths) > 1}
    assert not shared, f"test modules sharing a file name (rename one): {shared}"
