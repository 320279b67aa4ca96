"""The cases whose plan two trees' host planners choose differently, by cuperm-plan-features --describe (the
case text left out): what the random draws of bench/results/*/draw_cases.py keep."""
import subprocess


def describe(tool, lines):
    out = subprocess.run([tool, "--describe"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return [o.split("|", 1)[1] if "|" in o else o for o in out]


def changed_cases(lines, before, after):
    """lines ("ELEM EXTENTS PERM") whose plan differs between the planners before and after."""
    return [l for l, x, y in zip(lines, describe(before, lines), describe(after, lines)) if x != y]
