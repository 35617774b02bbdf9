"""wrk, written once: installed when missing (as root, from Debian), run with the CPU its process
used, its output parsed, and the Lua script that makes every PATCH a new version."""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys


def ensure() -> None:
    """wrk on the PATH, installed with apt-get when missing and running as root."""
    if shutil.which("wrk"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("Installing wrk (Debian)", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "wrk"], check=True, env=env)
    else:
        sys.exit("this benchmark needs wrk (apt-get install wrk)")


def children_cpu() -> float:
    """CPU seconds of this process's finished children (wrk)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(threads: int, connections: int, duration: str, headers: list[str], args: list[str]) -> str:
    """wrk's output for one case (`args`: a script and the URL)."""
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}", "--latency"]
    for header in headers:
        command += ["-H", header]
    return subprocess.run(command + args, capture_output=True, text=True, check=True).stdout


def _first(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.M)
    return match.group(1) if match else None


def parse(out: str) -> dict:
    """requests, rps, latency avg/p50/p99 (wrk's units), socket errors and non-2xx/3xx, as wrk prints
    them; None where absent."""
    rps = _first(r"^Requests/sec:\s+([0-9.]+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "requests": _first(r"^\s*(\d+) requests in", out),
        "rps": f"{float(rps):.0f}" if rps else None,
        "avg": _first(r"^\s*Latency\s+(\S+)", out),
        "p50": _first(r"^\s*50%\s+(\S+)", out),
        "p99": _first(r"^\s*99%\s+(\S+)", out),
        "errors": "c{}/r{}/w{}/t{}".format(*errors.groups()) if errors else None,
        "non2xx": _first(r"Non-2xx or 3xx responses:\s+(\d+)", out),
    }


def to_us(value: str | None) -> str:
    """"612.34us" / "1.02ms" / "2.00s" -> microseconds ("" when unknown)."""
    if not value:
        return ""
    number = float(re.match(r"[0-9.]*", value).group(0) or 0)
    for unit, scale in (("us", 1), ("ms", 1000), ("s", 1_000_000)):
        if value.endswith(unit):
            return f"{number * scale:g}"
    return f"{number:g}"


PATCH_LUA = """
-- Every request writes a phone number not written before, so each one is a new version; the
-- requests go round the sessions. Threads get distinct prefixes (setup runs once per thread).
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
local counter = 0
local index = 0
function init(args)
    index = (tid * 7) % #tokens
end
function request()
    counter = counter + 1
    index = index % #tokens + 1
    local phone = ((counter % 2 == 0) and "186" or "139") .. (100 + tid) .. counter
    return wrk.format("PATCH", nil, {
        ["Authorization"] = "Bearer " .. tokens[index],
        ["Content-Type"] = "application/merge-patch+json",
    }, '{"phone":"' .. phone .. '"}')
end
"""


def patch_script(tokens: list[str], path) -> None:
    """The PATCH case's script: round robin over `tokens`."""
    with open(path, "w") as f:
        f.write("local tokens = {" + ",".join(f'"{t}"' for t in tokens) + "}\n" + PATCH_LUA)
