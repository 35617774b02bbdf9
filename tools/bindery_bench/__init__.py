"""Bindery's benchmarks and soak tools: one package, `python -m bindery_bench <subcommand>`.

`scripts/bench`, `scripts/bench-*`, `scripts/soak*` and `scripts/load-timing` are thin launchers of
its subcommands (`tools/bench-launch`). They report; they never fail on time. `--smoke` (or
`BENCH_SMOKE=1`) shrinks every duration to a second or two: `Tests/tools` runs each subcommand that
way, so a broken benchmark fails the test command."""
