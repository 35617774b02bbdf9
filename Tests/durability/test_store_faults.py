"""A store file that cannot be used stops startup with one line naming the file (issue 10,
"Faults"): exit status not 0, no crash dump, and the file is left as it was."""

from __future__ import annotations

import subprocess

import pytest

from bindery_process import binary_path, free_port, public_dir

CRASH_MARKS = ("Fatal error", "Stack dump", "backtrace", "Backtrace", "Current stack trace", "0x0000")


def start(store: str, cwd) -> subprocess.CompletedProcess:
    if not binary_path().exists():
        pytest.fail(f"no server binary at {binary_path()} (run `swift build`, or set BINDERY_BIN)")
    return subprocess.run(
        [str(binary_path()), "--store", store, "--port", str(free_port()), "--public-dir", str(public_dir())],
        cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
    )


def assert_one_line_naming(result: subprocess.CompletedProcess, path) -> None:
    output = (result.stdout + result.stderr).strip()
    assert result.returncode > 0, f"exit status {result.returncode} (negative: killed by a signal): {output!r}"
    assert output.count("\n") == 0, f"more than one line: {output!r}"
    assert str(path) in output, f"the line does not name {path}: {output!r}"
    assert not any(mark in output for mark in CRASH_MARKS), output


@pytest.mark.parametrize("garbage", [
    b"this is not a database, just some garbage\n" * 100,
    b"SQLite format 3\x00" + bytes(range(256)) * 16,   # the right magic, a nonsense header
])
def test_a_corrupt_store_file_stops_startup_with_one_line(tmp_path, garbage):
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(garbage)
    result = start(f"sqlite:{path}", tmp_path)
    assert_one_line_naming(result, path)
    assert path.read_bytes() == garbage, "the corrupt file was changed"


def test_a_store_path_that_is_a_directory_stops_startup_with_one_line(tmp_path):
    path = tmp_path / "a-directory.sqlite"
    path.mkdir()
    result = start(f"sqlite:{path}", tmp_path)
    assert_one_line_naming(result, path)
