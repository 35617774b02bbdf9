"""Writes a soak's CSV, curves (SVG) and figures (markdown) into a directory (standard library only).

    scripts/soak-report --csv artifacts/soak-T.csv --answers artifacts/soak-T-answers.json --out docs/history/soak \
        [--options "bindery serve ..."] [--minutes 30] [--commit abc1234]

The CSV has one row per 10 s sample: elapsed_s, rss_bytes, fds, threads, heap_in_use_bytes,
heap_free_bytes, sessions_live, streams_open (see scripts/soak).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import platform
import shutil

MB = 1024 * 1024


def read_rows(path):
    with open(path) as file:
        return [{key: float(value) for key, value in row.items()} for row in csv.DictReader(file)]


def nice_step(span, ticks=5):
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 10 ** -len(str(int(1 / raw)))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def panel(rows, series, top, height, width, title, unit, x_max):
    """One chart: axes, grid, a polyline per (column, scale, label, colour) in `series`."""
    left, right = 70, 170
    plot_w = width - left - right
    y_max = max(max(row[column] * scale for row in rows) for column, scale, _, _ in series)
    step = nice_step(y_max)
    y_top = step * (int(y_max / step) + 1)
    x_step = nice_step(x_max / 60, 8) * 60 if x_max > 600 else nice_step(x_max, 8)

    def x(seconds):
        return left + plot_w * seconds / x_max

    def y(value):
        return top + height - height * value / y_top

    out = [f'<text x="{left}" y="{top - 8}" font-weight="bold">{title}</text>']
    value = 0.0
    while value <= y_top + 1e-9:
        out.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{left + plot_w}" y2="{y(value):.1f}" stroke="#ddd"/>')
        label = f"{value:g}"
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{label}</text>')
        value += step
    seconds = 0.0
    while seconds <= x_max + 1e-9:
        out.append(f'<line x1="{x(seconds):.1f}" y1="{top}" x2="{x(seconds):.1f}" y2="{top + height}" stroke="#eee"/>')
        out.append(f'<text x="{x(seconds):.1f}" y="{top + height + 14}" text-anchor="middle">{seconds / 60:g}</text>')
        seconds += x_step
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{height}" fill="none" stroke="#888"/>')
    out.append(
        f'<text x="{left - 50}" y="{top + height / 2}" transform="rotate(-90 {left - 50} {top + height / 2})" '
        f'text-anchor="middle">{unit}</text>'
    )
    for index, (column, scale, label, colour) in enumerate(series):
        points = " ".join(f"{x(row['elapsed_s']):.1f},{y(row[column] * scale):.1f}" for row in rows)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
        legend_y = top + 14 + 18 * index
        out.append(f'<line x1="{left + plot_w + 12}" y1="{legend_y - 4}" x2="{left + plot_w + 32}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{left + plot_w + 38}" y="{legend_y}">{label}</text>')
    return out


def svg(rows, subtitle):
    width, height = 900, 720
    x_max = max(row["elapsed_s"] for row in rows) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">Bindery soak: {subtitle}</text>',
    ]
    parts += panel(rows, [
        ("rss_bytes", 1 / MB, "RSS", "#d62728"),
        ("heap_in_use_bytes", 1 / MB, "heap in use", "#1f77b4"),
        ("heap_free_bytes", 1 / MB, "heap free", "#2ca02c"),
    ], 60, 240, width, "Memory", "MiB", x_max)
    parts += panel(rows, [
        ("fds", 1, "open FDs", "#9467bd"),
        ("streams_open", 1, "open streams", "#ff7f0e"),
        ("threads", 1, "threads", "#8c564b"),
    ], 350, 140, width, "Descriptors, event streams and threads", "count", x_max)
    parts += panel(rows, [
        ("sessions_live", 1 / 1000, "live sessions", "#17becf"),
    ], 540, 140, width, "Live sessions (churn rounds)", "thousands", x_max)
    parts.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">minutes since start (one sample every 10 s)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def markdown(rows, answers, args):
    first, last = rows[0], rows[-1]
    peak = {column: max(row[column] for row in rows) for column in rows[0]}
    # "After warm-up": the first sample after the first churn round's sessions left.
    in_churn = [i for i, row in enumerate(rows) if row["sessions_live"] > 1000]
    settled = next((row for row in rows[in_churn[0]:] if row["sessions_live"] < 1000), None) if in_churn else None
    lowest_after = min((row["rss_bytes"] for row in rows[in_churn[0]:] if row["sessions_live"] < 1000), default=None) if in_churn else None

    def mb(value):
        return f"{value / MB:.1f} MiB"

    answer_counts = answers.get("answers", {})
    total = sum(answer_counts.values())
    lines = [
        "# Soak",
        "",
        f"Written by `scripts/soak {args.minutes}` on {datetime.date.today().isoformat()} ({platform.machine()}, "
        f"{os.cpu_count()} CPUs shared with builds), commit {args.commit}. Curves: [soak.svg](soak.svg); "
        "samples: [soak.csv](soak.csv) (every 10 s).",
        "",
        *([f"Server: `{args.options}`", ""] if args.options else []),
        f"Load ({total:,} answers, {answers.get('churn_rounds', '?')} churn rounds of new sessions left to expire): "
        "see the header of `scripts/soak-load`.",
        "",
        "Leak or allocator retention: see [CHURN.md](CHURN.md).",
        "",
        "| figure | start | peak | end |",
        "|---|---|---|---|",
        f"| RSS | {mb(first['rss_bytes'])} | {mb(peak['rss_bytes'])} | {mb(last['rss_bytes'])} |",
        f"| heap in use (`process_heap_bytes{{state=\"in_use\"}}`) | {mb(first['heap_in_use_bytes'])} | {mb(peak['heap_in_use_bytes'])} | {mb(last['heap_in_use_bytes'])} |",
        f"| heap free, kept by the allocator (`{{state=\"free\"}}`) | {mb(first['heap_free_bytes'])} | {mb(peak['heap_free_bytes'])} | {mb(last['heap_free_bytes'])} |",
        f"| open FDs | {first['fds']:.0f} | {peak['fds']:.0f} | {last['fds']:.0f} |",
        f"| threads | {first['threads']:.0f} | {peak['threads']:.0f} | {last['threads']:.0f} |",
        f"| live sessions | {first['sessions_live']:.0f} | {peak['sessions_live']:.0f} | {last['sessions_live']:.0f} |",
        f"| open event streams | {first['streams_open']:.0f} | {peak['streams_open']:.0f} | {last['streams_open']:.0f} |",
        "",
    ]
    if settled is not None:
        lines += [
            f"RSS after the first churn round's sessions left: {mb(settled['rss_bytes'])} "
            f"(at {settled['elapsed_s'] / 60:.1f} min); RSS after churn (end, last round's sessions gone): "
            f"{mb(last['rss_bytes'])}; lowest between rounds after the first: {mb(lowest_after)}.",
            "",
        ]
    lines += ["Answers by kind and status:", "", "| kind | status | count |", "|---|---|---|"]
    for key, count in answer_counts.items():
        kind, status = key.split(" ")
        lines.append(f"| {kind} | {status} | {count:,} |")
    lines.append("")
    return "\n".join(line for line in lines if line is not None) + "\n"


def main(argv: list[str], smoke: bool = False) -> int:
    parser = argparse.ArgumentParser(prog="scripts/soak-report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--answers", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--options", default="")
    parser.add_argument("--minutes", default="?")
    parser.add_argument("--commit", default="?")
    args = parser.parse_args(argv)
    rows = read_rows(args.csv)
    if len(rows) < 2:
        raise SystemExit("fewer than two samples")
    answers = json.load(open(args.answers)) if os.path.exists(args.answers) else {}
    os.makedirs(args.out, exist_ok=True)
    shutil.copyfile(args.csv, os.path.join(args.out, "soak.csv"))
    subtitle = f"{args.minutes} min of mixed load, RSS / heap / FDs every 10 s"
    with open(os.path.join(args.out, "soak.svg"), "w") as file:
        file.write(svg(rows, subtitle))
    with open(os.path.join(args.out, "README.md"), "w") as file:
        file.write(markdown(rows, answers, args))
    print(f"wrote {args.out}/soak.csv, soak.svg, README.md")
    return 0
