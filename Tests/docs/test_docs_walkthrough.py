"""docs/walkthrough.md, run as printed against a real `bindery` (a SQLite store in a temporary
directory): every command of every `sh` block, in order, in one shell, so they share the session.
Only `localhost:8080` becomes the test server's address. After a command, its `#   -> …` lines are
checked: the HTTP statuses they name (`-> 409`, `-> 200 (or 502 …)`) and every `"member":value`
fragment they quote must be in what the command printed. A block after `<!-- walkthrough: restart -->`
runs after the server was stopped and started again on the same port and store. Streams (`curl -N`)
are cut after 2 s. Time budget: 60 s."""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from pathlib import Path

from bindery_support import ARTIFACTS, REPO, binary_path, free_port, public_dir, stop_process, wait_until_healthy

WALKTHROUGH = REPO / "docs" / "walkthrough.md"
STATUS = re.compile(r"(?:->|\bor)\s+([1-5]\d\d)\b")
FRAGMENT = re.compile(r'"[A-Za-z]+":(?:"[^"…]*"|-?\d+(?:\.\d+)?|true|false|null)(?=[,}\s]|$)')

# Every curl records the status of each answer it got (its header dump); a stream stops after 2 s.
SHELL_PRELUDE = r'''
curl() {
    local headers; headers=$(mktemp)
    local limit=()
    case " $* " in *" -N "*|*" -sN "*|*" -Ns "*) limit=(--max-time 2) ;; esac
    command curl -D "$headers" "${limit[@]}" "$@"
    local status=$?
    awk '/^HTTP\//{print $2}' "$headers" >> "$WALK_STATUSES"
    rm -f "$headers"
    [ "$status" = 28 ] && return 0
    return "$status"
}
'''


def steps():
    """(restart before?, command, annotation lines) for every command of every sh block."""
    text = WALKTHROUGH.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"(<!-- walkthrough: restart -->\n)?```sh\n(.*?)```", text, re.S):
        restart = bool(match.group(1))
        lines = match.group(2).splitlines()
        command: list[str] = []
        for line in lines:
            if command and command[-1].endswith("\\"):
                command.append(line)
                continue
            if line.startswith("#"):
                if line.startswith("#   ->") and found:
                    found[-1][2].append(line)
                elif line.startswith("#      ") and found and found[-1][2]:
                    found[-1][2].append(line)
                continue
            if not line.strip():
                continue
            command = [line]
            found.append([restart, command, []])
            restart = False
    return [(r, "\n".join(c), a) for r, c, a in found]


class Server:
    def __init__(self, directory: Path):
        self.directory, self.port = directory, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(ARTIFACTS / "walkthrough-server.log", "a")
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [str(binary_path()), "--port", str(self.port), "--store", f"sqlite:{self.directory / 'bindery.sqlite'}",
             "--public-dir", str(public_dir()), "--log-level", "warning"],
            cwd=self.directory, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.process, self.base, 30, "artifacts/walkthrough-server.log")

    def stop(self):
        stop_process(self.process)


def test_the_walkthrough_runs_as_printed(tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    server = Server(tmp_path)
    server.start()
    statuses = tmp_path / "statuses"
    sentinel = f"--{uuid.uuid4().hex}--"
    shell = subprocess.Popen(["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
                             env={**os.environ, "WALK_STATUSES": str(statuses)})
    shell.stdin.write(SHELL_PRELUDE)
    failures = []
    try:
        for restart, command, annotation in steps():
            if restart:
                server.stop()
                server.start()
            statuses.write_text("")
            shell.stdin.write(command.replace("localhost:8080", f"127.0.0.1:{server.port}") + f"\necho; echo {sentinel}$?\n")
            shell.stdin.flush()
            output = []
            while True:
                line = shell.stdout.readline()
                if not line:
                    raise RuntimeError("the shell ended")
                if line.startswith(sentinel):
                    code = line[len(sentinel):].strip()
                    break
                output.append(line)
            printed = "".join(output)
            got = statuses.read_text().split()
            where = f"{command.splitlines()[0][:100]}"
            if code != "0":
                failures.append(f"{where}: exit status {code}: {printed[-300:]}")
                continue
            expected = {s for line in annotation[:1] for s in STATUS.findall(line)}
            if expected and (not got or got[-1] not in expected):
                failures.append(f"{where}: status {got[-1:] or 'none'}, the walkthrough says {sorted(expected)}")
            for fragment in (f for line in annotation for f in FRAGMENT.findall(line)):
                if fragment not in printed:
                    failures.append(f"{where}: {fragment} not in what it printed: {printed[:300]}")
    finally:
        shell.stdin.close()
        shell.wait(timeout=10)
        server.stop()
        server.log.close()
    assert not failures, "the walkthrough has drifted:\n" + "\n".join(failures)
