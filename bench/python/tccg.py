"""The TCCG benchmark's 48 contractions (bench/cases/tccg48.txt) as NumPy-style einsum cases.

The file lists `id C-A-B extents`, modes column-major (first mode stride-1) with one
extent per letter a, b, c, ... in order. A row-major (NumPy/PyTorch) array lists
its dimensions the other way round, so each term is reversed: "abc-bda-dc"
becomes einsum("adb,cd->cba").
"""

import os

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "cases", "tccg48.txt")


def cases(path=CASES, scale=1.0):
    """[(id, subscripts, sizes {letter: extent})]; scale shrinks every extent (at least 2)."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            ident, spec, extents = line.split()
            c, a, b = spec.split("-")
            extents = [int(e) for e in extents.split(",")]
            sizes = {chr(ord("a") + i): max(2, int(round(e * scale))) for i, e in enumerate(extents)}
            out.append((int(ident), "%s,%s->%s" % (a[::-1], b[::-1], c[::-1]), sizes))
    return out


def shapes(subscripts, sizes):
    """The row-major shapes of the two operands."""
    terms = subscripts.split("->")[0].split(",")
    return [tuple(sizes[ch] for ch in t) for t in terms]
