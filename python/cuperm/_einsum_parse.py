"""Einsum subscripts, NumPy's grammar, parsed into integer labels (pure Python, no GPU).

    "ij,jk->ik"      explicit output
    "ij,jk"          implicit output: labels seen once, in alphabetical order
    "...ij,...jk"    ellipsis: the leading dimensions, broadcast NumPy-style

Letters are labelled by their code point; the dimensions an ellipsis stands for
get labels from ELLIPSIS_BASE up, numbered from the left of the widest ellipsis
(so operands with fewer ellipsis dimensions take the rightmost ones, as NumPy
aligns them). Repeated labels within an operand (diagonals) are kept; repeated
output labels and output labels in no operand are refused, as NumPy does, unless
internal=True (gradients use both: the gradient of a diagonal is one, the
gradient of a summed dimension is broadcast; their sizes are given apart).
An explicit output without '...' sums the ellipsis dimensions, as in NumPy.
"""

from __future__ import annotations

import string
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

Labels = Tuple[int, ...]
ELLIPSIS_BASE = 1 << 20
LETTERS = string.ascii_letters  # the alphabet of canonical equations


class Expression(NamedTuple):
    """Parsed subscripts: one label tuple per operand, and the output's."""
    inputs: Tuple[Labels, ...]
    output: Labels


def _split_term(term: str, where: str) -> Tuple[List[int], bool, int]:
    """(labels, has_ellipsis, position of the ellipsis among the labels)."""
    if term.count("...") > 1:
        raise ValueError("einsum: %s has more than one ellipsis ('...')" % where)
    ell = term.find("...")
    body = term.replace("...", "")
    for ch in body:
        if not ch.isalpha():
            raise ValueError("einsum: %s contains %r; subscripts are letters and '...'" % (where, ch))
    labels = [ord(ch) for ch in body]
    return labels, ell >= 0, (ell if ell >= 0 else -1)


def parse(subscripts: str, ndims: Sequence[int], *, internal: bool = False) -> Expression:
    """The Expression of `subscripts` for operands of the given numbers of dimensions."""
    if not isinstance(subscripts, str):
        raise TypeError("einsum: subscripts must be a str, got %s" % type(subscripts).__name__)
    s = subscripts.replace(" ", "")
    if s.count("->") > 1:
        raise ValueError("einsum: subscripts %r have more than one '->'" % subscripts)
    explicit = "->" in s
    lhs, rhs = s.split("->") if explicit else (s, "")
    if "-" in lhs or ">" in lhs or "-" in rhs or ">" in rhs:
        raise ValueError("einsum: subscripts %r have a stray '-' or '>'" % subscripts)
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise ValueError("einsum: subscripts %r name %d operand(s) but %d were given"
                         % (subscripts, len(terms), len(ndims)))
    parsed = [_split_term(t, "operand %d's subscripts %r" % (i, t)) for i, t in enumerate(terms)]
    widths = []
    for i, ((labels, has_ell, _), nd) in enumerate(zip(parsed, ndims)):
        width = nd - len(labels)
        if width < 0 or (width > 0 and not has_ell):
            raise ValueError("einsum: operand %d has %d dimension(s) but its subscripts %r name %d"
                             % (i, nd, terms[i], len(labels)))
        widths.append(width if has_ell else 0)
    ell_width = max(widths, default=0)
    ell_labels = tuple(ELLIPSIS_BASE + k for k in range(ell_width))

    inputs = []
    for (labels, has_ell, pos), width in zip(parsed, widths):
        if has_ell:
            labels = labels[:pos] + list(ell_labels[ell_width - width:]) + labels[pos:]
        inputs.append(tuple(labels))

    if explicit:
        out_labels, out_ell, out_pos = _split_term(rhs, "the output subscripts %r" % rhs)
        if out_ell:
            out_labels = out_labels[:out_pos] + list(ell_labels) + out_labels[out_pos:]
        seen = set()
        for label in out_labels:
            if label in seen and not internal:
                raise ValueError("einsum: output subscript %r appears more than once" % label_name(label))
            seen.add(label)
        known = {label for labels in inputs for label in labels}
        for label in out_labels:
            if label not in known and not internal:
                raise ValueError("einsum: output subscript %r appears in no operand" % label_name(label))
        output = tuple(out_labels)
    else:
        counts: Dict[int, int] = {}
        for labels in inputs:
            for label in labels:
                counts[label] = counts.get(label, 0) + 1
        once = sorted(label for label, n in counts.items() if n == 1 and label < ELLIPSIS_BASE)
        output = ell_labels + tuple(once)
    return Expression(tuple(inputs), output)


def label_name(label: int) -> str:
    return chr(label) if label < ELLIPSIS_BASE else "...[%d]" % (label - ELLIPSIS_BASE)


def output_shape(expr: Expression, shapes: Sequence[Sequence[int]],
                 extra_sizes: Optional[Dict[int, int]] = None) -> Tuple[int, ...]:
    """The result's shape: each output label's size over the operands (extent-1 broadcasts)."""
    return tuple(label_sizes(expr, shapes, extra_sizes)[label] for label in expr.output)


def label_sizes(expr: Expression, shapes: Sequence[Sequence[int]],
                extra_sizes: Optional[Dict[int, int]] = None) -> Dict[int, int]:
    """Every label's size. Extents of one label must agree, except that 1 broadcasts
    (not within one operand: a diagonal needs equal extents)."""
    sizes: Dict[int, int] = dict(extra_sizes or {})
    for i, (labels, shape) in enumerate(zip(expr.inputs, shapes)):
        local: Dict[int, int] = {}
        for label, extent in zip(labels, shape):
            extent = int(extent)
            if local.setdefault(label, extent) != extent:
                raise ValueError("einsum: operand %d repeats subscript %r with extents %d and %d (a diagonal "
                                 "needs equal extents)" % (i, label_name(label), local[label], extent))
            known = sizes.get(label)
            if known is None or known == 1:
                sizes[label] = extent
            elif extent != 1 and extent != known:
                raise ValueError("einsum: subscript %r has extent %d in operand %d but %d elsewhere"
                                 % (label_name(label), extent, i, known))
    missing = [label for label in expr.output if label not in sizes]
    if missing:
        raise ValueError("einsum: output subscript(s) %s appear in no operand and have no given size"
                         % ", ".join(repr(label_name(x)) for x in missing))
    return sizes


def canonical(expr: Expression) -> Tuple[str, Dict[int, str]]:
    """An equivalent explicit equation in letters only (ellipses spelled out), and the letter map."""
    letters: Dict[int, str] = {}
    for labels in expr.inputs + (expr.output,):
        for label in labels:
            if label not in letters:
                if label < ELLIPSIS_BASE:
                    letters[label] = chr(label)
    free = (ch for ch in LETTERS if ord(ch) not in letters)
    for labels in expr.inputs + (expr.output,):
        for label in labels:
            if label not in letters:
                try:
                    letters[label] = next(free)
                except StopIteration:
                    raise ValueError("einsum: more than %d distinct subscripts" % len(LETTERS)) from None
    spell = lambda labels: "".join(letters[x] for x in labels)  # noqa: E731
    return ",".join(spell(t) for t in expr.inputs) + "->" + spell(expr.output), letters


def fresh_labels(used: Sequence[int], count: int) -> List[int]:
    """count letters (as labels) not in used."""
    taken = set(used)
    out = [ord(ch) for ch in LETTERS if ord(ch) not in taken][:count]
    if len(out) < count:
        raise ValueError("einsum: more than %d distinct subscripts" % len(LETTERS))
    return out


def format_expression(expr: Expression) -> str:
    """Labels back to a subscripts string (letters only; ellipsis labels must have been renamed)."""
    return ",".join("".join(map(chr, t)) for t in expr.inputs) + "->" + "".join(map(chr, expr.output))
