"""Vector row tiles against their scalar form, the rows launch and the plan, from one build's candidate
times (every candidate of a case timed in one run, beside a same-run device copy).

usage: compare.py CALL_DIR SUITE...
  CALL_DIR/ab-times.tgz        times-SUITE-base.csv of cuperm-candidate-times (the call's build)
  CALL_DIR/features-SUITE.txt  cuperm-plan-features --candidates of the same tree on the same cases
Per suite, over the cases whose row tiles have vectors: the vector form's time over the scalar form's
and over the rows launch's (the rule's alternative), and the plans of the rule before (the call's
build: row tiles in place of scalar rows launches less than 75% full, as vectors where they fit) and
after (select.c since: in place of any rows launch at most 75% full, rows of a sector or more),
emulated from the same timings; the whole-dims launch, which the planner weighs first, stays."""
import io
import os
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../tools/model"))
from candidate_ab import features, geomean  # noqa: E402

ROWS, WHOLE_DIMS, ROW_TILES = "2", "3", "4"
MAX_FILL = 0.75


def times(tgz, suite):
    import csv
    with tarfile.open(tgz) as tar:
        rows = csv.DictReader(io.TextIOWrapper(tar.extractfile(f"times-{suite}-base.csv")))
        return {(int(r["case"]), int(r["candidate"])): float(r["seconds"]) / float(r["copy_seconds"])
                for r in rows if float(r["seconds"]) > 0 and float(r["copy_seconds"]) > 0}


def cases(call, suite):
    """Per case with vector row tiles: text and times / copy of the plan, the rows launch (the rules'),
    the vector and scalar row tiles, the fastest candidate; the rows launch's fill and vector."""
    t = times(f"{call}/ab-times.tgz", suite)
    f = features(f"{call}/features-{suite}.txt")
    texts = [l.strip() for l in open(f"{call}/cases-{suite}.txt") if l.strip()]
    out = []
    for c, text in enumerate(texts):
        cand = {i: v for (k, i), v in f.items() if k == c and (c, i) in t}
        rows = [i for i, v in cand.items() if v[16] == ROWS and v[20] == "0"]
        vec = [i for i, v in cand.items() if v[16] == ROW_TILES and v[11] != "0"]
        scalar = [i for i, v in cand.items() if v[16] == ROW_TILES and v[11] == "0"]
        if not rows or not vec or not scalar or 0 not in cand:
            continue
        r = min(rows)  # the rules' launch comes first among the rows launches
        out.append(dict(text=text, plan=t[(c, 0)], rows=t[(c, r)], vec=t[(c, vec[0])], scalar=t[(c, scalar[0])],
                        best=min(t[(c, i)] for i in cand), fill=float(cand[r][7]), rows_vec=cand[r][11] != "0",
                        plan_kind=cand[0][16]))
    return out


def after_rule(c):
    """The plan of the rule after: the vector row tiles in place of a rows launch at most MAX_FILL full
    whose rows are a sector or more; a whole-dims plan stays."""
    elem, n = int(c["text"].split()[0]), int(c["text"].split()[1].split(",")[0])
    if c["plan_kind"] == WHOLE_DIMS or c["fill"] > MAX_FILL or n * elem < 32:
        return c["plan"]
    return c["vec"]


def pct(x):
    return 100.0 / x


def line(name, xs):
    p = [pct(x) for x in xs]
    return f"{name}: median {statistics.median(p):.1f} / worst {min(p):.1f} % of copy"


def main():
    call, suites = sys.argv[1], sys.argv[2:]
    for s in suites:
        cs = cases(call, s)
        if not cs:
            print(f"{s}: no case with vector row tiles")
            continue
        print(f"== {s}: {len(cs)} cases with vector row tiles")
        vs = [c["vec"] / c["scalar"] for c in cs]
        print(f"  vector / scalar row tiles: geomean {geomean(vs):.3f} (best {min(vs):.3f}, worst {max(vs):.3f})")
        for rv in (False, True):
            sub = [c for c in cs if c["rows_vec"] == rv]
            if sub:
                x = [c["vec"] / c["rows"] for c in sub]
                print(f"  vector row tiles / rows launch, {'vector' if rv else 'scalar'} rows ({len(sub)}): geomean "
                      f"{geomean(x):.3f} (best {min(x):.3f}, worst {max(x):.3f})")
        before = [c["plan"] for c in cs]
        after = [after_rule(c) for c in cs]
        ratio = [a / b for a, b in zip(after, before)]
        changed = [r for r in ratio if r != 1.0]
        print("  " + line("plan, rule before", before))
        print("  " + line("plan, rule after", after) + f"; {len(changed)} plans changed, time after / before: "
              f"geomean {geomean(changed) if changed else 1:.3f} (best {min(ratio):.3f}, worst {max(ratio):.3f})")
        # session 55's plans: the same rule before, row tiles scalar (no vector form)
        s55 = [c["scalar"] if c["plan_kind"] == ROW_TILES else c["plan"] for c in cs]
        both = [a / b for a, b in zip(after, s55) if a != b]
        print("  " + line("plan, session 55 (scalar row tiles, rule before)", s55) + f"; {len(both)} plans changed by "
              f"this session, time now / then: geomean {geomean(both) if both else 1:.3f} "
              f"(best {min(both, default=1):.3f}, worst {max(both, default=1):.3f})")
        print("  " + line("fastest candidate", [c["best"] for c in cs]))
        for c in sorted(cs, key=lambda c: c["text"]):
            print(f"    {c['text']:<40} fill {c['fill']:.2f} rows{'(vec)' if c['rows_vec'] else '     '} "
                  f"{pct(c['rows']):5.1f}  row tiles scalar {pct(c['scalar']):5.1f} vector {pct(c['vec']):5.1f}  "
                  f"plan {pct(c['plan']):5.1f}  best {pct(c['best']):5.1f}")


if __name__ == "__main__":
    main()
