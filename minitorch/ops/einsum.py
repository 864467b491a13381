"""``einsum`` as torch contracts it (an ellipsis stands for broadcast dims, placed where
torch places them): each operand's repeated labels taken on the diagonal, the
operand unsqueezed and permuted to one label order (the output's labels, then the summed ones
alphabetically), then the operands multiplied left to right, each pair as one ``bmm`` of
permuted and reshaped operands (torch's ``sumproduct_pair``). The same steps give torch's
bits and its output node.

>>> import minitorch
>>> a = minitorch.ones(2, 3, requires_grad=True)
>>> minitorch.einsum("ij,jk->ik", a, minitorch.ones(3, 4)).grad_fn.name()
'ViewBackward0'
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .linalg import Bmm

__all__ = ["einsum"]


def einsum(equation: str, *operands: Any) -> Tensor:
    """The sum over the labels missing from the output of the product of the operands.

    >>> minitorch.einsum("i,i->", minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
    tensor(11.)
    >>> minitorch.einsum("ij->ji", minitorch.ones(1, 2)).shape
    torch.Size([2, 1])
    >>> minitorch.einsum("...ij,...jk", minitorch.ones(5, 2, 3), minitorch.ones(3, 4)).shape
    torch.Size([5, 2, 4])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms, out, ellipsis = _parse(equation.replace(" ", ""), operands)
    summed = [c for c in ellipsis if c not in out]  # a summed ellipsis: before the labels
    summed += sorted(set("".join(terms)) - set(out) - set(ellipsis))
    order = list(out) + summed
    ops = [_aligned(op, term, order) for op, term in zip(operands, terms)]
    result = ops[0]
    if len(ops) == 1:
        dims = list(range(len(out), len(order)))
        return result.sum(dims) if dims else result
    counts = {d: sum(op.shape[d] != 1 for op in ops) for d in range(len(out), len(order))}
    for b in ops[1:]:
        sum_dims = []
        for d in counts:
            if result.shape[d] != 1 and b.shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if result.shape[d] != 1:
                    result, counts[d] = result.sum(d, True), 0
                elif b.shape[d] != 1:
                    b, counts[d] = b.sum(d, True), 0
        result = _sumproduct_pair(result, b, sum_dims) if sum_dims else result * b
    if summed:  # the summed labels are size 1 now
        result = result.view([result.shape[d] for d in range(len(out))])
    return result


def _parse(equation: str, operands: tuple) -> tuple[list[str], str, str]:
    """The operands' label strings, the output's, and the labels standing for the ellipsis
    (one per broadcast dim, aligned right), each ``...`` replaced by its labels."""
    lhs, arrow, out = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        few = "fewer" if len(operands) < len(terms) else "more"
        raise RuntimeError(f"einsum(): {few} operands were provided than specified in the "
                           "equation")
    for i, (term, op) in enumerate(zip(terms, operands)):
        labels = len(term.replace("...", ""))
        if ("..." in term and labels > op.dim()) or ("..." not in term and labels != op.dim()):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({labels}) {'is more than' if '...' in term else 'does not match'}"
                               f" the number of dimensions ({op.dim()}) for operand {i}"
                               f"{'' if '...' in term else ' and no ellipsis was given'}")
    width = max((op.dim() - len(t.replace("...", "")) for t, op in zip(terms, operands)
                 if "..." in t), default=0)
    ellipsis = "".join(chr(0x100 + i) for i in range(width))  # labels no equation uses
    if not arrow:
        letters = lhs.replace("...", "")
        out = ("..." if "..." in lhs else "") + "".join(
            sorted(c for c in set(letters) - {","} if letters.count(c) == 1))
    terms = [t.replace("...", ellipsis[width - (op.dim() - len(t) + 3):])
             for t, op in zip(terms, operands)]
    _check_ellipsis_sizes(terms, operands, ellipsis)
    return terms, out.replace("...", ellipsis), ellipsis


def _check_ellipsis_sizes(terms: list[str], operands: tuple, ellipsis: str) -> None:
    """torch's error where the dims an ellipsis covers do not broadcast across operands."""
    seen: dict[str, int] = {}
    for i, (term, op) in enumerate(zip(terms, operands)):
        covered = [(d, c) for d, c in enumerate(term) if c in ellipsis]
        for k, (d, c) in enumerate(covered):
            size = op.shape[d]
            if seen.get(c, 1) != 1 and size not in (1, seen[c]):
                raise RuntimeError(f"einsum(): dimension {k} covered by ellipsis in operand {i}"
                                   f"has size {size} which does not broadcast with previously "
                                   f"seen ellipsis with size {seen[c]} for the respective "
                                   "dimension")
            seen[c] = size if size != 1 else seen.get(c, 1)


def _aligned(op: Tensor, term: str, order: list[str]) -> Tensor:
    """``op`` with one dimension per label of ``order``: repeated labels on their diagonal
    (kept last), missing labels unsqueezed at the end, then permuted to ``order``."""
    labels = list(term)
    for c in dict.fromkeys(term):
        while labels.count(c) > 1:
            i = labels.index(c)
            j = labels.index(c, i + 1)
            op = op.diagonal(0, i, j)
            del labels[j], labels[i]
            labels.append(c)
    for c in order:
        if c not in labels:
            op = op.unsqueeze(op.dim())
            labels.append(c)
    return op.permute([labels.index(c) for c in order])


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """``(left * right).sum(sum_dims, keepdim=True)`` as one ``bmm``: the dimensions of both,
    of the left only, summed, and of the right only, each group flattened into one."""
    lro, lo, ro = [], [], []
    for d in range(left.dim()):
        if d in sum_dims:
            continue
        if left.shape[d] != 1 and right.shape[d] != 1:
            lro.append(d)
        elif left.shape[d] != 1:
            lo.append(d)
        else:
            ro.append(d)
    def size(dims: list[int], t: Tensor) -> list[int]:
        return [t.shape[d] for d in dims]

    out_size = size(lro, left) + size(lo, left) + [1] * len(sum_dims) + size(ro, right)
    lperm = lro + lo + sum_dims + ro
    left = left.permute(lperm).reshape(_prod(size(lro, left)), _prod(size(lo, left)),
                                       _prod(size(sum_dims, left)))
    right = right.permute(lro + sum_dims + ro + lo).reshape(
        _prod(size(lro, right)), _prod(size(sum_dims, right)), _prod(size(ro, right)))
    inverse = [lperm.index(d) for d in range(len(lperm))]
    return Bmm.apply(left, right).view(out_size).permute(inverse)


def _prod(sizes: list[int]) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n
