"""Finds the command-line tools the API checks run (installed into the venv by scripts/install-deps)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


def venv_tool(name: str) -> str:
    """The tool beside this Python (the venv's bin/), else on PATH; a missing tool fails the test."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: run scripts/install-deps --test")
    return found
