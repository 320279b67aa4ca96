"""bench/plot.py turns cuperm-bench CSVs into PNGs (skipped without matplotlib)."""
import csv
import importlib.util
import os

import pytest

pytest.importorskip("matplotlib")

PLOT = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "plot.py")
HEADER = ("suite,case,dtype,mode,rank,extents,perm,bytes,kernel,config,fused_rank,plan_us,exec_ms,gbps,"
          "copy_ms,copy_gbps,pct_copy,heur_over_meas,verified,mismatches,batches,inner,error")


def load_plot():
    spec = importlib.util.spec_from_file_location("bench_plot", PLOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_csv(path, suite, dtypes, ranks, with_error=False):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER.split(","))
        for dtype in dtypes:
            for i, rank in enumerate(ranks):
                for mode, pct in (("heuristic", 70 + i), ("measure", 75 + i)):
                    w.writerow([suite, i, dtype, mode, rank, "8,8", "1,0", 512, "tiled", "32x32:256", 2, 3.5,
                                0.1, 2000, 0.08, 2600, pct, 75 / 70, 1, 0, 20, 1, ""])
        if with_error:
            w.writerow([suite, 99, dtypes[0], "heuristic", 3, "8,8,8", "2,1,0", 4096, "-", "-", 0,
                        "", "", "", "", "", "", "", -1, 0, 0, 0, "cupermPlanTranspose: failed"])


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_one_png_per_dtype_and_an_overview(tmp_path):
    plot = load_plot()
    a = tmp_path / "ttc57-f64_f32-both.csv"
    b = tmp_path / "square-f32-both.csv"
    write_csv(a, "ttc57", ["f64", "f32"], [2, 3, 4, 5, 6, 2, 3], with_error=True)
    write_csv(b, "square", ["f32"], [2])
    assert plot.main([str(a), str(b), "--out", str(tmp_path / "png")]) == 0
    made = sorted(os.listdir(tmp_path / "png"))
    assert made == ["overview.png", "square-f32-both.png", "ttc57-f64_f32-both-f32.png",
                    "ttc57-f64_f32-both-f64.png"]
    assert all(is_png(tmp_path / "png" / name) for name in made)


def test_rows_with_errors_are_left_out_and_empty_files_refused(tmp_path):
    plot = load_plot()
    path = tmp_path / "r.csv"
    write_csv(path, "ttc57", ["f64"], [2, 3], with_error=True)
    rows = plot.read_rows(str(path))
    assert len(rows) == 4 and all(r["rank"] in (2, 3) for r in rows)
    empty = tmp_path / "empty.csv"
    empty.write_text(HEADER + "\n")
    with pytest.raises(SystemExit, match="no successful rows"):
        plot.read_rows(str(empty))


def test_median():
    plot = load_plot()
    assert plot.median([3, 1, 2]) == 2
    assert plot.median([4, 1, 3, 2]) == 2.5
