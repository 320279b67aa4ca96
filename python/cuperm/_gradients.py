"""The backward expressions of a two-operand contraction (pure Python, no GPU).

For D = alpha * einsum("A,B->O", a, b), with G = dL/dD:

    dL/da = conj(alpha) * einsum("O,B->A'", G, conj(b))
    dL/db = conj(alpha) * einsum("O,A->B'", G, conj(a))

where A' is A with two changes that einsum semantics make necessary:
- a dimension of a that was broadcast (extent 1 against a larger extent of
  its label) gets a fresh label of size 1: the gradient sums over the label;
- a label of A in neither O nor B (summed in a alone) is an output label in no
  operand: the gradient is broadcast along it, with its size given apart.
A repeated label of A (a diagonal) stays repeated in A': the gradient is zero
off the diagonal. Equations come back in letters, with their extra sizes as
flat [label, size, ...] lists, ready for the internal contraction.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Sequence, Tuple

from ._einsum_parse import canonical, fresh_labels, label_sizes, parse


class Backward(NamedTuple):
    eq_a: str
    sizes_a: List[int]
    eq_b: str
    sizes_b: List[int]


def equations(subscripts: str, shape_a: Sequence[int], shape_b: Sequence[int],
              sizes: Sequence[int] = ()) -> Backward:
    extra = dict(zip(sizes[::2], sizes[1::2]))
    expr = parse(subscripts, (len(shape_a), len(shape_b)), internal=True)
    all_sizes = label_sizes(expr, (shape_a, shape_b), extra)
    _, letters = canonical(expr)
    spelled = {letters[k]: v for k, v in all_sizes.items()}
    la = "".join(letters[x] for x in expr.inputs[0])
    lb = "".join(letters[x] for x in expr.inputs[1])
    lo = "".join(letters[x] for x in expr.output)
    eq_a, sizes_a = _one(la, shape_a, lb, lo, spelled)
    eq_b, sizes_b = _one(lb, shape_b, la, lo, spelled)
    return Backward(eq_a, sizes_a, eq_b, sizes_b)


def _one(mine: str, shape: Sequence[int], other: str, out: str, sizes: Dict[str, int]) -> Tuple[str, List[int]]:
    used = [ord(c) for c in set(mine + other + out)]
    fresh = iter(chr(x) for x in fresh_labels(used, sum(1 for c, e in zip(mine, shape) if e == 1 and sizes[c] != 1)))
    target, extra = [], {}
    for ch, extent in zip(mine, shape):
        if int(extent) == 1 and sizes[ch] != 1:
            f = next(fresh)
            target.append(f)
            extra[f] = 1
        else:
            target.append(ch)
            if ch not in out and ch not in other:
                extra[ch] = sizes[ch]
    flat: List[int] = []
    for ch, size in extra.items():
        flat += [ord(ch), int(size)]
    return "%s,%s->%s" % (out, other, "".join(target)), flat
