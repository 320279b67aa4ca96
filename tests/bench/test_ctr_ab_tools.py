"""tools/bench/compare_ctr_ab.py (two contraction libraries' cuperm-bench CSVs, per case) and
tools/model/ctr_candidates.py --replay (model planning replayed with another header's GEMM weights) on
rows in the tools' formats. numpy needed for the replay."""
import csv
import gzip
import importlib.util
import math
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_bench(path, times, gemm=1.0):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# NVIDIA stand-in\n# command: cuperm-bench tccg48 ...\nid,time_ms,plain_gemm_ms,plan\n")
        for i, t in enumerate(times, 1):
            f.write(f"{i},{t},{gemm},plan {i}\n")


def test_compare_takes_each_library_best_round(tmp_path, capsys):
    ab = load("tools/bench/compare_ctr_ab.py", "compare_ctr_ab")
    # old: 2.0 ms everywhere (round 2 slower); new: half, except case 3 unchanged
    write_bench(str(tmp_path / "old-r1" / "tccg48-f16.csv"), [2.0, 2.0, 2.0])
    write_bench(str(tmp_path / "old-r2" / "tccg48-f16.csv"), [2.5, 2.5, 2.5])
    write_bench(str(tmp_path / "new-r1" / "tccg48-f16.csv"), [1.0, 1.0, 2.0])
    assert ab.main(["compare_ctr_ab.py", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    want = math.exp((2 * math.log(0.5) + math.log(1.0)) / 3)
    assert f"3 cases; new / old time geomean {want:.4f}" in out
    assert "case 1: 2.0000 -> 1.0000 ms (0.500)" in out and "case 3" not in out
    # GEMM / time: old 1/2 everywhere; new 1, 1, 1/2
    assert f"GEMM / time geomean old {0.5:.4f}, new {math.exp(math.log(0.5) / 3):.4f}" in out


def test_compare_needs_a_directory(capsys):
    ab = load("tools/bench/compare_ctr_ab.py", "compare_ctr_ab")
    assert ab.main(["compare_ctr_ab.py"]) == 2


COLUMNS = ["id", "spec", "cand", "kind", "model_choice", "price_us", "pred_in_us", "pred_out_us", "pred_gemm_us",
           "m", "n", "k", "batch", "calls", "op_first", "op_second", "first_shared", "second_shared", "pointers",
           "ld_first", "ld_second", "ld_d", "batch_stride_first", "batch_stride_second", "batch_stride_d",
           "measured_us", "gemm_us", "gemm_factor"]


def candidate(cid, cand, op_second, gemm_price, measured, choice):
    """A single-call TTGT candidate of m = n = k = 256 with no transposes: its price is its GEMM's."""
    return {"id": cid, "spec": "ab-ac-cb", "cand": cand, "kind": "ttgt", "model_choice": choice,
            "price_us": gemm_price, "pred_in_us": 0, "pred_out_us": 0, "pred_gemm_us": gemm_price, "m": 256,
            "n": 256, "k": 256, "batch": 1, "calls": 1, "op_first": "N", "op_second": op_second, "first_shared": 0,
            "second_shared": 0, "pointers": 0, "ld_first": 256, "ld_second": 256, "ld_d": 256,
            "batch_stride_first": 0, "batch_stride_second": 0, "batch_stride_d": 0, "measured_us": measured,
            "gemm_us": measured, "gemm_factor": 1.0}


def test_replay_reprices_with_the_other_header(tmp_path, capsys):
    pytest.importorskip("numpy")
    cc = load("tools/model/ctr_candidates.py", "ctr_candidates")
    path = tmp_path / "tccg48-f16.csv.gz"
    with gzip.open(path, "wt") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        # NN priced cheaper but slower; NT priced a little dearer but twice as fast
        w.writerow(candidate(1, 0, "N", 10.0, 20.0, 1))
        w.writerow(candidate(1, 1, "T", 11.0, 10.0, 0))
    # the current header, with the "second T" weight made strongly negative: NT becomes the cheaper
    cur = cc.current_weights()["f16"]
    header = tmp_path / "other.h"
    other = list(cur)
    other[2] -= 1.0
    text = open(cc.FIT_HEADER).read()
    row = "    {" + ", ".join("%.5f" % v for v in other) + "}, /* f16 */"
    header.write_text(re.sub(r"    \{[-0-9., ]+\}, /\* f16 \*/", row, text))
    assert cc.main(["ctr_candidates.py", "--replay", str(header), str(path)]) == 0
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if "fastest / chosen" in l]
    assert len(lines) == 2
    assert "geomean 0.5000" in lines[0]  # the current weights keep NN (20 us; the fastest took 10)
    assert "geomean 1.0000" in lines[1]  # the other header picks NT
