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

from .. import _args
from .._tensor import Tensor
from .linalg import Bmm

__all__ = ["einsum"]


def einsum(*args: Any) -> Tensor:
    """The sum over the labels missing from the output of the product of the operands: an
    equation and its operands, or each operand followed by its list of labels (ints in
    [0, 52), ``...`` for an ellipsis) and, last, the output's list.

    >>> minitorch.einsum("i,i->", minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
    tensor(11.)
    >>> minitorch.einsum("ij->ji", minitorch.ones(1, 2)).shape
    torch.Size([2, 1])
    >>> minitorch.einsum("...ij,...jk", minitorch.ones(5, 2, 3), minitorch.ones(3, 4)).shape
    torch.Size([5, 2, 4])
    >>> minitorch.einsum(minitorch.ones(2, 3), [0, 1], minitorch.ones(3), [1], [0])
    tensor([3., 3.])
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    equation, operands = _sublists_as_equation(args) if _args.is_tensor(args[0]) else (
        args[0], args[1:])
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    _check_arguments(equation, operands)
    terms, out, ellipsis = _parse(equation, operands)
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


def _sublists_as_equation(args: tuple) -> tuple[str, tuple]:
    """torch's reading of ``einsum(op, labels, op, labels, ..., [output labels])``: label n
    is the letter ``"A" + n`` below 26 and ``"a" + n - 26`` from 26."""
    def letter(n: Any) -> str:
        if n == Ellipsis:
            return "..."
        if n >= 0 and n < 26:
            return chr(ord("A") + n)
        if n >= 26 and n < 52:
            return chr(ord("a") + n - 26)
        raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                         "[0, 52)")

    equation = ",".join("".join(letter(n) for n in labels) for labels in args[1::2])
    if len(args) % 2:
        return equation + "->" + "".join(letter(n) for n in args[-1]), args[:-1:2]
    return equation, args[::2]


def _check_arguments(equation: Any, operands: tuple) -> None:
    """torch's parser: a string equation and a list of tensors."""
    _args.string("einsum", equation, "equation", 1)
    for i, op in enumerate(operands):
        if not _args.is_tensor(op):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got "
                            f"{_args.type_name(op)}")


def _parse(equation: str, operands: tuple) -> tuple[list[str], str, str]:
    """The labels of each operand and of the output, checked as torch's einsum parses them,
    and the labels standing for the ellipsis (one per broadcast dim, aligned right), each
    ``...`` replaced by its labels."""
    lhs, arrow, rhs = equation.partition("->")
    terms = _input_terms(lhs, len(operands))  # an ellipsis kept as one "."
    for i, (term, op) in enumerate(zip(terms, operands)):
        labels = len(term.replace(".", ""))
        if "." in term and labels > op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({labels}) "
                               f"is more than the number of dimensions ({op.dim()}) for "
                               f"operand {i}")
        if "." not in term and labels != op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({labels}) "
                               f"does not match the number of dimensions ({op.dim()}) for "
                               f"operand {i} and no ellipsis was given")
    width = max((op.dim() - len(t) + 1 for t, op in zip(terms, operands) if "." in t),
                default=0)
    ellipsis = "".join(chr(0x100 + i) for i in range(width))  # labels no equation uses
    if arrow:
        out = _output_term(rhs, len(lhs) + 2, "".join(terms))
    else:
        letters = "".join(terms)
        out = ("." if "." in letters else "") + "".join(
            sorted(c for c in set(letters) - {"."} if letters.count(c) == 1))
    terms = [t.replace(".", ellipsis[width - (op.dim() - len(t) + 1):])
             for t, op in zip(terms, operands)]
    _check_sizes(terms, operands, ellipsis)
    return terms, out.replace(".", ellipsis), ellipsis


def _output_term(rhs: str, start: int, labels: str) -> str:
    """The output's labels (an ellipsis as one "."), checked as torch parses them; ``start``
    is the output's index in the equation and ``labels`` the operands' labels."""
    out, i = "", 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if "." in out:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                   "already found")
            if rhs[i:i + 3] != "...":
                raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                   "ellipsis (...)")
            out += "."
            i += 2
        elif c != " ":
            _check_label(c, start + i)
            if c in out or c not in labels:
                raise RuntimeError(f"einsum(): output subscript {c}" + (
                    " appears more than once in the output" if c in out else
                    " does not appear in the equation for any input operand"))
            out += c
        i += 1
    return out


def _input_terms(lhs: str, count: int) -> list[str]:
    """The labels of each of the ``count`` operands (``...`` kept as ``.``), in torch's
    order of checks: dots, operand count, labels."""
    terms, i = [""], 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            where = f"einsum(): found '.' for operand {len(terms) - 1}"
            if "." in terms[-1]:
                raise RuntimeError(f"{where} for which an ellipsis was already found")
            if lhs[i:i + 3] != "...":
                raise RuntimeError(f"{where} that is not part of any ellipsis")
            terms[-1] += "."
            i += 2
        elif c == ",":
            terms.append("")
            if len(terms) > count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
        elif c != " ":
            _check_label(c, i)
            terms[-1] += c
        i += 1
    if len(terms) != count:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return terms


def _check_label(c: str, index: int) -> None:
    if not ("a" <= c <= "z" or "A" <= c <= "Z"):
        raise RuntimeError(f"einsum(): invalid subscript given at index {index} in the "
                           "equation string, subscripts must be in [a-zA-Z]")


def _check_sizes(terms: list[str], operands: tuple, ellipsis: str) -> None:
    """torch's checks, dim by dim of each operand: a repeated label's sizes agree within the
    operand, and a label's (or an ellipsis dim's) sizes broadcast across operands."""
    seen: dict[str, int] = {}
    for i, (term, op) in enumerate(zip(terms, operands)):
        mine: dict[str, int] = {}
        dim = 0  # the dim in torch's operand, its repeated labels' diagonals taken
        for c, size in zip(term, op.shape):
            if c in mine:
                if size != mine[c]:
                    raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} "
                                       f"but the sizes don't match, {size} != {mine[c]}")
                continue
            mine[c] = size
            before = seen.get(c, 1)
            if size != 1 and before not in (1, size):
                raise RuntimeError(
                    f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size "
                    f"{size} which does not broadcast with previously seen ellipsis with size "
                    f"{before} for the respective dimension" if c in ellipsis else
                    f"einsum(): subscript {c} has size {size} for operand {i} which does not "
                    f"broadcast with previously seen size {before}")
            if size != 1:
                seen[c] = size
            dim += 1


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
