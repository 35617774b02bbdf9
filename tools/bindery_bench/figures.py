"""What the reports share: percentiles, sizes, and the summary file (`BENCH_SUMMARY_FILE`: "key<TAB>value"
lines that `scripts/bench`'s probes append and `bindery_bench summary` reads)."""

from __future__ import annotations

import math
import os


def pct(values, p):
    """The nearest-rank percentile (ceil)."""
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def percentile(values, p):
    """The rounded-rank percentile; NaN for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def mib(n):
    return f"{n / 1048576:,.1f} MiB"


def kb(x):
    return f"{x / 1024:,.1f} KB"


class SummaryFile:
    """Appends "key<TAB>value" lines to a file; does nothing without one."""

    def __init__(self, path: str | None = None):
        self.path = path if path is not None else os.environ.get("BENCH_SUMMARY_FILE", "")

    def __call__(self, key, value) -> None:
        if self.path:
            with open(self.path, "a") as f:
                f.write(f"{key}\t{value}\n")
