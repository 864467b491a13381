"""``Parameter``: a tensor that a :class:`~minitorch.nn.Module` registers as learnable.

Assigning a Parameter to a module attribute adds it to ``module.parameters()``. It is a
leaf that requires grad and shares its values with the tensor it was made from.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Parameter(minitorch.ones(2))
Parameter containing:
tensor([1., 1.], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args, _creation
from .._tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor that modules collect as a learnable weight.

    >>> p = nn.Parameter(minitorch.zeros(3))
    >>> p.is_leaf, p.requires_grad
    (True, True)
    """

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = _creation.empty(0)
        _args.python_attribute(data, "detach")  # torch's Parameter detaches its data first
        self._init(data._data)
        self._version_counter = data._version_counter  # in-place updates show in both
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad_(requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        # A fresh leaf: the copy must not share the original's gradient accumulator.
        copy = Parameter(self.detach().clone(), self._requires_grad)
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return Parameter, (self.detach(), self._requires_grad)


def zero_grad_(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Reset the ``.grad`` of each tensor: drop it (None) or fill it with zeros.

    >>> from minitorch.nn.parameter import zero_grad_
    >>> p = nn.Parameter(minitorch.ones(1)); p.sum().backward()
    >>> zero_grad_([p]); p.grad is None
    True
    """
    for p in params:
        grad = p._grad
        if grad is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if grad.grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        grad.zero_()
