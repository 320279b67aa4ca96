"""From a two-operand einsum on row-major arrays to cuperm's contraction descriptors (pure Python).

cuperm contracts column-major tensors whose dimensions carry int32 mode labels,
D = opD(alpha * sum opA(A) opB(B) + beta * opC(C)), and rejects a label repeated
within a tensor or present in only one of A, B, D. Einsum allows all of these;
each is rewritten into a form cuperm takes, without copying anything:

- Row-major to column-major: an array's dimensions read backwards are the same
  memory as a column-major tensor, so modes (and their strides, in elements)
  are listed in reverse.
- A repeated label within an operand (a diagonal, "ii->i") is one mode whose
  stride is the sum of the repeated dimensions' strides: element (i, i) lies at
  i * (s0 + s1). The same holds for a repeated output label, which then writes
  the diagonal only (the caller zeroes the rest: `zero_fill`).
- A label in only one input and not in the output is summed: the other input
  gets that mode with stride 0 (a broadcast), which makes it a contracted mode
  whose partner is constant along it, i.e. a plain sum.
- An output label in neither input (internal use: gradients of summed
  dimensions) is broadcast: B gets it with stride 0, making it free in B.
- An extent-1 dimension facing a larger one of the same label broadcasts
  (NumPy's rule): it takes the full extent with stride 0.
- Modes of extent 1 everywhere are dropped (they change nothing), and labels
  are renumbered by first appearance so that equal problems share one plan.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ._einsum_parse import Expression, label_sizes

Ints = Tuple[int, ...]


class Operand(NamedTuple):
    """One tensor descriptor in the C API's terms: column-major modes, extents, strides (elements)."""
    modes: Ints
    extents: Ints
    strides: Ints


class ContractionLayout(NamedTuple):
    a: Operand
    b: Operand
    d: Operand           # also C's descriptor (C == D)
    out_shape: Ints      # row-major shape of the result
    zero_fill: bool      # repeated output labels: only the diagonal is written
    empty: bool          # the result has no elements: nothing to run
    zero_sum: bool       # a summed label has extent 0: the result is beta * C, no plan


def contiguous_strides(shape: Sequence[int]) -> Ints:
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(int(extent), 1)
    return tuple(reversed(strides))


def _collapse(labels: Sequence[int], shape: Sequence[int], strides: Sequence[int], sizes: Dict[int, int],
              what: str, output: bool) -> Dict[int, int]:
    """label -> stride, in first-appearance order; repeated labels add their strides."""
    modes: Dict[int, int] = {}
    for axis, (label, extent, stride) in enumerate(zip(labels, shape, strides)):
        stride = int(stride)
        if int(extent) == 1:
            stride = 0  # never moves, or broadcasts against a larger extent of the label
        elif stride < 0:
            raise ValueError("%s has a negative stride (%d) on axis %d: cuperm needs non-negative strides; "
                             "pass a copy instead" % (what, stride, axis))
        elif output and stride == 0:
            raise ValueError("%s has stride 0 on axis %d (extent %d): output elements would overlap"
                             % (what, axis, extent))
        modes[label] = modes.get(label, 0) + stride
    return modes


def build(expr: Expression, shapes: Sequence[Sequence[int]], strides: Sequence[Sequence[int]],
          out_strides: Optional[Sequence[int]] = None,
          extra_sizes: Optional[Dict[int, int]] = None) -> ContractionLayout:
    """The ContractionLayout of a two-operand expression.

    shapes, strides: of A and B, row-major, in elements. out_strides: of the
    output (row-major, elements), None for a new C-contiguous one.
    extra_sizes: sizes of output labels in no operand (internal=True parses).
    """
    if len(expr.inputs) != 2:
        raise ValueError("a contraction has two operands, got %d" % len(expr.inputs))
    la, lb = expr.inputs
    lo = expr.output
    for labels, shape, st, what in ((la, shapes[0], strides[0], "A"), (lb, shapes[1], strides[1], "B")):
        if len(shape) != len(labels) or len(st) != len(labels):
            raise ValueError("operand %s: %d labels for shape %s, strides %s" % (what, len(labels), shape, st))
    sizes = label_sizes(expr, shapes, extra_sizes)
    out_shape = tuple(sizes[x] for x in lo)
    if out_strides is None:
        out_strides = contiguous_strides(out_shape)
    elif len(out_strides) != len(lo):
        raise ValueError("out has %d strides for %d dimensions" % (len(out_strides), len(lo)))
    empty = any(s == 0 for s in out_shape)
    zero_sum = not empty and any(s == 0 for s in sizes.values())
    zero_fill = len(set(lo)) < len(lo)

    ma = _collapse(la, shapes[0], strides[0], sizes, "a", output=False)
    mb = _collapse(lb, shapes[1], strides[1], sizes, "b", output=False)
    md = _collapse(lo, out_shape, out_strides, sizes, "out", output=True)
    for label in list(ma):
        if label not in mb and label not in md:
            mb[label] = 0          # summed in A alone: B is constant along it
    for label in list(mb):
        if label not in ma and label not in md:
            ma[label] = 0          # summed in B alone
    for label in md:
        if label not in ma and label not in mb:
            mb[label] = 0          # in the output alone: broadcast from B

    renumber: Dict[int, int] = {}
    for m in (ma, mb, md):
        for label in m:
            if sizes[label] != 1 and label not in renumber:
                renumber[label] = len(renumber)

    def operand(m: Dict[int, int]) -> Operand:
        kept: List[int] = [label for label in m if sizes[label] != 1]
        kept.reverse()  # column-major: the last row-major dimension is mode 0
        return Operand(tuple(renumber[x] for x in kept), tuple(sizes[x] for x in kept),
                       tuple(m[x] for x in kept))

    return ContractionLayout(operand(ma), operand(mb), operand(md), out_shape, zero_fill, empty, zero_sum)


def byte_span(op: Operand, itemsize: int) -> Tuple[int, int]:
    """(first, last + 1) byte offsets an operand touches, relative to its pointer."""
    hi = sum((e - 1) * s for e, s in zip(op.extents, op.strides))
    return 0, hi * itemsize + itemsize
