#!/usr/bin/env python3
"""Turns cuperm-bench CSV files into PNG plots.

For each CSV: the percentage of the same-run device-to-device copy bandwidth,
per rank (small: per tensor size), as boxes (one per planning mode) with every case drawn as a point, in
the manner of the cuTT paper's figures; a suite of a single rank with many cases
(perm720) is drawn as sorted curves instead. When the run compared planning modes,
a second panel shows heuristic time / measured time per rank.
A CSV holding several element types gives one PNG per type. With more than one
plot, overview.png puts their medians side by side.

Usage: python3 bench/plot.py RESULTS.csv [MORE.csv ...] [--out DIR]
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODE_COLORS = {"heuristic": "#1f77b4", "measure": "#ff7f0e"}


def read_rows(path):
    """Rows that ran (no error) with numeric fields converted."""
    rows = []
    try:
        f = open(path, newline="")
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror}")
    with f:
        for row in csv.DictReader(f):
            if row.get("error") or not row.get("pct_copy"):
                continue
            row["rank"] = int(row["rank"])
            row["pct_copy"] = float(row["pct_copy"])
            ratio = row.get("heur_over_meas")
            row["heur_over_meas"] = float(ratio) if ratio else math.nan
            rows.append(row)
    if not rows:
        raise SystemExit(f"{path}: no successful rows to plot")
    return rows


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def describe(rows):
    suite = rows[0]["suite"]
    dtypes = "+".join(sorted({r["dtype"] for r in rows}))
    return f"{suite} ({dtypes})"


def size_label(nbytes):
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes} B"


def group_key(rows):
    """What the x axis groups by: rank, or for the small suite the size in bytes
    (there the question is how the time scales next to a copy's)."""
    if rows[0]["suite"] in ("small", "l2", "l2-heldout"):
        def log2_size(r):
            return round(math.log2(int(r["bytes"])))
        return "tensor size", log2_size, lambda rs: size_label(1 << log2_size(rs[0]))
    return "rank", lambda r: r["rank"], lambda rs: str(rs[0]["rank"])


def boxes_per_rank(ax, rows, field, ylabel):
    """One box per (rank, mode), the cases as jittered points, medians labelled."""
    xlabel, key, label = group_key(rows)
    modes = [m for m in MODE_COLORS if any(r["mode"] == m for r in rows)]
    ranks = sorted({key(r) for r in rows})
    width = 0.8 / len(modes)
    for k, mode in enumerate(modes):
        data, positions = [], []
        for i, rank in enumerate(ranks):
            values = [r[field] for r in rows
                      if r["mode"] == mode and key(r) == rank and not math.isnan(r[field])]
            if not values:
                continue
            pos = i + (k - (len(modes) - 1) / 2) * width
            data.append(values)
            positions.append(pos)
            jitter = [pos + width * 0.25 * ((j * 37 % 11) / 10 - 0.5) for j in range(len(values))]
            ax.scatter(jitter, values, s=6, color=MODE_COLORS[mode], alpha=0.5, zorder=3)
            ax.annotate(f"{median(values):.0f}" if field == "pct_copy" else f"{median(values):.3f}",
                        (pos, max(values)), textcoords="offset points", xytext=(0, 3),
                        ha="center", fontsize=7)
        if data:
            box = ax.boxplot(data, positions=positions, widths=width * 0.8, patch_artist=True,
                             showfliers=False, manage_ticks=False)
            for patch in box["boxes"]:
                patch.set(facecolor=MODE_COLORS[mode], alpha=0.35)
            ax.plot([], [], color=MODE_COLORS[mode], lw=6, alpha=0.5, label=f"{mode} plans")
    ax.set_xticks(range(len(ranks)))
    ax.set_xticklabels([label([r for r in rows if key(r) == g]) for g in ranks])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="best", fontsize=8)


def sorted_curves(ax, rows):
    """Single-rank suites with many cases: % of copy per case, sorted."""
    for mode, color in MODE_COLORS.items():
        values = sorted(r["pct_copy"] for r in rows if r["mode"] == mode)
        if values:
            ax.plot(range(len(values)), values, color=color,
                    label=f"{mode} plans (median {median(values):.1f}%)")
    ax.set_xlabel("case, sorted by % of copy")
    ax.set_ylabel("% of same-run D2D copy bandwidth")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)


def plot_file(path, out_dir, gpu):
    """One PNG per element type in the CSV; returns [(png, rows)]."""
    rows = read_rows(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    dtypes = sorted({r["dtype"] for r in rows})
    made = []
    for dtype in dtypes:
        subset = [r for r in rows if r["dtype"] == dtype]
        name = stem if len(dtypes) == 1 else f"{stem}-{dtype}"
        made.append((plot_rows(subset, os.path.join(out_dir, name + ".png"), gpu), subset))
    return made


def plot_rows(rows, out, gpu):
    has_ratio = any(not math.isnan(r["heur_over_meas"]) for r in rows)
    one_rank_many = len({r["rank"] for r in rows}) == 1 and len(rows) > 40
    panels = 2 if has_ratio and not one_rank_many else 1
    fig, axes = plt.subplots(panels, 1, figsize=(9, 4.2 * panels), squeeze=False)
    ax = axes[0][0]
    if one_rank_many:
        sorted_curves(ax, rows)
    else:
        boxes_per_rank(ax, rows, "pct_copy", "% of same-run D2D copy bandwidth")
    ax.axhline(100, color="gray", lw=0.8, ls="--")
    # From zero, as in the papers' figures, so that gaps are not magnified.
    ax.set_ylim(0, max(110, 1.08 * max(r["pct_copy"] for r in rows)))
    ax.set_title(f"cuperm transposes: {describe(rows)}" + (f" on {gpu}" if gpu else ""))
    if panels == 2:
        heur = [r for r in rows if r["mode"] == "heuristic"]
        boxes_per_rank(axes[1][0], heur, "heur_over_meas", "heuristic time / measured time")
        axes[1][0].axhline(1, color="gray", lw=0.8, ls="--")
        ratios = [r["heur_over_meas"] for r in heur if not math.isnan(r["heur_over_meas"])]
        axes[1][0].set_ylim(min(0.95, min(ratios) - 0.01), max(1.1, max(ratios) + 0.03))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def plot_overview(runs, out_dir, gpu):
    """Median, worst and best % of copy of every (CSV, element type, mode)."""
    labels, medians, lows, highs, colors = [], [], [], [], []
    for rows in runs:
        by_mode = defaultdict(list)
        for r in rows:
            by_mode[r["mode"]].append(r["pct_copy"])
        for mode in MODE_COLORS:
            if by_mode[mode]:
                v = by_mode[mode]
                labels.append(f"{describe(rows)}\n{mode}")
                medians.append(median(v))
                lows.append(median(v) - min(v))
                highs.append(max(v) - median(v))
                colors.append(MODE_COLORS[mode])
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(labels)), 4.5))
    ax.bar(range(len(labels)), medians, yerr=[lows, highs], capsize=4, color=colors, alpha=0.7)
    for i, m in enumerate(medians):
        ax.annotate(f"{m:.0f}%", (i, m), textcoords="offset points", xytext=(8, 2), fontsize=8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
    ax.axhline(100, color="gray", lw=0.8, ls="--")
    ax.set_ylabel("% of same-run D2D copy (median; bars: worst to best)")
    ax.set_title("cuperm transposes" + (f" on {gpu}" if gpu else ""))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = os.path.join(out_dir, "overview.png")
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def gpu_name(csv_path):
    """The GPU named in the run's summary file (written next to the CSV), if any."""
    summary = os.path.splitext(csv_path)[0] + "-summary.txt"
    try:
        with open(summary) as f:
            for line in f:
                if line.startswith("GPU: "):
                    return line[5:].split(" (")[0].strip()
    except OSError:
        pass
    return ""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="CSV files written by cuperm-bench --out")
    parser.add_argument("--out", help="directory for the PNGs (default: next to each CSV)")
    args = parser.parse_args(argv)
    runs = []
    for path in args.csv:
        out_dir = args.out or os.path.dirname(os.path.abspath(path))
        os.makedirs(out_dir, exist_ok=True)
        for png, rows in plot_file(path, out_dir, gpu_name(path)):
            print(png)
            runs.append(rows)
    if len(runs) > 1:
        out_dir = args.out or os.path.dirname(os.path.abspath(args.csv[0]))
        print(plot_overview(runs, out_dir, gpu_name(args.csv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
