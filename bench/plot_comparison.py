#!/usr/bin/env python3
"""cuperm against PyTorch, CuPy and cuTENSOR on the same cases, H100: the README's comparison plot.

Left: TTC-57 transposes (8-byte), each library's bandwidth as % of a same-run device copy,
cases sorted by cuperm's. PyTorch and CuPy from bench/results/python/h100/results.csv (one run of
bench/python/bench.py); cuTENSOR 2.8.1 from bench/results/cutensor-h100/permute.csv (timed in
the same batches as cuperm and the copy).
Right: TCCG48 contractions (f32, f16), cuperm's speed-up per case: over torch.einsum and
cupy.einsum (bench/results/python/einsum-h100/einsum.csv, same run, both through Python), and
over cuTENSOR (bench/results/cutensor-h100/tccg48.csv: cuTENSOR's time over cuperm's, same batch).

    python3 bench/plot_comparison.py [OUT.png]     # needs matplotlib
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")


def rows(*path):
    with open(os.path.join(RESULTS, *path), newline="") as f:
        return list(csv.DictReader(f))


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def transposes(ax):
    """TTC-57, 8-byte: every library on the same cases, sorted by cuperm's bandwidth."""
    py = {r["case"]: r for r in rows("python", "h100", "results.csv") if r["suite"] == "ttc" and r["dtype"] == "float64"}
    ct = {f'{r["extents"].replace(" ", ",")} {r["perm"].replace(" ", ",")}': r
          for r in rows("cutensor-h100", "permute.csv") if r["suite"] == "ttc57" and r["elem_bytes"] == "8"}
    cases = sorted(set(py) & set(ct), key=lambda k: float(py[k]["cuperm_pct_copy"]))
    x = range(len(cases))
    series = [("cuperm", [float(py[k]["cuperm_pct_copy"]) for k in cases], "o"),
              ("cuTENSOR 2.8.1", [float(ct[k]["cutensor_pct_copy"]) for k in cases], "s"),
              ("torch permute().contiguous()", [float(py[k]["torch_pct_copy"]) for k in cases], "^"),
              ("cupy ascontiguousarray(transpose)", [float(py[k]["cupy_pct_copy"]) for k in cases], "v")]
    for name, values, marker in series:
        ax.plot(x, values, marker, ms=3, mfc="none" if name != "cuperm" else None,
                label=f"{name}: median {sorted(values)[len(values) // 2]:.1f}%")
    ax.set_title(f"TTC-57 transposes, 8-byte ({len(cases)} cases), H100")
    ax.set_xlabel("case (sorted by cuperm)")
    ax.set_ylabel("% of same-run device copy")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=7, loc="lower right")


def contractions(ax):
    ein = rows("python", "einsum-h100", "einsum.csv")
    ct = rows("cutensor-h100", "tccg48.csv")
    labels = []
    for i, dtype in enumerate(("float32", "float16")):
        mine = [r for r in ein if r["dtype"] == dtype]
        short = "f32" if dtype == "float32" else "f16"
        series = {
            "torch.einsum": [float(r["speedup_vs_torch"]) for r in mine],
            "cupy.einsum": [float(r["speedup_vs_cupy"]) for r in mine],
            "cuTENSOR": [float(r["cutensor_ms"]) / float(r["cuperm_ttgt_ms"]) for r in ct if r["dtype"] == short],
        }
        for j, (name, values) in enumerate(series.items()):
            pos = 4 * i + j
            ax.scatter([pos] * len(values), values, s=6, alpha=0.6)
            ax.plot([pos - 0.3, pos + 0.3], [geomean(values)] * 2, "k-")
            labels.append((pos, f"{short}\nvs {name}\n{geomean(values):.2f}x"))
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks([p for p, _ in labels])
    ax.set_xticklabels([t for _, t in labels], fontsize=6)
    ax.set_ylabel("other's time / cuperm's (per case; bar: geomean)")
    ax.set_title("TCCG48 contractions, H100")


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(RESULTS, "comparison-h100.png")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    transposes(axes[0])
    contractions(axes[1])
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
