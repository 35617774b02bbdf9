"""Where the pytest suites find the Bindery binary, the thin client and the artifacts directory,
and a free loopback port: one copy for the API, durability and reliability suites."""

from __future__ import annotations

import os
import socket
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"


def binary_path() -> Path:
    """The server binary under test: `BINDERY_BIN`, or the debug build."""
    path = Path(os.environ.get("BINDERY_BIN", ".build/debug/bindery"))
    return path if path.is_absolute() else REPO / path


def public_dir() -> Path:
    """The thin client's directory: `BINDERY_PUBLIC`, or the repository's `Public/`."""
    path = Path(os.environ.get("BINDERY_PUBLIC", "Public"))
    return path if path.is_absolute() else REPO / path


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
