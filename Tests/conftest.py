"""Shared by every pytest suite under Tests/: puts this directory on the import path, so each
suite imports the helpers they have in common (`bindery_support`), and declares the markers every
suite may use."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "alone: asserts a time bound or types against the clock, so it runs when no other test "
        "runs (scripts/test runs `-m \"not alone\"` in parallel streams first, then `-m alone` by itself)")
