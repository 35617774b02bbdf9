"""Paths the API checks share (the binary, the thin client, the OpenAPI copy) and the command-line
tools they run (installed into the venv by scripts/install-deps).

Test modules import these from here, never `from conftest import ...`: with several test
directories in one pytest run, the module named `conftest` is whichever directory's was loaded last."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bindery_support import REPO, binary_path, public_dir  # noqa: F401 (re-exported)

OPENAPI_COPY = REPO / "docs" / "openapi.json"


def venv_tool(name: str) -> str:
    """The tool beside this Python (the venv's bin/), else on PATH; a missing tool fails the test."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: run scripts/install-deps --test")
    return found
