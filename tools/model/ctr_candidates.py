#!/usr/bin/env python3
"""What the contraction model's choices cost, from every candidate timed on a GPU, and a refit of
its GEMM layout factor to the GEMMs plans make.

    python3 tools/model/ctr_candidates.py CSV [CSV ...]                      # report
    python3 tools/model/ctr_candidates.py --fit TRAIN.csv[,...] --heldout CSV[,...] [--only I,J] [--header OUT.h]
    python3 tools/model/ctr_candidates.py --steps CSV [CSV ...]                 # each step against its price
    python3 tools/model/ctr_candidates.py --replay HEADER.h CSV [CSV ...]       # another header's f16 weights

CSVs come from cuperm-ctr-candidate-times (tools/model/ctr_candidate_times.c, run by
scripts/gpu-ctr-candidates.sh): per case the model's 16 cheapest TTGT layouts and the GETT kernels
that can run it, each timed whole (measured_us) and, TTGT, its GEMM step alone (gemm_us), with the
model's prices (price_us, pred_*_us) and the GEMM's shape.

Report, per file: model planning's choice against the fastest candidate (geomean of best / chosen
time, cases more than 5% off, the worst), where the fastest sits in the model's ranking, and the
GEMM model's rms log error on the candidates' own GEMMs.

--steps (files with the steps column): each TTGT candidate's input transposes, output transpose and
K-padding zeroing, each run alone, against the model's price of it (log of measured / price: mean,
median, worst), the transposes split by whether the layout is padded.

--replay: model planning replayed on the files with the current f16 weights and with HEADER.h's (say, a
fit of tools/bench/contraction_gemm_fit.py to a new sweep written elsewhere): GEMM rms log error and
choices, as --fit reports them for its held-out files.

--fit: refits the layout-factor weights (cuperm_ctr_gemm_features, src/plan/contraction/
gemm_cost.c) for 16-bit inputs (--only: just those, by index, the others kept) to log(gemm_us / base) of the TRAIN files' single-call TTGT
candidates, base being the library's own base (pred_gemm_us / the current factor, so the device's
bandwidth and SM count are in it). It then replays model planning on the HELDOUT files with the
old and the new weights -- each TTGT candidate repriced, GETT kept at its price -- and reports
which candidate each picks and that candidate's measured time. Only the timed candidates can be
picked: a new factor that would rank an untimed layout first is not seen (the GPU run of the new
tree is the check). --header writes the weights as src/plan/contraction/gemm_fit.h's f16 row with
the fp32 row kept.
"""
import csv
import gzip
import math
import os
import re
import sys

import numpy as np

FIT_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "plan", "contraction",
                          "gemm_fit.h")
CALL_SECONDS = 8e-6  # CTR_GEMM_CALL_SECONDS


def load(paths):
    rows = []
    for path in paths:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            name = path.split("/")[-1]
            dtype = re.search(r"-(f16|bf16|f32|f64|c32|c64)", name)
            for r in csv.DictReader(f):
                r["file"] = name
                r["dtype"] = dtype.group(1) if dtype else "f16"
                rows.append(r)
    return rows


def by_case(rows):
    cases = {}
    for r in rows:
        cases.setdefault((r["file"], int(r["id"])), []).append(r)
    return cases


def num(r, key):
    v = r.get(key, "")
    return float(v) if v not in ("", None) else None


def current_weights(header=FIT_HEADER):
    text = open(header).read()
    rows = re.findall(r"\{([-0-9., ]+)\}, /\* (f16|f32) \*/", text)
    return {name: np.array([float(x) for x in body.split(",")]) for body, name in rows}


def skinny(x):
    return math.log2(128.0 / min(max(x, 1), 128))


def features(r):
    """cuperm_ctr_gemm_features() of a TTGT candidate's GEMM."""
    tf, ts = float(r["op_first"] != "N"), float(r["op_second"] != "N")
    m, n, k, b = (int(r[c]) for c in ("m", "n", "k", "batch"))
    ptr = int(r["pointers"])
    sm, sn, sk = skinny(m), skinny(n), skinny(k)
    lb = math.log2(max(b, 1))
    shared = float(not ptr and (int(r["first_shared"]) or int(r["second_shared"])))
    mis = float(misaligned(r))
    gflop = 2e-9 * m * n * k * b
    return np.array([1.0, tf, ts, tf * ts, sm, sn, sk, tf * sm, tf * sn, ts * sm, ts * sn, 0.0 if ptr else lb, shared,
                     float(ptr), lb if ptr else 0.0, lb * max(sm, sn), max(0.0, 20.0 - math.log2(m * n)),
                     mis, mis * max(0.0, math.log2(gflop))])


ELEM = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "c32": 8, "c64": 16}


def misaligned(r):
    """cuperm_ctr_gemm_shape_t.misaligned (layout.c: gemm_shape), real types of one size."""
    e = ELEM[r.get("dtype", "f16")]
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    rows = [m if r["op_first"] == "N" else k, k if r["op_second"] == "N" else n, m]  # the stored columns' heights
    lds = rows + [int(r["ld_first"]), int(r["ld_second"]), int(r["ld_d"])]
    if int(r["batch"]) > 1:
        lds += [int(r["batch_stride_first"]), int(r["batch_stride_second"]), int(r["batch_stride_d"])]
    return any(x * e % 16 for x in lds)


def factor(w, x):
    return math.exp(min(max(float(np.dot(w, x)), -0.7), 2.3))


def gemm_rows(rows):
    """Single-call TTGT candidates with a timed GEMM: (row, features, base seconds). The base is the
    library's price over the factor it applied: its gemm_factor column, or for files from before that
    column, the current weights without the misalignment term (which those libraries did not have)."""
    out = []
    for r in rows:
        if r["kind"] != "ttgt" or int(r["calls"]) != 1 or not (num(r, "gemm_us") or 0) > 0:
            continue
        x = features(r)
        out.append((r, x, base_of(r, x)))
    return out


def data_weights():
    """The f16 weights without the misalignment term (what libraries before gemm_factor had)."""
    if not hasattr(data_weights, "w"):
        data_weights.w = current_weights()["f16"].copy()
        data_weights.w[17:] = 0.0
    return data_weights.w


def base_of(r, x):
    w = data_weights()
    return num(r, "pred_gemm_us") * 1e-6 / (num(r, "gemm_factor") or factor(w, x))


def choose(rows, gemm_price):
    """Model planning over timed candidates: the cheapest price, TTGT repriced by gemm_price(row)."""
    best, price = None, math.inf
    for r in rows:
        if num(r, "measured_us") is None:
            continue
        p = num(r, "price_us") * 1e-6
        if r["kind"] == "ttgt":
            g = gemm_price(r)
            if g is not None:
                p = (num(r, "pred_in_us") + num(r, "pred_out_us")) * 1e-6 + g
        if p < price:
            best, price = r, p
    return best


def report(paths):
    for path in paths:
        rows = load([path])
        cases = by_case(rows)
        ratios, off, where = [], [], []
        for key, cs in sorted(cases.items()):
            timed = [r for r in cs if num(r, "measured_us")]
            chosen = [r for r in timed if r["model_choice"] == "1"]
            if not timed or not chosen:
                continue
            best = min(timed, key=lambda r: num(r, "measured_us"))
            q = num(best, "measured_us") / num(chosen[0], "measured_us")
            ratios.append(q)
            if best["kind"] == "ttgt":
                where.append(int(best["cand"]))
            if q < 1 / 1.05:
                off.append((q, key[1], chosen[0], best))
        g = math.exp(sum(math.log(q) for q in ratios) / len(ratios)) if ratios else float("nan")
        print(f"{path}: {len(ratios)} cases; fastest candidate / model choice: geomean {g:.3f}, "
              f"{len(off)} cases more than 5% off")
        if where:
            print(f"  fastest TTGT candidate's rank in the model's list: 0 in {where.count(0)}, 1-7 in "
                  f"{sum(1 for x in where if 1 <= x < 8)}, 8+ in {sum(1 for x in where if x >= 8)}")
        for q, cid, c, b in sorted(off, key=lambda t: t[0])[:8]:
            print(f"  case {cid} {c['spec']}: chosen {c['kind']} #{c['cand']} {num(c, 'measured_us'):.1f} us "
                  f"(priced {num(c, 'price_us'):.1f}), fastest {b['kind']} #{b['cand']} {num(b, 'measured_us'):.1f} us "
                  f"(priced {num(b, 'price_us'):.1f}): {b['description'][:150]}")
        gr = gemm_rows(rows)
        if gr:
            e = [math.log(num(r, "gemm_us") / num(r, "pred_gemm_us")) for r, _, _ in gr]
            print(f"  GEMM model on {len(e)} candidates' GEMMs: rms log error {math.sqrt(np.mean(np.square(e))):.3f}, "
                  f"mean {np.mean(e):+.3f}")


def replay(paths, label, gemm_price):
    """Geomean of the replayed choice's measured time over the fastest's, and the cases > 5% off."""
    rows = load(paths)
    qs, off = [], 0
    for key, cs in sorted(by_case(rows).items()):
        timed = [r for r in cs if num(r, "measured_us")]
        if not timed:
            continue
        best = min(num(r, "measured_us") for r in timed)
        c = choose(timed, gemm_price)
        q = best / num(c, "measured_us")
        qs.append(q)
        off += q < 1 / 1.05
    g = math.exp(sum(math.log(q) for q in qs) / len(qs))
    print(f"  {label}: {len(qs)} cases, fastest / chosen geomean {g:.4f}, {off} more than 5% off")
    return g


def price_with(weights):
    def price(r):
        if int(r["calls"]) != 1:
            return None  # looped calls: kept at their price
        x = features(r)
        return base_of(r, x) * factor(weights, x)
    return price


def compare(name, paths, weight_sets):
    """GEMM rms log error and replayed choices on paths, per (label, f16 weights)."""
    rms = lambda v: math.sqrt(float(np.mean(np.square(v))))
    print(f"{name}: {', '.join(p.split('/')[-1] for p in paths)}")
    gr_h = gemm_rows(load(paths))
    for label, weights in weight_sets:
        e = [math.log(num(r, "gemm_us") * 1e-6 / (base * factor(weights, x))) for r, x, base in gr_h]
        print(f"  {label}: GEMM rms log error {rms(e):.3f} on {len(e)} GEMMs")
        replay(paths, label, price_with(weights))


def fit(train, heldout, header, ridge, only):
    """Refits the f16 weights (only: those indices, the others kept) to the TRAIN files' GEMMs."""
    w_old = current_weights()
    gr = gemm_rows(load(train))
    X = np.array([x for _, x, _ in gr])
    y = np.array([math.log(num(r, "gemm_us") * 1e-6 / base) for r, _, base in gr])
    free = only if only else list(range(X.shape[1]))
    kept = [i for i in range(X.shape[1]) if i not in free]
    w = w_old["f16"].copy()
    Xf, yf = X[:, free], y - X[:, kept] @ w_old["f16"][kept]
    w[free] = np.linalg.solve(Xf.T @ Xf + ridge * np.eye(len(free)), Xf.T @ yf)
    print("refitted weights: " + ", ".join(f"[{i}] {w[i]:+.4f}" for i in free))
    rms = lambda v: math.sqrt(float(np.mean(np.square(v))))
    print(f"fit on {len(y)} GEMMs of {', '.join(p.split('/')[-1] for p in train)}: rms log error "
          f"{rms(y - X @ w_old['f16']):.3f} with the current factor, {rms(y - X @ w):.3f} refitted")

    for name, paths in (("training", train), ("held out", heldout)):
        if paths:
            compare(name, paths, (("current", w_old["f16"]), ("refitted", w)))
    if header:
        text = open(FIT_HEADER).read()
        row = "    {" + ", ".join("%.5f" % v for v in w) + "}, /* f16 */"
        text = re.sub(r"    \{[-0-9., ]+\}, /\* f16 \*/", row, text)
        open(header, "w").write(text)
        print(f"wrote {header}")
    return w


def step_times(r):
    """The steps column: {step name: measured microseconds}."""
    out = {}
    for item in filter(None, (r.get("steps") or "").split(";")):
        name, us = item.rsplit("=", 1)
        out[name] = float(us)
    return out


def steps_report(paths):
    groups = {}
    for r in load(paths):
        if r["kind"] != "ttgt" or not r.get("steps"):
            continue
        padded = "padded" if "padded from" in r["description"] else "dense"
        st = step_times(r)
        parts = [("transpose A", num(r, "pred_a_us"), "inputs, " + padded),
                 ("transpose B", num(r, "pred_b_us"), "inputs, " + padded),
                 ("transpose W", num(r, "pred_out_us"), "output, " + padded)]
        for prefix, price, group in parts:
            got = [us for name, us in st.items() if name.startswith(prefix)]
            if got and price and price > 3:
                groups.setdefault(group, []).append(math.log(got[0] / price))
        zero = sum(us for name, us in st.items() if name.startswith("zero"))
        if zero and num(r, "pred_zero_us"):
            groups.setdefault("K-padding zeroing (" + r["zero_kinds"] + ")", []).append(
                math.log(zero / num(r, "pred_zero_us")))
    for group, e in sorted(groups.items()):
        print(f"{group}: {len(e)} steps, log(measured / price) mean {np.mean(e):+.3f}, median {np.median(e):+.3f}, "
              f"worst {max(e):+.3f}")


def main(argv):
    if "--steps" in argv:
        steps_report([a for a in argv[1:] if a != "--steps"])
        return 0
    if "--replay" in argv:
        at = argv.index("--replay")
        header, paths = argv[at + 1], argv[1:at] + argv[at + 2:]
        for path in paths:
            compare("replayed", [path], (("current", current_weights()["f16"]), (header, current_weights(header)["f16"])))
        return 0
    if "--fit" not in argv:
        if len(argv) < 2:
            print(__doc__)
            return 2
        report(argv[1:])
        return 0
    arg = lambda name, default=None: argv[argv.index(name) + 1] if name in argv else default
    train = arg("--fit").split(",")
    heldout = arg("--heldout", "").split(",") if arg("--heldout") else []
    only = [int(i) for i in arg("--only").split(",")] if arg("--only") else None
    fit(train, heldout, arg("--header"), float(arg("--ridge", "0.01")), only)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
