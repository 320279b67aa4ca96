"""tools/bench/contraction_gemm_fit.py: the fit on a sweep, and its score on held-out plans' GEMMs
(cuperm-bench contraction CSVs with the gemm_* columns; older CSVs are skipped). numpy needed."""
import importlib.util
import math
import os

import pytest

pytest.importorskip("numpy")

FIT = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "bench", "contraction_gemm_fit.py")


def load_fit():
    spec = importlib.util.spec_from_file_location("gemm_fit", FIT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sweep_rows(fit, factor):
    """Synthetic sweep: every GEMM takes factor x its base time."""
    rows = []
    for dtype in ("f16", "f32"):
        for m, n, k, b in ((4096, 24, 312, 1), (24, 4096, 72, 16), (256, 256, 2048, 1), (96, 512, 24, 256)):
            for oa, ob in (("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")):
                sec = factor * fit.base_seconds(dtype, m, n, k, b, False, False)
                rows.append({"dtype": dtype, "kind": "strided", "opA": oa, "opB": ob, "m": str(m), "n": str(n),
                             "k": str(k), "batch": str(b), "shareA": "0", "shareB": "0", "ms": str(sec * 1e3)})
    return rows


def write_bench_csv(path, fit, rows, with_gemm_columns=True):
    cols = ["suite", "id", "dtype", "gemm_ms"]
    if with_gemm_columns:
        cols += ["gemm_m", "gemm_n", "gemm_k", "gemm_batch", "gemm_op_first", "gemm_op_second",
                 "gemm_share_first", "gemm_share_second"]
    with open(path, "w") as f:
        f.write("# a cuperm-bench header line\n" + ",".join(cols) + "\n")
        for i, (dtype, m, n, k, b, slow) in enumerate(rows):
            ms = slow * fit.base_seconds(dtype if dtype in fit.PEAK else "f32", m, n, k, b, False, False) * 1e3
            vals = ["tccg48", str(i + 1), dtype, repr(ms)]
            if with_gemm_columns:
                vals += [str(m), str(n), str(k), str(b), "N", "T", "0", "0"]
            f.write(",".join(vals) + "\n")


def test_heldout_scores_the_fitted_model(tmp_path):
    fit = load_fit()
    rows = sweep_rows(fit, 2.0)
    w, count, before, after = fit.fit(rows, "f32")
    assert count == 16 and before == pytest.approx(math.log(2.0)) and after < 0.05
    # Held out: a GEMM of a swept shape (x2, as the sweep) and one 8x slower (a regime it never saw).
    path = tmp_path / "tccg48-f32.csv"
    write_bench_csv(path, fit, [("f32", 4096, 24, 312, 1, 2.0), ("f32", 110, 7, 1 << 20, 14, 16.0),
                                ("bf16", 64, 64, 64, 1, 1.0)])
    held = fit.heldout_rows([str(path)])
    assert len(held) == 2  # bf16 is not a fitted precision
    n, base_rms, model_rms, worst = fit.score(held, "f32", w)
    assert n == 2
    assert base_rms == pytest.approx(math.sqrt((math.log(2.0) ** 2 + math.log(16.0) ** 2) / 2))
    # With the factor: the fitted weights, clamped to [-0.7, 2.3] as gemm_cost.c clamps them.
    errs = {}
    for d, oa, ob, m, n, k, b, sa, sb, sec, label in held:
        e = sum(wi * xi for wi, xi in zip(w, fit.features(oa, ob, m, n, k, b, False, False)))
        errs[label] = math.log(sec / (fit.base_seconds(d, m, n, k, b, sa, sb) * math.exp(min(max(e, -0.7), 2.3))))
    assert model_rms == pytest.approx(math.sqrt(sum(v * v for v in errs.values()) / 2))
    assert worst[0][2] == max(errs, key=lambda label: abs(errs[label]))
    assert abs(errs[held[0][-1]]) < 0.05  # the GEMM like the sweep's is predicted
    assert fit.score(held, "f16", w) is None


def test_csv_without_gemm_columns_is_skipped(tmp_path, capsys):
    fit = load_fit()
    path = tmp_path / "old.csv"
    write_bench_csv(path, fit, [("f32", 512, 24, 312, 4, 2.0)], with_gemm_columns=False)
    assert fit.heldout_rows([str(path)]) == []
    assert "no gemm_* columns" in capsys.readouterr().out
