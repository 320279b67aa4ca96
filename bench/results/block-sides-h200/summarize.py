"""The planner's launch before and after the block-sides change, as % of the same-run copy, per case.

    python3 summarize.py            (from this folder)

call2-ab: cuperm-candidate-times of the base tree (65c8828) and of the tree with the tiles kept within a
block (no whole-dims rule yet); the final tree's plan for each case (call2-ab/final-plans-*.txt, made by
cuperm-plan-features --describe) is the new run's first candidate unless it is whole-dims, then the new
run's whole-dims candidate (kind 3 in call2-ab/features-*-new.csv, cuperm-plan-features --candidates of
that tree). call3-ab16: base and the final tree, whose first candidate is its plan."""
import csv
import statistics


def times(path):
    by = {}
    for r in list(csv.reader(open(path)))[1:]:
        by.setdefault(int(r[0]), []).append((int(r[1]), float(r[3]) / float(r[2])))  # % of copy
    return by


def features(path):
    return {(int(f[0]), int(f[1])): f for f in (l.strip().split(',') for l in open(path))}


rows, seen = [], set()
for suite in ['batched2d', 'shortgroup']:
    cases = [l.strip() for l in open(f'{suite}.txt')]
    base, new = times(f'call2-ab/times-{suite}-base.csv'), times(f'call2-ab/times-{suite}-new.csv')
    feat = features(f'call2-ab/features-{suite}-new.csv')
    final = [l.split()[0] for l in open(f'call2-ab/final-plans-{suite}.txt')]
    for c, case in enumerate(cases):
        if case in seen:
            continue
        seen.add(case)
        pick = [x for x in new[c] if feat[(c, x[0])][16] == '3'][0] if final[c].startswith('whole-dims') else new[c][0]
        best = max(x[1] for x in base[c] + new[c])
        rows.append((case, base[c][0][1], pick[1], best, final[c]))
cases = [l.strip() for l in open('wide16.txt')]
base, new = times('call3-ab16/times-wide16-base.csv'), times('call3-ab16/times-wide16-new.csv')
for c, case in enumerate(cases):
    if case not in seen:
        rows.append((case, base[c][0][1], new[c][0][1], max(x[1] for x in base[c] + new[c]), ''))
print('| case (ELEM EXTENTS PERM) | before | after | best candidate | time after / before |')
print('| --- | ---: | ---: | ---: | ---: |')
for case, b, a, best, kind in rows:
    print(f'| {case} | {100 * b:.1f} | {100 * a:.1f} | {100 * best:.1f} | {b / a:.2f} |')
ratios = [b / a for _, b, a, _, _ in rows]
print(f'\n{len(rows)} cases: time after / before, median {statistics.median(ratios):.2f}, '
      f'best {min(ratios):.2f}, worst {max(ratios):.2f}; after within 5% of the best candidate: '
      f'{sum(a >= 0.95 * best for _, _, a, best, _ in rows)} of {len(rows)}')
