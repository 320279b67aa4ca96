"""tools/model/dist_direct_ab.py's reading of bound-output rows (redistribution_bench.c's format)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "model"))
import dist_direct_ab  # noqa: E402

RANDOM = [
    "r00 p410523 S4->S3 bound output              f32  11x133x93x16x16x71            4.9460  2438177280 ps/2/8    10.7899    6.8818   10.4560  1.568   0.0065   0.0199 large ok",
    "r00 p410523 S4->S3 model                     f32  11x133x93x16x16x71            4.9460  2438177280 ps/2/8    10.7000    6.8818   10.4560  1.555   0.0065   0.0199 large ok",
    "r01 p253014 S0->S2 bound output              f32  29x34x83x92x11x28             4.6379  2398925760 bw/2/8     9.1343    6.5596    9.8335  1.393   0.0061   0.0214 large ok",
]
FIXED = [
    "6-D swap01, Shard(5)->Shard(1), bound output f32  16x24x32x12x16x846            3.9919  1995964416 bw/2/8     6.2820    5.5048    8.3389  1.141   0.0069   0.0282 large ok",
    "6-D swap01, Shard(5)->Shard(1), bound output f32  8x6x4x4x2x340                 0.0010      522240 bo/1/1     0.0107    0.0126    0.0158  0.855   0.0029   0.0119 small ok",
]


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_random_rows_give_the_tool_line_and_times(tmp_path):
    rows = dist_direct_ab.bound_rows(write(tmp_path, "r.log", RANDOM))
    assert rows == [("r00", "2 11x133x93x16x16x71 4,1,0,5,2,3 4 3", "ps", 10.7899, 6.8818),
                    ("r01", "2 29x34x83x92x11x28 2,5,3,0,1,4 0 2", "bw", 9.1343, 6.5596)]


def test_fixed_rows_name_their_permutation_and_skip_small_cases(tmp_path):
    rows = dist_direct_ab.bound_rows(write(tmp_path, "f.log", FIXED))
    assert rows == [("swap01", "2 16x24x32x12x16x846 1,0,2,3,4,5 5 1", "bw", 6.282, 5.5048)]


def test_a_missing_log_has_no_rows(tmp_path):
    assert dist_direct_ab.bound_rows(str(tmp_path / "absent.log")) == []
