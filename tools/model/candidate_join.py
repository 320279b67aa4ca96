"""Joins cuperm-candidate-times output with cuperm-plan-features' description of the same cases.

join(tool, lines, times) -> (features, descriptions, seconds):
  features[case][candidate]: the --candidates fields (a list of strings, in its column order),
  descriptions[case]: the --describe line of the planned launch,
  seconds[case][candidate]: the timed seconds (times: a file object of cuperm-candidate-times CSV).
The tool must be built from the tree that timed the cases: the candidate numbering follows its
planner. Cases whose feature and time counts differ were timed by another enumeration (or cut)."""
import collections
import csv
import subprocess


def run(tool, flag, lines):
    """cuperm-plan-features' output for the case lines with flag (--candidates, --describe, ...)."""
    return subprocess.run([tool, flag], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          check=True).stdout


def join(tool, lines, times):
    features = collections.defaultdict(dict)
    for line in run(tool, "--candidates", lines).splitlines():
        v = line.split(",")
        if v[0].isdigit():
            features[int(v[0])][int(v[1])] = v
    seconds = collections.defaultdict(dict)
    for r in csv.DictReader(times):
        seconds[int(r["case"])][int(r["candidate"])] = float(r["seconds"])
    return features, run(tool, "--describe", lines).splitlines(), seconds
