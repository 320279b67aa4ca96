"""Readers shared by the A/B scripts of candidate times (compare_candidates_ab.py, and the compare.py of
bench/results/lean-f64-h200 and lean-spread-h200): one build's candidate times
(scripts/gpu-candidates-ab.sh's times-NAME-{base,new}.csv) and cuperm-plan-features --candidates
lines, keyed by (case, candidate)."""
import csv
import gzip
import math
import os


def times_and_copy(path):
    """Each timed candidate's (seconds, the same-run copy's seconds); untimed ones left out."""
    t = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            s, c = float(r["seconds"]), float(r["copy_seconds"])
            if s > 0 and c > 0:
                t[(int(r["case"]), int(r["candidate"]))] = (s, c)
    return t


def times_over_copy(path):
    """Each timed candidate's seconds over the same-run copy's."""
    return {k: s / c for k, (s, c) in times_and_copy(path).items()}


def features(path):
    """cuperm-plan-features --candidates fields per candidate (see tools/model/plan_features.c); PATH.gz
    where PATH itself is absent (results over 40 KB are kept compressed)."""
    f = {}
    opened = open(path) if os.path.exists(path) or not os.path.exists(path + ".gz") else gzip.open(path + ".gz", "rt")
    with opened as lines:
        for line in lines:
            v = line.strip().split(",")
            if len(v) > 20 and v[0].isdigit():
                f[(int(v[0]), int(v[1]))] = v
    return f


def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
