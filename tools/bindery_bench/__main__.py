"""`python -m bindery_bench <subcommand> [--smoke] [arguments]`: the benchmarks and soak tools.

  http           scripts/bench: wrk against Bindery, a raw C and the Hummingbird reference
  collab         scripts/bench-collab: collaborative text edits, ops/s and push latency
  idle-streams   scripts/bench-idle-streams: idle event streams' CPU and memory, fan-out
  memory         scripts/bench-memory: memory per session
  multinode      scripts/bench-multinode: nodes on PostgreSQL behind nginx
  summary        scripts/bench-summary: issue 32's and 13's targets against a run's figures
  write-to-push  scripts/bench-write-to-push: write → push latency with 1 and 1,000 watchers
  load-timing    scripts/load-timing: the thin client's first screen at a round-trip time
  soak           scripts/soak: a long mixed load, sampled every 10 s, reported
  soak-load      scripts/soak-load: the soak's load, or the churn experiment
  soak-report    scripts/soak-report: a soak's CSV, curves and figures

`--smoke` (or BENCH_SMOKE=1) shrinks durations and counts to a smoke run's (Tests/tools): it runs
through and prints its figures in a few seconds; the figures mean nothing then.
"""

from __future__ import annotations

import importlib
import os
import sys

from .binary import REPO

# subcommand -> (module, runs from the repository's root as its shell script did)
COMMANDS = {
    "http": ("http_bench", True),
    "collab": ("collab", False),
    "idle-streams": ("idle_streams", True),
    "memory": ("memory", True),
    "multinode": ("multinode", True),
    "summary": ("summary", False),
    "write-to-push": ("write_to_push", True),
    "load-timing": ("load_timing", False),
    "soak": ("soak", True),
    "soak-load": ("soak_load", False),
    "soak-report": ("soak_report", False),
}
# Their settings are BENCH_* variables (and a count): --help prints the module's description.
TAKES_NO_OPTIONS = {"http", "idle-streams", "memory", "multinode", "summary", "write-to-push", "soak"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    name, args = argv[0], argv[1:]
    smoke = "--smoke" in args or os.environ.get("BENCH_SMOKE") == "1"
    args = [a for a in args if a != "--smoke"]
    module, at_root = COMMANDS[name]
    if at_root:
        os.chdir(REPO)
    sys.stdout.reconfigure(line_buffering=True)
    command = importlib.import_module(f".{module}", __package__)
    if args in (["-h"], ["--help"]) and name in TAKES_NO_OPTIONS:
        print(command.__doc__)
        return 0
    return command.main(args, smoke) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
