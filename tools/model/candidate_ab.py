"""Readers shared by the per-session A/B scripts of bench/results (lean-f64-h200, lean-spread-h200):
one build's candidate times (scripts/gpu-candidates-ab.sh's times-NAME-{base,new}.csv) and
cuperm-plan-features --candidates lines, keyed by (case, candidate)."""
import csv
import math


def times_over_copy(path):
    """Each timed candidate's seconds over the same-run copy's (untimed ones left out)."""
    t = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            s, c = float(r["seconds"]), float(r["copy_seconds"])
            if s > 0 and c > 0:
                t[(int(r["case"]), int(r["candidate"]))] = s / c
    return t


def features(path):
    """cuperm-plan-features --candidates fields per candidate (see tools/model/plan_features.c)."""
    f = {}
    with open(path) as lines:
        for line in lines:
            v = line.strip().split(",")
            if len(v) > 20 and v[0].isdigit():
                f[(int(v[0]), int(v[1]))] = v
    return f


def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
