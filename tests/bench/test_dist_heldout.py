"""tools/model/dist_heldout.py on rows in cuperm-dist-test --bench's format (redistribution_bench.c)."""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "model"))
import dist_heldout  # noqa: E402

HDR = ("case                                         type global extents                GB/GPU  sent B/GPU  "
       "t/v/k   dist ms    a2a ms  model ms  ratio  host ms a2a host size  check")
ROWS = [
    "r00 p304512 S3->S1 model                     f32  22x31x40x9x57x61           1.0000   498000000 ps/1/1     1.6000    1.4000    1.9000  1.143   0.0030   0.0150 large ok",
    "r00 p304512 S3->S1 measure                   f32  22x31x40x9x57x61           1.0000   498000000 ps/1/4     1.5000    1.4000    1.5000  1.071   0.0030   0.0150 large ok",
    "r00 p304512 S3->S1 bound output              f32  22x31x40x9x57x61           1.0000   498000000 bw/1/1     1.4200    1.4000    1.9000  1.014   0.0030   0.0150 large ok",
    "r00 sweep ps v1 k1                           f32  22x31x40x9x57x61           1.0000   498000000 ps/1/1     1.6000    1.4000    1.9000  1.143   0.0030   0.0150 large ok",
    "r00 sweep ps v1 k4                           f32  22x31x40x9x57x61           1.0000   498000000 ps/1/4     1.5000    1.4000    1.8000  1.071   0.0030   0.0150 large ok",
    "r00 sweep sr v1 k2                           f32  22x31x40x9x57x61           1.0000   498000000 sr/1/2     1.5500    1.4000    1.4000  1.107   0.0030   0.0150 large ok",
    "r00 sweep ps v2 k2                           f32  22x31x40x9x57x61           1.0000   498000000 ps/2/2     1.7000    1.4000    1.8000  1.214   0.0030   0.0150 large WRONG",
    "r01 p543210 S0->S5 model                     f32  12x15x33x20x40x101         1.0000   498000000 ps/2/1     1.8000    1.4000    2.0000  1.286   0.0030   0.0150 large ok",
]


def test_parse_reads_every_row():
    cases = dist_heldout.parse([HDR] + ROWS + ["held-out model: time / same-run exchange, median 1.2"])
    assert set(cases) == {"r00", "r01"}
    assert cases["r00"]["model"] == (1.143, "ps/1/1", True, 1.6, 1.9)
    assert cases["r00"]["bound output"][1] == "bw/1/1"
    assert cases["r00"]["sweep ps v2 k2"][2] is False
    assert cases["r00"]["sweep sr v1 k2"][3:] == (1.55, 1.4)


def test_report_compares_the_model_with_the_fastest_checked_candidate():
    out = io.StringIO()
    bad = dist_heldout.report(dist_heldout.parse(ROWS), out)
    text = out.getvalue()
    assert bad == 1  # the WRONG row is counted, not used
    assert "fastest forced 1.071 (ps v1 k4)" in text
    assert "priced cheapest 1.107 (sr v1 k2)" in text  # the model's lowest price: 1.4 ms
    assert "geomean 1.067" in text  # 1.143 / 1.071
    assert "geomean 1.194, range 1.187-1.200 (2 rows)" in text  # ps: 1.9 / 1.6 and 1.8 / 1.5; the WRONG row left out
    assert "forced sr: the model's price over the measured time, geomean 0.903" in text  # 1.4 / 1.55
    assert "r01:  model 1.286 (ps/2/1)" in text


# tools/model/dist_fit.py: the case lines it prices, the choice over the slowest rank, the gap.
import dist_fit  # noqa: E402


def test_fit_reads_cases_and_scores_the_cheapest_candidate():
    named = dist_fit.case_lines(ROWS)
    assert named == [("r00", "2 22x31x40x9x57x61 3,0,4,5,1,2 3 1"), ("r01", "2 12x15x33x20x40x101 5,4,3,2,1,0 0 5")]
    priced = ("case,rank,transport,variant,stages,model_us\n"
              "0,0,ps,1,4,100\n0,1,ps,1,4,300\n"  # slowest rank 300
              "0,0,sr,1,2,250\n0,1,sr,1,2,200\n")  # slowest rank 250: chosen
    chosen = dist_fit.choices(priced)
    assert chosen == {0: ("sr", "v1", "k2")}
    g = dist_fit.gaps(dist_heldout.parse(ROWS), [n for n, _ in named], chosen)
    assert [round(x, 4) for x in g] == [round(1.55 / 1.5, 4)]  # sr v1 k2 (1.55 ms) over ps v1 k4 (1.5 ms)
